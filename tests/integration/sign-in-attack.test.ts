/**
 * The sign-in form under attack, over HTTP, as the attacker: no session, no device cookie,
 * bursts of parallel guesses, locks caused on purpose, addresses that change within one IPv6
 * /64. The built server on a free loopback port, behind a trusted proxy (127.0.0.1) so that each
 * request can say which client it comes from. During a burst the server's clock is held
 * (tests/helpers/server-clock.ts): no wait of the gate runs out while a slow machine works through
 * it, so what the rules let through is exact, whatever the machine's speed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SLOW_AFTER } from '../../src/server/inbox/inbox-store';
import { HASHING } from '../../src/server/inbox/staff';
import { openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { startServer, tempDir, type RunningServer } from '../helpers/server';

let dir: string;
let server: RunningServer;
const PASSWORD = 'correct horse battery staple';
const HUDA = 'huda@globaq.example';
const OMAR = 'omar@globaq.example';
const SARA = 'sara@globaq.example';
const NOUR = 'nour@globaq.example';
const LAILA = 'laila@globaq.example';
const SALMA = 'salma@globaq.example';

function signInPost(email: string, password: string, from: string, cookie = ''): Promise<Response> {
  return fetch(`${server.baseUrl}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: server.origin,
      'X-Forwarded-For': from,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams({ email, password }).toString(),
  });
}

/** A lock on a key, as ten wrong passwords an hour ago... would leave it: written straight into the database. */
function lockKey(key: string): void {
  const db = new DatabaseSync(server.dbPath);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const until = new Date(Date.now() + 15 * 60_000).toISOString();
    db.prepare(
      'INSERT INTO sign_in_failures (key, failures, last_failure_at, locked_until) VALUES (?, 0, ?, ?) ON CONFLICT (key) DO UPDATE SET locked_until = excluded.locked_until',
    ).run(key, new Date().toISOString(), until);
  } finally {
    db.close();
  }
}

/** Refused sign-ins from one network, by reason, as the database keeps them. */
function refusalsFrom(network: string): Record<string, number> {
  const db = new DatabaseSync(server.dbPath);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    const rows = db
      .prepare('SELECT reason, count(*) AS n FROM sign_in_refusals WHERE network = ? GROUP BY reason')
      .all(network) as { reason: string; n: number }[];
    return Object.fromEntries(rows.map((row) => [row.reason, Number(row.n)]));
  } finally {
    db.close();
  }
}

const BUSY = /checking many sign-ins/;

/**
 * Wrong passwords for invented accounts, each from an address of its own (so that none of them is
 * slowed), kept in flight until stopped: more than the password checks' queue holds.
 * `full` resolves once one has been refused as busy (the queue is full from then on).
 */
function flood(inFlight = 3 * (HASHING.running + HASHING.waiting)) {
  let stopped = false;
  let sent = 0;
  let markFull: () => void = () => {};
  const full = new Promise<void>((resolve) => (markFull = resolve));
  const one = async (): Promise<void> => {
    while (!stopped) {
      const n = sent++;
      const response = await signInPost(`flood${n}@example.com`, 'a guessed password', `198.18.${(n >> 8) & 255}.${n & 255}`);
      if (response.status === 429 && BUSY.test(await response.text())) markFull();
    }
  };
  const runners = Array.from({ length: inFlight }, one);
  return {
    full,
    stop: async () => {
      stopped = true;
      await Promise.all(runners);
    },
  };
}

beforeAll(async () => {
  dir = tempDir('globaq-sign-in-attack-');
  server = await startServer({
    dbPath: path.join(dir, 'submissions.db'),
    env: { TRUSTED_PROXIES: '127.0.0.1' },
    clock: true,
  });
  const staff = openStaffStore(server.dbPath);
  for (const email of [HUDA, OMAR, SARA, NOUR, LAILA, SALMA]) await staff.add(email, await hashPassword(PASSWORD), new Date());
  await staff.close();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a burst of parallel guesses', () => {
  test(`200 wrong passwords at once: at most ${SLOW_AFTER.account} reach the password check; the right one sent in the burst is refused`, async () => {
    await server.clock!.hold();
    let answers: Response[];
    try {
      const guesses = Array.from({ length: 200 }, (_, i) => signInPost(OMAR, `wrong password ${i}`, `198.51.100.${i % 200}`));
      // The owner's password, sent in the middle of the burst from an address of its own.
      const right = signInPost(OMAR, PASSWORD, '192.0.2.77');
      const more = Array.from({ length: 20 }, (_, i) => signInPost(OMAR, `wrong password ${200 + i}`, `198.51.100.${i}`));
      answers = await Promise.all([...guesses, right, ...more]);
    } finally {
      await server.clock!.resume();
    }
    const statuses = answers.map((response) => response.status);
    // 401: the password was checked (and was wrong). Everything else was refused before scrypt ran.
    // The rules let SLOW_AFTER through, then none until the wait (2 s) is over: not within the burst.
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(SLOW_AFTER.account);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    const rightAnswer = answers[200]!;
    expect(rightAnswer.status).toBe(429);
    expect(rightAnswer.headers.getSetCookie()).toEqual([]);
    expect(Number(rightAnswer.headers.get('retry-after'))).toBeGreaterThan(0);
  }, 120_000);
});

