/**
 * The URL rules the site's own server adds in front of Astro's handler, as docs/deploy.md ("Route
 * rules for a static host") asks of a static host. Pure: `files` is the set of paths under
 * dist/client ("/AboutUs.html"); the files themselves are sent by sirv (./serve.ts).
 */
/** Paths served with another page's content, without a redirect. */
const ALIASES: ReadonlyMap<string, string> = new Map([
  ['/Aboutus', '/AboutUs'],
  ['/ar/Aboutus', '/ar/AboutUs'],
]);

type RouteDecision =
  | { kind: 'pass' }
  | { kind: 'rewrite'; pathname: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'file'; file: string; status: number };

/** Files in the build for static hosts only, which this server does not serve. */
const HOST_RULE_FILES: ReadonlySet<string> = new Set(['/_headers', '/_redirects']);

/** What to do with a request for `pathname` (decoded). */
export function resolveRoute(pathname: string, files: ReadonlySet<string>): RouteDecision {
  if (HOST_RULE_FILES.has(pathname) && files.has('/404.html')) return { kind: 'file', file: '/404.html', status: 404 };
  const alias = ALIASES.get(pathname);
  if (alias) return { kind: 'rewrite', pathname: alias };
  if (files.has(pathname) || files.has(`${pathname}.html`) || pathname === '/') return { kind: 'pass' };
  if (pathname.startsWith('/api/') || pathname.endsWith('/')) return { kind: 'pass' };

  const caseless = caselessIndex(files).get(pathname.toLowerCase());
  if (caseless && caseless !== pathname) return { kind: 'redirect', location: caseless };

  const notFound = nearestNotFoundPage(pathname, files);
  if (notFound) return { kind: 'file', file: notFound, status: 404 };
  return { kind: 'pass' };
}

/**
 * The 404.html of the deepest folder above `pathname`, other than the site's root (whose 404
 * page Astro's handler sends itself): /ar/services/x → /ar/services/404.html, /ar/x/y → /ar/404.html.
 */
function nearestNotFoundPage(pathname: string, files: ReadonlySet<string>): string | undefined {
  const folders = pathname.split('/').slice(1, -1);
  for (let depth = folders.length; depth > 0; depth -= 1) {
    const file = `/${folders.slice(0, depth).join('/')}/404.html`;
    if (files.has(file)) return file;
  }
  return undefined;
}

/** The encoding to answer with, from an Accept-Encoding header: Brotli, else gzip, else none (q=0 refuses a coding). */
export function pickEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) : 1);
  }
  const wildcard = accepted.get('*');
  return (['br', 'gzip'] as const).find((coding) => (accepted.get(coding) ?? wildcard ?? 0) > 0);
}

const indexCache = new WeakMap<ReadonlySet<string>, Map<string, string>>();

/** Lower-cased page path → its real path, for every HTML page but the error pages. */
function caselessIndex(files: ReadonlySet<string>): Map<string, string> {
  let index = indexCache.get(files);
  if (!index) {
    index = new Map();
    for (const file of files) {
      if (!file.endsWith('.html') || /(^|\/)404\.html$/.test(file)) continue;
      const page = file === '/index.html' ? '/' : file.slice(0, -'.html'.length);
      index.set(page.toLowerCase(), page);
    }
    for (const [alias, target] of ALIASES) index.set(alias.toLowerCase(), target);
    indexCache.set(files, index);
  }
  return index;
}
