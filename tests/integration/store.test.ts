/** The SQLite submissions store on a real file in a temporary folder. */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, test } from 'vitest';
import { SCHEMA_VERSION } from '../../src/server/store/migrations/index';
import { openSqliteStore, sqliteSchemaVersion } from '../../src/server/store/sqlite/sqlite-store';
import { StoreError, type FormName, type SubmissionStore } from '../../src/server/store/store';
import { contactBody, partnerBody, tempDir } from '../helpers/server';

const opened: SubmissionStore[] = [];
const dirs: string[] = [];

function freshStore(options: Parameters<typeof openSqliteStore>[1] = {}) {
  const dir = tempDir('globaq-store-');
  dirs.push(dir);
  const file = path.join(dir, 'nested', 'folder', 'submissions.db');
  const store = openSqliteStore(file, options);
  opened.push(store);
  return { store, file };
}

async function all(iterable: AsyncIterable<unknown>) {
  const out: unknown[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('opening', () => {
  test('creates the file and its folders on first use, in WAL mode, at the current schema version', async () => {
    const { store, file } = freshStore();
    await store.ready;
    expect(fs.existsSync(file)).toBe(true);
    const db = new DatabaseSync(file, { readOnly: true });
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' });
    expect(sqliteSchemaVersion(db)).toBe(SCHEMA_VERSION);
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => row['name']);
    expect(tables).toEqual([
      'attachments',
      'audit_log',
      'bot_submissions',
      'held_digests',
      'kysely_migration',
      'kysely_migration_lock',
      'lead_events',
      'notifications',
      'reply_templates',
      'sign_in_failures',
      'sign_in_refusals',
      'site_secrets',
      'staff',
      'staff_devices',
      'staff_digests',
      'staff_recovery_codes',
      'staff_sessions',
      'submissions',
      'used_challenges',
    ]);
    db.close();
  });

  test('reopening keeps the rows and applies no migration twice', async () => {
    const { store, file } = freshStore();
    await store.save({ form: 'contact', fields: contactBody() });
    await store.close();
    const again = openSqliteStore(file);
    opened.push(again);
    expect(await again.count()).toBe(1);
  });

  test('refuses a database written by a newer version, and a missing one when told not to create it', async () => {
    const { store, file } = freshStore();
    await store.close();
    const db = new DatabaseSync(file);
    db.exec("INSERT INTO kysely_migration (name, timestamp) VALUES ('9999-from-the-future', '2030-01-01T00:00:00.000Z')");
    db.close();
    const newer = openSqliteStore(file);
    await expect(newer.ready).rejects.toThrow(/newer than this code knows/);
    await expect(newer.count()).rejects.toThrow(/newer than this code knows/);
    await newer.close();
    expect(() => openSqliteStore(path.join(path.dirname(file), 'absent.db'), { create: false })).toThrow(StoreError);
    expect(fs.existsSync(path.join(path.dirname(file), 'absent.db'))).toBe(false);
  });
});

describe('saving and reading', () => {
  test('a submission is stored field for field, with the received time beside it', async () => {
    const { store } = freshStore();
    const fields = partnerBody();
    const receivedAt = new Date('2026-11-22T10:30:01.234Z');
    const saved = await store.save({ form: 'partner', fields, receivedAt });
    expect(saved.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(saved.receivedAt).toBe('2026-11-22T10:30:01.234Z');
    const [row] = await store.list({ form: 'partner' });
    expect(row).toEqual({ id: saved.id, form: 'partner', receivedAt: '2026-11-22T10:30:01.234Z', language: 'en', fields });
    expect(Object.keys(row?.fields ?? {})).toEqual(Object.keys(fields));
  });

  test('text that looks like code is kept verbatim', async () => {
    const { store } = freshStore();
    const hostile = {
      firstName: "Robert'); DROP TABLE submissions;--",
      lastName: '<script>alert("x")</script>',
      email: 'a@example.com',
      message: '=HYPERLINK("http://evil.example","click") \u0000 {{7*7}} ${process.exit()} ../../etc/passwd',
    };
    await store.save({ form: 'contact', fields: contactBody(hostile) });
    const [row] = await store.list();
    expect(row?.fields).toEqual(contactBody(hostile));
    expect(await store.count()).toBe(1);
  });

  test('list is newest first and bounded; count and export filter by form and time; export is oldest first', async () => {
    const { store } = freshStore();
    const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 10, minute));
    for (let minute = 0; minute < 5; minute++)
      await store.save({ form: 'contact', fields: contactBody({ lastName: `C${minute}` }), receivedAt: at(minute) });
    for (let minute = 0; minute < 3; minute++)
      await store.save({ form: 'partner', fields: partnerBody({ name: `P${minute}` }), receivedAt: at(minute) });

    expect((await store.list({ limit: 2 })).map((row) => row.fields['name'] ?? row.fields['lastName'])).toEqual(['P2', 'P1']);
    expect(await store.count()).toBe(8);
    expect(await store.count({ form: 'contact' })).toBe(5);
    expect(await store.count({ form: 'contact', since: at(3) })).toBe(2);
    expect(await store.count({ form: 'partner', until: at(1) })).toBe(2);
    const exported = (await all(store.export({ form: 'contact', since: at(1), until: at(3) }))) as {
      fields: Record<string, unknown>;
    }[];
    expect(exported.map((row) => row.fields['lastName'])).toEqual(['C1', 'C2', 'C3']);
  });

  test("the honeypot's catch is kept apart: never listed, counted or exported with the leads", async () => {
    const { store } = freshStore();
    await store.save({ form: 'contact', fields: contactBody({ firstName: 'Human' }) });
    const bot = await store.save({ form: 'contact', fields: contactBody({ firstName: 'Bot' }), bot: true });
    expect(await store.count()).toBe(1);
    expect((await store.list()).map((row) => row.fields['firstName'])).toEqual(['Human']);
    expect(((await all(store.export({ form: 'contact' }))) as { id: string }[]).map((row) => row.id)).not.toContain(bot.id);
    expect(await store.count({ bots: true })).toBe(1);
    expect((await store.list({ bots: true }))[0]?.id).toBe(bot.id);
  });

  test('submissions arriving together are all committed, each acknowledged once', async () => {
    const { store, file } = freshStore();
    const saved = await Promise.all(
      Array.from({ length: 450 }, (_, n) => store.save({ form: n % 3 === 0 ? 'partner' : 'contact', fields: { n } })),
    );
    expect(new Set(saved.map((s) => s.id)).size).toBe(450);
    expect(await store.count()).toBe(450);
    // Committed for other connections to see, not just this one.
    const db = new DatabaseSync(file, { readOnly: true });
    expect(db.prepare('SELECT count(*) AS n FROM submissions').get()).toEqual({ n: 450 });
    db.close();
  });

  test('one failing submission among concurrent ones fails alone; the others are stored', async () => {
    const { store } = freshStore();
    const results = await Promise.allSettled([
      store.save({ form: 'contact', fields: { n: 1 } }),
      store.save({ form: 'nonsense' as FormName, fields: { n: 2 } }),
      store.save({ form: 'partner', fields: { n: 3 } }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await store.count()).toBe(2);
  });

  test('a closed store refuses to save, and closing commits the saves under way', async () => {
    const { store, file } = freshStore();
    const pending = store.save({ form: 'contact', fields: contactBody() });
    await store.close();
    await expect(pending).resolves.toHaveProperty('id');
    await expect(store.save({ form: 'contact', fields: contactBody() })).rejects.toThrow(StoreError);
    const again = openSqliteStore(file);
    opened.push(again);
    expect(await again.count()).toBe(1);
  });
});

describe('the outbox: a lead and its notification, together or not at all', () => {
  const notice = () => ({ subject: 'New lead', text: 'text', html: '<p>html</p>', replyTo: 'omar@example.com' });
  const count = (file: string, table: string) => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
    } finally {
      db.close();
    }
  };

  test('a lead saved with its notice has one pending notification; a caught bot and a lead without a notice have none', async () => {
    const { store, file } = freshStore();
    const { id } = await store.save({ form: 'contact', fields: contactBody(), notice });
    await store.save({ form: 'contact', fields: contactBody(), notice, bot: true });
    await store.save({ form: 'contact', fields: contactBody() });
    const db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare('SELECT submission_id, status, subject, reply_to FROM notifications').all();
    db.close();
    expect(rows).toEqual([{ submission_id: id, status: 'pending', subject: 'New lead', reply_to: 'omar@example.com' }]);
  });

  test('a notice that cannot be composed stores neither the lead nor a notification', async () => {
    const { store, file } = freshStore();
    await store.ready;
    await expect(
      store.save({
        form: 'contact',
        fields: contactBody(),
        notice: () => {
          throw new Error('no labels');
        },
      }),
    ).rejects.toThrow(StoreError);
    expect([count(file, 'submissions'), count(file, 'notifications')]).toEqual([0, 0]);
  });

  test('a notification that cannot be written takes its lead with it, and no other lead', async () => {
    const { store, file } = freshStore();
    const good = store.save({ form: 'contact', fields: contactBody({ firstName: 'Kept' }), notice });
    // NOT NULL on the subject: the notification's insert fails inside the lead's savepoint.
    const bad = store.save({
      form: 'contact',
      fields: contactBody({ firstName: 'Lost' }),
      notice: () => ({ ...notice(), subject: null as unknown as string }),
    });
    await expect(bad).rejects.toThrow(StoreError);
    await good;
    expect([count(file, 'submissions'), count(file, 'notifications')]).toEqual([1, 1]);
  });
});

