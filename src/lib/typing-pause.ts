/**
 * Work that would hold up the visitor's keys (starting an island, the proof of work's script) waits for a pause in their
 * typing: on a slow phone it runs longer than a key may wait. It ships to the browser, so it imports nothing.
 */

/** The visitor counts as typing until this long after their last key in a text field. */
export const TYPING_PAUSE_MS = 700;

let lastKey = Number.NEGATIVE_INFINITY;
let timer: ReturnType<typeof setTimeout> | undefined;
const waiting = new Set<() => void>();
let listening = false;

/** Whether an event is typing: a key or an input in a field that takes text, other than Enter. */
function isTyping(event: Event): boolean {
  if (event.type !== 'input' && (event.type !== 'keydown' || (event as KeyboardEvent).key === 'Enter')) return false;
  const target = event.target as Element | null;
  if (!target) return false;
  if (target instanceof HTMLTextAreaElement || (target as HTMLElement).isContentEditable) return true;
  return target instanceof HTMLInputElement && !/^(checkbox|radio|file|submit|button|reset|image|range|color)$/.test(target.type);
}

function runWaiting(): void {
  clearTimeout(timer);
  timer = undefined;
  const runs = [...waiting];
  waiting.clear();
  for (const run of runs) run();
}

/** Runs what waits once TYPING_PAUSE_MS have passed since the last key. */
function schedule(): void {
  clearTimeout(timer);
  if (waiting.size === 0) return;
  const wait = lastKey + TYPING_PAUSE_MS - performance.now();
  if (wait <= 0) runWaiting();
  else timer = setTimeout(schedule, wait);
}

/** Anything but typing (a press, a file chosen, Enter) is a moment to run at once: it must not wait. */
function onEvent(event: Event): void {
  if (isTyping(event)) {
    lastKey = performance.now();
    schedule();
  } else if (event.type !== 'input') {
    lastKey = Number.NEGATIVE_INFINITY;
    runWaiting();
  }
}

/** Starts following the visitor's keys (once; later calls do nothing); `afterTypingPause` knows only keys from then on. */
export function watchTyping(): void {
  if (listening) return;
  listening = true;
  const options = { capture: true, passive: true };
  for (const type of ['keydown', 'input', 'pointerdown', 'change']) document.addEventListener(type, onEvent, options);
}

/** Calls `run` once the visitor is not typing (now, at their pause, or on a press, file or Enter); returns a cancel. */
export function afterTypingPause(run: () => void): () => void {
  watchTyping();
  const once = () => run();
  waiting.add(once);
  schedule();
  return () => waiting.delete(once);
}
