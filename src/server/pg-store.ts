/**
 * The PostgreSQL store (issue 18): the same interfaces as the SQLite one (./store.ts, the outbox,
 * the staff accounts, the inbox), for a site served by several receiver instances on one
 * database, or a company that keeps its leads in the database its IT already backs up.
 *
 * - One connection pool per process (at most DATABASE_POOL_MAX connections, default 10), every
 *   query with parameters ($1...), named where it runs often (a prepared statement per connection).
 * - The same versioned migrations as SQLite, written for PostgreSQL (PG_MIGRATIONS: entry N takes
 *   the schema from version N to N+1, the same tables as SQLite's entry N), applied at start under
 *   an advisory lock: instances starting together migrate once.
 * - A lead, its notification and its files in one transaction. Files are kept in the database
 *   (bytea), so every instance can serve them.
 * - The outbox is claimed row by row (FOR UPDATE SKIP LOCKED) with a lease: each notification is
 *   sent by one instance; one that dies mid-send leaves it to another once the lease lapses.
 * - Sessions and failed sign-ins live in the database: a staff member stays signed in whichever
 *   instance answers, and the lock counts every instance's failures.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { LocaleCode } from '../i18n/index.ts';
import type { AuditEntry, InboxLead, InboxStore, LeadFilter, SignInGate, StaffSession } from './inbox-store.ts';
import { NOTE_MAX, PAGE_SIZE, SEARCHED_FIELDS, SESSION_IDLE_MS, SESSION_MAX_MS, afterFailure, failureRun, gateOf, isLeadStatus, tokenHash, type FailureRun } from './inbox-store.ts';
import type { Stores } from './database.ts';
import { isNoticeStatus, toOutboxEntry, type OutboxRow, type OutboxStore } from './outbox.ts';
import type { StaffAccount, StaffStore } from './staff.ts';
import { StoreError, isFormName, type Query, type SaveInput, type StoredAttachment, type StoredSubmission, type SubmissionFields, type SubmissionStore } from './store.ts';

/** The advisory lock key the migrations are applied under (any constant; the same in every instance). */
const MIGRATION_LOCK = 7_265_106_021;
/** How long an instance holds a notification it is sending before another may take it. */
export const CLAIM_LEASE_MS = 2 * 60 * 1000;

