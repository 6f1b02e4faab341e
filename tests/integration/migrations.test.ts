/**
 * The migrations as files (src/server/store/migrations/), through Kysely's Migrator, on both
 * databases: a database the code before them made (tests/fixtures/legacy-schema.ts, its own SQL
 * and its own record of the version) is refused by the stores until `migrate` (migrateDatabase)
 * has run, then opens with today's code, keeps its rows, runs no old migration again and reaches
 * the latest version with the same schema as a fresh database; a database newer than the code is
 * refused. Both databases' fresh schemas are compared in
 * tests/integration/schema-parity.test.ts.
 *
 * Without PostgreSQL (tests/postgres-setup.ts says why), its half is skipped, never passed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { Kysely, PostgresDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { openStores, type Stores } from '../../src/server/store/database';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/server/store/migrations/index';
import { migrateDatabase } from '../../src/server/store/migrate';
import { sqliteSchemaVersion } from '../../src/server/store/sqlite/sqlite-store';
import { ConnectionLock, NodeSqliteDialect } from '../../src/server/store/sqlite/sqlite-dialect';
import type { Database } from '../../src/server/store/schema';
import { LEGACY, PG_MIGRATIONS, SQLITE_MIGRATIONS } from '../fixtures/legacy-schema';
import { freshDatabase } from '../helpers/postgres';
import { postgresFacts, sqliteFacts } from '../helpers/schema-facts';
import { contactBody, tempDir } from '../helpers/server';

const postgresUrl = inject('postgresUrl');
const unavailable = inject('postgresUnavailable');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const LEAD = '11111111-2222-4333-8444-555555555555';
const STAFF = 'huda@globaq.example';
/** Rows as the code before the migration files wrote them at its last version, in SQL both databases take ($n numbered). */
const ROWS: readonly [string, readonly (string | number)[]][] = [
  [
    "INSERT INTO staff (email, password_hash, created_at, password_changed_at) VALUES ($1, 'scrypt$x', $2, $2)",
    [STAFF, '2026-10-01T07:00:00.000Z'],
  ],
  [
    "INSERT INTO submissions (id, form, received_at, fields, language, status, assigned_to) VALUES ($1, 'contact', $2, $3, 'ar', 'closed', $4)",
    [LEAD, '2026-10-01T08:00:00.000Z', JSON.stringify(contactBody({ firstName: 'Old' })), STAFF],
  ],
  [
    "INSERT INTO lead_events (lead_id, at, actor, kind, detail) VALUES ($1, $2, $3, 'note', 'Call Sunday')",
    [LEAD, '2026-10-02T09:00:00.000Z', STAFF],
  ],
];

const names = Object.keys(MIGRATIONS).sort();

/** What a reopened database holds through the stores: the lead, its timeline, the account. */
async function rowsKept(stores: Stores) {
  await stores.ready;
  const [lead] = await stores.submissions.list();
  expect(lead).toMatchObject({ id: LEAD, language: 'ar', fields: { firstName: 'Old' } });
  expect(await stores.submissions.count()).toBe(1);
  expect((await stores.inbox.timeline(LEAD)).map((event) => event.detail)).toEqual(['Call Sunday']);
  expect((await stores.staff.list()).map((account) => account.email)).toEqual([STAFF]);
}

/** The last version the code before the migration files made; the files after it are new. */
const LEGACY_VERSION = SQLITE_MIGRATIONS.length;

test('the history is one file per version of the code before it, in order, then the newer files', () => {
  expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(LEGACY_VERSION);
  expect(PG_MIGRATIONS).toHaveLength(LEGACY_VERSION);
  expect(names.map((name) => Number(name.slice(0, 4)))).toEqual(names.map((_, index) => index + 1));
});

