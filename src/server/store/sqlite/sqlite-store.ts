/**
 * The SQLite store, on Node's built-in `node:sqlite` (no native module to build): the
 * submissions, the outbox, the staff accounts and the inbox on one file. Their queries are
 * written once for both databases (./store/*-queries.ts, through Kysely and the small dialect in
 * ./sqlite-dialect.ts); what is SQLite's own stays here:
 *
 * - One file (SUBMISSIONS_DB), created with its folder on first use.
 * - WAL journal and `synchronous = FULL`: a submission is acknowledged only after the
 *   transaction holding it is committed and the write-ahead log is on disk (fsync), so neither
 *   a killed process nor a power cut loses an acknowledged lead.
 * - Group commit: submissions that arrive together (while the previous commit was being
 *   written to disk) are committed together, each inside its own SAVEPOINT, so each one is
 *   still all-or-nothing and a failing one takes no other with it. One fsync then serves
 *   many submissions: the disk's flush time bounds the latency, not the throughput. A lone
 *   submission is a transaction of its own. It runs on the raw connection, with statements
 *   prepared once, under the same lock as the Kysely queries on that connection.
 * - Files sent with leads live in a folder beside the database, each under its random id.
 * - Versioned migrations (MIGRATIONS, recorded in `PRAGMA user_version`), each applied in its
 *   own transaction; a database written by a newer version is refused rather than misread.
 * - The visitor's fields are stored as the form's schema returned them, as one JSON object
 *   beside the received time: the forms' schemas stay the one definition of the fields, and a
 *   new form field needs no migration. Staff can still query them (`json_extract`).
 * - Leads and the honeypot's catch live in two tables; nothing reads both.
 * - The outbox: a lead's notification e-mail is written in the same savepoint as the lead
 *   (table `notifications`, one row per lead, deleted with it), so neither is ever stored
 *   without the other; src/server/mail/outbox.ts delivers them.
 * - The outbox, the staff accounts and the inbox each open a connection of their own to the
 *   file the store made and migrated (openOutboxStore, openStaffStore, openInboxStore).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { Kysely } from 'kysely';
import type { InboxStore } from '../../inbox/inbox-store.ts';
import type { OutboxStore } from '../../mail/outbox.ts';
import type { StaffStore } from '../../inbox/staff.ts';
import { StoreError, type NewAttachment, type SubmissionStore } from '../store.ts';
import { SQLITE } from '../common.ts';
import { heldQueries, type HeldStore } from '../held-queries.ts';
import { inboxQueries } from '../inbox-queries.ts';
import { outboxQueries, outboxSelect } from '../outbox-queries.ts';
import type { Database, NewAttachmentRow } from '../schema.ts';
import { isUuid } from '../schema.ts';
import { ConnectionLock, NodeSqliteDialect } from './sqlite-dialect.ts';
import { registerStoreDepth } from '../../ops/depth.ts';
import { staffQueries } from '../staff-queries.ts';
import {
  attachmentRecord,
  insertSql,
  leadRows,
  submissionQueries,
  type FileKeeper,
  type NewLead,
} from '../submission-queries.ts';

/** The folder beside the database that holds the files sent with leads ("submissions.db" -> "submissions-files"). */
export function attachmentsDir(dbPath: string): string {
  const resolved = path.resolve(dbPath);
  return path.join(path.dirname(resolved), `${path.basename(resolved).replace(/\.[^.]*$/, '')}-files`);
}

/** Files on disk beside the database, each under its record's random id (anything else never reaches the file system). */
function filesOnDisk(dir: string): FileKeeper {
  const remove = (ids: readonly string[]) => {
    for (const id of ids) {
      if (!isUuid(id)) continue;
      try {
        fs.unlinkSync(path.join(dir, id));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') console.error(`Could not remove the stored file ${id}:`, error);
      }
    }
  };
  return {
    /** Writes each file and flushes it to disk; on any failure removes what it wrote. */
    async keep(submissionId: string, files: readonly NewAttachment[]) {
      const written: NewAttachmentRow[] = [];
      if (files.length === 0) return written;
      try {
        await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
        for (const [position, file] of files.entries()) {
          const record = attachmentRecord(submissionId, position, file);
          const handle = await fs.promises.open(path.join(dir, record.id), 'wx', 0o600);
          try {
            await handle.writeFile(file.bytes);
            await handle.sync();
          } finally {
            await handle.close();
          }
          written.push(record);
        }
        return written;
      } catch (error) {
        remove(written.map((file) => file.id));
        throw new StoreError(`Could not store the files of the submission: ${String(error)}`, { cause: error });
      }
    },
    drop: (rows) => remove(rows.map((row) => row.id)),
    read: async (id) => new Uint8Array(await fs.promises.readFile(path.join(dir, id))),
    remove,
  };
}

