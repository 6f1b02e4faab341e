/// <reference types="vitest/config" />
import os from 'node:os';
import { getViteConfig } from 'astro/config';

export default getViteConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    // One PostgreSQL server for the run, for the PostgreSQL store's tests (skipped, saying why, without one).
    globalSetup: ['tests/postgres-setup.ts'],
    // node:sqlite (the submissions store) is still marked experimental on Node 22.
    execArgv: ['--disable-warning=ExperimentalWarning'],
    // Most files wait on a server they spawned: two run at once even on a two-core machine.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
