/**
 * `client:intent`: hydrate an island when the visitor first shows an intent to use it: the
 * pointer moves over it, it (or anything in it) takes focus, or it is pressed or touched.
 * Until then the page downloads none of the island's JavaScript (its component, React
 * and the renderer). An island that is not displayed at the current width
 * (`display: none`) gets no such events, so a desktop visitor never loads the mobile menu and a
 * phone never loads the desktop dropdowns.
 *
 * The island keeps its server-rendered markup until then, and that markup has to work on its
 * own (links, native `<details>`): a slow or failed download costs nothing but the polish.
 * A press that wakes the island (a tap on a `<summary>`) is left to finish first, so its
 * effect is in the markup the island starts from and the tap is not lost under the finger.
 * The island's modules download at once but run in a pause of the visitor's typing: a form
 * started by a tap in its first field never stalls the keys typed into it.
 *
 * `client:intent={{ resume: key }}` starts the island once the browser is idle instead, when the
 * browser's storage holds `key`: a visitor coming back to a saved draft sees it restored
 * without first reaching for the form. `client:intent={{ afterLoad: true }}` starts it on intent
 * or, failing that, once the page has loaded and the browser is idle (the hero carousel, which
 * rotates by itself but must not slow the first view).
 */
import type { ClientDirective } from 'astro';
import { afterDefaultAction, PRESS_TIMEOUT_MS } from '../lib/after-default-action';
import { afterTypingPause, watchTyping } from '../lib/typing-pause';

/**
 * `pointerover` covers mouse, pen and touch; `touchstart` browsers without pointer events;
 * `change` a file chosen or dropped on a file input, which moves neither pointer nor focus into
 * the island (a drop from another window, a picker opened from a label): the island starts and
 * takes the files as it mounts (docs/requirements.md §9.1, §9.2).
 */
const INTENT_EVENTS = ['pointerover', 'pointerdown', 'touchstart', 'focusin', 'change'] as const;
/** The events of a press, watched while one may be under way. */
const PRESS_EVENTS = ['pointerdown', 'click', 'pointercancel', 'pointerup'] as const;

/**
 * `client:intent={{ resume: key }}`: hydrate without waiting when the browser's storage holds `key`.
 * `client:intent={{ afterLoad: true }}`: hydrate on intent, or else once the page has loaded
 * (its `load` event) and the browser is idle: an island that must start by itself (a carousel
 * that rotates) but whose script must not compete with the first view.
 */
interface IntentOptions {
  readonly resume?: string;
  readonly afterLoad?: boolean;
}

/** A module's imports, static and dynamic, as the build writes them (`from"./x.js"`, ``import(`./x.js`)``). */
const IMPORTED = /(?:\bfrom|\bimport)\s*\(?\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g;

/**
 * Fetches the island's modules and every module they import into the browser's cache, without
 * running any: the download happens while the visitor types, the running in their pause
 * (src/lib/typing-pause.ts), and a later `import()` (the proof of work's script) finds its file
 * at hand. A module that does not come is left to the island's own loading to report.
 */
async function fetchModules(el: HTMLElement): Promise<void> {
  const seen = new Set<string>();
  const visit = async (url: string): Promise<void> => {
    if (seen.has(url)) return;
    seen.add(url);
    const response = await fetch(url);
    if (!response.ok) return;
    const text = await response.text();
    await Promise.all([...text.matchAll(IMPORTED)].map((match) => visit(new URL(match[1]!, url).href)));
  };
  const urls = ['before-hydration-url', 'renderer-url', 'component-url'].map((name) => el.getAttribute(name));
  await Promise.all(urls.filter((url): url is string => !!url).map((url) => visit(new URL(url, document.baseURI).href)));
}

/** Calls `run` once the browser is next idle. */
const whenIdle = (run: () => void) =>
  window.requestIdleCallback ? window.requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 200);

/** Calls `run` once the page has loaded and the browser is next idle. */
function afterLoadWhenIdle(run: () => void): void {
  const idle = () => whenIdle(run);
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}