describe('SQLite', () => {
  const legacyFile = (version: number) => {
    const dir = tempDir('globaq-migrations-');
    dirs.push(dir);
    const file = path.join(dir, 'submissions.db');
    const db = new DatabaseSync(file);
    LEGACY.sqlite(db, version);
    return { db, file };
  };

  test('a file the code before the migration files made opens, keeps its rows and reaches the latest version', async () => {
    const { db, file } = legacyFile(SQLITE_MIGRATIONS.length);
    for (const [sql, values] of ROWS) db.prepare(sql.replace(/\$\d/g, (n) => `?${n.slice(1)}`)).run(...values);
    // The version as that code recorded it, read as the health check and backups read it.
    expect(sqliteSchemaVersion(db)).toBe(LEGACY_VERSION);
    db.close();

    // Refused until migrated, and left as it was.
    const before = openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 }, { create: false });
    await expect(before.ready).rejects.toThrow(
      `schema version ${LEGACY_VERSION}; this release needs ${SCHEMA_VERSION}: back it up, then run \`npm run submissions -- migrate\``,
    );
    await before.close();
    expect(await migrateDatabase({ dbPath: file, databaseUrl: undefined })).toEqual({ from: LEGACY_VERSION, to: SCHEMA_VERSION });
    // Migrated and opened twice: a migration that ran again would fail on its existing tables, or repeat the timeline.
    for (let open = 0; open < 2; open++) {
      expect(await migrateDatabase({ dbPath: file, databaseUrl: undefined })).toEqual({
        from: SCHEMA_VERSION,
        to: SCHEMA_VERSION,
      });
      const stores = openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 }, { create: false });
      try {
        await rowsKept(stores);
      } finally {
        await stores.close();
      }
    }
    const check = new DatabaseSync(file, { readOnly: true });
    try {
      expect(
        check
          .prepare('SELECT name FROM kysely_migration ORDER BY name')
          .all()
          .map((row) => row['name']),
      ).toEqual(names);
      expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: 0 });
      expect(sqliteSchemaVersion(check)).toBe(SCHEMA_VERSION);
    } finally {
      check.close();
    }

    const dir = tempDir('globaq-migrations-');
    dirs.push(dir);
    const fresh = path.join(dir, 'fresh.db');
    const stores = openStores({ dbPath: fresh, databaseUrl: undefined, poolMax: 1 });
    await stores.ready;
    await stores.close();
    expect(sqliteFacts(file)).toEqual(sqliteFacts(fresh));
    // STRICT, as before: a value of the wrong type is refused in every table.
    const strict = (at: string) => {
      const read = new DatabaseSync(at, { readOnly: true });
      try {
        return read
          .prepare(
            "SELECT name, strict FROM pragma_table_list WHERE schema = 'main' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY name",
          )
          .all();
      } finally {
        read.close();
      }
    };
    expect(strict(file)).toEqual(strict(fresh));
    expect(strict(fresh).every((row) => row['strict'] === 1)).toBe(true);
  });

  test('a file from an older version of that code is migrated from there', async () => {
    const { db, file } = legacyFile(9);
    db.close();
    await migrateDatabase({ dbPath: file, databaseUrl: undefined });
    const stores = openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 }, { create: false });
    await stores.ready;
    await stores.close();
    const check = new DatabaseSync(file, { readOnly: true });
    expect(sqliteSchemaVersion(check)).toBe(SCHEMA_VERSION);
    check.close();
  });

  test('a file newer than this code is refused, and left as it was', async () => {
    const { db, file } = legacyFile(SQLITE_MIGRATIONS.length);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    const stores = openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 }, { create: false });
    await expect(stores.ready).rejects.toThrow(
      `schema version ${SCHEMA_VERSION + 1}, newer than this code knows (${SCHEMA_VERSION})`,
    );
    await expect(stores.submissions.count()).rejects.toThrow(/newer than this code knows/);
    await stores.close();
    const check = new DatabaseSync(file, { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION + 1 });
    check.close();
  });
});

