/**
 * A copy of the project in a temporary folder, for a build or `astro sync` of its own: the named
 * files and folders copied, node_modules linked. Astro keeps its content data store in the
 * project's own `.astro/cache` (astro.config.mjs `cacheDir`), so copies built at the same time
 * never read each other's collections; the optimized images are copied over, so a copy's build
 * does not encode them again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './content';

const PROJECT = ['src', 'public', 'scripts', 'docs', 'astro.config.mjs', 'package.json', 'tsconfig.json'];

export function projectCopy(prefix: string, extra: readonly string[] = []): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const name of [...PROJECT, ...extra]) fs.cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const images = path.join(ROOT, '.astro', 'cache', 'assets');
  if (fs.existsSync(images)) fs.cpSync(images, path.join(dir, '.astro', 'cache', 'assets'), { recursive: true });
  return dir;
}
