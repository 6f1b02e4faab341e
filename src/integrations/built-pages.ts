/** The HTML pages of a build's output folder (absolute paths), for the integrations that rewrite them once written. */
import fs from 'node:fs';
import path from 'node:path';

export function htmlFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .flatMap((entry) => (entry.isFile() && entry.name.endsWith('.html') ? [path.join(entry.parentPath, entry.name)] : []));
}
