/**
 * Held leads reach a person, through the real server and a real SMTP server on loopback: the
 * daily digest (both languages, reasons in staff words, links to the held tab), sent once a day
 * however often the server starts; a held lead past its age is not erased until a digest has
 * warned of it and the warning is a week old; files past the network's daily quota, or with the
 * disk under its floor of free space, are not kept, and the lead is held saying so. The readiness probe and the metrics
 * show what is held.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { en } from '../../src/i18n/en';
import { ar } from '../../src/i18n/ar';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';
import { partnerBody, startServer, tempDir, type RunningServer } from '../helpers/server';
import { startSmtp, type MailSink } from '../helpers/smtp';
import { heldReasons } from '../helpers/held';
import { solvedProof } from '../helpers/proof';

const DAY = 86_400_000;
let dir: string;
let smtp: MailSink;
let dbPath: string;

beforeAll(async () => {
  dir = tempDir('globaq-digest-');
  dbPath = path.join(dir, 'submissions.db');
  smtp = await startSmtp();
});

afterAll(async () => {
  await smtp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The server as an operator runs it with notifications on; the digest due from midnight (HELD_DIGEST_HOUR=0). */
function start(env: Record<string, string> = {}): Promise<RunningServer> {
  return startServer({
    dbPath,
    env: {
      SMTP_URL: smtp.url,
      LEADS_NOTIFY_TO: 'leads@globaq.example',
      LEADS_NOTIFY_FROM: 'website@globaq.example',
      SITE_URL: 'https://www.globaq.example',
      HELD_DIGEST_HOUR: '0',
      HELD_PURGE_DAYS: '30',
      ...env,
    },
  });
}

const digests = () => smtp.mails.filter((mail) => String(mail.parsed.headers.get('x-globaq-digest') ?? '').startsWith('held '));

/** A multipart partner application as the form sends it, without a proof, with one PDF of `size` bytes. */
async function applyWithFile(baseUrl: string, size: number, headers: Record<string, string> = {}, proof = ''): Promise<Response> {
  const data = new FormData();
  if (proof) data.append('altcha', proof);
  for (const [name, value] of Object.entries(partnerBody({ uploadedFiles: '' }))) {
    if (Array.isArray(value)) for (const item of value) data.append(name, String(item));
    else data.append(name, value === null ? '' : String(value));
  }
  const pdf = new Uint8Array(size).fill(0x20);
  pdf.set(new TextEncoder().encode('%PDF-1.4\n'));
  data.append('uploadedFiles', new Blob([pdf], { type: 'application/pdf' }), 'cv.pdf');
  return fetch(`${baseUrl}/api/partner`, {
    method: 'POST',
    body: data,
    headers: { Accept: 'application/json', Origin: baseUrl, ...headers },
  });
}

