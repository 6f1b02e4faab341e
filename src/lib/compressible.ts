/**
 * Which built files are worth compressing, and their Brotli and gzip twins written at build (precompress.ts), which the
 * site's own server and static hosts answer from. Runs under Node directly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

type Encoding = 'br' | 'gzip';

/** File types worth compressing (images other than SVG, and fonts, already are). */
export const COMPRESSIBLE_TYPES: ReadonlySet<string> = new Set(['.html', '.css', '.js', '.mjs', '.svg', '.xml', '.json', '.txt']);

/** Files smaller than this gain nothing from compression. */
export const MIN_BYTES = 1024;

/** The file name ending of each encoding's twin. */
export const EXTENSION: Readonly<Record<Encoding, string>> = { br: '.br', gzip: '.gz' };
export const BROTLI: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } };
const GZIP: zlib.ZlibOptions = { level: 9 };
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Writes the Brotli and gzip twins of every file of `clientDir` worth compressing, a few at a time; returns how many. */
export async function precompressBuild(clientDir: string): Promise<number> {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (COMPRESSIBLE_TYPES.has(path.extname(entry.name)) && fs.statSync(full).size >= MIN_BYTES) files.push(full);
    }
  };
  walk(clientDir);
  let next = 0;
  const worker = async () => {
    while (next < files.length) {
      const file = files[next++]!;
      const raw = await fs.promises.readFile(file);
      const [br, gz] = await Promise.all([brotli(raw, BROTLI), gzip(raw, GZIP)]);
      await Promise.all([
        fs.promises.writeFile(`${file}${EXTENSION.br}`, br),
        fs.promises.writeFile(`${file}${EXTENSION.gzip}`, gz),
      ]);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return files.length;
}
