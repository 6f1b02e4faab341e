/**
 * A page script asked for only once the first view is drawn: the home page's carousel rotation
 * (src/scripts/carousel-rotation.ts), written into the page at build by
 * src/integrations/after-first-view.ts in place of the module script Astro emits for it.
 *
 * Why: a script the HTML names is fetched while the page loads and run before its load event,
 * on the connection the page's largest picture needs, and Lighthouse's mobile LCP on the home
 * page charged the rotation's two small files with two round trips (docs/performance.md);
 * docs/requirements.md §4 asks the pictures to rotate, not to rotate before they are seen. Rotation starts at the load event anyway, so nothing is lost by asking for
 * the script once the largest picture has been painted.
 *
 * The small loader below is inline in the page (allowed by its hash in the page's policy). It
 * asks for the module
 * - once the page has loaded and its largest paint is a picture inside `reach` (the hero's
 *   first picture: the browser's largest-contentful-paint entries say when it was drawn);
 * - else `delayMs` after the load event (a browser without those entries, a page whose largest
 *   paint is text, a page opened in a background tab);
 * - at once when the visitor reaches for a carousel (pointer, press, touch or focus in `reach`),
 *   as the carousel's island does (client:intent).
 * A press on a carousel's button before the module has run (a tap in the first moments) is not
 * lost: it is pressed again once the module has run, when the carousel's island had not started
 * (the island, once started, handles presses itself: `data-ready` on the carousel).
 *
 * It must stay self-contained: it runs as the text of `loadAfterFirstView`.
 */
import { createHash } from 'node:crypto';
import { transformSync } from 'esbuild';

/** The attribute on the loader's <script> naming the module it loads (read by scripts/js-weight.ts). */
export const AFTER_FIRST_VIEW_ATTRIBUTE = 'data-after-first-view';

/** How long after the load event the module is asked for when no largest paint inside `reach` is seen. */
export const FALLBACK_DELAY_MS = 1000;

/** Asks for the module `src` after the first view, or when the visitor reaches for `reach` (above). */
export function loadAfterFirstView(src: string, reach: string, delayMs: number): void {
  let requested = false;
  let ran = false;
  let missed: HTMLElement | undefined;
  const request = () => {
    if (requested) return;
    requested = true;
    const script = document.createElement('script');
    script.type = 'module';
    script.src = src;
    script.addEventListener('load', () => {
      ran = true;
      const control = missed;
      missed = undefined;
      control?.click();
    });
    document.head.append(script);
  };
  const within = (target: EventTarget | null, selector: string): Element | null =>
    target instanceof Element ? target.closest(selector) : null;
  const onIntent = (event: Event) => {
    if (within(event.target, reach)) request();
  };
  for (const type of ['pointerover', 'pointerdown', 'touchstart', 'focusin'])
    document.addEventListener(type, onIntent, { capture: true, passive: true });
  document.addEventListener(
    'click',
    (event) => {
      if (ran) return;
      const control = within(event.target, 'button');
      const root = control && within(control, reach);
      if (!(control instanceof HTMLElement) || !root || root.hasAttribute('data-ready')) return;
      missed = control;
      request();
    },
    { capture: true },
  );
  const afterLoad = () => {
    setTimeout(request, delayMs);
    if (
      typeof PerformanceObserver === 'undefined' ||
      !(PerformanceObserver.supportedEntryTypes ?? []).includes('largest-contentful-paint')
    )
      return;
    const observer = new PerformanceObserver((list) => {
      const drawn = list
        .getEntries()
        .some((entry) => within((entry as PerformanceEntry & { element?: Element | null }).element ?? null, reach));
      if (!drawn) return;
      observer.disconnect();
      request();
    });
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  };
  if (document.readyState === 'complete') afterLoad();
  else window.addEventListener('load', afterLoad, { once: true });
}

/**
 * The loader's text for the module at `src`: the function above, called at once, minified
 * (esbuild): it rides in the page's first flight, where every byte counts.
 */
export function afterFirstViewScript(src: string, reach: string, delayMs: number = FALLBACK_DELAY_MS): string {
  const args = [src, reach, delayMs].map((arg) => JSON.stringify(arg)).join(',');
  return transformSync(`(${loadAfterFirstView.toString()})(${args})`, {
    minify: true,
    loader: 'ts',
    target: 'es2022',
  }).code.trim();
}

const POLICY = /(<meta http-equiv="content-security-policy" content="[^"]*?script-src )([^;"]*)/;

/**
 * The page with each module script whose src is a key of `modules` replaced by the inline
 * loader of that module (the value: what the visitor reaches for), each loader's hash added to
 * the page's policy (script-src). Returns the page and how many scripts were replaced.
 */
export function deferModuleScripts(html: string, modules: ReadonlyMap<string, string>): { html: string; deferred: number } {
  let out = html;
  const hashes: string[] = [];
  for (const [src, reach] of modules) {
    const tag = `<script type="module" src="${src}"></script>`;
    if (!out.includes(tag)) continue;
    const text = afterFirstViewScript(src, reach);
    out = out.replace(tag, () => `<script ${AFTER_FIRST_VIEW_ATTRIBUTE}="${src}">${text}</script>`);
    hashes.push(`'sha256-${createHash('sha256').update(text).digest('base64')}'`);
  }
  if (hashes.length === 0) return { html, deferred: 0 };
  if (!POLICY.test(out)) throw new Error('a page with a deferred script has no script-src in its content security policy');
  out = out.replace(POLICY, (_, start: string, sources: string) => `${start}${sources.trimEnd()} ${hashes.join(' ')}`);
  return { html: out, deferred: hashes.length };
}