describe('files sent with a lead: with it or not at all', () => {
  const PDF = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
  let storeFile = '';
  const files = () => {
    const folder = path.join(path.dirname(storeFile), 'submissions-files');
    return fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [];
  };

  test('saved beside the database, listed and read back by id; purged with their lead', async () => {
    const { store, file } = freshStore();
    storeFile = file;
    const { id } = await store.save({
      form: 'partner',
      fields: partnerBody(),
      attachments: [{ name: 'cv.pdf', type: 'application/pdf', bytes: PDF }],
    });
    const [record] = await store.attachments(id);
    expect(record).toMatchObject({ submissionId: id, name: 'cv.pdf', type: 'application/pdf', size: PDF.byteLength });
    expect(files()).toEqual([record!.id]);
    expect((await store.attachment(record!.id))?.bytes).toEqual(PDF);
    expect(await store.attachment('../submissions.db')).toBeUndefined();
    // A caught bot's files are never kept.
    await store.save({
      form: 'partner',
      fields: partnerBody(),
      bot: true,
      attachments: [{ name: 'x.pdf', type: 'application/pdf', bytes: PDF }],
    });
    expect(files()).toEqual([record!.id]);
    expect(await store.purge(new Date(Date.now() + 1000))).toEqual({ leads: 1, bots: 1, notifications: 0, attachments: 1 });
    expect(files()).toEqual([]);
  });

  test('a save that cannot be committed leaves no file behind', async () => {
    const { store, file } = freshStore();
    storeFile = file;
    const pending = store.save({
      form: 'partner',
      fields: partnerBody(),
      attachments: [{ name: 'cv.pdf', type: 'application/pdf', bytes: PDF }],
    });
    await store.close();
    await expect(pending).rejects.toThrow(StoreError);
    expect(files()).toEqual([]);
    const db = new DatabaseSync(file, { readOnly: true });
    expect(db.prepare('SELECT count(*) AS n FROM attachments').get()).toEqual({ n: 0 });
    db.close();
  });
});
