/**
 * Two-step sign-in over HTTP against the built server, as staff and as an attacker: the code
 * step after the password, what a session that still owes it can reach (nothing), another
 * origin, no session, forged and replayed codes, a burst of code guesses held by the sign-in
 * gate, a recovery code once, the set-up an operator requires, the staff command's reset, the
 * audit log; and the wait after wrong passwords (2 s, doubling with each wrong one after it), which
 * a right password during it does not lengthen. Where a test depends on a wait of the sign-in gate, it holds the server's clock
 * (tests/helpers/server-clock.ts): no wait runs out while a slow machine catches up, and the test
 * moves the clock on instead of sitting the wait out.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/server/cli';
import { SLOW_AFTER } from '../../src/server/inbox/inbox-store';
import { openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { newRecoveryCodes, newTotpSecret, recoveryHash, sealSecret, stepAt } from '../../src/server/inbox/two-step';
import { totpCode } from '../helpers/totp';
import { startServer, tempDir, type RunningServer, LIGHT_HASH } from '../helpers/server';

const KEY_HEX = '5f'.repeat(32);
const KEY = Buffer.from(KEY_HEX, 'hex');
const PASSWORD = 'correct horse battery staple';
const HUDA = 'huda@globaq.example';
const OMAR = 'omar@globaq.example';
const SARA = 'sara@globaq.example';
const NOUR = 'nour@globaq.example';
const LEAD_PATH = '/admin/leads/0b7f2f4e-7a51-4c39-9a53-2f1a4a4b7c11';

let dir: string;
let server: RunningServer;
const secrets = new Map<string, string>();
const recovery = new Map<string, string[]>();

interface Answer {
  status: number;
  location: string | null;
  text: string;
  cookie: string;
  retryAfter: number;
}

async function send(
  route: string,
  options: {
    fields?: Record<string, string>;
    cookie?: string;
    from?: string | undefined;
    origin?: string;
    base?: RunningServer | undefined;
  } = {},
): Promise<Answer> {
  const base = options.base ?? server;
  const response = await fetch(`${base.baseUrl}${route}`, {
    method: options.fields ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      ...(options.fields ? { 'Content-Type': 'application/x-www-form-urlencoded', Origin: options.origin ?? base.origin } : {}),
      'X-Forwarded-For': options.from ?? '192.0.2.1',
      ...(options.cookie ? { Cookie: options.cookie } : {}),
    },
    body: options.fields ? new URLSearchParams(options.fields).toString() : null,
  });
  const set = response.headers.getSetCookie().find((line) => /^globaq-staff=/.test(line));
  return {
    status: response.status,
    location: response.headers.get('location'),
    text: await response.text(),
    cookie: set ? set.split(';')[0]! : '',
    retryAfter: Number(response.headers.get('retry-after') ?? 0),
  };
}

const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
const alertOf = (html: string): string | undefined => /role="alert"[^>]*>([^<]*)</.exec(html)?.[1]?.trim();

/** The password step: the pending session's cookie and the code form's token. */
async function password(
  email: string,
  options: { from?: string | undefined; next?: string; base?: RunningServer | undefined } = {},
): Promise<{ answer: Answer; cookie: string; csrf: string }> {
  const answer = await send('/admin/login', {
    fields: { email, password: PASSWORD, ...(options.next ? { next: options.next } : {}) },
    from: options.from,
    base: options.base,
  });
  const page =
    answer.location?.startsWith('/admin/login/code') || answer.location?.startsWith('/admin/two-step')
      ? await send(answer.location, { cookie: answer.cookie, from: options.from, base: options.base })
      : undefined;
  return { answer, cookie: answer.cookie, csrf: page ? csrfOf(page.text) : '' };
}

