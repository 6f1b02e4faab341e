/**
 * Data rights (Saudi PDPL): the staff command erases one person's submission with everything
 * stored with it, or everything older than a retention period; on a real database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { main } from '../../src/server/cli';
import { cutoffFor } from '../../src/server/cli/leads';
import { composeLeadNotice } from '../../src/server/mail/lead-mail';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';
import { openStores } from '../../src/server/store/database';
import { contactBody, partnerBody, tempDir } from '../helpers/server';

let dir: string;
let dbPath: string;

async function run(...argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(argv, {
    stdout: (t) => (out += t),
    stderr: (t) => (out += t),
    env: { SUBMISSIONS_DB: dbPath },
    root: dir,
    cwd: dir,
  });
  return { code, out };
}

/** Every row of every table, to see exactly what an erasure leaves. */
function rows(): Record<string, string[]> {
  const db = new DatabaseSync(dbPath);
  try {
    const ids = (sql: string) => (db.prepare(sql).all() as { id: string }[]).map((row) => row.id).sort();
    return {
      leads: ids('SELECT id FROM submissions'),
      bots: ids('SELECT id FROM bot_submissions'),
      notifications: ids('SELECT submission_id AS id FROM notifications'),
    };
  } finally {
    db.close();
  }
}

let ids: { old: string; oldBot: string; recent: string; partner: string };

