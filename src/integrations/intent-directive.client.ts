/**
 * `client:intent`: hydrate an island when the visitor first shows an intent to use it (pointer over it, focus in it, a
 * press or touch). Until then the page downloads none of its JavaScript, and an island not displayed at this width gets
 * no such events: a desktop visitor never loads the mobile menu, a phone never the desktop dropdowns. The server's
 * markup works on its own meanwhile (links, native `<details>`). A press that wakes the island is left to finish first,
 * so the tap is not lost under the finger; the modules download at once but run in a pause of the visitor's typing.
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
 * `resume: key`: hydrate once the browser is idle when its storage holds `key` (a saved draft shows without reaching for
 * the form). `afterLoad`: on intent, or else once the page has loaded and the browser is idle (a rotating carousel whose
 * script must not compete with the first view).
 */
interface IntentOptions {
  readonly resume?: string;
  readonly afterLoad?: boolean;
}

/** A module's imports, static and dynamic, as the build writes them (`from"./x.js"`, ``import(`./x.js`)``). */
const IMPORTED = /(?:\bfrom|\bimport)\s*\(?\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g;

/**
 * Fetches the island's modules and all they import into the browser's cache without running any: the download happens
 * while the visitor types, the running in their pause, and a later `import()` (the proof of work) finds its file at hand.
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
 * A press on a form's submit button (or Enter in a field) before the island has started would get the browser's own
 * bubble or a plain post, where docs/requirements.md §7.2, §8.5 ask for the form's alert: it is held and replayed once the
 * island marks the form `data-hydrated`. The returned function gives it back to the browser if the script fails to load.
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
