/**
 * `npm run submissions -- migrate-to DATABASE_URL`: moves everything the SQLite file
 * holds into an empty PostgreSQL database, in one PostgreSQL transaction: the leads (with their
 * status, assignment, language and timeline), the honeypot's catch, the notifications, the files (read from the
 * files folder into the database), the staff accounts and the audit log. Sessions and failed
 * sign-ins are not moved (staff sign in again). Ids, times and order stay as they were.
 *
 * It refuses a target that already holds leads or accounts, so it can never mix two sites' data
 * or run twice; the SQLite file is only read, and stays as a backup.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { migratePg, redactUrl } from './postgres/pg-store.ts';
import { SCHEMA_VERSION } from './migrations/index.ts';
import { attachmentsDir, openMigratedDatabase, openSqliteStore } from './sqlite/sqlite-store.ts';
import { StoreError } from './store.ts';

interface Moved {
  readonly leads: number;
  readonly bots: number;
  readonly notifications: number;
  readonly files: number;
  readonly staff: number;
  readonly audit: number;
}

type Row = Record<string, string | number | null>;

/** Rows of a SQLite table, oldest first, a page at a time. */
function* rows(db: DatabaseSync, sql: string): Generator<Row> {
  for (const row of db.prepare(sql).iterate()) yield row as Row;
}

