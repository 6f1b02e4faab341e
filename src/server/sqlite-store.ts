/**
 * The SQLite submissions store, on Node's built-in `node:sqlite` (no native module to build).
 *
 * - One file (SUBMISSIONS_DB), created with its folder on first use.
 * - WAL journal and `synchronous = FULL`: a submission is acknowledged only after the
 *   transaction holding it is committed and the write-ahead log is on disk (fsync), so neither
 *   a killed process nor a power cut loses an acknowledged lead.
 * - Group commit: submissions that arrive together (while the previous commit was being
 *   written to disk) are committed together, each inside its own SAVEPOINT, so each one is
 *   still all-or-nothing and a failing one takes no other with it. One fsync then serves
 *   many submissions: the disk's flush time bounds the latency, not the throughput. A lone
 *   submission is a transaction of its own.
 * - Versioned migrations (MIGRATIONS, recorded in `PRAGMA user_version`), each applied in its
 *   own transaction; a database written by a newer version is refused rather than misread.
 * - The visitor's fields are stored as the form's schema returned them, as one JSON object
 *   beside the received time: the forms' schemas stay the one definition of the fields, and a
 *   new form field needs no migration. Staff can still query them (`json_extract`).
 * - Leads and the honeypot's catch live in two tables; nothing reads both.
 * - The outbox: a lead's notification e-mail is written in the same savepoint as the lead
 *   (table `notifications`, one row per lead, deleted with it), so neither is ever stored
 *   without the other; src/server/outbox.ts delivers them.
 */
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { LocaleCode } from '../i18n/index.ts';
import {
  StoreError,
  isFormName,
  type FormName,
  type LeadNotice,
  type NewAttachment,
  type Query,
  type SaveInput,
  type StoredAttachment,
  type StoredSubmission,
  type SubmissionFields,
  type SubmissionStore,
} from './store.ts';

/** The folder beside the database that holds the files sent with leads ("submissions.db" -> "submissions-files"). */
export function attachmentsDir(dbPath: string): string {
  const resolved = path.resolve(dbPath);
  return path.join(path.dirname(resolved), `${path.basename(resolved).replace(/\.[^.]*$/, '')}-files`);
}

/** File ids are random UUIDs: anything else never reaches the file system. */
const isAttachmentId = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);

