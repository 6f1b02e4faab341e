/**
 * For the load benchmarks (bench-receiver.mjs, bench-static.mjs): builds the site when there is
 * no build yet, so a benchmark run on a fresh checkout measures the built server.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function ensureBuilt(root) {
  if (fs.existsSync(path.join(root, 'dist', 'server', 'entry.mjs'))) return;
  console.log('No build yet: building…');
  const built = spawnSync(path.join(root, 'node_modules', '.bin', 'astro'), ['build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
