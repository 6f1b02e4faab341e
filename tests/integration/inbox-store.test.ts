/**
 * The inbox's sessions and sign-in gate on a real database, with the clock given: idle and
 * absolute expiry, a changed password, a removed account; slowing, locking and forgetting.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { LOCK_AFTER, LOCK_MS, SESSION_IDLE_MS, SESSION_MAX_MS, SLOW_AFTER, openInboxStore, tokenHash, type InboxStore } from '../../src/server/inbox-store';
import { openSqliteStore } from '../../src/server/sqlite-store';
import { openStaffStore, type StaffStore } from '../../src/server/staff';
import { tempDir } from '../helpers/server';

let dir: string;
let inbox: InboxStore;
let staff: StaffStore;
const T0 = new Date('2026-11-23T08:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const MINUTE = 60_000;

beforeEach(async () => {
  dir = tempDir('globaq-inbox-store-');
  const dbPath = path.join(dir, 'submissions.db');
  await openSqliteStore(dbPath).close();
  staff = openStaffStore(dbPath);
  staff.add('huda@globaq.example', 'scrypt$x', T0);
  inbox = openInboxStore(dbPath);
});

afterEach(() => {
  inbox.close();
  staff.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sessions', () => {
  test('a session lives while used, and ends after 30 idle minutes', () => {
    const { token, csrf } = inbox.createSession('huda@globaq.example', T0);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(inbox.session(token, at(20 * MINUTE))).toEqual({ email: 'huda@globaq.example', csrf, createdAt: T0.toISOString() });
    expect(inbox.session(token, at(45 * MINUTE))?.email).toBe('huda@globaq.example');
    expect(inbox.session(token, at(45 * MINUTE + SESSION_IDLE_MS + 1))).toBeUndefined();
    // Once ended, it stays ended.
    expect(inbox.session(token, at(46 * MINUTE))).toBeUndefined();
  });

  test('however active, a session ends 12 hours after sign-in', () => {
    const { token } = inbox.createSession('huda@globaq.example', T0);
    let now = 0;
    while (now < SESSION_MAX_MS - 20 * MINUTE) {
      now += 20 * MINUTE;
      expect(inbox.session(token, at(now))).toBeDefined();
    }
    expect(inbox.session(token, at(SESSION_MAX_MS + 1))).toBeUndefined();
  });

  test('only the hash of the token is stored; a forged or hashed token opens nothing', () => {
    const { token } = inbox.createSession('huda@globaq.example', T0);
    expect(inbox.session(tokenHash(token), T0)).toBeUndefined();
    expect(inbox.session(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, T0)).toBeUndefined();
    expect(inbox.session('', T0)).toBeUndefined();
  });

  test('a changed password or a removed account ends its sessions; sign-out ends one', () => {
    const first = inbox.createSession('huda@globaq.example', T0);
    const second = inbox.createSession('huda@globaq.example', T0);
    inbox.endSession(first.token);
    expect(inbox.session(first.token, at(MINUTE))).toBeUndefined();
    expect(inbox.session(second.token, at(MINUTE))).toBeDefined();
    staff.setPassword('huda@globaq.example', 'scrypt$y', at(2 * MINUTE));
    expect(inbox.session(second.token, at(3 * MINUTE))).toBeUndefined();
    const third = inbox.createSession('huda@globaq.example', at(4 * MINUTE));
    staff.remove('huda@globaq.example');
    expect(inbox.session(third.token, at(5 * MINUTE))).toBeUndefined();
  });
});

describe('the sign-in gate', () => {
  const keys = { account: 'huda@globaq.example', address: '203.0.113.9' };

  test('open for the first failures, then each attempt waits, doubling', () => {
    for (let i = 0; i < SLOW_AFTER.account; i++) {
      expect(inbox.gate(keys, at(i))).toEqual({ open: true });
      inbox.recordFailure(keys, at(i));
    }
    const last = at(SLOW_AFTER.account - 1);
    const closed = inbox.gate(keys, last);
    expect(closed).toEqual({ open: false, locked: false, retryAt: new Date(last.getTime() + 2000) });
    expect(inbox.gate(keys, new Date(last.getTime() + 2001))).toEqual({ open: true });
    inbox.recordFailure(keys, new Date(last.getTime() + 2001));
    expect(inbox.gate(keys, new Date(last.getTime() + 2001 + 3999))).toMatchObject({ open: false });
    // Another account from another address is not slowed by it.
    expect(inbox.gate({ account: 'omar@globaq.example', address: '198.51.100.7' }, last)).toEqual({ open: true });
  });

  test(`${LOCK_AFTER.account} failures lock the account for 15 minutes, whatever the address`, () => {
    for (let i = 0; i < LOCK_AFTER.account; i++) inbox.recordFailure({ ...keys, address: `198.51.100.${i}` }, at(i));
    const gate = inbox.gate({ ...keys, address: '192.0.2.1' }, at(MINUTE));
    expect(gate).toEqual({ open: false, locked: true, retryAt: at(LOCK_AFTER.account - 1 + LOCK_MS) });
    expect(inbox.gate(keys, at(LOCK_MS + 10))).toEqual({ open: true });
  });

  test(`${LOCK_AFTER.address} failures from one address lock it for every account`, () => {
    for (let i = 0; i < LOCK_AFTER.address; i++) inbox.recordFailure({ account: `user${i}@example.com`, address: keys.address }, at(i));
    expect(inbox.gate({ account: 'new@globaq.example', address: keys.address }, at(MINUTE))).toMatchObject({ open: false, locked: true });
    expect(inbox.gate({ account: 'new@globaq.example', address: '192.0.2.1' }, at(MINUTE))).toEqual({ open: true });
  });

  test('a success clears the counts; an old run of failures is forgotten', () => {
    for (let i = 0; i < SLOW_AFTER.account; i++) inbox.recordFailure(keys, at(i));
    inbox.clearFailures(keys);
    expect(inbox.gate(keys, at(10))).toEqual({ open: true });
    for (let i = 0; i < SLOW_AFTER.account; i++) inbox.recordFailure(keys, at(i));
    expect(inbox.gate(keys, at(2 * 60 * MINUTE))).toEqual({ open: true });
    inbox.recordFailure(keys, at(2 * 60 * MINUTE));
    expect(inbox.gate(keys, at(2 * 60 * MINUTE + 1))).toEqual({ open: true });
  });
});
