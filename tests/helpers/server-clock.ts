/**
 * The server's clock under a test's hand (loaded with `node --import` into a server that
 * tests/helpers/server.ts starts with `clock: true`): every `Date` the process reads is the real
 * time until the test holds it, then stands still until the test moves it on. The sign-in waits,
 * sessions and every other time the server keeps are read from `Date`, so a test steps through
 * a 2 s wait without sitting through it, and no wait passes while a slow machine catches up.
 *
 * Orders come over the IPC channel: { clock: 'hold' | 'resume' } or { clock: 'advance', ms };
 * each is answered { clock: 'done', now } once in effect. The clock never goes backwards.
 */
const RealDate = Date;
/** The time the clock stands at while held; undefined while it runs with the real time. */
let held: number | undefined;
/** Added to the real time (what was advanced while held, once resumed). */
let offset = 0;

const now = (): number => held ?? RealDate.now() + offset;

globalThis.Date = new Proxy(RealDate, {
  construct(target, args: unknown[], newTarget) {
    return Reflect.construct(target, args.length === 0 ? [now()] : args, newTarget);
  },
  apply() {
    // Date() called without new: the time as text.
    return new RealDate(now()).toString();
  },
  get(target, property, receiver) {
    if (property === 'now') return now;
    return Reflect.get(target, property, receiver);
  },
});

interface ClockOrder {
  clock: 'hold' | 'resume' | 'advance';
  ms?: number;
}

process.on('message', (message: unknown) => {
  const order = message as Partial<ClockOrder> | null;
  if (!order || typeof order !== 'object' || order.clock === undefined) return;
  if (order.clock === 'hold') held = now();
  else if (order.clock === 'advance') {
    if (held !== undefined) held += order.ms ?? 0;
    else offset += order.ms ?? 0;
  } else if (order.clock === 'resume' && held !== undefined) {
    // From the time it was held at (or later, if the real time passed it): never backwards.
    offset = Math.max(offset, held - RealDate.now());
    held = undefined;
  }
  process.send?.({ clock: 'done', now: now() });
});
