/**
 * `npm start`: builds the site when the build is missing or older than its sources, then
 * serves it (src/server/http/serve.ts) on http://127.0.0.1:4321; HOST and PORT change it, from the
 * environment or from the settings file `npm start -- --settings FILE` names.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', 'server', 'entry.mjs');
const sources = ['src', 'public', 'astro.config.mjs', 'package.json', 'package-lock.json', 'tsconfig.json'];

function newestMtime(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

const built = newestMtime(stamp);
const changed = Math.max(...sources.map((s) => newestMtime(path.join(root, s))));
if (!built || changed > built) {
  console.log(built ? 'Sources changed since the last build: building…' : 'No build yet: building…');
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'astro'), ['build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('The build failed; the messages above name the file and the problem.');
    process.exit(result.status ?? 1);
  }
}

const { startServer } = await import('../src/server/http/serve.ts');
await startServer();
