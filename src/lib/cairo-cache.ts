/**
 * Cairo only from the cache: a page is drawn in Cairo when the browser already holds the font files it needs, else in
 * the metric-matched fallback (src/styles/fonts.css). A font the first paint could wait for shares the slow connection
 * with the HTML, stylesheet and hero picture, and mobile LCP pays for it (docs/performance.md). So the first page asks
 * for no font; well after its load event this script fetches the files into the HTTP cache and remembers it did. Every
 * later page finds the mark at once and sets `data-cairo` on <html> before the stylesheet arrives, so the files come from
 * the cache within `optional`'s short wait and a page never changes font once drawn. Inline in each head (allowed by its
 * hash in the CSP, BaseLayout.astro), it must stay self-contained: it runs as the text of `rememberCairo`.
 */

/** Where the browser keeps the list of font files it has fetched (space-separated paths). */
export const CAIRO_CACHE_KEY = 'globaq-cairo';

/** How long after the load event the files are fetched (then when the browser is idle). */
export const WARM_DELAY_MS = 1500;

/** The attribute on <html> that turns Cairo on in the stylesheet. */
export const CAIRO_ATTRIBUTE = 'data-cairo';

/**
 * Sets the attribute when every file of this page was fetched on an earlier page; else fetches them `delayMs` after the
 * load event, when idle, and remembers them among `build`'s (a file of an older build is forgotten). Without storage it
 * does neither: the site stays in the fallback font.
 */
function rememberCairo(
  files: readonly string[],
  build: readonly string[],
  key: string,
  attribute: string,
  delayMs: number,
): void {
  let known: string[];
  try {
    known = (window.localStorage.getItem(key) ?? '').split(' ').filter(Boolean);
  } catch {
    return;
  }
  if (files.every((file) => known.includes(file))) {
    document.documentElement.setAttribute(attribute, '');
    // Preloaded, as the first paint waits (up to 100 ms) for a preloaded `optional` font only: one
    // merely named by the stylesheet is drawn only if it is already in memory, which a file in
    // the disk cache is not.
    for (const file of files) {
      const link = document.createElement('link');
      link.rel = 'preload';
      link.as = 'font';
      link.type = 'font/woff2';
      link.crossOrigin = '';
      link.href = file;
      document.head.append(link);
    }
    return;
  }
  const warm = () => {
    Promise.all(
      files.map((file) =>
        fetch(file).then((response) => {
          if (!response.ok) throw new Error(String(response.status));
          return response.arrayBuffer();
        }),
      ),
    ).then(
      () => {
        try {
          window.localStorage.setItem(key, [...new Set([...known.filter((file) => build.includes(file)), ...files])].join(' '));
        } catch {
          // Storage full or blocked: the next page tries again.
        }
      },
      () => undefined,
    );
  };
  // Well after the load event, when the browser is idle: a page's largest text can still be
  // painting just after it, and nothing may share the connection with it.
  const later = () =>
    setTimeout(() => ('requestIdleCallback' in window ? window.requestIdleCallback(warm, { timeout: 2000 }) : warm()), delayMs);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

/** The head script's text for a page needing `files`: the function above, called at once. */
export function cairoScript(files: readonly string[], build: readonly string[]): string {
  const args = [files, build, CAIRO_CACHE_KEY, CAIRO_ATTRIBUTE, WARM_DELAY_MS].map((arg) => JSON.stringify(arg)).join(',');
  return `(${rememberCairo.toString()})(${args})`;
}