beforeEach(async () => {
  dir = tempDir('globaq-erase-');
  dbPath = path.join(dir, 'submissions.db');
  const store = openSqliteStore(dbPath);
  const monthsAgo = (months: number) => {
    const date = new Date();
    date.setUTCMonth(date.getUTCMonth() - months);
    return date;
  };
  const save = async (input: Parameters<typeof store.save>[0]) => (await store.save(input)).id;
  ids = {
    old: await save({
      form: 'contact',
      fields: contactBody({ firstName: 'Old' }),
      receivedAt: monthsAgo(30),
      notice: composeLeadNotice,
    }),
    oldBot: await save({ form: 'contact', fields: contactBody({ firstName: 'Bot' }), receivedAt: monthsAgo(30), bot: true }),
    recent: await save({
      form: 'contact',
      fields: contactBody({ firstName: 'Recent' }),
      receivedAt: monthsAgo(1),
      notice: composeLeadNotice,
    }),
    partner: await save({ form: 'partner', fields: partnerBody(), receivedAt: monthsAgo(2), notice: composeLeadNotice }),
  };
  await store.close();
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('delete ID', () => {
  test('erases the lead and its notification, says what it erased, and leaves every other row', async () => {
    expect(rows().notifications).toContain(ids.partner);
    const { code, out } = await run('delete', ids.partner);
    expect(code).toBe(0);
    expect(out).toContain(`Erased the partner submission ${ids.partner}`);
    expect(out).toContain('and its notification');
    const left = rows();
    expect(left.leads).toEqual([ids.old, ids.recent].sort());
    expect(left.notifications).toEqual([ids.old, ids.recent].sort());
    expect(left.bots).toEqual([ids.oldBot]);
    // The outbox no longer has it either.
    const stores = openStores({ dbPath, databaseUrl: undefined, poolMax: 1 });
    expect((await stores.outbox.list(['pending', 'sent', 'failed'])).map((entry) => entry.submissionId)).not.toContain(
      ids.partner,
    );
    await stores.close();
  });

  test("the honeypot's catch can be erased too; an unknown id erases nothing and says so", async () => {
    expect((await run('delete', ids.oldBot)).out).toContain(`Erased the contact submission ${ids.oldBot}`);
    const before = rows();
    const unknown = await run('delete', 'no-such-id\u001b[2J');
    expect(unknown.code).toBe(1);
    expect(unknown.out).toBe('No submission "no-such-id\\x1B[2J".\n');
    expect(rows()).toEqual(before);
  });

  test('without an id it explains itself', async () => {
    const { code, out } = await run('delete');
    expect(code).toBe(2);
    expect(out).toContain('delete takes one submission id.');
  });
});

describe('purge --older-than AGE', () => {
  test('erases leads, caught bots and notifications older than the age, and nothing newer', async () => {
    const { code, out } = await run('purge', '--older-than', '24m');
    expect(code).toBe(0);
    expect(out).toMatch(/^Erased what was received before .*: 1 lead, 1 caught by the honeypot, 1 notification\.$/m);
    expect(rows()).toEqual({
      leads: [ids.partner, ids.recent].sort(),
      bots: [],
      notifications: [ids.partner, ids.recent].sort(),
    });
  });

  test('an age it cannot read is refused before anything is erased', async () => {
    const before = rows();
    expect((await run('purge', '--older-than', '-3m')).code).toBe(2);
    for (const age of ['24', '2w', '0m', '24m; DROP TABLE submissions']) {
      const { code, out } = await run('purge', '--older-than', age);
      expect(code, age).toBe(2);
      expect(out).toContain('--older-than must be an age such as 24m (months), 90d (days) or 2y (years)');
    }
    expect((await run('purge')).code).toBe(2);
    expect(rows()).toEqual(before);
  });

  test('ages count back in calendar months, days and years', () => {
    const now = new Date('2026-11-23T10:00:00.000Z');
    expect(cutoffFor('24m', now).toISOString()).toBe('2024-11-23T10:00:00.000Z');
    expect(cutoffFor('90d', now).toISOString()).toBe('2026-08-25T10:00:00.000Z');
    expect(cutoffFor('2y', now).toISOString()).toBe('2024-11-23T10:00:00.000Z');
  });
});

/** The bytes of the database file, its write-ahead log and the files folder. */
function onDisk(): Buffer {
  const folder = path.join(dir, 'submissions-files');
  const files = [
    dbPath,
    `${dbPath}-wal`,
    ...(fs.existsSync(folder) ? fs.readdirSync(folder).map((name) => path.join(folder, name)) : []),
  ].filter((file) => fs.existsSync(file));
  return Buffer.concat(files.map((file) => fs.readFileSync(file)));
}

describe('what an erasure leaves on disk (SQLite)', () => {
  test('after a delete, nothing of the lead itself is left in the database file, its write-ahead log or the files folder', async () => {
    const stores = openStores({ dbPath, databaseUrl: undefined, poolMax: 1 });
    const NAME = 'Munira Alsubaie-Qz';
    const EMAIL = 'munira.qz@example.net';
    const CV_MARK = 'CV-BYTES-OF-MUNIRA-9b2c';
    try {
      const lead = await stores.submissions.save({
        form: 'partner',
        fields: partnerBody({ name: NAME, email: EMAIL, uploadedFiles: 'munira-cv.pdf' }),
        notice: composeLeadNotice,
        attachments: [
          { name: 'munira-cv.pdf', type: 'application/pdf', bytes: new TextEncoder().encode(`%PDF-1.7\n${CV_MARK}\n%%EOF\n`) },
        ],
      });
      expect(onDisk().includes(Buffer.from(EMAIL))).toBe(true);
      expect(await stores.submissions.delete(lead.id)).toMatchObject({ notification: true, attachments: 1 });
      const bytes = onDisk();
      for (const needle of [NAME, EMAIL, 'munira', CV_MARK])
        expect(bytes.includes(Buffer.from(needle, 'utf8')), `${needle} is still on disk`).toBe(false);
    } finally {
      await stores.close();
    }
  });

  test('after a delete, the database file, its write-ahead log and the files folder hold no trace of the visitor: name, e-mail, CV bytes', async () => {
    const stores = openStores({ dbPath, databaseUrl: undefined, poolMax: 1 });
    const NAME = 'Wadha Almutairi-Xq';
    const EMAIL = 'wadha.xq@example.net';
    const CV_MARK = 'CV-BYTES-OF-WADHA-5d1e';
    try {
      const { submissions, inbox, outbox } = stores;
      const lead = await submissions.save({
        form: 'partner',
        fields: partnerBody({ name: NAME, email: EMAIL, uploadedFiles: 'wadha-cv.pdf' }),
        notice: composeLeadNotice,
        attachments: [
          { name: 'wadha-cv.pdf', type: 'application/pdf', bytes: new TextEncoder().encode(`%PDF-1.7\n${CV_MARK}\n%%EOF\n`) },
        ],
      });
      // Staff worked on it: opened, searched for the name, exported by the e-mail; someone typed the e-mail at the sign-in form.
      await inbox.audit('huda@globaq.example', 'opened lead', lead.id, '', new Date());
      await inbox.audit(
        'huda@globaq.example',
        'searched leads',
        undefined,
        `1 found (filter: ${new URLSearchParams({ q: NAME })})`,
        new Date(),
      );
      await inbox.audit(
        'huda@globaq.example',
        'exported leads',
        undefined,
        `1 lead (filter: ${new URLSearchParams({ q: EMAIL })})`,
        new Date(),
      );
      await inbox.refusal({ account: EMAIL, network: '203.0.113.9', reason: 'wrong credentials' }, new Date());
      await inbox.attempt({ account: EMAIL, address: '203.0.113.9' }, new Date());
      expect(await outbox.list(['pending'])).toHaveLength(4);

      expect(await submissions.delete(lead.id)).toMatchObject({ notification: true, attachments: 1 });

      const folder = path.join(dir, 'submissions-files');
      const files = [
        dbPath,
        `${dbPath}-wal`,
        ...(fs.existsSync(folder) ? fs.readdirSync(folder).map((name) => path.join(folder, name)) : []),
      ].filter((file) => fs.existsSync(file));
      const bytes = Buffer.concat(files.map((file) => fs.readFileSync(file)));
      for (const needle of [NAME, 'Almutairi', EMAIL, encodeURIComponent(EMAIL), 'wadha', CV_MARK]) {
        expect(bytes.includes(Buffer.from(needle, 'utf8')), `${needle} is still on disk`).toBe(false);
        expect(bytes.includes(Buffer.from(needle.toLowerCase(), 'utf8')), `${needle} is still on disk`).toBe(false);
      }
    } finally {
      await stores.close();
    }
  });
});