/** The schema's history for PostgreSQL: entry N mirrors SQLite's entry N (./sqlite-store.ts). Append only. */
export const PG_MIGRATIONS: readonly string[] = [
  // 1: leads, and the honeypot's catch kept apart.
  `CREATE TABLE submissions (
    seq bigserial PRIMARY KEY,
    id uuid NOT NULL UNIQUE,
    form text NOT NULL CHECK (form IN ('contact', 'partner')),
    received_at timestamptz NOT NULL,
    fields jsonb NOT NULL CHECK (jsonb_typeof(fields) = 'object')
  );
  CREATE INDEX submissions_form_received ON submissions (form, received_at);
  CREATE TABLE bot_submissions (
    seq bigserial PRIMARY KEY,
    id uuid NOT NULL UNIQUE,
    form text NOT NULL CHECK (form IN ('contact', 'partner')),
    received_at timestamptz NOT NULL,
    fields jsonb NOT NULL CHECK (jsonb_typeof(fields) = 'object')
  );`,
  // 2: the outbox.
  `CREATE TABLE notifications (
    submission_id uuid PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
    subject text NOT NULL,
    body_text text NOT NULL,
    body_html text NOT NULL,
    reply_to text,
    created_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    sent_at timestamptz,
    last_error text,
    claimed_until timestamptz
  );
  CREATE INDEX notifications_due ON notifications (status, next_attempt_at);`,
  // 3: staff accounts.
  `CREATE TABLE staff (
    email text PRIMARY KEY,
    password_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    password_changed_at timestamptz NOT NULL
  );`,
  // 4: the staff inbox.
  `ALTER TABLE submissions ADD COLUMN status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in_progress', 'answered', 'spam'));
  ALTER TABLE submissions ADD COLUMN status_by text;
  ALTER TABLE submissions ADD COLUMN status_at timestamptz;
  ALTER TABLE submissions ADD COLUMN note text NOT NULL DEFAULT '';
  ALTER TABLE submissions ADD COLUMN note_by text;
  ALTER TABLE submissions ADD COLUMN note_at timestamptz;
  CREATE INDEX submissions_status ON submissions (status, seq);
  CREATE TABLE staff_sessions (
    token_hash text PRIMARY KEY,
    email text NOT NULL REFERENCES staff (email) ON DELETE CASCADE,
    csrf text NOT NULL,
    created_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL
  );
  CREATE INDEX staff_sessions_email ON staff_sessions (email);
  CREATE TABLE sign_in_failures (
    key text PRIMARY KEY,
    failures integer NOT NULL,
    last_failure_at timestamptz NOT NULL,
    locked_until timestamptz
  );
  CREATE TABLE audit_log (
    seq bigserial PRIMARY KEY,
    at timestamptz NOT NULL,
    actor text NOT NULL,
    action text NOT NULL,
    lead_id uuid,
    detail text NOT NULL DEFAULT ''
  );`,
  // 5: files sent with a lead, their bytes in the database (every instance serves them).
  `CREATE TABLE attachments (
    id uuid PRIMARY KEY,
    submission_id uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    position integer NOT NULL,
    name text NOT NULL,
    type text NOT NULL,
    size integer NOT NULL,
    sha256 text NOT NULL,
    bytes bytea NOT NULL
  );
  CREATE INDEX attachments_submission ON attachments (submission_id, position);`,
  // 6: the language each lead (and each of the honeypot's catch) was sent in; earlier rows were English.
  `ALTER TABLE submissions ADD COLUMN language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar'));
  ALTER TABLE bot_submissions ADD COLUMN language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar'));`,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const iso = (value: Date | string | null | undefined): string | undefined => (value === null || value === undefined ? undefined : new Date(value).toISOString());

/** Applies the migrations the database lacks, under the advisory lock; refuses a newer schema. */
export async function migratePg(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)');
      const found = await client.query<{ version: number }>('SELECT version FROM schema_version');
      let version = found.rows[0]?.version ?? 0;
      if (found.rowCount === 0) await client.query('INSERT INTO schema_version (version) VALUES (0)');
      if (version > PG_SCHEMA_VERSION) throw new StoreError(`The database is at schema version ${version}, newer than this code knows (${PG_SCHEMA_VERSION}): update the code.`);
      while (version < PG_SCHEMA_VERSION) {
        await client.query('BEGIN');
        try {
          await client.query(PG_MIGRATIONS[version]!);
          await client.query('UPDATE schema_version SET version = $1', [version + 1]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        version += 1;
      }
      return version;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** The four stores on one pool (./database.ts's Stores, which adds which database it is). */
export type PgDatabase = Omit<Stores, 'kind' | 'where'>;

/** Where the password is, hidden: for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return 'the DATABASE_URL';
  }
}

/** One pool and the four stores on it. Opening is synchronous; the first call waits for the migrations. */
export function openPgDatabase(url: string, options: { max?: number } = {}): PgDatabase {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 10_000 });
  // An idle connection the server dropped: the pool replaces it; nothing to crash over.
  pool.on('error', (error) => console.error(`PostgreSQL connection lost (the pool reconnects): ${error.message}`));
  const ready = migratePg(pool).then(
    () => undefined,
    (error: unknown) => {
      throw error instanceof StoreError ? error : new StoreError(`Cannot open the PostgreSQL database at ${redactUrl(url)}: ${String(error)}`, { cause: error });
    },
  );
  // Callers see the failure through their own calls (and the start-up check); this keeps it from crashing the process.
  ready.catch(() => undefined);
  let closed = false;

  async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = [], name?: string): Promise<pg.QueryResult<R>> {
    if (closed) throw new StoreError('The submissions store is closed');
    await ready;
    try {
      return await pool.query<R>(name ? { name, text, values } : { text, values });
    } catch (error) {
      throw error instanceof StoreError ? error : new StoreError(`PostgreSQL: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  async function transaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (closed) throw new StoreError('The submissions store is closed');
    await ready;
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error instanceof StoreError ? error : new StoreError(`PostgreSQL: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    } finally {
      client.release();
    }
  }

  const submissions = pgSubmissions(query, transaction);
  const database: PgDatabase = {
    submissions,
    outbox: pgOutbox(query),
    staff: pgStaff(query),
    inbox: pgInbox(query, transaction),
    ready,
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
  return database;
}

type Query_ = <R extends pg.QueryResultRow>(text: string, values?: unknown[], name?: string) => Promise<pg.QueryResult<R>>;
type Transaction = <T>(work: (client: pg.PoolClient) => Promise<T>) => Promise<T>;

interface SubmissionRow {
  id: string;
  form: string;
  received_at: Date;
  language: string;
  fields: SubmissionFields;
}

/** The columns a submission is read back from. */
const COLUMNS = 'id, form, received_at, language, fields';

function toSubmission(row: SubmissionRow): StoredSubmission {
  if (!isFormName(row.form)) throw new StoreError(`Unknown form "${row.form}" in the database`);
  // The column's CHECK admits the site's locale codes only.
  return { id: row.id, form: row.form, receivedAt: iso(row.received_at)!, language: row.language as LocaleCode, fields: row.fields };
}

const tableOf = (bots: boolean | undefined) => (bots === true ? 'bot_submissions' : 'submissions');

function whereOf(query: Query): { sql: string; values: unknown[] } {
  const clauses: string[] = [];
  const values: unknown[] = [];
  if (query.form !== undefined) {
    if (!isFormName(query.form)) throw new StoreError(`Unknown form "${String(query.form)}"`);
    values.push(query.form);
    clauses.push(`form = $${values.length}`);
  }
  if (query.since !== undefined) {
    values.push(query.since);
    clauses.push(`received_at >= $${values.length}`);
  }
  if (query.until !== undefined) {
    values.push(query.until);
    clauses.push(`received_at <= $${values.length}`);
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', values };
}

interface AttachmentRow {
  id: string;
  submission_id: string;
  name: string;
  type: string;
  size: number;
  sha256: string;
}

const toAttachment = (row: AttachmentRow): StoredAttachment => ({ id: row.id, submissionId: row.submission_id, name: row.name, type: row.type, size: Number(row.size), sha256: row.sha256 });

function pgSubmissions(query: Query_, transaction: Transaction): SubmissionStore {
  return {
    async save(input: SaveInput) {
      if (!isFormName(input.form)) throw new StoreError(`Unknown form "${String(input.form)}"`);
      const id = randomUUID();
      const receivedAt = input.receivedAt ?? new Date();
      const bot = input.bot === true;
      const stored: StoredSubmission = { id, form: input.form, receivedAt: receivedAt.toISOString(), language: input.language ?? 'en', fields: input.fields };
      let notice;
      try {
        notice = bot || !input.notice ? undefined : input.notice(stored);
      } catch (error) {
        throw new StoreError(`Could not compose the ${input.form} lead's notification: ${String(error)}`, { cause: error });
      }
      const files = bot ? [] : (input.attachments ?? []);
      await transaction(async (client) => {
        await client.query({
          name: `insert-${tableOf(bot)}`,
          text: `INSERT INTO ${tableOf(bot)} (id, form, received_at, language, fields) VALUES ($1, $2, $3, $4, $5)`,
          values: [id, input.form, receivedAt, stored.language, JSON.stringify(input.fields)],
        });
        if (notice) {
          await client.query({
            name: 'insert-notification',
            text: `INSERT INTO notifications (submission_id, status, subject, body_text, body_html, reply_to, created_at, next_attempt_at) VALUES ($1, 'pending', $2, $3, $4, $5, $6, $6)`,
            values: [id, notice.subject, notice.text, notice.html, notice.replyTo ?? null, receivedAt],
          });
        }
        for (const [position, file] of files.entries()) {
          await client.query({
            name: 'insert-attachment',
            text: 'INSERT INTO attachments (id, submission_id, position, name, type, size, sha256, bytes) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
            values: [randomUUID(), id, position, file.name, file.type, file.bytes.byteLength, createHash('sha256').update(file.bytes).digest('hex'), Buffer.from(file.bytes)],
          });
        }
      });
      return { id, receivedAt: stored.receivedAt };
    },

    async list(q = {}) {
      const limit = Math.min(1000, Math.max(1, Math.trunc(q.limit ?? 20)));
      const { sql, values } = whereOf(q);
      const result = await query<SubmissionRow>(`SELECT ${COLUMNS} FROM ${tableOf(q.bots)} ${sql} ORDER BY seq DESC LIMIT ${limit}`, values);
      return result.rows.map(toSubmission);
    },

    async count(q = {}) {
      const { sql, values } = whereOf(q);
      const result = await query<{ n: string }>(`SELECT count(*) AS n FROM ${tableOf(q.bots)} ${sql}`, values);
      return Number(result.rows[0]?.n ?? 0);
    },

    async *export(q = {}) {
      const { sql, values } = whereOf(q);
      // In pages of 500 by position, so a large export never sits whole in memory.
      let after = 0;
      for (;;) {
        const page = await query<SubmissionRow & { seq: string }>(
          `SELECT seq, ${COLUMNS} FROM ${tableOf(q.bots)} ${sql ? `${sql} AND` : 'WHERE'} seq > $${values.length + 1} ORDER BY seq ASC LIMIT 500`,
          [...values, after],
        );
        for (const row of page.rows) yield toSubmission(row);
        if (page.rows.length < 500) return;
        after = Number(page.rows.at(-1)!.seq);
      }
    },

    async delete(id) {
      if (!UUID.test(id)) return undefined;
      return transaction(async (client) => {
        for (const bots of [false, true]) {
          const counts = bots
            ? { notification: false, attachments: 0 }
            : await client
                .query<{ n: string; a: string }>('SELECT (SELECT count(*) FROM notifications WHERE submission_id = $1) AS n, (SELECT count(*) FROM attachments WHERE submission_id = $1) AS a', [id])
                .then(({ rows }) => ({ notification: Number(rows[0]?.n ?? 0) > 0, attachments: Number(rows[0]?.a ?? 0) }));
          // The notification and the files go with the lead (ON DELETE CASCADE), in this transaction.
          const row = (await client.query<SubmissionRow>(`DELETE FROM ${tableOf(bots)} WHERE id = $1 RETURNING ${COLUMNS}`, [id])).rows[0];
          if (row) return { submission: toSubmission(row), ...counts };
        }
        return undefined;
      });
    },

    async purge(before) {
      return transaction(async (client) => {
        const notifications = (await client.query('DELETE FROM notifications WHERE submission_id IN (SELECT id FROM submissions WHERE received_at < $1)', [before])).rowCount ?? 0;
        const attachments = (await client.query('DELETE FROM attachments WHERE submission_id IN (SELECT id FROM submissions WHERE received_at < $1)', [before])).rowCount ?? 0;
        const leads = (await client.query('DELETE FROM submissions WHERE received_at < $1', [before])).rowCount ?? 0;
        const bots = (await client.query('DELETE FROM bot_submissions WHERE received_at < $1', [before])).rowCount ?? 0;
        return { leads, bots, notifications, attachments };
      });
    },

    async attachments(submissionId) {
      if (!UUID.test(submissionId)) return [];
      const result = await query<AttachmentRow>('SELECT id, submission_id, name, type, size, sha256 FROM attachments WHERE submission_id = $1 ORDER BY position', [submissionId], 'attachments-of');
      return result.rows.map(toAttachment);
    },

    async attachment(id) {
      if (!UUID.test(id)) return undefined;
      const result = await query<AttachmentRow & { bytes: Buffer }>('SELECT id, submission_id, name, type, size, sha256, bytes FROM attachments WHERE id = $1', [id], 'attachment');
      const row = result.rows[0];
      if (!row) return undefined;
      const bytes = new Uint8Array(row.bytes.byteLength);
      bytes.set(row.bytes);
      return { record: toAttachment(row), bytes };
    },

    async close() {
      // The pool is the database's: PgDatabase.close() ends it.
    },
  };
}

const OUTBOX_COLUMNS = `n.submission_id, s.form, n.status, n.subject, n.body_text, n.body_html, n.reply_to, n.created_at, n.attempts, n.next_attempt_at, n.sent_at, n.last_error`;

function pgOutbox(query: Query_): OutboxStore {
  return {
    async claimDue(now, limit) {
      const result = await query<OutboxRow>(
        `WITH due AS (
           SELECT submission_id FROM notifications
           WHERE status = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)
           ORDER BY next_attempt_at, created_at LIMIT $2 FOR UPDATE SKIP LOCKED
         )
         UPDATE notifications n SET claimed_until = $3 FROM due, submissions s
         WHERE n.submission_id = due.submission_id AND s.id = n.submission_id
         RETURNING ${OUTBOX_COLUMNS}`,
        [now, limit, new Date(now.getTime() + CLAIM_LEASE_MS)],
        'outbox-claim',
      );
      return result.rows.map(toOutboxEntry).sort((a, b) => a.nextAttemptAt.localeCompare(b.nextAttemptAt) || a.createdAt.localeCompare(b.createdAt));
    },
    async markSent(id, at) {
      await query(`UPDATE notifications SET status = 'sent', sent_at = $1, attempts = attempts + 1, last_error = NULL, claimed_until = NULL WHERE submission_id = $2`, [at, id], 'outbox-sent');
    },
    async markRetry(id, attempts, next, error) {
      await query(`UPDATE notifications SET attempts = $1, next_attempt_at = $2, last_error = $3, claimed_until = NULL WHERE submission_id = $4 AND status = 'pending'`, [attempts, next, error, id], 'outbox-retry');
    },
    async markFailed(id, attempts, error) {
      await query(`UPDATE notifications SET status = 'failed', attempts = $1, last_error = $2, claimed_until = NULL WHERE submission_id = $3 AND status = 'pending'`, [attempts, error, id], 'outbox-failed');
    },
    async list(statuses) {
      if (statuses.length === 0) return [];
      const result = await query<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM notifications n JOIN submissions s ON s.id = n.submission_id WHERE n.status = ANY($1) ORDER BY n.created_at`, [statuses]);
      return result.rows.map(toOutboxEntry);
    },
    async retry(id, now) {
      if (!UUID.test(id)) return false;
      const result = await query(`UPDATE notifications SET status = 'pending', next_attempt_at = $1, sent_at = NULL, claimed_until = NULL WHERE submission_id = $2`, [now, id]);
      return (result.rowCount ?? 0) > 0;
    },
    async close() {},
  };
}

function pgStaff(query: Query_): StaffStore {
  return {
    async add(email, passwordHash, now) {
      try {
        await query('INSERT INTO staff (email, password_hash, created_at, password_changed_at) VALUES ($1, $2, $3, $3)', [email, passwordHash, now]);
      } catch (error) {
        if (String(error).includes('duplicate key')) throw new StoreError(`There is already an account for ${email}.`);
        throw error;
      }
    },
    async list(): Promise<StaffAccount[]> {
      const result = await query<{ email: string; created_at: Date; password_changed_at: Date }>('SELECT email, created_at, password_changed_at FROM staff ORDER BY email');
      return result.rows.map((row) => ({ email: row.email, createdAt: iso(row.created_at)!, passwordChangedAt: iso(row.password_changed_at)! }));
    },
    async passwordHash(email) {
      const result = await query<{ password_hash: string }>('SELECT password_hash FROM staff WHERE email = $1', [email], 'staff-hash');
      return result.rows[0]?.password_hash;
    },
    async setPassword(email, passwordHash, now) {
      return ((await query('UPDATE staff SET password_hash = $1, password_changed_at = $2 WHERE email = $3', [passwordHash, now, email])).rowCount ?? 0) > 0;
    },
    async remove(email) {
      return ((await query('DELETE FROM staff WHERE email = $1', [email])).rowCount ?? 0) > 0;
    },
    async close() {},
  };
}

interface LeadRow extends SubmissionRow {
  status: string;
  status_by: string | null;
  status_at: Date | null;
  note: string;
  note_by: string | null;
  note_at: Date | null;
  n_status: string | null;
  n_attempts: number | null;
  n_sent_at: Date | null;
  n_last_error: string | null;
}

const LEAD_SELECT = `SELECT s.seq, s.id, s.form, s.received_at, s.language, s.fields, s.status, s.status_by, s.status_at, s.note, s.note_by, s.note_at,
  n.status AS n_status, n.attempts AS n_attempts, n.sent_at AS n_sent_at, n.last_error AS n_last_error
  FROM submissions s LEFT JOIN notifications n ON n.submission_id = s.id`;

const SEARCH_TEXT = `lower(concat_ws(' ', ${SEARCHED_FIELDS.map((field) => `s.fields->>'${field}'`).join(', ')}))`;

function toLead(row: LeadRow): InboxLead {
  if (!isLeadStatus(row.status)) throw new StoreError(`Unexpected lead row ${row.id}`);
  const noticeStatus = row.n_status;
  return {
    ...toSubmission(row),
    status: row.status,
    statusBy: row.status_by ?? undefined,
    statusAt: iso(row.status_at),
    note: row.note,
    noteBy: row.note_by ?? undefined,
    noteAt: iso(row.note_at),
    notification:
      noticeStatus && isNoticeStatus(noticeStatus)
        ? { status: noticeStatus, attempts: Number(row.n_attempts ?? 0), sentAt: iso(row.n_sent_at), lastError: row.n_last_error ?? undefined }
        : undefined,
  };
}

function leadWhere(filter: LeadFilter): { sql: string; values: unknown[] } {
  const clauses: string[] = [];
  const values: unknown[] = [];
  const add = (clause: (n: number) => string, value: unknown) => {
    values.push(value);
    clauses.push(clause(values.length));
  };
  if (filter.form) add((n) => `s.form = $${n}`, filter.form);
  if (filter.status) add((n) => `s.status = $${n}`, filter.status);
  if (filter.language) add((n) => `s.language = $${n}`, filter.language);
  if (filter.since) add((n) => `s.received_at >= $${n}`, filter.since);
  if (filter.until) add((n) => `s.received_at < $${n}`, filter.until);
  for (const word of (filter.search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8)) {
    add((n) => `${SEARCH_TEXT} LIKE $${n} ESCAPE '\\'`, `%${word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', values };
}

function pgInbox(query: Query_, transaction: Transaction): InboxStore {
  async function failureOf(client: pg.PoolClient, key: string, now: Date): Promise<FailureRun> {
    const row = (await client.query<{ failures: number; last_failure_at: Date; locked_until: Date | null }>('SELECT failures, last_failure_at, locked_until FROM sign_in_failures WHERE key = $1 FOR UPDATE', [key])).rows[0];
    return failureRun(row, now);
  }

  return {
    async leads(filter, page) {
      const { sql, values } = leadWhere(filter);
      const total = Number((await query<{ n: string }>(`SELECT count(*) AS n FROM submissions s ${sql}`, values)).rows[0]?.n ?? 0);
      const offset = Math.max(0, Math.trunc(page) - 1) * PAGE_SIZE;
      const rows = (await query<LeadRow>(`${LEAD_SELECT} ${sql} ORDER BY s.seq DESC LIMIT ${PAGE_SIZE} OFFSET ${offset}`, values)).rows;
      return { leads: rows.map(toLead), total };
    },
    async *exportLeads(filter) {
      const { sql, values } = leadWhere(filter);
      let after = 0;
      for (;;) {
        const rows = (await query<LeadRow & { seq: string }>(`${LEAD_SELECT} ${sql ? `${sql} AND` : 'WHERE'} s.seq > $${values.length + 1} ORDER BY s.seq ASC LIMIT 500`, [...values, after])).rows;
        for (const row of rows) yield toLead(row);
        if (rows.length < 500) return;
        after = Number(rows.at(-1)!.seq);
      }
    },
    async lead(id) {
      if (!UUID.test(id)) return undefined;
      const row = (await query<LeadRow>(`${LEAD_SELECT} WHERE s.id = $1`, [id], 'inbox-lead')).rows[0];
      return row ? toLead(row) : undefined;
    },
    async setStatus(id, status, by, now) {
      if (!UUID.test(id)) return false;
      return ((await query('UPDATE submissions SET status = $1, status_by = $2, status_at = $3 WHERE id = $4', [status, by, now, id])).rowCount ?? 0) > 0;
    },
    async setNote(id, note, by, now) {
      if (!UUID.test(id)) return false;
      return ((await query('UPDATE submissions SET note = $1, note_by = $2, note_at = $3 WHERE id = $4', [note.slice(0, NOTE_MAX), by, now, id])).rowCount ?? 0) > 0;
    },

    async createSession(email, now) {
      const token = randomBytes(32).toString('base64url');
      const csrf = randomBytes(32).toString('base64url');
      await query('INSERT INTO staff_sessions (token_hash, email, csrf, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)', [tokenHash(token), email, csrf, now]);
      await query('DELETE FROM staff_sessions WHERE last_seen_at < $1 OR created_at < $2', [new Date(now.getTime() - SESSION_IDLE_MS), new Date(now.getTime() - SESSION_MAX_MS)]);
      return { token, csrf };
    },
    async session(token, now): Promise<StaffSession | undefined> {
      if (!token || token.length > 100) return undefined;
      const hash = tokenHash(token);
      const row = (
        await query<{ email: string; csrf: string; created_at: Date; last_seen_at: Date; password_changed_at: Date }>(
          'SELECT s.email, s.csrf, s.created_at, s.last_seen_at, a.password_changed_at FROM staff_sessions s JOIN staff a ON a.email = s.email WHERE s.token_hash = $1',
          [hash],
          'session',
        )
      ).rows[0];
      if (!row) return undefined;
      const created = new Date(row.created_at).getTime();
      const idle = now.getTime() - new Date(row.last_seen_at).getTime() > SESSION_IDLE_MS;
      const old = now.getTime() - created > SESSION_MAX_MS;
      const stale = new Date(row.password_changed_at).getTime() > created;
      if (idle || old || stale) {
        await query('DELETE FROM staff_sessions WHERE token_hash = $1', [hash]);
        return undefined;
      }
      await query('UPDATE staff_sessions SET last_seen_at = $1 WHERE token_hash = $2', [now, hash], 'session-seen');
      return { email: row.email, csrf: row.csrf, createdAt: iso(row.created_at)! };
    },
    async endSession(token) {
      await query('DELETE FROM staff_sessions WHERE token_hash = $1', [tokenHash(token)]);
    },

    async gate(keys, now): Promise<SignInGate> {
      return transaction(async (client) =>
        gateOf({ account: await failureOf(client, `account:${keys.account}`, now), address: await failureOf(client, `address:${keys.address}`, now) }, now),
      );
    },
    async recordFailure(keys, now) {
      await transaction(async (client) => {
        for (const kind of ['account', 'address'] as const) {
          const key = `${kind}:${keys[kind]}`;
          // Taken row by row under lock: two instances counting the same key add up.
          await client.query('INSERT INTO sign_in_failures (key, failures, last_failure_at) VALUES ($1, 0, $2) ON CONFLICT (key) DO NOTHING', [key, now]);
          const next = afterFailure(kind, await failureOf(client, key, now), now);
          await client.query('UPDATE sign_in_failures SET failures = $2, last_failure_at = $3, locked_until = coalesce($4, locked_until) WHERE key = $1', [key, next.failures, now, next.lockedUntil]);
        }
      });
    },
    async clearFailures(keys) {
      await query('DELETE FROM sign_in_failures WHERE key = ANY($1)', [[`account:${keys.account}`, `address:${keys.address}`]]);
    },

    async audit(actor, action, leadId, detail, now) {
      await query('INSERT INTO audit_log (at, actor, action, lead_id, detail) VALUES ($1, $2, $3, $4, $5)', [now, actor, action, leadId && UUID.test(leadId) ? leadId : null, detail], 'audit');
    },
    async auditLog(limit): Promise<AuditEntry[]> {
      const rows = (await query<{ at: Date; actor: string; action: string; lead_id: string | null; detail: string }>('SELECT at, actor, action, lead_id, detail FROM audit_log ORDER BY seq DESC LIMIT $1', [limit])).rows;
      return rows.map((row) => ({ at: iso(row.at)!, actor: row.actor, action: row.action, leadId: row.lead_id ?? undefined, detail: row.detail }));
    },
    async close() {},
  };
}