/** A trigger pattern that admits a lower-case UUID only (GLOB is case-sensitive). */
const UUID_GLOB = [8, 4, 4, 4, 12].map((length) => '[0-9a-f]'.repeat(length)).join('-');

/** Refuses, on insert and on update, a value of `columns` that is not a UUID (NULL passes). */
function uuidTriggers(table: string, columns: readonly string[]): string {
  const when = columns.map((column) => `NEW.${column} NOT GLOB '${UUID_GLOB}'`).join(' OR ');
  const raise = `BEGIN SELECT RAISE(ABORT, '${table}: an id is not a UUID'); END;`;
  return `CREATE TRIGGER ${table}_uuid_insert BEFORE INSERT ON ${table} WHEN ${when} ${raise}
  CREATE TRIGGER ${table}_uuid_update BEFORE UPDATE OF ${columns.join(', ')} ON ${table} WHEN ${when} ${raise}`;
}

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
  // 3: staff accounts for the inbox (src/server/inbox/staff.ts): the password as a salted scrypt hash only.
  `CREATE TABLE staff (
    email TEXT PRIMARY KEY,
    password_hash TEXT NOT NULL,
    created_at TEXT NOT NULL,
    password_changed_at TEXT NOT NULL
  ) STRICT;`,
  // 4: the staff inbox (src/server/inbox/inbox-store.ts): a status and a note per lead, who set them and
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
  // from the receiver's ?lang= (src/server/receiver/receiver.ts). The site's locale codes as they are now;
  // a new language needs a migration that widens the check. Earlier rows were all English.
  `ALTER TABLE submissions ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar'));
  ALTER TABLE bot_submissions ADD COLUMN language TEXT NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar'));`,
  // 7: what PostgreSQL's schema already held: ids are UUIDs (PostgreSQL's uuid type; here a
  // trigger per table, since a STRICT table's CHECK cannot be added in place). An audit entry
  // that named no lead by its id names none, as PostgreSQL stored it.
  `UPDATE audit_log SET lead_id = NULL WHERE lead_id NOT GLOB '${UUID_GLOB}';
  ${uuidTriggers('submissions', ['id'])}
  ${uuidTriggers('bot_submissions', ['id'])}
  ${uuidTriggers('notifications', ['submission_id'])}
  ${uuidTriggers('attachments', ['id', 'submission_id'])}
  ${uuidTriggers('audit_log', ['lead_id'])}`,
  // 8: sign-in under attack and erasure: device cookies (a browser that signed in before is let
  // past another's lock; the token's SHA-256 only); refused sign-ins kept apart from staff actions
  // (moved out of the audit log); the audit log searched by time; audit entries that named a
  // lead's sender or a file's name (personal data) keep their lead's id only.
  `CREATE TABLE staff_devices (
    token_hash TEXT PRIMARY KEY,
    email TEXT NOT NULL REFERENCES staff (email) ON DELETE CASCADE,
    created_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX staff_devices_email ON staff_devices (email);
  CREATE TABLE sign_in_refusals (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    account TEXT NOT NULL,
    network TEXT NOT NULL,
    reason TEXT NOT NULL
  ) STRICT;
  CREATE INDEX sign_in_refusals_at ON sign_in_refusals (at);
  INSERT INTO sign_in_refusals (at, account, network, reason)
    SELECT at, actor, CASE WHEN detail LIKE 'from %' THEN substr(detail, 6) ELSE '' END, 'wrong credentials' FROM audit_log WHERE action = 'sign-in refused' ORDER BY seq;
  DELETE FROM audit_log WHERE action = 'sign-in refused';
  UPDATE audit_log SET detail = '' WHERE action IN ('deleted lead', 'downloaded file');
  CREATE INDEX audit_log_at ON audit_log (at);`,
  // 9: a lead can be closed (worked and done with, not answered by us): the status check widened.
  // SQLite cannot change a column's check in place: a new column with the wider check takes
  // the statuses, the old one is dropped (its index with it) and the new one takes its name.
  `ALTER TABLE submissions ADD COLUMN status_widened TEXT NOT NULL DEFAULT 'new' CHECK (status_widened IN ('new', 'in_progress', 'answered', 'closed', 'spam'));
  UPDATE submissions SET status_widened = status;
  DROP INDEX submissions_status;
  ALTER TABLE submissions DROP COLUMN status;
  ALTER TABLE submissions RENAME COLUMN status_widened TO status;
  CREATE INDEX submissions_status ON submissions (status, seq);`,
  // 10: a timeline per lead instead of one shared note (the last save won): notes, status
  // changes, assignments, the notification sent or given up, CV downloads and replies, appended,
  // never rewritten, deleted with the lead; a lead assigned to a staff account (nobody when the
  // account is removed). What the old columns held moves into the timeline in time order: the
  // note, the last status change, the notification's delivery; then the note columns go.
  `CREATE TABLE lead_events (
    seq INTEGER PRIMARY KEY,
    lead_id TEXT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    at TEXT NOT NULL,
    actor TEXT,
    kind TEXT NOT NULL CHECK (kind IN ('note', 'status', 'assigned', 'notification', 'download', 'reply')),
    detail TEXT NOT NULL DEFAULT '',
    corrects INTEGER
  ) STRICT;
  CREATE INDEX lead_events_lead ON lead_events (lead_id, seq);
  ${uuidTriggers('lead_events', ['lead_id'])}
  ALTER TABLE submissions ADD COLUMN assigned_to TEXT REFERENCES staff (email) ON DELETE SET NULL;
  CREATE INDEX submissions_assigned ON submissions (assigned_to, seq);
  INSERT INTO lead_events (lead_id, at, actor, kind, detail)
    SELECT lead_id, at, actor, kind, detail FROM (
      SELECT seq, id AS lead_id, coalesce(note_at, received_at) AS at, note_by AS actor, 'note' AS kind, note AS detail, 2 AS part FROM submissions WHERE note <> ''
      UNION ALL SELECT seq, id, status_at, status_by, 'status', status, 1 FROM submissions WHERE status_at IS NOT NULL
      UNION ALL SELECT s.seq, n.submission_id, n.sent_at, NULL, 'notification', 'sent', 0 FROM notifications n JOIN submissions s ON s.id = n.submission_id WHERE n.status = 'sent' AND n.sent_at IS NOT NULL
    ) ORDER BY at, seq, part;
  ALTER TABLE submissions DROP COLUMN note;
  ALTER TABLE submissions DROP COLUMN note_by;
  ALTER TABLE submissions DROP COLUMN note_at;`,
  // 11: two-step sign-in (src/server/inbox/two-step.ts): each account's time-based code secret (encrypted
  // with the operator's key), when it was set up and the last time step used (a code is never
  // taken twice); its recovery codes, hashed, each used once; a session's stage (a password
  // accepted, a code or a set-up still to come) and the secret being set up in it.
  `ALTER TABLE staff ADD COLUMN totp_secret TEXT;
  ALTER TABLE staff ADD COLUMN totp_enrolled_at TEXT;
  ALTER TABLE staff ADD COLUMN totp_last_step INTEGER;
  CREATE TABLE staff_recovery_codes (
    email TEXT NOT NULL REFERENCES staff (email) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at TEXT,
    PRIMARY KEY (email, code_hash)
  ) STRICT;
  ALTER TABLE staff_sessions ADD COLUMN stage TEXT NOT NULL DEFAULT 'signed-in' CHECK (stage IN ('code', 'enrol', 'signed-in'));
  ALTER TABLE staff_sessions ADD COLUMN pending_totp TEXT;`,
  // 12: bots: a lead without a valid proof of work (or tripping another plain signal) is held for
  // review, never dropped and never mailed (src/server/inbox/held.ts): its review state and reason; the
  // challenges whose solutions were accepted (one use each, until they expire); the secrets the
  // server generated and keeps (the challenges' HMAC key when ALTCHA_HMAC_KEY is unset).
  `ALTER TABLE submissions ADD COLUMN review TEXT CHECK (review IN ('held', 'spam'));
  ALTER TABLE submissions ADD COLUMN review_reason TEXT;
  CREATE INDEX submissions_review ON submissions (review, seq);
  CREATE TABLE used_challenges (
    id TEXT PRIMARY KEY,
    expires_at TEXT NOT NULL
  ) STRICT;
  CREATE INDEX used_challenges_expires ON used_challenges (expires_at);
  CREATE TABLE site_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    created_at TEXT NOT NULL
  ) STRICT;`,
  // 13: held leads reach a person (src/server/inbox/held-digest.ts): when a digest last warned
  // that a held lead is due for erasure (none is erased unwarned), and each day's digest, claimed
  // by one server and marked sent.
  `ALTER TABLE submissions ADD COLUMN review_reminded_at TEXT;
  CREATE TABLE held_digests (
    day TEXT PRIMARY KEY,
    claimed_at TEXT NOT NULL,
    sent_at TEXT,
    held INTEGER NOT NULL DEFAULT 0
  ) STRICT;`,
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

