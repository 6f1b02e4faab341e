/**
 * The islands are written against React's API and run on Preact's React-compatible runtime
 * (`@astrojs/preact` with `compat`, astro.config.mjs). One difference in timing matters here:
 * React runs effects (`useEffect`) in a task of their own right after the render that asked for
 * them (its scheduler posts a message), while Preact waits for the next animation frame (or
 * 35 ms). An effect that starts something timed, such as the carousel's rotation, would then
 * start a frame late, and a tab that paints no frames would wait for the timeout. This makes
 * Preact schedule its effects the way React does: in the next task, through a message.
 *
 * Every island imports this module before it renders. Nothing changes on the server, and
 * nothing depends on it when the islands run on React itself.
 */
import { options } from 'preact';

if (typeof document !== 'undefined' && typeof MessageChannel === 'function') {
  const pending: (() => void)[] = [];
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    for (const callback of pending.splice(0)) callback();
  };
  options.requestAnimationFrame = (callback) => {
    pending.push(callback);
    if (pending.length === 1) channel.port2.postMessage(null);
  };
}