describe.skipIf(unavailable !== '')(`PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  const legacyDatabase = async (version: number, rows: typeof ROWS = []) => {
    const url = await freshDatabase(postgresUrl);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      await LEGACY.postgres(pool, version);
      for (const [sql, values] of rows) await pool.query(sql, [...values]);
    } finally {
      await pool.end();
    }
    return url;
  };

  test('a database the code before the migration files made opens, keeps its rows and reaches the latest version', async () => {
    const url = await legacyDatabase(PG_MIGRATIONS.length, ROWS);
    const before = openStores({ dbPath: '', databaseUrl: url, poolMax: 1 });
    await expect(before.ready).rejects.toThrow(`this release needs ${SCHEMA_VERSION}`);
    await before.close();
    // Migrated by several at once: the version is taken over once, under the lock.
    await Promise.all(Array.from({ length: 3 }, () => migrateDatabase({ dbPath: '', databaseUrl: url })));
    const instances = Array.from({ length: 3 }, () => openStores({ dbPath: '', databaseUrl: url, poolMax: 2 }));
    try {
      await Promise.all(instances.map((stores) => rowsKept(stores)));
    } finally {
      await Promise.all(instances.map((stores) => stores.close()));
    }
    const reopened = openStores({ dbPath: '', databaseUrl: url, poolMax: 2 });
    try {
      await rowsKept(reopened);
    } finally {
      await reopened.close();
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      expect((await client.query('SELECT name FROM kysely_migration ORDER BY name')).rows.map((row) => row.name)).toEqual(names);
      expect((await client.query("SELECT to_regclass('schema_version') AS found")).rows).toEqual([{ found: null }]);
    } finally {
      await client.end();
    }
    const fresh = await freshDatabase(postgresUrl);
    const stores = openStores({ dbPath: '', databaseUrl: fresh, poolMax: 1 });
    await stores.ready;
    await stores.close();
    expect(await postgresFacts(url)).toEqual(await postgresFacts(fresh));
  });

  test('a database from an older version of that code is migrated from there', async () => {
    const url = await legacyDatabase(9);
    await migrateDatabase({ dbPath: '', databaseUrl: url });
    const stores = openStores({ dbPath: '', databaseUrl: url, poolMax: 1 });
    await stores.ready;
    await stores.close();
    const fresh = await freshDatabase(postgresUrl);
    const other = openStores({ dbPath: '', databaseUrl: fresh, poolMax: 1 });
    await other.ready;
    await other.close();
    expect(await postgresFacts(url)).toEqual(await postgresFacts(fresh));
  });

  test('a database newer than this code is refused', async () => {
    const url = await legacyDatabase(PG_MIGRATIONS.length);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await pool.query(`UPDATE schema_version SET version = ${SCHEMA_VERSION + 1}`);
    await pool.end();
    const stores = openStores({ dbPath: '', databaseUrl: url, poolMax: 1 });
    await expect(stores.ready).rejects.toThrow(/newer than this code knows/);
    await stores.close();
  });
});

/**
 * A database today's code made before the outbox held several mails per lead (migrated to
 * 0013 by the same files): its notifications become the outbox's notification entries, each
 * under its lead's id, so `outbox` lists them and `outbox retry <lead id>` still queues one.
 */
describe('the outbox of several mails per lead, from a database made before it', () => {
  const BEFORE = '0013-held-digests';
  const SENT = '22222222-3333-4444-8555-666666666666';
  const rowsBefore: readonly [string, readonly (string | number)[]][] = [
    ...ROWS,
    [
      "INSERT INTO submissions (id, form, received_at, fields, language) VALUES ($1, 'contact', $2, $3, 'en')",
      [SENT, '2026-10-03T08:00:00.000Z', JSON.stringify(contactBody({ firstName: 'Sent' }))],
    ],
    [
      "INSERT INTO notifications (submission_id, status, subject, body_text, body_html, reply_to, created_at, attempts, next_attempt_at, last_error) VALUES ($1, 'failed', 'Contact from Old', 'text', '<p>html</p>', 'old@example.com', $2, 4, $2, 'refused')",
      [LEAD, '2026-10-01T08:00:00.000Z'],
    ],
    [
      "INSERT INTO notifications (submission_id, status, subject, body_text, body_html, created_at, attempts, next_attempt_at, sent_at) VALUES ($1, 'sent', 'Contact from Sent', 'text', '<p>html</p>', $2, 1, $2, $2)",
      [SENT, '2026-10-03T08:00:00.000Z'],
    ],
  ];

  async function movedForward(stores: Stores) {
    await stores.ready;
    const failed = await stores.outbox.list(['failed']);
    expect(failed).toMatchObject([
      {
        id: LEAD,
        submissionId: LEAD,
        kind: 'notification',
        recipients: [],
        subject: 'Contact from Old',
        replyTo: 'old@example.com',
        attempts: 4,
        lastError: 'refused',
      },
    ]);
    expect((await stores.outbox.forLead(SENT)).map((entry) => [entry.id, entry.kind, entry.status])).toEqual([
      [SENT, 'notification', 'sent'],
    ]);
    // The inbox reads the lead's notification as before.
    expect((await stores.inbox.lead(SENT))?.notification?.status).toBe('sent');
    expect(await stores.outbox.retry(LEAD, new Date('2026-11-01T00:00:00.000Z'))).toBe(true);
    expect((await stores.outbox.list(['pending'])).map((entry) => entry.id)).toEqual([LEAD]);
    // A second mail about the same lead has room beside its notification.
    const id = await stores.outbox.queue(
      { kind: 'reply', leadId: SENT, recipients: ['sent@example.com'], subject: 'Re', text: 'Hello', html: '<p>Hello</p>' },
      new Date('2026-11-01T00:00:00.000Z'),
    );
    expect((await stores.outbox.forLead(SENT)).map((entry) => [entry.id, entry.kind])).toEqual([
      [SENT, 'notification'],
      [id, 'reply'],
    ]);
  }

  test('SQLite', async () => {
    const dir = tempDir('lead-mails-migrations-');
    dirs.push(dir);
    const file = path.join(dir, 'submissions.db');
    const raw = new DatabaseSync(file);
    raw.exec('PRAGMA foreign_keys = ON');
    const kysely = new Kysely<Database>({ dialect: new NodeSqliteDialect(raw, new ConnectionLock()) });
    const { error } = await new Migrator({ db: kysely, provider: { getMigrations: async () => MIGRATIONS } }).migrateTo(BEFORE);
    expect(error).toBeUndefined();
    for (const [sql, values] of rowsBefore) raw.prepare(sql.replace(/\$\d/g, (n) => `?${n.slice(1)}`)).run(...values);
    raw.close();
    await migrateDatabase({ dbPath: file, databaseUrl: undefined });
    const stores = openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 }, { create: false });
    try {
      await movedForward(stores);
    } finally {
      await stores.close();
    }
  });

  test.skipIf(unavailable !== '')(`PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ''}`, async () => {
    const url = await freshDatabase(postgresUrl);
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
      const { error } = await new Migrator({ db: kysely, provider: { getMigrations: async () => MIGRATIONS } }).migrateTo(BEFORE);
      expect(error).toBeUndefined();
      for (const [sql, values] of rowsBefore) await pool.query(sql, [...values]);
    } finally {
      await pool.end();
    }
    await migrateDatabase({ dbPath: '', databaseUrl: url });
    const stores = openStores({ dbPath: '', databaseUrl: url, poolMax: 2 });
    try {
      await movedForward(stores);
    } finally {
      await stores.close();
    }
  });
});