/** Writes each file under a new random id and flushes it to disk; on any failure removes what it wrote. */
async function writeAttachments(dir: string, submissionId: string, files: readonly NewAttachment[]): Promise<StoredAttachment[]> {
  const written: StoredAttachment[] = [];
  try {
    await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
    for (const file of files) {
      const id = randomUUID();
      const handle = await fs.promises.open(path.join(dir, id), 'wx', 0o600);
      try {
        await handle.writeFile(file.bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      written.push({ id, submissionId, name: file.name, type: file.type, size: file.bytes.byteLength, sha256: createHash('sha256').update(file.bytes).digest('hex') });
    }
    return written;
  } catch (error) {
    removeFiles(dir, written.map((file) => file.id));
    throw new StoreError(`Could not store the files of the submission: ${String(error)}`, { cause: error });
  }
}

/** Removes stored files; one already gone is no error. */
function removeFiles(dir: string, ids: readonly string[]): void {
  for (const id of ids) {
    if (!isAttachmentId(id)) continue;
    try {
      fs.unlinkSync(path.join(dir, id));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') console.error(`Could not remove the stored file ${id}:`, error);
    }
  }
}

const table = (form: 'leads' | 'bots') => (form === 'leads' ? 'submissions' : 'bot_submissions');

const createTable = (name: string) => `
  CREATE TABLE ${name} (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    form TEXT NOT NULL CHECK (form IN ('contact', 'partner')),
    received_at TEXT NOT NULL,
    fields TEXT NOT NULL CHECK (json_valid(fields) AND json_type(fields) = 'object')
  ) STRICT;
  CREATE INDEX ${name}_form_received ON ${name} (form, received_at);`;

/**
 * The schema's history: entry N takes a database from version N to N+1. Append only; never
 * edit a migration that has shipped.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: leads, and the honeypot's catch kept apart in a table of its own.
  `${createTable('submissions')}\n${createTable('bot_submissions')}`,
  // 2: the outbox: each lead's notification e-mail, until it is delivered or given up.
  `CREATE TABLE notifications (
    submission_id TEXT PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
    subject TEXT NOT NULL,
    body_text TEXT NOT NULL,
    body_html TEXT NOT NULL,
    reply_to TEXT,
    created_at TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    sent_at TEXT,
    last_error TEXT
  ) STRICT;
  CREATE INDEX notifications_due ON notifications (status, next_attempt_at);`,
  // 3: staff accounts for the inbox (src/server/staff.ts): the password as a salted scrypt hash only.
  `CREATE TABLE staff (
    email TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    password_changed_at TEXT NOT NULL
  ) STRICT;`,
  // 4: the staff inbox (src/server/inbox-store.ts): a status and a note per lead, who set them and
  // when; sign-in sessions (the token's SHA-256 only); failed sign-ins per account and per
  // address; the audit log.
  `ALTER TABLE submissions ADD COLUMN status TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in_progress', 'answered', 'spam'));
  ALTER TABLE submissions ADD COLUMN status_by TEXT;
  ALTER TABLE submissions ADD COLUMN status_at TEXT;
  ALTER TABLE submissions ADD COLUMN note TEXT NOT NULL DEFAULT '';
  ALTER TABLE submissions ADD COLUMN note_by TEXT;
  ALTER TABLE submissions ADD COLUMN note_at TEXT;
  CREATE INDEX submissions_status ON submissions (status, seq);
  CREATE TABLE staff_sessions (
    token_hash TEXT PRIMARY KEY,
    email TEXT NOT NULL REFERENCES staff (email) ON DELETE CASCADE,
    csrf TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX staff_sessions_email ON staff_sessions (email);
  CREATE TABLE sign_in_failures (
    key TEXT PRIMARY KEY,
    failures INTEGER NOT NULL,
    last_failure_at TEXT NOT NULL,
    locked_until TEXT
  ) STRICT;
  CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    lead_id TEXT,
    detail TEXT NOT NULL DEFAULT ''
  ) STRICT;`,
  // 5: files sent with a lead (partners' CVs): their records; the bytes live in the files folder
  // beside the database, each under its random id (attachmentsDir()).
  `CREATE TABLE attachments (
    id TEXT PRIMARY KEY,
    submission_id TEXT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL
  ) STRICT;
  CREATE INDEX attachments_submission ON attachments (submission_id, position);`,
  // 6: the language each lead (and each of the honeypot's catch) was sent in: the page's locale,
  // from the receiver's ?lang= (src/server/receiver.ts). The site's locale codes as they are now;
  // a new language needs a migration that widens the check. Earlier rows were all English.
  `ALTER TABLE submissions ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar'));
  ALTER TABLE bot_submissions ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar'));`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export interface SqliteStoreOptions {
  /** Create the file (and its folder) when missing. Default true; the staff command says false. */
  readonly create?: boolean;
  /** Submissions committed together at most (group commit). Default 200; 1 commits each alone. */
  readonly maxBatch?: number;
  /** How long a write waits for another process's lock before failing. Default 5 s. */
  readonly busyTimeoutMs?: number;
}

interface Pending {
  readonly table: 'leads' | 'bots';
  readonly id: string;
  readonly form: FormName;
  readonly receivedAt: string;
  readonly language: LocaleCode;
  readonly fields: string;
  readonly notice: LeadNotice | undefined;
  readonly attachments: readonly StoredAttachment[];
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

interface Row {
  id: string;
  form: string;
  received_at: string;
  language: string;
  fields: string;
}

/** The columns a submission is read back from. */
const COLUMNS = 'id, form, received_at, language, fields';

interface AttachmentRow {
  id: string;
  submission_id: string;
  name: string;
  type: string;
  size: number;
  sha256: string;
}

const toAttachment = (row: AttachmentRow): StoredAttachment => ({ id: row.id, submissionId: row.submission_id, name: row.name, type: row.type, size: Number(row.size), sha256: row.sha256 });

function toSubmission(row: Row): StoredSubmission {
  if (!isFormName(row.form)) throw new StoreError(`Unknown form "${row.form}" in the database`);
  // The column's CHECK admits the site's locale codes only.
  return { id: row.id, form: row.form, receivedAt: row.received_at, language: row.language as LocaleCode, fields: JSON.parse(row.fields) as SubmissionFields };
}

/** Applies the migrations the database lacks; refuses a database from a newer version. */
export function migrate(db: DatabaseSync): number {
  for (;;) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
      if (version > SCHEMA_VERSION) {
        throw new StoreError(`The database is at schema version ${version}, newer than this code knows (${SCHEMA_VERSION}): update the code.`);
      }
      if (version === SCHEMA_VERSION) {
        db.exec('COMMIT');
        return version;
      }
      db.exec(MIGRATIONS[version] ?? '');
      db.exec(`PRAGMA user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
}

/**
 * Another connection to a submissions database the store has already made and migrated (the
 * outbox's, the staff accounts'): refuses a missing file, or one older than `version`, which
 * holds no `what` yet.
 */
export function openMigratedDatabase(file: string, version: number, what: string): DatabaseSync {
  if (!fs.existsSync(file)) throw new StoreError(`No submissions database at ${file}: start the server once to create it.`);
  const db = new DatabaseSync(file);
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA foreign_keys = ON');
  const found = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if (found < version) {
    db.close();
    throw new StoreError(`The database at ${file} has no ${what} yet (schema version ${found}): start the server once to update it.`);
  }
  return db;
}

export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): SubmissionStore {
  const filePath = path.resolve(file);
  if (options.create === false) {
    if (!fs.existsSync(filePath)) throw new StoreError(`No submissions database at ${filePath}`);
  } else {
    fs.mkdirSync(path.dirname(filePath), { recursive: true });
  }

  let db: DatabaseSync;
  try {
    db = new DatabaseSync(filePath);
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    const mode = (db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode: string }).journal_mode;
    if (mode.toLowerCase() !== 'wal') throw new StoreError(`Could not switch ${filePath} to WAL mode (got ${mode})`);
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    migrate(db);
  } catch (error) {
    throw error instanceof StoreError ? error : new StoreError(`Cannot open the submissions database at ${filePath}: ${String(error)}`, { cause: error });
  }

  const inserts: Record<'leads' | 'bots', StatementSync> = {
    leads: db.prepare(`INSERT INTO ${table('leads')} (id, form, received_at, language, fields) VALUES (?, ?, ?, ?, ?)`),
    bots: db.prepare(`INSERT INTO ${table('bots')} (id, form, received_at, language, fields) VALUES (?, ?, ?, ?, ?)`),
  };
  const filesDir = attachmentsDir(filePath);
  const insertAttachment = db.prepare('INSERT INTO attachments (id, submission_id, position, name, type, size, sha256) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const insertNotice = db.prepare(
    `INSERT INTO notifications (submission_id, status, subject, body_text, body_html, reply_to, created_at, next_attempt_at) VALUES (?, 'pending', ?, ?, ?, ?, ?, ?)`,
  );

  function where(query: Query): { sql: string; params: string[] } {
    const clauses: string[] = [];
    const params: string[] = [];
    if (query.form !== undefined) {
      if (!isFormName(query.form)) throw new StoreError(`Unknown form "${String(query.form)}"`);
      clauses.push('form = ?');
      params.push(query.form);
    }
    if (query.since !== undefined) {
      clauses.push('received_at >= ?');
      params.push(query.since.toISOString());
    }
    if (query.until !== undefined) {
      clauses.push('received_at <= ?');
      params.push(query.until.toISOString());
    }
    return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
  }

  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new StoreError('The submissions store is closed');
  };

  const maxBatch = Math.max(1, Math.trunc(options.maxBatch ?? 200));
  const step = {
    begin: db.prepare('BEGIN IMMEDIATE'),
    savepoint: db.prepare('SAVEPOINT submission'),
    release: db.prepare('RELEASE submission'),
    rollbackTo: db.prepare('ROLLBACK TO submission'),
    commit: db.prepare('COMMIT'),
  };
  let queue: Pending[] = [];
  let flushScheduled = false;

  /** Commits what is queued, `maxBatch` at a time; settles each promise after its COMMIT. */
  function flush(): void {
    flushScheduled = false;
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      commitBatch(batch);
    }
  }

  function rollback(): void {
    try {
      if (db.isTransaction) db.exec('ROLLBACK');
    } catch {
      // Nothing more to undo.
    }
  }

  function commitBatch(batch: readonly Pending[]): void {
    const fail = (pending: Pending, error: unknown) =>
      pending.reject(new StoreError(`Could not store the ${pending.form} submission: ${String(error)}`, { cause: error }));
    if (closed) {
      for (const pending of batch) fail(pending, 'the store is closed');
      return;
    }
    try {
      step.begin.run();
    } catch (error) {
      for (const pending of batch) fail(pending, error);
      return;
    }
    const inserted: Pending[] = [];
    for (const [index, pending] of batch.entries()) {
      try {
        step.savepoint.run();
        inserts[pending.table].run(pending.id, pending.form, pending.receivedAt, pending.language, pending.fields);
        const notice = pending.notice;
        if (notice) insertNotice.run(pending.id, notice.subject, notice.text, notice.html, notice.replyTo ?? null, pending.receivedAt, pending.receivedAt);
        for (const [position, file] of pending.attachments.entries()) insertAttachment.run(file.id, pending.id, position, file.name, file.type, file.size, file.sha256);
        step.release.run();
        inserted.push(pending);
      } catch (error) {
        let recovered = false;
        if (db.isTransaction) {
          try {
            step.rollbackTo.run();
            step.release.run();
            recovered = true;
          } catch {
            // Handled below, as a lost transaction.
          }
        }
        if (!recovered) {
          // The transaction is gone or unusable (disk full, I/O error): nothing of it stays.
          rollback();
          for (const lost of [...inserted, ...batch.slice(index)]) fail(lost, error);
          return;
        }
        fail(pending, error);
      }
    }
    try {
      step.commit.run();
    } catch (error) {
      rollback();
      for (const pending of inserted) fail(pending, error);
      return;
    }
    for (const pending of inserted) pending.resolve();
  }

  return {
    save(input: SaveInput) {
      if (closed) return Promise.reject(new StoreError('The submissions store is closed'));
      const form: FormName = input.form;
      if (!isFormName(form)) return Promise.reject(new StoreError(`Unknown form "${String(form)}"`));
      const id = randomUUID();
      const receivedAt = (input.receivedAt ?? new Date()).toISOString();
      const language: LocaleCode = input.language ?? 'en';
      const bot = input.bot === true;
      let notice: LeadNotice | undefined;
      try {
        notice = bot || !input.notice ? undefined : input.notice({ id, form, receivedAt, language, fields: input.fields });
      } catch (error) {
        return Promise.reject(new StoreError(`Could not compose the ${form} lead's notification: ${String(error)}`, { cause: error }));
      }
      const record = { table: bot ? ('bots' as const) : ('leads' as const), id, form, receivedAt, language, fields: JSON.stringify(input.fields), notice };
      const enqueue = (attachments: readonly StoredAttachment[]) =>
        new Promise<{ id: string; receivedAt: string }>((resolve, reject) => {
          const dropFiles = (error: unknown) => {
            removeFiles(filesDir, attachments.map((file) => file.id));
            reject(error);
          };
          if (closed) return dropFiles(new StoreError('The submissions store is closed'));
          queue.push({ ...record, attachments, resolve: () => resolve({ id: record.id, receivedAt: record.receivedAt }), reject: dropFiles });
          if (!flushScheduled) {
            flushScheduled = true;
            // After the requests already read are handled: they join this commit.
            setImmediate(flush);
          }
        });
      const files = bot ? [] : (input.attachments ?? []);
      // The files are on disk before the lead's transaction starts; if it fails, they go.
      return files.length > 0 ? writeAttachments(filesDir, id, files).then(enqueue) : enqueue([]);
    },

    async attachments(submissionId) {
      ensureOpen();
      return (db.prepare('SELECT id, submission_id, name, type, size, sha256 FROM attachments WHERE submission_id = ? ORDER BY position').all(submissionId) as unknown as AttachmentRow[]).map(toAttachment);
    },

    async attachment(id) {
      ensureOpen();
      if (!isAttachmentId(id)) return undefined;
      const row = db.prepare('SELECT id, submission_id, name, type, size, sha256 FROM attachments WHERE id = ?').get(id) as unknown as AttachmentRow | undefined;
      if (!row) return undefined;
      try {
        return { record: toAttachment(row), bytes: new Uint8Array(await fs.promises.readFile(path.join(filesDir, row.id))) };
      } catch (error) {
        throw new StoreError(`The stored file ${id} cannot be read: ${String(error)}`, { cause: error });
      }
    },

    async list(query = {}) {
      ensureOpen();
      const limit = Math.min(1000, Math.max(1, Math.trunc(query.limit ?? 20)));
      const { sql, params } = where(query);
      const rows = db
        .prepare(`SELECT ${COLUMNS} FROM ${table(query.bots === true ? 'bots' : 'leads')} ${sql} ORDER BY seq DESC LIMIT ${limit}`)
        .all(...params) as unknown as Row[];
      return rows.map(toSubmission);
    },

    async count(query = {}) {
      ensureOpen();
      const { sql, params } = where(query);
      const row = db.prepare(`SELECT count(*) AS n FROM ${table(query.bots === true ? 'bots' : 'leads')} ${sql}`).get(...params) as { n: number };
      return Number(row.n);
    },

    async *export(query = {}) {
      ensureOpen();
      const { sql, params } = where(query);
      const statement = db.prepare(`SELECT ${COLUMNS} FROM ${table(query.bots === true ? 'bots' : 'leads')} ${sql} ORDER BY seq ASC`);
      for (const row of statement.iterate(...params)) yield toSubmission(row as unknown as Row);
    },

    async delete(id) {
      ensureOpen();
      flush();
      db.exec('BEGIN IMMEDIATE');
      try {
        for (const kind of ['leads', 'bots'] as const) {
          const row = db.prepare(`SELECT ${COLUMNS} FROM ${table(kind)} WHERE id = ?`).get(id) as unknown as Row | undefined;
          if (!row) continue;
          const notification = kind === 'leads' && Number(db.prepare('DELETE FROM notifications WHERE submission_id = ?').run(id).changes) > 0;
          const files = kind === 'leads' ? (db.prepare('SELECT id FROM attachments WHERE submission_id = ?').all(id) as { id: string }[]).map((file) => file.id) : [];
          db.prepare('DELETE FROM attachments WHERE submission_id = ?').run(id);
          db.prepare(`DELETE FROM ${table(kind)} WHERE id = ?`).run(id);
          db.exec('COMMIT');
          // The records are gone for good: now the bytes.
          removeFiles(filesDir, files);
          return { submission: toSubmission(row), notification, attachments: files.length };
        }
        db.exec('COMMIT');
        return undefined;
      } catch (error) {
        rollback();
        throw new StoreError(`Could not delete ${id}: ${String(error)}`, { cause: error });
      }
    },

    async purge(before) {
      ensureOpen();
      flush();
      const cutoff = before.toISOString();
      db.exec('BEGIN IMMEDIATE');
      try {
        const notifications = Number(
          db.prepare(`DELETE FROM notifications WHERE submission_id IN (SELECT id FROM ${table('leads')} WHERE received_at < ?)`).run(cutoff).changes,
        );
        const older = `SELECT id FROM ${table('leads')} WHERE received_at < ?`;
        const files = (db.prepare(`SELECT id FROM attachments WHERE submission_id IN (${older})`).all(cutoff) as { id: string }[]).map((file) => file.id);
        db.prepare(`DELETE FROM attachments WHERE submission_id IN (${older})`).run(cutoff);
        const leads = Number(db.prepare(`DELETE FROM ${table('leads')} WHERE received_at < ?`).run(cutoff).changes);
        const bots = Number(db.prepare(`DELETE FROM ${table('bots')} WHERE received_at < ?`).run(cutoff).changes);
        db.exec('COMMIT');
        removeFiles(filesDir, files);
        return { leads, bots, notifications, attachments: files.length };
      } catch (error) {
        rollback();
        throw new StoreError(`Could not purge: ${String(error)}`, { cause: error });
      }
    },

    async close() {
      if (closed) return;
      flush();
      closed = true;
      db.close();
    },
  };
}