function auditActions(email: string): string[] {
  const db = new DatabaseSync(server.dbPath);
  try {
    return (db.prepare('SELECT action FROM audit_log WHERE actor = ? ORDER BY seq').all(email) as { action: string }[]).map(
      (row) => row.action,
    );
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = tempDir('globaq-two-step-');
  server = await startServer({
    dbPath: path.join(dir, 'submissions.db'),
    env: { TRUSTED_PROXIES: '127.0.0.1', STAFF_TOTP_KEY: KEY_HEX, STAFF_TWO_STEP: 'optional' },
    clock: true,
  });
  const staff = openStaffStore(server.dbPath);
  // Each account's two-step set up as the set-up page does: a sealed secret, ten hashed recovery codes.
  // Set up a few minutes ago: a code of now is not the set-up's typed again.
  const setUpAt = new Date(Date.now() - 150_000);
  for (const email of [HUDA, OMAR, SARA, NOUR]) {
    await staff.add(email, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
    const secret = newTotpSecret();
    const codes = newRecoveryCodes();
    secrets.set(email, secret);
    recovery.set(email, codes);
    await staff.enrolTwoStep(
      email,
      sealSecret(KEY, email, secret),
      stepAt(setUpAt),
      await Promise.all(codes.map((code) => recoveryHash(email, code))),
      setUpAt,
    );
  }
  await staff.close();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the second step', () => {
  test('the password leads to the code, the code to the lead asked for, in a new session', async () => {
    const { answer, cookie, csrf } = await password(HUDA, { next: LEAD_PATH });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe(`/admin/login/code?next=${encodeURIComponent(LEAD_PATH)}`);
    expect(csrf).not.toBe('');
    // The database holds no secret in the clear.
    const db = new DatabaseSync(server.dbPath);
    const stored = (db.prepare('SELECT totp_secret FROM staff WHERE email = ?').get(HUDA) as { totp_secret: string }).totp_secret;
    db.close();
    expect(stored).toMatch(/^v1\./);
    expect(stored).not.toContain(secrets.get(HUDA));

    const signedIn = await send('/admin/login/code', {
      fields: { csrf, code: totpCode(secrets.get(HUDA)!, HUDA, new Date()), next: LEAD_PATH },
      cookie,
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(LEAD_PATH);
    expect(signedIn.cookie).toMatch(/^globaq-staff=/);
    expect(signedIn.cookie).not.toBe(cookie);
    expect((await send('/admin', { cookie: signedIn.cookie })).status).toBe(200);
    // The pending session's cookie is worth nothing now.
    expect((await send('/admin', { cookie })).status).toBe(303);
    expect(auditActions(HUDA)).toEqual(['password accepted', 'signed in']);
  });

  test('a session that owes its code reaches no inbox page and changes nothing', async () => {
    const { cookie, csrf } = await password(OMAR);
    for (const route of ['/admin', '/admin/audit', LEAD_PATH, '/admin/export?form=contact', '/admin/two-step']) {
      const answer = await send(route, { cookie });
      expect(answer.status, route).toBe(303);
      expect(answer.location, route).toMatch(/^\/admin\/login\/code/);
      expect(answer.text).not.toContain(OMAR);
    }
    for (const route of ['/admin/export', LEAD_PATH, '/admin', '/admin/two-step']) {
      const answer = await send(route, { fields: { csrf, status: 'spam', code: '123456' }, cookie });
      expect(answer.status, route).toBe(403);
      expect(answer.text).toContain('finish signing in first');
    }
  });

  test('attacks on the code form: no session, another origin, a forged token, a forged cookie', async () => {
    const code = totpCode(secrets.get(SARA)!, SARA, new Date());
    expect((await send('/admin/login/code', { fields: { code } })).status).toBe(403);
    const { cookie, csrf } = await password(SARA);
    expect((await send('/admin/login/code', { fields: { csrf, code }, cookie, origin: 'https://evil.example' })).status).toBe(
      403,
    );
    expect((await send('/admin/login/code', { fields: { csrf: 'forged', code }, cookie })).status).toBe(403);
    expect((await send('/admin/login/code', { fields: { csrf, code }, cookie: 'globaq-staff=forged' })).status).toBe(403);
    // None of them used the code: it still signs in.
    expect((await send('/admin/login/code', { fields: { csrf, code }, cookie })).status).toBe(303);
  });

  test('a wrong code is refused and audited; a code used already is refused in a new sign-in, saying so, audited, not counted', async () => {
    const secret = secrets.get(NOUR)!;
    const first = await password(NOUR, { from: '192.0.2.50' });
    const right = totpCode(secret, NOUR, new Date());
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    const refused = await send('/admin/login/code', {
      fields: { csrf: first.csrf, code: wrong },
      cookie: first.cookie,
      from: '192.0.2.50',
    });
    expect(refused.status).toBe(401);
    expect(alertOf(refused.text)).toBe(
      'That code is not right, or it was used already. Type the code your app shows now, or a recovery code.',
    );
    expect(refused.cookie).toBe('');
    expect(
      (await send('/admin/login/code', { fields: { csrf: first.csrf, code: right }, cookie: first.cookie, from: '192.0.2.50' }))
        .status,
    ).toBe(303);
    // Someone who saw the code and knows the password, within the same 30 seconds: refused.
    const second = await password(NOUR, { from: '192.0.2.51' });
    const replayed = await send('/admin/login/code', {
      fields: { csrf: second.csrf, code: right },
      cookie: second.cookie,
      from: '192.0.2.51',
    });
    expect(replayed.status).toBe(401);
    expect(alertOf(replayed.text)).toBe(
      'That code was used to sign in already, so it cannot be used again. Wait for the next code in your app (a new one every 30 seconds) and type that one.',
    );
    // The Arabic inbox says the same in Arabic; again no failure.
    const arabic = await send('/admin/login/code', {
      fields: { csrf: second.csrf, code: right },
      cookie: `${second.cookie}; globaq-inbox-language=ar`,
      from: '192.0.2.51',
    });
    expect(arabic.status).toBe(401);
    expect(alertOf(arabic.text)).toMatch(/^استُخدم هذا الرمز لتسجيل الدخول من قبل، فلا يمكن استخدامه مرة أخرى/);
    expect(auditActions(NOUR)).toEqual([
      'password accepted',
      'second step failed',
      'signed in',
      'password accepted',
      'second step refused',
      'second step refused',
    ]);
  });

  test("the set-up's code typed again at sign-in within its 30 seconds: told to wait for the next, not counted; the next code passes", async () => {
    const email = 'rana@globaq.example';
    const secret = newTotpSecret();
    // Set up just now, as the set-up page records it: the step of the code it took.
    const setUpAt = new Date();
    const staff = openStaffStore(server.dbPath);
    await staff.add(email, await hashPassword(PASSWORD, LIGHT_HASH), setUpAt);
    await staff.enrolTwoStep(email, sealSecret(KEY, email, secret), stepAt(setUpAt), [], setUpAt);
    await staff.close();
    const failures = () => {
      const db = new DatabaseSync(server.dbPath);
      try {
        return db
          .prepare('SELECT coalesce(sum(failures), 0) AS n FROM sign_in_failures WHERE key = ?')
          .get(`account:${email}`) as {
          n: number;
        };
      } finally {
        db.close();
      }
    };
    const signIn = await password(email, { from: '192.0.2.60' });
    const counted = failures().n;
    // Typed three times, as a puzzled person does: never counted, never locking.
    for (let i = 0; i < 3; i += 1) {
      const again = await send('/admin/login/code', {
        fields: { csrf: signIn.csrf, code: totpCode(secret, email, setUpAt) },
        cookie: signIn.cookie,
        from: '192.0.2.60',
      });
      expect(again.status).toBe(401);
      expect(alertOf(again.text)).toBe(
        'That code has just set up your two-step sign-in, so it cannot be used again. Wait for the next code in your app (a new one every 30 seconds) and type that one.',
      );
      expect(again.cookie).toBe('');
    }
    expect(failures().n).toBe(counted);
    expect(auditActions(email)).toEqual(['password accepted']);
    // The code field brings up the number pad and offers a code from a text message.
    const form = await send('/admin/login/code', { cookie: signIn.cookie, from: '192.0.2.60' });
    expect(form.text).toMatch(
      /<input[^>]*name="code"[^>]*autocomplete="one-time-code"[^>]*inputmode="numeric"[^>]*pattern="\[0-9 \]\*"/,
    );
    // The next code, typed in Arabic-Indic digits as an Arabic keyboard writes them: signed in.
    const next = totpCode(secret, email, new Date(setUpAt.getTime() + 30_000)).replace(/\d/g, (d) =>
      String.fromCharCode(0x0660 + Number(d)),
    );
    const done = await send('/admin/login/code', {
      fields: { csrf: signIn.csrf, code: next },
      cookie: signIn.cookie,
      from: '192.0.2.60',
    });
    expect(done.status).toBe(303);
    expect(auditActions(email)).toEqual(['password accepted', 'signed in']);
  });

  test('a recovery code signs in once, whatever its case and dashes; the second time it is refused', async () => {
    const code = recovery.get(OMAR)![3]!;
    const first = await password(OMAR, { from: '192.0.2.60' });
    expect(
      (
        await send('/admin/login/code', {
          fields: { csrf: first.csrf, code: code.toUpperCase().replace('-', ' ') },
          cookie: first.cookie,
          from: '192.0.2.60',
        })
      ).status,
    ).toBe(303);
    const second = await password(OMAR, { from: '192.0.2.60' });
    expect(
      (await send('/admin/login/code', { fields: { csrf: second.csrf, code }, cookie: second.cookie, from: '192.0.2.60' }))
        .status,
    ).toBe(401);
    // Another account's recovery code is none of this one's.
    expect(
      (
        await send('/admin/login/code', {
          fields: { csrf: second.csrf, code: recovery.get(HUDA)![0]! },
          cookie: second.cookie,
          from: '192.0.2.60',
        })
      ).status,
    ).toBe(401);
    expect(auditActions(OMAR)).toContain('used a recovery code');
  });

  test(`a burst of 60 code guesses at once: at most ${SLOW_AFTER.account} are checked, then the right code is refused too, with the wait`, async () => {
    const { cookie, csrf } = await password(SARA, { from: '198.51.100.7' });
    // No wait of the gate runs out during the burst, however long the machine takes over it.
    await server.clock!.hold();
    try {
      const guesses = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          send('/admin/login/code', { fields: { csrf, code: String(100000 + i) }, cookie, from: '198.51.100.7' }),
        ),
      );
      const statuses = guesses.map((answer) => answer.status);
      expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
      // The password's own attempt counted too: fewer code checks than the rule's count.
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(SLOW_AFTER.account);
      const right = await send('/admin/login/code', {
        fields: { csrf, code: totpCode(secrets.get(SARA)!, SARA, new Date(Date.now() + 30_000)) },
        cookie,
        from: '198.51.100.7',
      });
      expect(right.status).toBe(429);
      expect(right.retryAfter).toBeGreaterThan(0);
      expect(alertOf(right.text)).toMatch(/^Too many failed sign-ins: (wait \d+ seconds?|signing in is locked)/);
    } finally {
      await server.clock!.resume();
    }
  }, 60_000);
});

describe('required for every account', () => {
  test('an account without it sets it up right after its password: QR and key once, a code, recovery codes; then it is signed in', async () => {
    const requiredServer = await startServer({
      dbPath: path.join(dir, 'required.db'),
      env: { STAFF_TOTP_KEY: KEY_HEX, STAFF_TWO_STEP: 'required' },
    });
    try {
      const email = 'laila@globaq.example';
      const staff = openStaffStore(requiredServer.dbPath);
      await staff.add(email, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
      await staff.close();
      const { answer, cookie } = await password(email, { base: requiredServer, next: LEAD_PATH });
      expect(answer.location).toBe(`/admin/two-step?next=${encodeURIComponent(LEAD_PATH)}`);
      // Nothing else before the set-up.
      expect((await send('/admin', { cookie, base: requiredServer })).location).toMatch(/^\/admin\/two-step/);
      // Opening the page makes no secret: the set-up starts with a post.
      const opened = await send(`/admin/two-step?next=${encodeURIComponent(LEAD_PATH)}`, { cookie, base: requiredServer });
      expect(opened.status).toBe(200);
      expect(opened.text).not.toContain('id="two-step-key"');
      expect(opened.text).toContain('Set up two-step sign-in');
      const started = await send('/admin/two-step', {
        fields: { csrf: csrfOf(opened.text), action: 'start', next: LEAD_PATH },
        cookie,
        base: requiredServer,
      });
      expect(started.status).toBe(200);
      expect(started.text).toMatch(/<svg [^>]*aria-label="QR code for your authenticator app"/);
      const secret = /id="two-step-key"[^>]*>([A-Z2-7 ]+)</.exec(started.text)![1]!.replace(/ /g, '');
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      // On the phone itself: a link its authenticator app opens, with the same secret.
      expect(/href="(otpauth:[^"]+)"/.exec(started.text)?.[1]).toContain(`secret=${secret}`);
      // Opening the page again (a reload, or a link from another site) shows the same secret, never a new one.
      const page = await send(`/admin/two-step?next=${encodeURIComponent(LEAD_PATH)}`, { cookie, base: requiredServer });
      expect(/id="two-step-key"[^>]*>([A-Z2-7 ]+)</.exec(page.text)![1]!.replace(/ /g, '')).toBe(secret);
      // A start posted from another site, or without the session's token, replaces nothing.
      for (const forged of [
        { fields: { csrf: csrfOf(page.text), action: 'start' }, origin: 'https://evil.example' },
        { fields: { action: 'start' } },
        { fields: { csrf: 'forged', action: 'start' } },
      ]) {
        const answer = await send('/admin/two-step', { ...forged, cookie, base: requiredServer });
        expect(answer.status).toBe(403);
      }
      const again = await send('/admin/two-step', { cookie, base: requiredServer });
      expect(/id="two-step-key"[^>]*>([A-Z2-7 ]+)</.exec(again.text)![1]!.replace(/ /g, '')).toBe(secret);
      const wrong = await send('/admin/two-step', {
        fields: { csrf: csrfOf(page.text), code: '000000', next: LEAD_PATH },
        cookie,
        base: requiredServer,
      });
      expect(wrong.status).toBe(401);
      const done = await send('/admin/two-step', {
        fields: { csrf: csrfOf(page.text), code: totpCode(secret, email, new Date()), next: LEAD_PATH },
        cookie,
        base: requiredServer,
      });
      expect(done.status).toBe(200);
      const codes = [...done.text.matchAll(/<code[^>]*>([a-z2-9]{5}-[a-z2-9]{5})<\/code>/g)].map((match) => match[1]);
      expect(codes).toHaveLength(10);
      expect(done.text).toContain(`href="${LEAD_PATH}"`);
      expect(done.cookie).toMatch(/^globaq-staff=/);
      expect((await send('/admin', { cookie: done.cookie, base: requiredServer })).status).toBe(200);
      // Shown once: the database keeps hashes only.
      const db = new DatabaseSync(requiredServer.dbPath);
      const stored = db.prepare('SELECT code_hash FROM staff_recovery_codes WHERE email = ?').all(email) as {
        code_hash: string;
      }[];
      const audit = (
        db.prepare('SELECT action FROM audit_log WHERE actor = ? ORDER BY seq').all(email) as { action: string }[]
      ).map((row) => row.action);
      db.close();
      expect(stored).toHaveLength(10);
      expect(stored.map((row) => row.code_hash)).not.toContain(codes[0]);
      // Nor anything a plain SHA-256 of the account and a code would match: a copy of the
      // database gives no quick way to test guesses.
      const kept = stored.map((row) => row.code_hash).join('\n');
      for (const code of codes) {
        const plain = createHash('sha256')
          .update(`${email}\n${code!.replace('-', '')}`)
          .digest();
        for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(kept).not.toContain(plain.toString(encoding));
      }
      expect(audit).toEqual(['password accepted', 'two-step sign-in set up', 'signed in']);
      // Next time: the code step.
      expect((await password(email, { base: requiredServer })).answer.location).toBe('/admin/login/code');
    } finally {
      await requiredServer.stop();
    }
  }, 60_000);

  test('a session signed in with the password alone, from before it was required, owes the set-up before anything else', async () => {
    const dbPath = path.join(dir, 'switched.db');
    const email = 'yusuf@globaq.example';
    const before = await startServer({ dbPath, env: { STAFF_TOTP_KEY: KEY_HEX, STAFF_TWO_STEP: 'optional' } });
    let cookie: string;
    try {
      const staff = openStaffStore(dbPath);
      await staff.add(email, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
      await staff.close();
      ({ cookie } = await password(email, { base: before }));
      expect((await send('/admin', { cookie, base: before })).status).toBe(200);
    } finally {
      await before.stop();
    }
    const after = await startServer({ dbPath, env: { STAFF_TOTP_KEY: KEY_HEX, STAFF_TWO_STEP: 'required' } });
    try {
      const list = await send('/admin', { cookie, base: after });
      expect(list.status).toBe(303);
      expect(list.location).toMatch(/^\/admin\/two-step/);
      const page = await send('/admin/two-step', { cookie, base: after });
      expect(page.text).toContain('Set up two-step sign-in');
      const post = await send(LEAD_PATH, { fields: { csrf: csrfOf(page.text), status: 'spam' }, cookie, base: after });
      expect(post.status).toBe(403);
    } finally {
      await after.stop();
    }
  });

  test('required without the key stops the server at start, naming the setting', async () => {
    await expect(startServer({ dbPath: path.join(dir, 'nokey.db'), env: { STAFF_TWO_STEP: 'required' } })).rejects.toThrow(
      /STAFF_TWO_STEP: required needs STAFF_TOTP_KEY/,
    );
  });
});

describe('without the key', () => {
  test('an account with two-step sign-in still owes its code (no fall-back to the password alone); its recovery codes still work', async () => {
    const keyless = await startServer({ dbPath: server.dbPath, env: { TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      const { answer, cookie, csrf } = await password(NOUR, { base: keyless, from: '192.0.2.70' });
      expect(answer.location).toBe('/admin/login/code');
      const code = totpCode(secrets.get(NOUR)!, NOUR, new Date(Date.now() + 30_000));
      expect(
        (await send('/admin/login/code', { fields: { csrf, code }, cookie, base: keyless, from: '192.0.2.70' })).status,
      ).toBe(401);
      expect(
        (
          await send('/admin/login/code', {
            fields: { csrf, code: recovery.get(NOUR)![5]! },
            cookie,
            base: keyless,
            from: '192.0.2.70',
          })
        ).status,
      ).toBe(303);
    } finally {
      await keyless.stop();
    }
  }, 60_000);
});

describe('the staff command resets it', () => {
  test('reset-two-step: the account is signed out everywhere, signs in with its password alone again (two-step optional), and the reset is audited', async () => {
    // A browser signed in before the reset (with the phone's code) is signed out by it.
    const before = await password(HUDA, { from: '192.0.2.91' });
    const signedIn = await send('/admin/login/code', {
      fields: { csrf: before.csrf, code: totpCode(secrets.get(HUDA)!, HUDA, new Date(Date.now() + 30_000)) },
      cookie: before.cookie,
      from: '192.0.2.91',
    });
    expect(signedIn.status).toBe(303);
    expect((await send('/admin', { cookie: signedIn.cookie })).status).toBe(200);
    let stderr = '';
    const code = await main(['staff', 'reset-two-step', HUDA, '--db', server.dbPath], {
      stdout: () => {},
      stderr: (text) => (stderr += text),
      env: { SUBMISSIONS_DB: server.dbPath },
      root: dir,
      cwd: dir,
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`Two-step sign-in is off for ${HUDA}`);
    const after = await send('/admin', { cookie: signedIn.cookie });
    expect(after.status).toBe(303);
    expect(after.location).toMatch(/^\/admin\/login/);
    const { answer } = await password(HUDA, { from: '192.0.2.90' });
    expect(answer.location).toBe('/admin');
    const db = new DatabaseSync(server.dbPath);
    const row = db.prepare("SELECT detail FROM audit_log WHERE action = 'reset two-step sign-in'").get() as { detail: string };
    const left = db.prepare('SELECT count(*) AS n FROM staff_recovery_codes WHERE email = ?').get(HUDA) as { n: number };
    db.close();
    expect(row.detail).toBe(HUDA);
    expect(left.n).toBe(0);
  });
});

describe("the account's other sessions", () => {
  /** Signs in with the password alone (an account without two-step): the session's cookie. */
  async function browser(email: string, from: string): Promise<string> {
    const { answer } = await password(email, { from });
    expect(answer.location).toBe('/admin');
    return answer.cookie;
  }

  test('setting up two-step sign-in ends the sessions of other browsers; the browser that set it up stays signed in', async () => {
    const email = 'salma@globaq.example';
    const staff = openStaffStore(server.dbPath);
    await staff.add(email, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
    await staff.close();
    const here = await browser(email, '192.0.2.60');
    const there = await browser(email, '198.51.100.60');
    expect((await send('/admin', { cookie: there })).status).toBe(200);
    const opened = await send('/admin/two-step', { cookie: here });
    expect(opened.status).toBe(200);
    // Opening the page makes no secret: the set-up starts with a post.
    const page = await send('/admin/two-step', { fields: { csrf: csrfOf(opened.text), action: 'start' }, cookie: here });
    expect(page.status).toBe(200);
    const secret = /id="two-step-key"[^>]*>([A-Z2-7 ]+)</.exec(page.text)![1]!.replace(/ /g, '');
    const done = await send('/admin/two-step', {
      fields: { csrf: csrfOf(page.text), code: totpCode(secret, email, new Date()) },
      cookie: here,
    });
    expect(done.status).toBe(200);
    expect(done.text).toMatch(/<code[^>]*>[a-z2-9]{5}-[a-z2-9]{5}<\/code>/);
    expect((await send('/admin', { cookie: here })).status).toBe(200);
    const after = await send('/admin', { cookie: there });
    expect(after.status).toBe(303);
    expect(after.location).toMatch(/^\/admin\/login/);
  });

  test("a new password from the staff command ends every session of the account, in every browser; another account's stays", async () => {
    const email = 'hind@globaq.example';
    const colleague = 'nadia@globaq.example';
    const staff = openStaffStore(server.dbPath);
    for (const account of [email, colleague]) await staff.add(account, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
    await staff.close();
    const one = await browser(email, '192.0.2.61');
    const two = await browser(email, '198.51.100.61');
    const theirs = await browser(colleague, '192.0.2.62');
    let stderr = '';
    const code = await main(['staff', 'password', email, '--db', server.dbPath], {
      stdout: () => {},
      stderr: (text) => (stderr += text),
      readSecret: async () => 'a brand new long passphrase',
      env: { SUBMISSIONS_DB: server.dbPath },
      root: dir,
      cwd: dir,
    });
    expect(code, stderr).toBe(0);
    for (const cookie of [one, two]) {
      const after = await send('/admin', { cookie });
      expect(after.status).toBe(303);
      expect(after.location).toMatch(/^\/admin\/login/);
    }
    expect((await send('/admin', { cookie: theirs })).status).toBe(200);
  });
});

describe('the wait after wrong passwords', () => {
  test('after 5 wrong passwords the wait is 2 s, as the README says; the right password during it is told the seconds left, and the wait does not grow', async () => {
    const email = 'wait@globaq.example';
    const staff = openStaffStore(server.dbPath);
    await staff.add(email, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
    await staff.close();
    const from = '203.0.113.9';
    // The server's clock stands still from the first wrong password: the wait is exactly what the
    // rules make it, and passes only when the test moves the clock on.
    await server.clock!.hold();
    try {
      for (let i = 0; i < SLOW_AFTER.account; i++)
        expect((await send('/admin/login', { fields: { email, password: `wrong ${i}` }, from })).status).toBe(401);
      const during = await send('/admin/login', { fields: { email, password: PASSWORD }, from });
      expect(during.status).toBe(429);
      expect(during.retryAfter).toBe(2);
      expect(alertOf(during.text)).toMatch(
        /^Too many failed sign-ins: wait 2 seconds, then sign in again\. Nothing was checked this time, and trying before then does not make the wait longer\.$/,
      );
      // Again at once: the same wait (a try during the wait is not counted).
      const again = await send('/admin/login', { fields: { email, password: PASSWORD }, from });
      expect(again.status).toBe(429);
      expect(again.retryAfter).toBe(during.retryAfter);
      // A moment before the wait is over: still refused, told the second left.
      await server.clock!.advance(1_999);
      const last = await send('/admin/login', { fields: { email, password: PASSWORD }, from });
      expect(last.status).toBe(429);
      expect(last.retryAfter).toBe(1);
      // The wait over: the right password signs in.
      await server.clock!.advance(1);
      expect((await send('/admin/login', { fields: { email, password: PASSWORD }, from })).status).toBe(303);
    } finally {
      await server.clock!.resume();
    }
  });

  test('each wrong password after a wait doubles the next: 2, 4, 8, 16 s, each told to the right password in full', async () => {
    const email = 'doubling@globaq.example';
    const staff = openStaffStore(server.dbPath);
    await staff.add(email, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
    await staff.close();
    const from = '203.0.113.10';
    await server.clock!.hold();
    try {
      for (let i = 1; i < SLOW_AFTER.account; i++)
        expect((await send('/admin/login', { fields: { email, password: `wrong ${i}` }, from })).status).toBe(401);
      for (const seconds of [2, 4, 8, 16]) {
        // Checked and counted (the gate is open): the wait that follows is twice the last.
        expect((await send('/admin/login', { fields: { email, password: `wrong after ${seconds}` }, from })).status).toBe(401);
        const during = await send('/admin/login', { fields: { email, password: PASSWORD }, from });
        expect(during.status).toBe(429);
        expect(during.retryAfter).toBe(seconds);
        expect(alertOf(during.text)).toMatch(
          new RegExp(`^Too many failed sign-ins: wait ${seconds} seconds, then sign in again\\.`),
        );
        await server.clock!.advance(seconds * 1000);
      }
      expect((await send('/admin/login', { fields: { email, password: PASSWORD }, from })).status).toBe(303);
    } finally {
      await server.clock!.resume();
    }
  });
});
