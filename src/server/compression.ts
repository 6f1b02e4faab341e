/**
 * Compressed responses for the site's own server (src/server/serve.ts): text files of the build
 * (HTML, CSS, JavaScript, SVG, XML, JSON) go out Brotli- or gzip-compressed, made once per file
 * and kept in memory. Static hosts and CDNs do the same on their own; without it the home page
 * weighs three times as much over the network.
 *
 * The build writes each such file's Brotli and gzip twins beside it (`page.html.br`,
 * `page.html.gz`: `precompressBuild`, run by src/integrations/precompress.ts), so the server
 * answers from them without compressing on the first request, and a static host that serves
 * precompressed files (nginx's `brotli_static`/`gzip_static`) can use them too. A file without
 * its twin is compressed once, on its first request.
 *
 * Pure except `compressedFile`, which reads and caches dist/client files, and `precompressBuild`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/** Content types of the files worth compressing (images other than SVG and fonts already are). */
export const COMPRESSIBLE_TYPES: ReadonlyMap<string, string> = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.mjs', 'text/javascript; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.xml', 'application/xml'],
  ['.json', 'application/json'],
  ['.txt', 'text/plain; charset=utf-8'],
]);

/** Files smaller than this gain nothing from compression. */
export const MIN_BYTES = 1024;

/**
 * The encoding to answer with, from an Accept-Encoding header: Brotli, else gzip, else none.
 * A coding listed with q=0 is refused.
 */
export function pickEncoding(header: string | undefined): Encoding | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const wildcard = accepted.get('*');
  for (const coding of ['br', 'gzip'] as const) {
    const q = accepted.get(coding) ?? wildcard;
    if (q !== undefined && q > 0) return coding;
  }
  return undefined;
}

/**
 * The build file a GET request for `pathname` is answered with, when it is one ("/" is
 * index.html, "/AboutUs" is AboutUs.html); otherwise undefined.
 */
export function staticFileFor(pathname: string, files: ReadonlySet<string>): string | undefined {
  if (pathname === '/') return files.has('/index.html') ? '/index.html' : undefined;
  if (pathname.endsWith('/')) return undefined;
  if (files.has(pathname)) return pathname;
  if (files.has(`${pathname}.html`)) return `${pathname}.html`;
  return undefined;
}

export type Encoding = 'br' | 'gzip';

const cache = new Map<string, Buffer | null>();

/**
 * The compressed body and content type of a build file, or undefined when it is not worth
 * compressing.
 */
export function compressedFile(clientDir: string, file: string, encoding: Encoding): { type: string; body: Buffer } | undefined {
  const type = COMPRESSIBLE_TYPES.get(path.extname(file));
  if (!type) return undefined;
  const key = `${encoding}:${file}`;
  let body = cache.get(key);
  if (body === undefined) {
    const twin = path.join(clientDir, `${file}${EXTENSION[encoding]}`);
    if (fs.existsSync(twin)) body = fs.readFileSync(twin);
    else {
      const raw = fs.readFileSync(path.join(clientDir, file));
      body = raw.length < MIN_BYTES ? null : encoding === 'br' ? zlib.brotliCompressSync(raw, BROTLI) : zlib.gzipSync(raw, GZIP);
    }
    cache.set(key, body);
  }
  return body ? { type, body } : undefined;
}

/** The file name ending of each encoding's twin. */
export const EXTENSION: Readonly<Record<Encoding, string>> = { br: '.br', gzip: '.gz' };
const BROTLI: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } };
const GZIP: zlib.ZlibOptions = { level: 9 };
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes the Brotli and gzip twins of every file of `clientDir` worth compressing (a type of
 * COMPRESSIBLE_TYPES, MIN_BYTES or more), a few at a time on libuv's threads. Returns how many
 * files got twins.
 */
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
      await Promise.all([fs.promises.writeFile(`${file}${EXTENSION.br}`, br), fs.promises.writeFile(`${file}${EXTENSION.gzip}`, gz)]);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return files.length;
}
