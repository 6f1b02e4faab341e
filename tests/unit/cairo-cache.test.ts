/**
 * The head script that draws a page in Cairo only when the browser holds its files
 * (src/lib/cairo-cache.ts), run as the page runs it: its text, in a context with a stand-in for
 * the window's storage, fetch and load event. The browser side (no font asked for on a first
 * view, Cairo from the cache on the next) is in tests/e2e/arabic.spec.ts.
 */
import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import { CAIRO_ATTRIBUTE, CAIRO_CACHE_KEY, WARM_DELAY_MS, cairoScript } from '../../src/lib/cairo-cache';

const LATIN = '/_astro/cairo-latin.b2.woff2';
const ARABIC = '/_astro/cairo-arabic.b2.woff2';
const NAME = '/_astro/cairo-language-name.b2.woff2';
const BUILD = [ARABIC, LATIN, NAME];

interface Page {
  readonly attributes: Map<string, string>;
  readonly fetched: string[];
  readonly storage: Map<string, string> | undefined;
  /** The elements the script added to the head. */
  readonly preloads: readonly Record<string, string>[];
  /** The waits the script asked for (after the load event, before fetching). */
  readonly delays: readonly number[];
  /** Fires the page's load event and waits for what the script started. */
  load(): Promise<void>;
}

/** Runs the script for a page needing `files`, with `stored` in storage (undefined: storage blocked). */
function run(files: readonly string[], stored: string | undefined | null, options: { readonly failing?: string } = {}): Page {
  const attributes = new Map<string, string>();
  const fetched: string[] = [];
  const storage = stored === undefined ? undefined : new Map<string, string>(stored === null ? [] : [[CAIRO_CACHE_KEY, stored]]);
  const listeners: (() => void)[] = [];
  const pending: Promise<unknown>[] = [];
  const localStorage = {
    getItem: (key: string) => {
      if (!storage) throw new Error('SecurityError');
      return storage.get(key) ?? null;
    },
    setItem: (key: string, value: string) => {
      if (!storage) throw new Error('SecurityError');
      storage.set(key, value);
    },
  };
  const window = {
    get localStorage() {
      return localStorage;
    },
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'load') listeners.push(listener);
    },
  };
  const fetch = (url: string) => {
    fetched.push(url);
    const response = Promise.resolve({
      ok: url !== options.failing,
      status: url === options.failing ? 404 : 200,
      arrayBuffer: async () => new ArrayBuffer(8),
    });
    pending.push(response);
    return response;
  };
  const preloads: Record<string, string>[] = [];
  const document = {
    readyState: 'loading',
    documentElement: { setAttribute: (name: string, value: string) => attributes.set(name, value) },
    createElement: (tag: string) => ({ tag }),
    head: { append: (element: Record<string, string>) => preloads.push({ ...element }) },
  };
  const delays: number[] = [];
  // The delay after the load event is recorded and skipped; this window has no requestIdleCallback.
  const setTimeout = (callback: () => void, ms: number) => {
    delays.push(ms);
    callback();
  };
  vm.runInNewContext(cairoScript(files, BUILD), { window, document, fetch, setTimeout, Promise, Set, Error, String, JSON });
  return {
    attributes,
    fetched,
    storage,
    delays,
    preloads,
    async load() {
      document.readyState = 'complete';
      for (const listener of listeners) listener();
      await Promise.allSettled(pending);
      // The marks are written a few microtasks after the last response.
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
    },
  };
}

describe('Cairo only from the cache', () => {
  test('a first view names no Cairo and fetches nothing before its load event; after it, it fetches the page’s files and remembers them', async () => {
    const page = run([LATIN, NAME], null);
    expect(page.attributes.has(CAIRO_ATTRIBUTE)).toBe(false);
    expect(page.fetched).toEqual([]);
    await page.load();
    expect(page.fetched).toEqual([LATIN, NAME]);
    // Well after the load event: the page's largest text may still be painting just after it.
    expect(page.delays).toEqual([WARM_DELAY_MS]);
    expect(WARM_DELAY_MS).toBeGreaterThanOrEqual(1000);
    expect(page.storage?.get(CAIRO_CACHE_KEY)?.split(' ').sort()).toEqual([LATIN, NAME].sort());
    // The next English page: Cairo at once, nothing fetched by the script.
    expect(page.preloads).toEqual([]);
    const next = run([LATIN, NAME], page.storage?.get(CAIRO_CACHE_KEY) ?? '');
    expect(next.attributes.has(CAIRO_ATTRIBUTE)).toBe(true);
    // Preloaded: the first paint waits for a preloaded `optional` font only (from the cache, at once).
    expect(next.preloads).toEqual(
      [LATIN, NAME].map((href) => ({ tag: 'link', rel: 'preload', as: 'font', type: 'font/woff2', crossOrigin: '', href })),
    );
    await next.load();
    expect(next.fetched).toEqual([]);
  });

  test('a page needing a file not fetched yet stays in the fallback and fetches it; the other language’s files are kept', async () => {
    // An English visitor (Latin and the switch's face held) opens an Arabic page.
    const arabic = run([ARABIC, LATIN], `${LATIN} ${NAME}`);
    expect(arabic.attributes.has(CAIRO_ATTRIBUTE)).toBe(false);
    await arabic.load();
    expect(arabic.fetched).toEqual([ARABIC, LATIN]);
    const stored = arabic.storage?.get(CAIRO_CACHE_KEY) ?? '';
    expect(stored.split(' ').sort()).toEqual([...BUILD].sort());
    // Back to English and on in Arabic: both in Cairo.
    expect(run([LATIN, NAME], stored).attributes.has(CAIRO_ATTRIBUTE)).toBe(true);
    expect(run([ARABIC, LATIN], stored).attributes.has(CAIRO_ATTRIBUTE)).toBe(true);
  });

  test('files of an older build are forgotten, and a file of the new build is fetched again', async () => {
    const page = run([LATIN, NAME], '/_astro/cairo-latin.b1.woff2 /_astro/cairo-language-name.b1.woff2');
    expect(page.attributes.has(CAIRO_ATTRIBUTE)).toBe(false);
    await page.load();
    expect(page.storage?.get(CAIRO_CACHE_KEY)?.split(' ').sort()).toEqual([LATIN, NAME].sort());
  });

  test('a file that fails to arrive is not remembered: the next page stays in the fallback and tries again', async () => {
    const page = run([LATIN, NAME], null, { failing: NAME });
    await page.load();
    expect(page.storage?.has(CAIRO_CACHE_KEY)).toBe(false);
    expect(run([LATIN, NAME], page.storage?.get(CAIRO_CACHE_KEY) ?? null).attributes.has(CAIRO_ATTRIBUTE)).toBe(false);
  });

  test('with storage blocked the page stays in the fallback and fetches nothing it could not remember', async () => {
    const page = run([LATIN, NAME], undefined);
    await page.load();
    expect(page.attributes.has(CAIRO_ATTRIBUTE)).toBe(false);
    expect(page.fetched).toEqual([]);
  });
});
