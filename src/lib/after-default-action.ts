/**
 * Runs `callback` in a task of its own: after the event being dispatched and its default action
 * (a `<summary>` opening its `<details>`). Shared by the `client:intent` directive and the menus'
 * hand-over; it ships to the browser, so it imports nothing.
 */
export function afterDefaultAction(callback: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    callback();
  };
  channel.port2.postMessage(null);
}

/** A press released away from where it started brings no click: stop waiting for one after this. */
export const PRESS_TIMEOUT_MS = 600;

/**
 * Runs `callback` once the press under way is over: after its click and the click's default action, its cancel, or
 * `PRESS_TIMEOUT_MS` after a release with no click, so a hand-over never replaces markup under the finger.
 */
export function afterPress(callback: () => void): void {
  const types = ['click', 'pointercancel', 'pointerup'] as const;
  const options = { capture: true, passive: true };
  let timer: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    for (const type of types) window.removeEventListener(type, onEvent, options);
    afterDefaultAction(callback);
  };
  function onEvent(event: Event): void {
    if (event.type === 'pointerup') timer = setTimeout(finish, PRESS_TIMEOUT_MS);
    else finish();
  }
  for (const type of types) window.addEventListener(type, onEvent, options);
}
