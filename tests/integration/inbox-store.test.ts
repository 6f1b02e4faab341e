/**
 * The inbox's sessions and sign-in gate on a real database, with the clock given: idle and
 * absolute expiry, a changed password, a removed account; slowing, locking and forgetting.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  LOCK_AFTER,
  LOCK_MS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  SLOW_AFTER,
  tokenHash,
  type InboxStore,
} from '../../src/server/inbox/inbox-store';
import { openSqliteStore, openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { openStores, type Stores } from '../../src/server/store/database';
import type { StaffStore } from '../../src/server/inbox/staff';
import { tempDir } from '../helpers/server';

let dir: string;
let stores: Stores;
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
  await staff.add('huda@globaq.example', 'scrypt$x', T0);
  stores = openStores({ dbPath, databaseUrl: undefined, poolMax: 1 });
  inbox = stores.inbox;
});

afterEach(async () => {
  await stores.close();
  await staff.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sessions', () => {
  test('a session lives while used, and ends after 30 idle minutes', async () => {
    const { token, csrf } = await inbox.createSession('huda@globaq.example', T0);
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(await inbox.session(token, at(20 * MINUTE))).toEqual({
      email: 'huda@globaq.example',
      csrf,
      createdAt: T0.toISOString(),
      stage: 'signed-in',
      pendingTotp: undefined,
    });
    expect((await inbox.session(token, at(45 * MINUTE)))?.email).toBe('huda@globaq.example');
    expect(await inbox.session(token, at(45 * MINUTE + SESSION_IDLE_MS + 1))).toBeUndefined();
    // Once ended, it stays ended.
    expect(await inbox.session(token, at(46 * MINUTE))).toBeUndefined();
  });

  test('however active, a session ends 12 hours after sign-in', async () => {
    const { token } = await inbox.createSession('huda@globaq.example', T0);
    let now = 0;
    while (now < SESSION_MAX_MS - 20 * MINUTE) {
      now += 20 * MINUTE;
      expect(await inbox.session(token, at(now))).toBeDefined();
    }
    expect(await inbox.session(token, at(SESSION_MAX_MS + 1))).toBeUndefined();
  });

  test('only the hash of the token is stored; a forged or hashed token opens nothing', async () => {
    const { token } = await inbox.createSession('huda@globaq.example', T0);
    expect(await inbox.session(tokenHash(token), T0)).toBeUndefined();
    expect(await inbox.session(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`, T0)).toBeUndefined();
    expect(await inbox.session('', T0)).toBeUndefined();
  });

  test('a changed password or a removed account ends its sessions; sign-out ends one', async () => {
    const first = await inbox.createSession('huda@globaq.example', T0);
    const second = await inbox.createSession('huda@globaq.example', T0);
    await inbox.endSession(first.token);
    expect(await inbox.session(first.token, at(MINUTE))).toBeUndefined();
    expect(await inbox.session(second.token, at(MINUTE))).toBeDefined();
    await staff.setPassword('huda@globaq.example', 'scrypt$y', at(2 * MINUTE));
    expect(await inbox.session(second.token, at(3 * MINUTE))).toBeUndefined();
    const third = await inbox.createSession('huda@globaq.example', at(4 * MINUTE));
    await staff.remove('huda@globaq.example');
    expect(await inbox.session(third.token, at(5 * MINUTE))).toBeUndefined();
  });
});

describe('the sign-in gate', () => {
  const keys = { account: 'huda@globaq.example', address: '203.0.113.9' };
  /** An attempt that must find the gate open (it is counted as a failure until a success clears it). */
  const fail = async (k: Parameters<InboxStore['attempt']>[0], when: Date) =>
    expect(await inbox.attempt(k, when)).toMatchObject({ open: true });
  /** Enough failures, a minute apart (past each wait), to lock `k`'s account. */
  const lock = async (k: Parameters<InboxStore['attempt']>[0]) => {
    for (let i = 0; i < LOCK_AFTER.account; i++) await fail({ ...k, address: `198.51.100.${i}` }, at(i * MINUTE));
  };

  test('open for the first failures, then each attempt waits, doubling', async () => {
    for (let i = 0; i < SLOW_AFTER.account; i++) {
      expect(await inbox.gate(keys, at(i))).toEqual({ open: true });
      await fail(keys, at(i));
    }
    const last = at(SLOW_AFTER.account - 1);
    const closed = await inbox.gate(keys, last);
    expect(closed).toEqual({ open: false, locked: false, retryAt: new Date(last.getTime() + 2000) });
    expect(await inbox.attempt(keys, last)).toMatchObject({
      open: false,
      locked: false,
      retryAt: new Date(last.getTime() + 2000),
    });
    expect(await inbox.gate(keys, new Date(last.getTime() + 2001))).toEqual({ open: true });
    await fail(keys, new Date(last.getTime() + 2001));
    expect(await inbox.gate(keys, new Date(last.getTime() + 2001 + 3999))).toMatchObject({ open: false });
    // Another account from another address is not slowed by it.
    expect(await inbox.gate({ account: 'omar@globaq.example', address: '198.51.100.7' }, last)).toEqual({ open: true });
  });

  test('200 attempts at once: only the first few find the gate open, each counted before any password is checked', async () => {
    const answers = await Promise.all(Array.from({ length: 200 }, () => inbox.attempt(keys, at(0))));
    expect(answers.filter((gate) => gate.open)).toHaveLength(SLOW_AFTER.account);
  });

  test(`${LOCK_AFTER.account} failures lock the account for 15 minutes, whatever the address`, async () => {
    await lock(keys);
    const locked = at((LOCK_AFTER.account - 1) * MINUTE);
    const gate = await inbox.gate({ ...keys, address: '192.0.2.1' }, at(LOCK_AFTER.account * MINUTE));
    expect(gate).toEqual({ open: false, locked: true, retryAt: new Date(locked.getTime() + LOCK_MS) });
    expect(await inbox.gate(keys, new Date(locked.getTime() + LOCK_MS + 10))).toEqual({ open: true });
  });

  test('tries during a lock are refused and not counted: the lock ends when it was going to', async () => {
    await lock(keys);
    const locked = at((LOCK_AFTER.account - 1) * MINUTE);
    const ends = new Date(locked.getTime() + LOCK_MS);
    // An attacker keeps guessing through the lock, every 10 seconds.
    for (let t = locked.getTime() + 1000; t < ends.getTime(); t += 10_000)
      expect(await inbox.attempt(keys, new Date(t))).toMatchObject({ open: false, locked: true, retryAt: ends });
    expect(await inbox.attempt(keys, ends)).toMatchObject({ open: true });
  });

  test('a browser that signed in before (its device cookie) still gets in during a lock another caused; its own failures lock only it', async () => {
    const device = await inbox.rememberDevice('huda@globaq.example', T0);
    await lock(keys);
    const during = at(LOCK_AFTER.account * MINUTE);
    expect(await inbox.attempt(keys, during)).toMatchObject({ open: false, locked: true });
    expect(await inbox.attempt({ ...keys, device }, during)).toMatchObject({ open: true, trusted: true });
    await inbox.clearFailures({ ...keys, device });
    // The cookie names its account: for another account, or forged, it counts for nothing.
    expect(await inbox.attempt({ ...keys, device: 'forged-token' }, during)).toMatchObject({ open: false, trusted: false });
    await staff.add('omar@globaq.example', 'scrypt$y', T0);
    expect(await inbox.attempt({ account: 'omar@globaq.example', address: '192.0.2.5', device }, during)).toMatchObject({
      trusted: false,
    });
    // Wrong passwords from the device lock the device, not the account's other browsers.
    for (let i = 0; i < LOCK_AFTER.device; i++) await fail({ ...keys, device }, new Date(during.getTime() + i * MINUTE));
    expect(await inbox.attempt({ ...keys, device }, new Date(during.getTime() + LOCK_AFTER.device * MINUTE))).toMatchObject({
      open: false,
      locked: true,
      trusted: true,
    });
    expect(await inbox.gate({ ...keys, address: '192.0.2.9' }, new Date(during.getTime() + LOCK_MS + MINUTE))).toEqual({
      open: true,
    });
    // A removed account's devices go with it.
    await staff.remove('huda@globaq.example');
    expect(await inbox.attempt({ ...keys, device }, at(0))).toMatchObject({ trusted: false });
  });

  test(`${LOCK_AFTER.address} failures from one address lock it for every account`, async () => {
    for (let i = 0; i < LOCK_AFTER.address; i++)
      await fail({ account: `user${i}@example.com`, address: keys.address }, at(i * MINUTE));
    const after = at(LOCK_AFTER.address * MINUTE);
    expect(await inbox.gate({ account: 'new@globaq.example', address: keys.address }, after)).toMatchObject({
      open: false,
      locked: true,
    });
    expect(await inbox.gate({ account: 'new@globaq.example', address: '192.0.2.1' }, after)).toEqual({ open: true });
  });

  test('a success clears the counts; an old run of failures is forgotten', async () => {
    for (let i = 0; i < SLOW_AFTER.account; i++) await fail(keys, at(i));
    await inbox.clearFailures(keys);
    expect(await inbox.gate(keys, at(10))).toEqual({ open: true });
    for (let i = 0; i < SLOW_AFTER.account; i++) await fail(keys, at(i));
    expect(await inbox.gate(keys, at(2 * 60 * MINUTE))).toEqual({ open: true });
    await fail(keys, at(2 * 60 * MINUTE));
    expect(await inbox.gate(keys, at(2 * 60 * MINUTE + 1))).toEqual({ open: true });
  });
});
