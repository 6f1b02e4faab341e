/**
 * The home page's carousel rotation is asked for only once the first view is drawn
 * (src/lib/after-first-view.ts): the loader's text run as the page runs it, in a jsdom window
 * with a stand-in for the browser's largest-contentful-paint entries; and the build's rewrite of
 * the page (the module script replaced, the loader's hash in the page's policy). The browser
 * side (no script before the largest paint, rotation after it, a tap before it not lost) is in
 * tests/e2e/home.spec.ts.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { JSDOM } from '../helpers/dom';
import {
  AFTER_FIRST_VIEW_ATTRIBUTE,
  FALLBACK_DELAY_MS,
  afterFirstViewScript,
  deferModuleScripts,
} from '../../src/lib/after-first-view';

const SRC = '/_astro/HomePage.astro_astro_type_script_index_0_lang.x1.js';
const PAGE = `<!doctype html><html><head></head><body>
  <h1>Quality</h1>
  <section class="carousel"><img id="first" alt=""><button id="pause" type="button">Pause</button></section>
  <section class="carousel" data-ready="true"><button id="started" type="button">Next</button></section>
  <button id="elsewhere" type="button">Menu</button>
</body></html>`;

interface Page {
  readonly dom: InstanceType<typeof JSDOM>;
  readonly document: Document;
  /** The module scripts the loader added to the head. */
  requested(): string[];
  /** The browser reports a largest paint of `element`. */
  paint(element: Element): void;
  /** Fires the page's load event. */
  load(): void;
  /** The requested module has arrived and run (its script element's load event). */
  ran(): void;
  /** Clicks recorded on each button, in order. */
  readonly clicks: string[];
}