/** Whether the visitor left something under `key` to pick up (a saved draft); false when storage is closed. */
function hasSaved(key: string): boolean {
  try {
    return window.localStorage.getItem(key) !== null;
  } catch {
    return false;
  }
}

/**
 * A press on a form's submit button (or Enter in one of its fields) before the form's island has
 * started would be the browser's own: its "Please fill out this field" bubble, or a plain post,
 * where docs/requirements.md §7.2, §8.5 ask for the form's alert. The press is held instead,
 * and given to the island (the form's `requestSubmit`, which the island checks and sends) once it
 * marks the form `data-hydrated`. Should the island's script fail to load, the returned function
 * gives the press back to the browser (its own checks and post, as without JavaScript).
 */
function holdSubmitUntilHydrated(el: HTMLElement): () => void {
  let replay: (() => void) | undefined;
  let givenUp = false;
  el.addEventListener(
    'click',
    (event) => {
      const submitter = (event.target as Element).closest<HTMLButtonElement>('[type=submit]');
      const form = submitter?.form;
      if (givenUp || !form || form.hasAttribute('data-hydrated')) return;
      event.preventDefault();
      if (replay) return;
      replay = () => form.requestSubmit(submitter);
      // The island marks its form once it has taken over what the page holds (src/components/islands/form-dom.ts).
      new MutationObserver(replay).observe(form, { attributeFilter: ['data-hydrated'] });
    },
    true,
  );
  return () => {
    givenUp = true;
    replay?.();
  };
}

const intentDirective: ClientDirective = (load, options, el) => {
  const toBrowser = holdSubmitUntilHydrated(el);
  const toBrowserAndThrow = (error: unknown): never => {
    toBrowser();
    throw error;
  };
  // A visitor coming back to saved answers (the partner form's draft) sees them without first
  // reaching for the form: the island starts once the browser is idle, after the first paint.
  const resume = (options.value as IntentOptions | true | undefined) ?? undefined;
  if (typeof resume === 'object' && resume.resume !== undefined && hasSaved(resume.resume)) {
    whenIdle(async () => {
      const hydrate = await load().catch(toBrowserAndThrow);
      await hydrate();
    });
    return;
  }
  const passive: AddEventListenerOptions = { capture: true, passive: true };
  let hydrate: (() => Promise<void>) | undefined;
  let pressing = false;
  let pressTimer: ReturnType<typeof setTimeout> | undefined;

  const hydrateWhenFree = () => {
    if (hydrate === undefined || pressing) return;
    const run = hydrate;
    hydrate = undefined;
    for (const type of PRESS_EVENTS) window.removeEventListener(type, onPress, passive);
    void run();
  };

  function onPress(event: Event): void {
    if (event.type === 'pointerdown') {
      pressing = true;
      return;
    }
    if (!pressing) return;
    clearTimeout(pressTimer);
    const release = () => {
      pressing = false;
      hydrateWhenFree();
    };
    if (event.type === 'pointerup') pressTimer = setTimeout(release, PRESS_TIMEOUT_MS);
    else afterDefaultAction(release);
  }

  let started = false;
  const start = async (event?: Event) => {
    if (started) return;
    started = true;
    for (const type of INTENT_EVENTS) el.removeEventListener(type, start, passive);
    for (const type of PRESS_EVENTS) window.addEventListener(type, onPress, passive);
    if (event?.type === 'pointerdown') pressing = true;
    watchTyping();
    await fetchModules(el).catch(() => undefined);
    await new Promise<void>((resolve) => afterTypingPause(resolve));
    hydrate = await load().catch(toBrowserAndThrow);
    hydrateWhenFree();
  };
  for (const type of INTENT_EVENTS) el.addEventListener(type, start, passive);
  if (typeof resume === 'object' && resume.afterLoad === true) afterLoadWhenIdle(() => void start());
};

export default intentDirective;