/** Applies the migrations the database lacks; refuses a database from a newer version. */
export function migrate(db: DatabaseSync): number {
  for (;;) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
      if (version > SCHEMA_VERSION) {
        throw new StoreError(
          `The database is at schema version ${version}, newer than this code knows (${SCHEMA_VERSION}): update the code.`,
        );
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
  // What any connection deletes is overwritten, not left in free pages (erasure).
  db.exec('PRAGMA secure_delete = ON');
  const found = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  if (found < version) {
    db.close();
    throw new StoreError(
      `The database at ${file} has no ${what} yet (schema version ${found}): start the server once to update it.`,
    );
  }
  return db;
}

/** Kysely on an open connection; closing it closes the connection (after any query running on it). */
function kyselyOn(db: DatabaseSync, lock = new ConnectionLock()): { kysely: Kysely<Database>; close: () => Promise<void> } {
  const kysely = new Kysely<Database>({ dialect: new NodeSqliteDialect(db, lock) });
  let closed = false;
  return {
    kysely,
    async close() {
      if (closed) return;
      closed = true;
      await lock.acquire();
      try {
        db.close();
      } finally {
        lock.release();
      }
    },
  };
}

interface Pending {
  readonly lead: NewLead;
  readonly resolve: () => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The database file readable by its owner only (0600), whatever the umask: created so when new,
 * narrowed when an older version left it 0644. SQLite gives its -wal and -shm files the
 * database file's mode, so they follow. A file of another user's (a root shell opening the
 * service's database to read) is left as it is.
 */
export function keepPrivate(filePath: string): void {
  try {
    fs.closeSync(fs.openSync(filePath, fs.constants.O_CREAT | fs.constants.O_WRONLY, 0o600));
    const stat = fs.statSync(filePath);
    const mine = typeof process.getuid !== 'function' || stat.uid === process.getuid();
    if (mine && (stat.mode & 0o077) !== 0) fs.chmodSync(filePath, stat.mode & 0o700);
    for (const suffix of ['-wal', '-shm']) {
      const side = `${filePath}${suffix}`;
      const sideStat = fs.statSync(side, { throwIfNoEntry: false });
      if (sideStat && mine && (sideStat.mode & 0o077) !== 0) fs.chmodSync(side, sideStat.mode & 0o700);
    }
  } catch {
    // Opening reports what is wrong with the file, in the store's own words.
  }
}

export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): SubmissionStore {
  const filePath = path.resolve(file);
  if (options.create === false) {
    if (!fs.existsSync(filePath)) throw new StoreError(`No submissions database at ${filePath}`);
  } else {
    fs.mkdirSync(path.dirname(filePath), { recursive: true, mode: 0o700 });
  }
  keepPrivate(filePath);

  let db: DatabaseSync;
  try {
    db = new DatabaseSync(filePath);
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
    const mode = (db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode: string }).journal_mode;
    if (mode.toLowerCase() !== 'wal') throw new StoreError(`Could not switch ${filePath} to WAL mode (got ${mode})`);
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    // Deleted rows are overwritten with zeros, not left readable in free pages (erasure).
    db.exec('PRAGMA secure_delete = ON');
    migrate(db);
  } catch (error) {
    throw error instanceof StoreError
      ? error
      : new StoreError(`Cannot open the submissions database at ${filePath}: ${String(error)}`, { cause: error });
  }

  const lock = new ConnectionLock();
  const { kysely, close: closeConnection } = kyselyOn(db, lock);
  const files = filesOnDisk(attachmentsDir(filePath));

  /** The group commit's inserts: the shared rows, with statements prepared once per table and columns. */
  const inserts = new Map<string, StatementSync>();
  function insert(table: string, row: object): void {
    const columns = Object.keys(row);
    const key = `${table}(${columns.join()})`;
    let statement = inserts.get(key);
    if (!statement) inserts.set(key, (statement = db.prepare(insertSql(table, columns, () => '?'))));
    statement.run(...(Object.values(row) as SQLInputValue[]));
  }

  let closed = false;
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
  let committing = false;
  // For the metrics: the leads waiting for the next group commit.
  const unregister = registerStoreDepth(() => ({ waiting: queue.length, active: committing ? 1 : 0, idle: committing ? 0 : 1 }));

  /** Commits what is queued, `maxBatch` at a time, holding the connection; settles each promise after its COMMIT. */
  async function flush(): Promise<void> {
    flushScheduled = false;
    if (queue.length === 0) return;
    if (!lock.tryAcquire()) await lock.acquire();
    committing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(batch.length);
        commitBatch(batch);
      }
    } finally {
      committing = false;
      lock.release();
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
    const fail = (pending: Pending, error: unknown) => pending.reject(error);
    if (!db.isOpen) {
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
        for (const [table, row] of leadRows(pending.lead)) insert(table, row);
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

  const store = submissionQueries(kysely, SQLITE, {
    files,
    commit: (lead) =>
      new Promise<void>((resolve, reject) => {
        if (closed) return reject(new StoreError('The submissions store is closed'));
        queue.push({ lead, resolve, reject });
        if (!flushScheduled) {
          flushScheduled = true;
          // After the requests already read are handled: they join this commit.
          setImmediate(() => void flush());
        }
      }),
    async close() {
      if (closed) return;
      await flush();
      closed = true;
      unregister();
      await closeConnection();
    },
  });
  /**
   * After an erasure: the write-ahead log still holds the pages as they were before (the erased
   * rows among them). A TRUNCATE checkpoint copies the new pages into the file and empties the
   * log; a reader on another connection can hold it back for a moment, so it is tried again.
   */
  async function checkpoint(): Promise<void> {
    for (let attempt = 0; attempt < 50; attempt++) {
      await lock.acquire();
      let busy: number;
      try {
        busy = Number((db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number }).busy);
      } finally {
        lock.release();
      }
      if (busy === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    console.error(
      'After an erasure, the write-ahead log could not be emptied: another connection kept reading; it is emptied at the next checkpoint.',
    );
  }

  return {
    ...store,
    save: (input) => (closed ? Promise.reject(new StoreError('The submissions store is closed')) : store.save(input)),
    // What is queued is committed first: a lead just acknowledged can be erased at once.
    delete: async (id) => {
      await flush();
      const erased = await store.delete(id);
      if (erased) await checkpoint();
      return erased;
    },
    purge: async (before) => {
      await flush();
      const purged = await store.purge(before);
      await checkpoint();
      return purged;
    },
  };
}

/** The outbox on a connection of its own (schema version 2 and up). */
export function openOutboxStore(dbPath: string): OutboxStore {
  const db = openMigratedDatabase(dbPath, 2, 'outbox');
  // Marking a mail sent need not wait for the disk: if a power cut loses the mark, the mail is
  // sent again with the same Message-ID (at least once, see ../../mail/outbox.ts). Leads keep FULL (the store's).
  db.exec('PRAGMA synchronous = NORMAL');
  const { kysely, close } = kyselyOn(db);
  return outboxQueries(kysely, SQLITE, {
    // One server per SQLite file: what is due is this server's to send.
    claimDue: (now, limit) =>
      outboxSelect(kysely)
        .where('n.status', '=', 'pending')
        .where('n.next_attempt_at', '<=', now.toISOString())
        .orderBy('n.next_attempt_at')
        .orderBy('n.created_at')
        .limit(limit)
        .execute(),
    leases: false,
    close,
  });
}

/** The staff table on a connection of its own (schema version 3 and up). */
export function openStaffStore(dbPath: string): StaffStore {
  const { kysely, close } = kyselyOn(openMigratedDatabase(dbPath, 9, 'staff accounts'));
  return staffQueries(kysely, SQLITE, close);
}

/** The staff inbox on a connection of its own (schema version 9 and up: two-step sign-in). */
export function openInboxStore(dbPath: string): InboxStore {
  const { kysely, close } = kyselyOn(openMigratedDatabase(dbPath, 9, 'staff inbox'));
  return inboxQueries(kysely, SQLITE, close);
}

/** Held leads, used challenges and kept secrets on a connection of their own (schema version 9 and up). */
export function openHeldStore(dbPath: string): HeldStore {
  const { kysely, close } = kyselyOn(openMigratedDatabase(dbPath, 9, 'held leads'));
  return heldQueries(kysely, SQLITE, close);
}
