/// <reference types="vitest/config" />
import os from 'node:os';
import { getViteConfig } from 'astro/config';

/** The one unit test file that mocks a module (vi.mock): it runs in a fresh module registry. */
const MOCKING = ['tests/unit/form-hydration.test.ts'];

export default getViteConfig({
  test: {
    environment: 'node',
    // One PostgreSQL server for the run, for the PostgreSQL store's tests (skipped, saying why, without one).
    globalSetup: ['tests/postgres-setup.ts'],
    // node:sqlite (the submissions store) is still marked experimental on Node 22.
    execArgv: ['--disable-warning=ExperimentalWarning'],
    // Most files wait on a server they spawned: two run at once even on a two-core machine.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        // The unit tests share each worker's modules (no fresh registry per file): a third of
        // their CPU time was importing the same modules again. None keeps state between files:
        // timers and spies are restored by the file that set them, and MOCKING runs apart.
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: MOCKING, isolate: false },
      },
      {
        extends: true,
        // Named to sort after 'unit': Vitest starts the projects' files in name order, and the
        // longest file (editor-edits, a build of its own) is a unit test that should start first.
        test: { name: 'worker-per-file', include: ['tests/integration/**/*.test.ts', ...MOCKING] },
      },
    ],
  },
});