test("files sent without a proof past the network's daily quota are not kept: the lead is held without them, saying so", async () => {
  // Notifications off here: the digest is the next test's.
  const server = await startServer({ dbPath, env: { SUBMISSIONS_UNPROVEN_FILES_MB_PER_DAY: '3' } });
  try {
    const sizes = [1_900_000, 1_000_000, 1_500_000];
    const statuses: number[] = [];
    for (const size of sizes) statuses.push((await applyWithFile(server.baseUrl, size)).status);
    // Every application is stored (201); the third would pass 3 MB today, so its file is not kept.
    expect(statuses).toEqual([201, 201, 201]);
    expect(heldReasons(dbPath)).toEqual(['noProof', 'noProof', 'fileQuota']);
    const db = new DatabaseSync(dbPath, { readOnly: true });
    try {
      const files = db.prepare('SELECT count(*) AS n, sum(size) AS bytes FROM attachments').get() as { n: number; bytes: number };
      expect(Number(files.n)).toBe(2);
      expect(Number(files.bytes)).toBe(2_900_000);
    } finally {
      db.close();
    }
    // Another network has its own quota.
    await server.stop();
    const other = await startServer({
      dbPath,
      env: { SUBMISSIONS_UNPROVEN_FILES_MB_PER_DAY: '3', TRUSTED_PROXIES: '127.0.0.1' },
    });
    try {
      expect((await applyWithFile(other.baseUrl, 1_500_000, { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(201);
      expect(heldReasons(dbPath).at(-1)).toBe('noProof');
    } finally {
      await other.stop();
    }
  } finally {
    await server.stop();
  }
});

test('the daily digest: one a day in English and Arabic, what is held and why, with links; a held lead past its age is kept until warned, then a week', async () => {
  // One held lead 40 days old (past HELD_PURGE_DAYS), beside the three of the test before.
  const store = openSqliteStore(dbPath, { create: false });
  const old = await store.save({
    form: 'contact',
    fields: {
      firstName: 'Old',
      lastName: 'Lead',
      email: 'old@example.com',
      country: 'Saudi Arabia',
      city: '',
      company: '',
      message: 'Hello',
    },
    receivedAt: new Date(Date.now() - 40 * DAY),
    held: 'manyPosts',
  });
  await store.close();
  const before = digests().length;

  const server = await start();
  try {
    const [mail] = (await smtp.waitFor(smtp.mails.length + 1)).slice(-1);
    expect(digests()).toHaveLength(before + 1);
    expect(mail!.recipients).toEqual(['leads@globaq.example']);
    expect(mail!.parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(mail!.parsed.subject).toBe(
      `${en['mail.digest.subject'].replace('{count}', '5')} · ${ar['mail.digest.subject'].replace('{count}', '5')}`,
    );
    const text = mail!.parsed.text ?? '';
    expect(text).toContain(en['admin.held.reason.fileQuota']);
    expect(text).toContain(ar['admin.held.reason.manyPosts']);
    expect(text).toContain('https://www.globaq.example/admin?status=held');
    expect(text).toContain(`https://www.globaq.example/admin/leads/${old.id}`);
    // Past its age, but this is its first warning: it goes a week from now, not today.
    const week = new Intl.DateTimeFormat('en', { timeZone: 'Asia/Riyadh', dateStyle: 'medium' }).format(
      new Date(Date.now() + 7 * DAY),
    );
    expect(text).toContain(`Erased on ${week}`);
    expect(mail!.parsed.html).toContain('dir="rtl"');

    // /readyz and /metrics tell the operator what is held.
    const ready = (await (await fetch(`${server.baseUrl}/readyz`)).json()) as {
      checks: Record<string, { ok: boolean; detail: string }>;
    };
    expect(ready.checks['held']).toEqual({ ok: true, detail: '5 held for review, the oldest 40 days' });
    const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(/^globaq_held_waiting 5$/m);
    expect(metrics).toMatch(/^globaq_held_unwarned_overdue 0$/m);
    expect(metrics).toMatch(/^globaq_held_digests_total\{outcome="sent"\} 1$/m);
  } finally {
    await server.stop();
  }
  // The lead is still there: warned now, erased a week after the warning at the earliest.
  const db = new DatabaseSync(dbPath, { readOnly: true });
  const row = db.prepare('SELECT review_reminded_at FROM submissions WHERE id = ?').get(old.id) as
    { review_reminded_at: string | null } | undefined;
  const digestRow = db.prepare('SELECT held, sent_at FROM held_digests').all() as { held: number; sent_at: string | null }[];
  db.close();
  expect(row?.review_reminded_at).toBeTruthy();
  expect(digestRow).toHaveLength(1);
  expect(digestRow[0]!.held).toBe(5);

  // Started again the same day: no second digest. The round a server runs at start is under way
  // once it listens, and the stop (SIGTERM) waits for it to end: a digest it sent is at the sink.
  const again = await start();
  await again.stop();
  expect(again.output()).toContain('"event":"stop.done"');
  expect(digests()).toHaveLength(before + 1);
});

test('without a digest (notifications off) a held lead is never erased, and /readyz says it is kept', async () => {
  const store = openSqliteStore(dbPath, { create: false });
  const unseen = await store.save({
    form: 'contact',
    fields: {
      firstName: 'Unseen',
      lastName: 'Lead',
      email: 'u@example.com',
      country: 'Saudi Arabia',
      city: '',
      company: '',
      message: 'Hi',
    },
    receivedAt: new Date(Date.now() - 400 * DAY),
    held: 'noProof',
  });
  await store.close();
  const server = await startServer({ dbPath, env: { HELD_PURGE_DAYS: '30' } });
  try {
    const ready = (await (await fetch(`${server.baseUrl}/readyz`)).json()) as {
      checks: Record<string, { ok: boolean; detail: string }>;
    };
    expect(ready.checks['held']).toEqual({
      ok: true,
      detail:
        '6 held for review, the oldest 400 days; 1 past 30 days kept until a digest warns staff (notifications are off: no digest is sent)',
    });
  } finally {
    await server.stop();
  }
  expect(heldReasons(dbPath)).toHaveLength(6);
  const check = openSqliteStore(dbPath, { create: false });
  expect((await check.list({ limit: 100 })).map((lead) => lead.id)).toContain(unseen.id);
  await check.close();
});

test("files with a valid proof have their network's own daily quota; under the disk's floor no file is kept, the lead is, and /readyz fails", async () => {
  const own = path.join(dir, 'proven.db');
  const server = await startServer({
    dbPath: own,
    env: { SUBMISSIONS_FILES_MB_PER_DAY: '3', SUBMISSIONS_UNPROVEN_FILES_MB_PER_DAY: '1', SUBMISSIONS_HELD_PER_DAY: '1' },
  });
  try {
    // A doubtful post spends its own account (one held lead, a file over its 1 MB), not the proven one.
    expect((await applyWithFile(server.baseUrl, 1_500_000)).status).toBe(201);
    const statuses: number[] = [];
    for (const size of [1_900_000, 1_000_000, 1_500_000])
      statuses.push((await applyWithFile(server.baseUrl, size, {}, await solvedProof(server.baseUrl))).status);
    expect(statuses).toEqual([201, 201, 201]);
    expect(heldReasons(own)).toEqual(['fileQuota', 'fileQuota']);
  } finally {
    await server.stop();
  }
  // Under the floor (more free space asked for than any disk has), the lead is kept without its files.
  const low = await startServer({ dbPath: own, env: { SUBMISSIONS_MIN_FREE_DISK_MB: '1000000000' } });
  try {
    expect((await applyWithFile(low.baseUrl, 100_000, {}, await solvedProof(low.baseUrl))).status).toBe(201);
    expect(heldReasons(own).at(-1)).toBe('lowDisk');
    const ready = await fetch(`${low.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    const { checks } = (await ready.json()) as { checks: Record<string, { ok: boolean; detail: string }> };
    expect(checks['files']).toMatchObject({ ok: false, detail: expect.stringContaining('SUBMISSIONS_MIN_FREE_DISK_MB') });
  } finally {
    await low.stop();
  }
  const db = new DatabaseSync(own, { readOnly: true });
  try {
    const files = db.prepare('SELECT sum(size) AS bytes FROM attachments').get() as { bytes: number };
    expect(Number(files.bytes)).toBe(2_900_000);
  } finally {
    db.close();
  }
});
