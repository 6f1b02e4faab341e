/**
 * Compressed responses for the site's own server (src/server/http/serve.ts): text files of the build
 * (HTML, CSS, JavaScript, SVG, XML, JSON) go out Brotli- or gzip-compressed, made once per file
 * and kept in memory. Static hosts and CDNs do the same on their own; without it the home page
 * weighs three times as much over the network.
 *
 * The build writes each such file's Brotli and gzip twins beside it (`page.html.br`,
 * `page.html.gz`: `precompressBuild` in src/lib/compressible.ts, run by
 * src/integrations/precompress.ts), so the server
 * answers from them without compressing on the first request, and a static host that serves
 * precompressed files (nginx's `brotli_static`/`gzip_static`) can use them too. A file without
 * its twin is compressed once, on its first request.
 *
 * Pure except `compressedFile`, which reads and caches dist/client files, and `precompressBuild`.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { BROTLI, COMPRESSIBLE_TYPES, EXTENSION, GZIP, MIN_BYTES, type Encoding } from '../../lib/compressible.ts';

export { COMPRESSIBLE_TYPES, MIN_BYTES, precompressBuild, type Encoding } from '../../lib/compressible.ts';

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