export async function migrateToPostgres(sqlitePath: string, databaseUrl: string, actor = '(staff command)'): Promise<Moved> {
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
      const moved = { leads: 0, bots: 0, notifications: 0, files: 0, staff: 0, audit: 0 };
      // The accounts first: a lead's assignment names one.
      // Two-step sign-in moves with its account: the encrypted secret (the same key reads it), the
      // last step taken and the recovery codes' hashes.
      for (const row of rows(
        source,
        'SELECT email, password_hash, created_at, password_changed_at, totp_secret, totp_enrolled_at, totp_last_step FROM staff ORDER BY email',
      )) {
        await client.query(
          'INSERT INTO staff (email, password_hash, created_at, password_changed_at, totp_secret, totp_enrolled_at, totp_last_step) VALUES ($1, $2, $3, $4, $5, $6, $7)',
          [
            row['email'],
            row['password_hash'],
            row['created_at'],
            row['password_changed_at'],
            row['totp_secret'],
            row['totp_enrolled_at'],
            row['totp_last_step'],
          ],
        );
        moved.staff += 1;
      }
      for (const row of rows(source, 'SELECT email, code_hash, used_at FROM staff_recovery_codes')) {
        await client.query('INSERT INTO staff_recovery_codes (email, code_hash, used_at) VALUES ($1, $2, $3)', [
          row['email'],
          row['code_hash'],
          row['used_at'],
        ]);
      }
      for (const row of rows(
        source,
        'SELECT id, form, received_at, language, fields, status, status_by, status_at, assigned_to, review, review_reason, review_reminded_at FROM submissions ORDER BY seq',
      )) {
        await client.query({
          name: 'move-lead',
          text: 'INSERT INTO submissions (id, form, received_at, language, fields, status, status_by, status_at, assigned_to, review, review_reason, review_reminded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)',
          values: [
            row['id'],
            row['form'],
            row['received_at'],
            row['language'],
            row['fields'],
            row['status'],
            row['status_by'],
            row['status_at'],
            row['assigned_to'],
            row['review'],
            row['review_reason'],
            row['review_reminded_at'],
          ],
        });
        moved.leads += 1;
      }
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
      for (const row of rows(source, 'SELECT id, form, received_at, language, fields FROM bot_submissions ORDER BY seq')) {
        await client.query({
          name: 'move-bot',
          text: 'INSERT INTO bot_submissions (id, form, received_at, language, fields) VALUES ($1, $2, $3, $4, $5)',
          values: [row['id'], row['form'], row['received_at'], row['language'], row['fields']],
        });
        moved.bots += 1;
      }
      for (const row of rows(source, 'SELECT * FROM notifications ORDER BY created_at')) {
        await client.query({
          name: 'move-notification',
          text: `INSERT INTO notifications (submission_id, status, subject, body_text, body_html, reply_to, created_at, attempts, next_attempt_at, sent_at, last_error, id, kind, recipients, in_reply_to, actor)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
          values: [
            row['submission_id'],
            row['status'],
            row['subject'],
            row['body_text'],
            row['body_html'],
            row['reply_to'],
            row['created_at'],
            row['attempts'],
            row['next_attempt_at'],
            row['sent_at'],
            row['last_error'],
            row['id'],
            row['kind'],
            row['recipients'],
            row['in_reply_to'],
            row['actor'],
          ],
        });
        moved.notifications += 1;
      }
      for (const row of rows(
        source,
        'SELECT id, name, body_en, body_ar, updated_by, updated_at FROM reply_templates ORDER BY updated_at',
      )) {
        await client.query({
          name: 'move-template',
          text: 'INSERT INTO reply_templates (id, name, body_en, body_ar, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6)',
          values: [row['id'], row['name'], row['body_en'], row['body_ar'], row['updated_by'], row['updated_at']],
        });
      }
      const folder = attachmentsDir(sqlitePath);
      for (const row of rows(
        source,
        'SELECT id, submission_id, position, name, type, size, sha256 FROM attachments ORDER BY submission_id, position',
      )) {
        const file = path.join(folder, String(row['id']));
        if (!fs.existsSync(file))
          throw new StoreError(
            `The file ${String(row['name'])} of lead ${String(row['submission_id'])} is missing from ${folder}: restore it, or delete that lead, then run migrate-to again.`,
          );
        await client.query({
          name: 'move-file',
          text: 'INSERT INTO attachments (id, submission_id, position, name, type, size, sha256, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
          values: [
            row['id'],
            row['submission_id'],
            row['position'],
            row['name'],
            row['type'],
            row['size'],
            row['sha256'],
            fs.readFileSync(file),
          ],
        });
        moved.files += 1;
      }
      // The proof of work's state: its kept key (challenges issued before the move still verify) and
      // the challenges already used (still refused until they expire).
      for (const row of rows(source, 'SELECT name, value, created_at FROM site_secrets ORDER BY name')) {
        await client.query('INSERT INTO site_secrets (name, value, created_at) VALUES ($1, $2, $3)', [
          row['name'],
          row['value'],
          row['created_at'],
        ]);
      }
      for (const row of rows(source, 'SELECT day, claimed_at, sent_at, held FROM held_digests ORDER BY day')) {
        await client.query('INSERT INTO held_digests (day, claimed_at, sent_at, held) VALUES ($1, $2, $3, $4)', [
          row['day'],
          row['claimed_at'],
          row['sent_at'],
          row['held'],
        ]);
      }
      for (const row of rows(source, 'SELECT id, expires_at FROM used_challenges ORDER BY expires_at')) {
        await client.query({
          name: 'move-challenge',
          text: 'INSERT INTO used_challenges (id, expires_at) VALUES ($1, $2)',
          values: [row['id'], row['expires_at']],
        });
      }
      for (const row of rows(source, 'SELECT at, actor, action, lead_id, detail FROM audit_log ORDER BY seq')) {
        await client.query({
          name: 'move-audit',
          text: 'INSERT INTO audit_log (at, actor, action, lead_id, detail) VALUES ($1, $2, $3, $4, $5)',
          values: [row['at'], row['actor'], row['action'], row['lead_id'], row['detail']],
        });
        moved.audit += 1;
      }
      await client.query('INSERT INTO audit_log (at, actor, action, lead_id, detail) VALUES (now(), $1, $2, NULL, $3)', [
        actor,
        'moved from SQLite',
        `${moved.leads} leads from ${sqlitePath}`,
      ]);
      await client.query('COMMIT');
      return moved;
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