function open(delayMs = FALLBACK_DELAY_MS, { withPaintEntries = true } = {}): Page {
  const dom = new JSDOM(PAGE, { runScripts: 'outside-only', pretendToBeVisual: true });
  const { window } = dom;
  const observers: ((list: { getEntries: () => { element: Element }[] }) => void)[] = [];
  /** The largest paints so far: an observer asking for `buffered` entries gets them at once. */
  const painted: Element[] = [];
  if (withPaintEntries) {
    class PaintObserver {
      static supportedEntryTypes = ['largest-contentful-paint'];
      constructor(private readonly callback: (list: { getEntries: () => { element: Element }[] }) => void) {}
      observe(options: { buffered?: boolean }) {
        observers.push(this.callback);
        if (options.buffered && painted.length > 0) this.callback({ getEntries: () => painted.map((element) => ({ element })) });
      }
      disconnect() {
        observers.splice(observers.indexOf(this.callback), 1);
      }
    }
    Object.defineProperty(window, 'PerformanceObserver', { value: PaintObserver, configurable: true });
  } else {
    Object.defineProperty(window, 'PerformanceObserver', { value: undefined, configurable: true });
  }
  // The page is still loading: jsdom has already loaded it.
  Object.defineProperty(window.document, 'readyState', { value: 'interactive', configurable: true });
  const clicks: string[] = [];
  window.document.addEventListener('click', (event) => clicks.push((event.target as Element).id));
  window.eval(afterFirstViewScript(SRC, '.carousel', delayMs));
  const scripts = () => [...window.document.head.querySelectorAll<HTMLScriptElement>('script')];
  return {
    dom,
    document: window.document,
    clicks,
    requested: () => scripts().map((script) => `${script.type} ${script.getAttribute('src')}`),
    paint: (element) => {
      painted.push(element);
      for (const observer of [...observers]) observer({ getEntries: () => [{ element }] });
    },
    load: () => {
      Object.defineProperty(window.document, 'readyState', { value: 'complete', configurable: true });
      window.dispatchEvent(new window.Event('load'));
    },
    ran: () => {
      for (const script of scripts()) script.dispatchEvent(new window.Event('load'));
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the loader', () => {
  test('asks for nothing while the page loads, then for the module once its largest paint is a picture in a carousel, once', () => {
    const page = open();
    page.paint(page.document.getElementById('first')!);
    expect(page.requested()).toEqual([]);
    page.load();
    // The paint reported before the load event counts (the browser buffers it).
    expect(page.requested()).toEqual([`module ${SRC}`]);
    page.paint(page.document.getElementById('first')!);
    expect(page.requested()).toHaveLength(1);
    page.dom.window.close();
  });

  test('a largest paint outside the carousels does not start it: the fallback, some time after the load event, does', async () => {
    const page = open(40);
    page.load();
    page.paint(page.document.querySelector('h1')!);
    expect(page.requested()).toEqual([]);
    await sleep(80);
    expect(page.requested()).toEqual([`module ${SRC}`]);
    page.dom.window.close();
  });

  test('without largest-paint entries (another browser), the fallback starts it', async () => {
    const page = open(40, { withPaintEntries: false });
    page.load();
    expect(page.requested()).toEqual([]);
    await sleep(80);
    expect(page.requested()).toEqual([`module ${SRC}`]);
    page.dom.window.close();
  });

  test('reaching for a carousel asks for it at once, even before the load event; reaching for something else does not', () => {
    const page = open();
    const { window } = page.dom;
    page.document.getElementById('elsewhere')!.dispatchEvent(new window.Event('pointerover', { bubbles: true }));
    page.document.querySelector('h1')!.dispatchEvent(new window.FocusEvent('focusin', { bubbles: true }));
    expect(page.requested()).toEqual([]);
    page.document.getElementById('first')!.dispatchEvent(new window.Event('pointerover', { bubbles: true }));
    expect(page.requested()).toEqual([`module ${SRC}`]);
    page.dom.window.close();
  });

  test("a press on a carousel's button before the module has run is pressed again, once, when it has run", () => {
    const page = open();
    const pause = page.document.getElementById('pause')!;
    pause.click();
    expect(page.requested()).toEqual([`module ${SRC}`]);
    expect(page.clicks).toEqual(['pause']);
    page.ran();
    expect(page.clicks).toEqual(['pause', 'pause']);
    // Once the module runs, it handles presses itself: nothing is pressed twice.
    pause.click();
    page.ran();
    expect(page.clicks).toEqual(['pause', 'pause', 'pause']);
    page.dom.window.close();
  });

  test('a press on a started carousel (its island handles it) or outside the carousels is not pressed again', () => {
    const page = open();
    page.document.getElementById('started')!.click();
    page.document.getElementById('elsewhere')!.click();
    page.load();
    page.paint(page.document.getElementById('first')!);
    page.ran();
    expect(page.clicks).toEqual(['started', 'elsewhere']);
    page.dom.window.close();
  });
});

describe('the build step', () => {
  const policy = `<meta http-equiv="content-security-policy" content="default-src 'self'; script-src 'self' 'sha256-a'; style-src 'self' 'sha256-b'">`;
  const home = `<html><head>${policy}</head><body><main></main><script type="module" src="${SRC}"></script></body></html>`;

  test("replaces the page's module script by the loader, marked with the module it loads, and allows the loader by its hash", () => {
    const { html, deferred } = deferModuleScripts(home, new Map([[SRC, '.carousel']]));
    expect(deferred).toBe(1);
    expect(html).not.toContain(`<script type="module" src="${SRC}">`);
    const loader = new JSDOM(html).window.document.querySelector(`script[${AFTER_FIRST_VIEW_ATTRIBUTE}]`)!;
    expect(loader.getAttribute(AFTER_FIRST_VIEW_ATTRIBUTE)).toBe(SRC);
    expect(loader.textContent).toBe(afterFirstViewScript(SRC, '.carousel'));
    const hash = createHash('sha256').update(loader.textContent!).digest('base64');
    expect(html).toContain(`script-src 'self' 'sha256-a' 'sha256-${hash}'; style-src 'self' 'sha256-b'`);
  });

  test('leaves a page without that script as it is', () => {
    const page = home.replace(SRC, '/_astro/other.js');
    expect(deferModuleScripts(page, new Map([[SRC, '.carousel']]))).toEqual({ html: page, deferred: 0 });
  });

  test('refuses a page whose policy has no script-src rather than write a loader the browser would block', () => {
    expect(() => deferModuleScripts(home.replace(policy, ''), new Map([[SRC, '.carousel']]))).toThrow(/script-src/);
  });
});
