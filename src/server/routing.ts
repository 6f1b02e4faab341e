/**
 * The URL rules the site's own server adds in front of Astro's standalone handler. They are
 * the same rules the README asks of a static host:
 *
 * - /Aboutus (spec §2: the mobile menu links it) answers with the About page, status 200.
 *   The build writes only AboutUs.html, so the repository and the build also work on a
 *   case-insensitive file system.
 * - an unknown /services/{slug} answers with the Coming Soon page (services/404.html), status 404.
 * - another spelling of a page's path that differs only in letter case (/contactus) is sent to
 *   the page's real path with a 301, so a typed address still finds the page.
 *
 * Pure: `files` is the set of paths under dist/client ("/AboutUs.html", "/_astro/x.css").
 */

/** Paths served with another page's content, without a redirect. */
export const ALIASES: ReadonlyMap<string, string> = new Map([['/Aboutus', '/AboutUs']]);

export const COMING_SOON_FILE = '/services/404.html';

export type RouteDecision =
  | { kind: 'pass' }
  | { kind: 'rewrite'; pathname: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'file'; file: string; status: number };

/** What to do with a request for `pathname` (decoded). */
export function resolveRoute(pathname: string, files: ReadonlySet<string>): RouteDecision {
  const alias = ALIASES.get(pathname);
  if (alias) return { kind: 'rewrite', pathname: alias };
  if (files.has(pathname) || files.has(`${pathname}.html`) || pathname === '/') return { kind: 'pass' };
  if (pathname.startsWith('/api/') || pathname.endsWith('/')) return { kind: 'pass' };

  const caseless = caselessIndex(files).get(pathname.toLowerCase());
  if (caseless && caseless !== pathname) return { kind: 'redirect', location: caseless };

  if (pathname.startsWith('/services/') && files.has(COMING_SOON_FILE)) {
    return { kind: 'file', file: COMING_SOON_FILE, status: 404 };
  }
  return { kind: 'pass' };
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
