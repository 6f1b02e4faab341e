/**
 * The layout's stylesheet, inline in the pages whose HTML cannot arrive in the connection's first flight anyway (run at
 * build by src/integrations/inline-stylesheet.ts). A page that fits in the first flight is drawn after two round trips
 * (the HTML, then its linked stylesheet); a larger one needs a second flight for its own HTML, where the stylesheet
 * inline rides along and saves its request's round trip. A page that fits keeps the link: inline, the stylesheet would
 * push it past the first flight (docs/performance.md).
 */
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { BROTLI } from './compressible.ts';

/** TCP's initial congestion window (RFC 6928: 10 segments) of 1460-byte segments. */
export const INITIAL_WINDOW_BYTES = 10 * 1460;

/** The response headers before a page's body as the site's server sends them, in bytes (docs/performance.md). */
export const HEADER_BYTES = 750;

/** The compressed size of an HTML page as served (Brotli, as the site's server and browsers use). */
export function servedBytes(html: string): number {
  return zlib.brotliCompressSync(Buffer.from(html), BROTLI).length;
}

/** Whether a page's HTML, compressed, needs more than the connection's first flight. */
function beyondFirstFlight(html: string): boolean {
  return servedBytes(html) + HEADER_BYTES > INITIAL_WINDOW_BYTES;
}

const LINK = /<link rel="stylesheet" href="(\/_astro\/[^"]+\.css)">/g;
const POLICY = /(<meta http-equiv="content-security-policy" content="[^"]*?style-src )([^;"]*)/;

/**
 * The page beyond the first flight with each linked stylesheet from /_astro/ inline (`read` gives its text) and its hash
 * in the policy's style-src; otherwise the page as it is. Returns the page and how many went inline.
 */
export function inlineStylesheets(html: string, read: (href: string) => string): { html: string; inlined: number } {
  const links = [...html.matchAll(LINK)];
  if (links.length === 0 || !beyondFirstFlight(html)) return { html, inlined: 0 };
  if (!POLICY.test(html)) throw new Error('a page with a linked stylesheet has no style-src in its content security policy');
  let out = html;
  const hashes: string[] = [];
  for (const [tag, href] of links) {
    // A stylesheet holding "</style" would end the element early: such a file stays linked.
    const css = read(href ?? '');
    if (/<\/style/i.test(css)) continue;
    out = out.replace(tag, () => `<style>${css}</style>`);
    hashes.push(`'sha256-${createHash('sha256').update(css).digest('base64')}'`);
  }
  if (hashes.length === 0) return { html, inlined: 0 };
  out = out.replace(POLICY, (_, start: string, sources: string) => `${start}${sources.trimEnd()} ${hashes.join(' ')}`);
  return { html: out, inlined: hashes.length };
}