describe('a lock someone else caused', () => {
  test('a browser that signed in before still signs in during a lock on its account; a browser without its cookie is refused', async () => {
    const first = await signInPost(HUDA, PASSWORD, '192.0.2.10');
    expect(first.status).toBe(303);
    const deviceLine = first.headers.getSetCookie().find((line) => line.startsWith('globaq-device='));
    expect(deviceLine).toMatch(/HttpOnly/i);
    expect(deviceLine).toMatch(/SameSite=Strict/i);
    const device = deviceLine!.split(';')[0]!;

    lockKey(`account:${HUDA}`);
    const stranger = await signInPost(HUDA, PASSWORD, '192.0.2.10');
    expect(stranger.status).toBe(429);
    expect(await stranger.text()).toMatch(/signing in is locked for 1[45] minutes/);
    const owner = await signInPost(HUDA, PASSWORD, '192.0.2.10', device);
    expect(owner.status).toBe(303);
    // The cookie is for its account only: with it, another account's lock still holds.
    lockKey(`account:${SARA}`);
    expect((await signInPost(SARA, PASSWORD, '192.0.2.10', device)).status).toBe(429);
    // A forged cookie is no cookie.
    expect((await signInPost(HUDA, PASSWORD, '192.0.2.10', 'globaq-device=forged')).status).toBe(429);
  });

  test('a lock on a network holds for every address of its IPv6 /64, and for no other /64', async () => {
    lockKey('address:2001:db8:1:2::/64');
    const same = await signInPost(NOUR, PASSWORD, '2001:db8:1:2:abcd::9');
    expect(same.status).toBe(429);
    expect(await same.text()).toMatch(/locked/);
    expect((await signInPost(NOUR, PASSWORD, '2001:db8:1:3::9')).status).toBe(303);
  });
});

describe('the audit log under a flood of refused sign-ins', () => {
  test('600 sign-ins for invented accounts do not push staff actions off the audit page; they are listed apart; the page has paging and filters', async () => {
    const signedIn = await signInPost(LAILA, PASSWORD, '192.0.2.200');
    expect(signedIn.status).toBe(303);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    for (let batch = 0; batch < 6; batch++) {
      await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          signInPost(`invented${batch * 100 + i}@example.com`, 'a guessed password', '203.0.113.50'),
        ),
      );
    }
    const read = async (route: string) => {
      const response = await fetch(`${server.baseUrl}${route}`, { headers: { Cookie: cookie } });
      expect(response.status, route).toBe(200);
      return response.text();
    };
    const audit = await read('/admin/audit');
    expect(audit).toContain(`<td>${LAILA}</td><td>signed in</td>`);
    expect(audit).not.toContain('invented');
    expect(audit).not.toContain('sign-in refused');
    const refused = await read('/admin/audit?view=refused');
    const count = Number(/(\d+) entries, page 1 of (\d+)/.exec(refused)?.[1]);
    expect(count).toBeGreaterThanOrEqual(600);
    expect(refused).toContain('invented599@example.com');
    expect(await read('/admin/audit?view=refused&page=2')).toContain('Newer entries');
    // Filters: who, what and the day (in Riyadh).
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Riyadh' }).format(new Date());
    expect(await read(`/admin/audit?actor=${encodeURIComponent(LAILA)}&action=signed+in&from=${today}&to=${today}`)).toMatch(
      /1 entry, newest first/,
    );
    expect(await read('/admin/audit?actor=nobody%40example.com')).toMatch(/0 entries, newest first/);
    expect(await read('/admin/audit?from=2001-01-01&to=2001-01-02')).toMatch(/0 entries, newest first/);
  }, 120_000);
});

describe('a flood that fills the password checks', () => {
  test('a browser that signed in before (its device cookie) still signs in; a browser without one is told the server is busy', async () => {
    const first = await signInPost(SALMA, PASSWORD, '192.0.2.30');
    expect(first.status).toBe(303);
    const device = first.headers
      .getSetCookie()
      .find((line) => line.startsWith('globaq-device='))!
      .split(';')[0]!;
    const attack = flood();
    try {
      await attack.full;
      const owner = await signInPost(SALMA, PASSWORD, '192.0.2.30', device);
      expect(owner.status).toBe(303);
      expect(owner.headers.getSetCookie().some((line) => line.startsWith('globaq-staff='))).toBe(true);
    } finally {
      await attack.stop();
    }
  }, 120_000);

  test(`"busy" refusals from one network are counted: after ${SLOW_AFTER.address} of them it is slowed`, async () => {
    const network = '203.0.113.77';
    const attack = flood();
    let answers: Response[] | undefined;
    try {
      await attack.full;
      await server.clock!.hold();
      answers = await Promise.all(
        Array.from({ length: 2 * SLOW_AFTER.address }, (_, i) =>
          signInPost(`guess${i}@example.com`, 'a guessed password', network),
        ),
      );
    } finally {
      await attack.stop();
      await server.clock!.resume();
    }
    const refused = refusalsFrom(network);
    // A few may have found a free place and had their password checked (counted the same way).
    // The rules let SLOW_AFTER through, then none until the wait (2 s) is over: not within the burst.
    const allowed = SLOW_AFTER.address;
    expect(refused['busy'] ?? 0).toBeLessThanOrEqual(allowed);
    expect(refused['slowed'] ?? 0).toBeGreaterThanOrEqual(SLOW_AFTER.address - HASHING.running - HASHING.waiting);
    // Answered as the network's password tries are once it is slowed: how long to wait.
    const texts = await Promise.all(answers!.map((response) => response.text()));
    const waits = texts.filter((text) => /Too many failed sign-ins: wait \d+ seconds?/.test(text));
    expect(waits.length).toBeGreaterThanOrEqual(SLOW_AFTER.address - HASHING.running - HASHING.waiting);
    expect(texts.filter((text) => BUSY.test(text)).length).toBeLessThanOrEqual(allowed);
  }, 120_000);
});
