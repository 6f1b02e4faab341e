/**
 * The bounded queue the server keeps per kind of expensive work (password checks, Word file
 * readings): how many run at once, how many wait, who is refused and who goes first.
 */
import { setImmediate } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { WorkQueue } from '../../src/server/ops/work-queue';

/** A piece of work that ends when told to, recording when it started. */
function gate(started: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return { work: async () => (started.push(name), done), open };
}

/** Every promise reaction pending has run (the queue keeps no timers: nothing is left for later). */
const turn = () => setImmediate();

describe('WorkQueue', () => {
  test('runs at most `running` at once, queues `waiting` more, and refuses the rest', async () => {
    const queue = new WorkQueue({ running: 2, waiting: 1 });
    const started: string[] = [];
    const gates = ['a', 'b', 'c'].map((name) => gate(started, name));
    const places = gates.map(() => queue.enter());
    expect(places.every(Boolean)).toBe(true);
    expect(queue.enter()).toBeUndefined();
    const runs = places.map((place, i) => place!.run(gates[i]!.work));
    await turn();
    expect(started).toEqual(['a', 'b']);
    gates[0]!.open();
    await turn();
    expect(started).toEqual(['a', 'b', 'c']);
    // A place freed is a place offered again.
    expect(queue.enter()).toBeDefined();
    gates[1]!.open();
    gates[2]!.open();
    await Promise.all(runs);
  });

  test('a trusted place is never refused and goes before those already waiting', async () => {
    const queue = new WorkQueue({ running: 1, waiting: 1 });
    const started: string[] = [];
    const first = gate(started, 'first');
    const waiting = gate(started, 'waiting');
    const trusted = gate(started, 'trusted');
    const runs = [queue.enter()!.run(first.work), queue.enter()!.run(waiting.work)];
    expect(queue.enter()).toBeUndefined();
    const place = queue.enter(true);
    expect(place).toBeDefined();
    runs.push(place!.run(trusted.work));
    await turn();
    first.open();
    await turn();
    expect(started).toEqual(['first', 'trusted']);
    trusted.open();
    waiting.open();
    await Promise.all(runs);
    expect(started).toEqual(['first', 'trusted', 'waiting']);
  });

  test('a place left unused is given back; run() waits its turn however many wait', async () => {
    const queue = new WorkQueue({ running: 1, waiting: 0 });
    queue.enter()!.leave();
    await turn();
    const started: string[] = [];
    const gates = ['a', 'b', 'c'].map((name) => gate(started, name));
    const runs = gates.map((g) => queue.run(g.work));
    await turn();
    expect(started).toEqual(['a']);
    for (const g of gates) {
      g.open();
      await turn();
    }
    await Promise.all(runs);
    expect(started).toEqual(['a', 'b', 'c']);
  });
});
