/**
 * The wait after wrong sign-ins is what docs/receiver.md says (its "Failed sign-ins" paragraph), with a
 * given clock: after 5 for an account each next try waits 2, 4, 8, 16, 32 s; the 10th locks it
 * for 15 minutes; an address gets 30 and 100, its waits at most 60 s. A try while closed is
 * refused with the time left, which it does not change (the store counts only open tries).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { LOCK_MS, afterFailure, gateOf, type FailureRun } from '../../src/server/inbox/inbox-store';
import { ROOT } from '../helpers/frontmatter';

const T0 = new Date('2026-11-25T09:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** `count` failures, each as soon as the gate let it in; the run and the time of the last. */
function failures(kind: 'account' | 'address', count: number): { run: FailureRun; now: Date } {
  let run: FailureRun = { failures: 0, last: 0, lockedUntil: 0 };
  let now = T0;
  for (let i = 0; i < count; i++) {
    const gate = gateOf({ [kind]: run }, now);
    if (!gate.open) now = gate.retryAt;
    const next = afterFailure(kind, run, now);
    run = {
      failures: next.failures,
      last: now.getTime(),
      lockedUntil: next.lockedUntil ? next.lockedUntil.getTime() : run.lockedUntil,
    };
  }
  return { run, now };
}

const waitAfter = (kind: 'account' | 'address', count: number): number => {
  const { run, now } = failures(kind, count);
  const gate = gateOf({ [kind]: run }, now);
  return gate.open ? 0 : gate.retryAt.getTime() - now.getTime();
};

describe('the waits docs/receiver.md states', () => {
  test('an account: none after 4 failures; 2, 4, 8, 16, 32 s after 5 to 9; locked for 15 minutes after 10', () => {
    expect(waitAfter('account', 4)).toBe(0);
    expect([5, 6, 7, 8, 9].map((n) => waitAfter('account', n) / 1000)).toEqual([2, 4, 8, 16, 32]);
    const { run, now } = failures('account', 10);
    const gate = gateOf({ account: run }, now);
    expect(gate).toEqual({ open: false, locked: true, retryAt: at(now.getTime() - T0.getTime() + LOCK_MS) });
    expect(LOCK_MS).toBe(15 * 60_000);
  });

  test('an address: none after 29; from 2 s after 30, never over 60 s; locked after 100', () => {
    expect(waitAfter('address', 29)).toBe(0);
    expect(waitAfter('address', 30)).toBe(2000);
    expect(waitAfter('address', 99)).toBe(60_000);
    const { run, now } = failures('address', 100);
    expect(gateOf({ address: run }, now)).toMatchObject({ open: false, locked: true });
  });

  test('docs/receiver.md says exactly these numbers', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'docs', 'receiver.md'), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain(
      'after 5 for an account (30 for an address) each next try waits, doubling from 2 s (2, 4, 8, 16, 32 s, at most 60 s); 10 for an account (100 for an address) lock it for 15 minutes',
    );
  });
});
