/**
 * `npm run submissions -- migrate-to DATABASE_URL`: moves what the SQLite file holds into an empty
 * PostgreSQL database, in one transaction; ids, times and order stay as they were. Sessions and
 * failed sign-ins are not moved (staff sign in again). A target that already holds leads or
 * accounts is refused (never two sites' data mixed); the SQLite file is only read, and stays as a backup.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { migratePg, redactUrl } from './postgres/pg-store.ts';
import { SCHEMA_VERSION } from './migrations/index.ts';
import { attachmentsDir, openMigratedDatabase, openSqliteStore } from './sqlite/sqlite-store.ts';
import { StoreError } from './store.ts';

type Row = Record<string, string | number | null>;

/** What stays behind: sign-in state (staff sign in again) and the migrations' own bookkeeping. */
const NOT_MOVED = ['staff_sessions', 'sign_in_failures', 'staff_devices', 'kysely_migration', 'kysely_migration_lock'];

const rows = (db: DatabaseSync, sql: string) => db.prepare(sql).iterate() as Iterable<Row>;

export async function migrateToPostgres(sqlitePath: string, databaseUrl: string, actor = '(staff command)') {
  // Checks the file is at the current schema (`migrate` brings it there), then reads it on a connection of its own.
  const store = openSqliteStore(sqlitePath, { create: false });
  try {
    await store.ready;
  } finally {
    await store.close();
  }
  const { db: source } = openMigratedDatabase(sqlitePath, SCHEMA_VERSION, 'current schema');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  try {
    await migratePg(pool);
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const existing = await client.query<{ n: string }>(
        'SELECT (SELECT count(*) FROM submissions) + (SELECT count(*) FROM bot_submissions) + (SELECT count(*) FROM staff) AS n',
      );
      if (Number(existing.rows[0]?.n ?? 0) > 0) {
        throw new StoreError(
          `The PostgreSQL database at ${redactUrl(databaseUrl)} already holds leads or staff accounts: migrate-to only fills an empty one.`,
        );
      }
      const moved = new Set(['lead_events']);
      /** Copies a table's columns, row by row in `order` (with `bytes`, a file's read from disk); how many rows. */
      const copy = async (table: string, columns: string, order: string, bytes?: (row: Row) => Buffer) => {
        moved.add(table);
        const names = bytes ? [...columns.split(', '), 'bytes'] : columns.split(', ');
        const text = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`;
        let count = 0;
        for (const row of rows(source, `SELECT ${columns} FROM ${table} ORDER BY ${order}`)) {
          const values = names.map((name) => (name === 'bytes' && bytes ? bytes(row) : row[name]));
          await client.query({ name: `move-${table}`, text, values });
          count += 1;
        }
        return count;
      };
      // The accounts first: a lead's assignment names one. Two-step sign-in moves with its account:
      // the encrypted secret (the same key reads it), the last step taken and the recovery codes' hashes.
      const staff = await copy(
        'staff',
        'email, password_hash, created_at, password_changed_at, totp_secret, totp_enrolled_at, totp_last_step',
        'email',
      );
      await copy('staff_recovery_codes', 'email, code_hash, used_at', 'email, code_hash');
      const leads = await copy(
        'submissions',
        'id, form, received_at, language, fields, status, status_by, status_at, assigned_to, review, review_reason, review_reminded_at, first_answered_at, released_at, follow_up_on',
        'seq',
      );
      // The timelines in their order; a correction names its note by the note's new number.
      const newSeq = new Map<number, number>();
      for (const row of rows(source, 'SELECT seq, lead_id, at, actor, kind, detail, corrects FROM lead_events ORDER BY seq')) {
        const corrects = row['corrects'] === null ? null : (newSeq.get(Number(row['corrects'])) ?? null);
        const inserted = await client.query<{ seq: string }>({
          name: 'move-event',
          text: 'INSERT INTO lead_events (lead_id, at, actor, kind, detail, corrects) VALUES ($1, $2, $3, $4, $5, $6) RETURNING seq',
          values: [row['lead_id'], row['at'], row['actor'], row['kind'], row['detail'], corrects],
        });
        newSeq.set(Number(row['seq']), Number(inserted.rows[0]!.seq));
      }
      const bots = await copy('bot_submissions', 'id, form, received_at, language, fields', 'seq');
      const notifications = await copy(
        'notifications',
        'submission_id, status, subject, body_text, body_html, reply_to, created_at, attempts, next_attempt_at, sent_at, last_error, id, kind, recipients, in_reply_to, actor',
        'created_at',
      );
      await copy('reply_templates', 'id, name, body_en, body_ar, updated_by, updated_at', 'updated_at');
      const folder = attachmentsDir(sqlitePath);
      const files = await copy(
        'attachments',
        'id, submission_id, position, name, type, size, sha256',
        'submission_id, position',
        (row) => {
          const file = path.join(folder, String(row['id']));
          if (!fs.existsSync(file))
            throw new StoreError(
              `The file ${String(row['name'])} of lead ${String(row['submission_id'])} is missing from ${folder}: restore it, or delete that lead, then run migrate-to again.`,
            );
          return fs.readFileSync(file);
        },
      );
      // The proof of work's state: its kept key (challenges issued before the move still verify) and
      // the challenges already used (still refused until they expire).
      await copy('site_secrets', 'name, value, created_at', 'name');
      await copy('held_digests', 'day, claimed_at, sent_at, held', 'day');
      await copy('staff_digests', 'day, email, claimed_at, sent_at', 'day, email');
      await copy('sign_in_refusals', 'at, account, network, reason', 'seq');
      await copy('used_challenges', 'id, expires_at', 'expires_at');
      const audit = await copy('audit_log', 'at, actor, action, lead_id, detail', 'seq');
      // A table this command does not know would be left behind unseen: nothing is moved instead.
      const unknown = [...rows(source, "SELECT name FROM sqlite_master WHERE type = 'table'")]
        .map((row) => String(row['name']))
        .filter((table) => !moved.has(table) && !NOT_MOVED.includes(table));
      if (unknown.length > 0)
        throw new StoreError(`migrate-to does not know the table(s) ${unknown.join(', ')}: nothing was moved.`);
      await client.query('INSERT INTO audit_log (at, actor, action, lead_id, detail) VALUES (now(), $1, $2, NULL, $3)', [
        actor,
        'moved from SQLite',
        `${leads} leads from ${sqlitePath}`,
      ]);
      await client.query('COMMIT');
      return { leads, bots, notifications, files, staff, audit };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error instanceof StoreError
        ? error
        : new StoreError(`Nothing was moved: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    } finally {
      client.release();
    }
  } finally {
    source.close();
    await pool.end();
  }
}
