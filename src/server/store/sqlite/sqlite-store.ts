/**
 * The SQLite store, on Node's built-in `node:sqlite`: the submissions, the outbox, the staff
 * accounts and the inbox on one file (SUBMISSIONS_DB). The queries are shared (../*-queries.ts);
 * what is SQLite's own stays here:
 *
 * - WAL journal and `synchronous = FULL`: a submission is acknowledged only after the
 *   transaction holding it is committed and the write-ahead log is on disk (fsync), so neither
 *   a killed process nor a power cut loses an acknowledged lead.
 * - Files sent with leads live in a folder beside the database, each under its random id.
 * - One connection per process (../database.ts builds the other stores on its Kysely);
 *   openStaffStore opens one of its own, for tools.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely } from 'kysely';
import type { OutboxStore } from '../../mail/outbox.ts';
import type { StaffStore } from '../../inbox/staff.ts';
import { StoreError, type NewAttachment, type StoreDepth, type SubmissionStore } from '../store.ts';
import { SQLITE, openError, readyAfter } from '../common.ts';
import { outboxQueries, outboxSelect } from '../outbox-queries.ts';
import type { Database, NewAttachmentRow } from '../schema.ts';
import { isUuid } from '../schema.ts';
import { ConnectionLock, NodeSqliteDialect } from './sqlite-dialect.ts';
import { MIGRATE_COMMAND, MIGRATION_TABLE, openSchema } from '../migrations/index.ts';
import { staffQueries } from '../staff-queries.ts';
import { attachmentRecord, submissionQueries, type FileKeeper } from '../submission-queries.ts';

/** The folder beside the database that holds the files sent with leads ("submissions.db" -> "submissions-files"). */
export function attachmentsDir(dbPath: string): string {
  const resolved = path.resolve(dbPath);
  return path.join(path.dirname(resolved), `${path.basename(resolved).replace(/\.[^.]*$/, '')}-files`);
}

/**
 * Files on disk beside the database, each under its record's random id (anything else never
 * reaches the file system). Files still being written when the store closes are refused.
 */
function filesOnDisk(dir: string, isClosed: () => boolean): FileKeeper {
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
        if (isClosed()) throw new StoreError('The submissions store is closed');
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

/** The migration under way in the process, if any: the next store's waits for it. */
let migrating: Promise<unknown> = Promise.resolve();

interface SqliteStoreOptions {
  /** Create the file (and its folder) when missing. Default true; the staff command says false. */
  readonly create?: boolean;
}

/** How many migrations Kysely recorded in a SQLite file; in a file made before the migration files, its user_version. */
export function sqliteSchemaVersion(db: DatabaseSync): number {
  const recorded = db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(MIGRATION_TABLE);
  const sql = recorded ? `SELECT count(*) AS n FROM ${MIGRATION_TABLE}` : 'SELECT user_version AS n FROM pragma_user_version';
  return Number((db.prepare(sql).get() as { n: number }).n);
}

/** Another connection to the submissions database: refuses a missing file, and once `migrated`, one older than `version`. */
export function openMigratedDatabase(
  file: string,
  version: number,
  what: string,
  migrated: Promise<void> = Promise.resolve(),
): { db: DatabaseSync; ready: Promise<void> } {
  if (!fs.existsSync(file)) throw new StoreError(`No submissions database at ${file}: start the server once to create it.`);
  const db = new DatabaseSync(file);
  db.exec('PRAGMA busy_timeout = 5000');
  db.exec('PRAGMA foreign_keys = ON');
  // What any connection deletes is overwritten, not left in free pages (erasure).
  db.exec('PRAGMA secure_delete = ON');
  const ready = migrated.then(() => {
    const found = sqliteSchemaVersion(db);
    if (found < version)
      throw new StoreError(`The database at ${file} has no ${what} yet (schema version ${found}): run \`${MIGRATE_COMMAND}\`.`);
  });
  ready.catch(() => undefined);
  return { db, ready };
}

/** Kysely on an open connection, once `ready`; closing it closes the connection (after any query running on it). */
function kyselyOn(
  { db, ready }: { db: DatabaseSync; ready: Promise<void> },
  lock = new ConnectionLock(),
): { kysely: Kysely<Database>; close: () => Promise<void> } {
  const kysely = new Kysely<Database>({ dialect: new NodeSqliteDialect(db, lock, ready) });
  let closed = false;
  return {
    kysely,
    async close() {
      if (closed) return;
      closed = true;
      await ready.catch(() => undefined);
      await lock.acquire();
      try {
        db.close();
      } finally {
        lock.release();
      }
    },
  };
}

/**
 * The database file readable by its owner only (0600), whatever the umask (its -wal and -shm files
 * too). A file of another user's (a root shell opening the service's database to read) is left as it is.
 */
function keepPrivate(filePath: string): void {
  try {
    fs.closeSync(fs.openSync(filePath, fs.constants.O_CREAT | fs.constants.O_WRONLY, 0o600));
    if (typeof process.getuid === 'function' && fs.statSync(filePath).uid !== process.getuid()) return;
    for (const file of ['', '-wal', '-shm'].map((suffix) => `${filePath}${suffix}`)) {
      const stat = fs.statSync(file, { throwIfNoEntry: false });
      if (stat && (stat.mode & 0o077) !== 0) fs.chmodSync(file, stat.mode & 0o700);
    }
  } catch {
    // Opening reports what is wrong with the file, in the store's own words.
  }
}

/** The submissions store on the file, opened now; its schema is checked in the background (`ready`). */
export function openSqliteStore(
  file: string,
  options: SqliteStoreOptions = {},
): SubmissionStore & { readonly ready: Promise<void>; readonly db: Kysely<Database>; depth(): StoreDepth } {
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
    // A write waits up to 5 s for another process's lock before failing.
    db.exec('PRAGMA busy_timeout = 5000');
    const mode = (db.prepare('PRAGMA journal_mode = WAL').get() as { journal_mode: string }).journal_mode;
    if (mode.toLowerCase() !== 'wal') throw new StoreError(`Could not switch ${filePath} to WAL mode (got ${mode})`);
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    // Deleted rows are overwritten with zeros, not left readable in free pages (erasure).
    db.exec('PRAGMA secure_delete = ON');
  } catch (error) {
    throw openError(`the submissions database at ${filePath}`, error);
  }

  const lock = new ConnectionLock();
  // One schema check at a time in the process (a tool or a test may open the file twice):
  // node:sqlite waits for a lock synchronously, so a second connection waiting for the first's
  // migration would block the thread that migration needs to finish.
  const migrate = () => openSchema(new Kysely<Database>({ dialect: new NodeSqliteDialect(db, lock) }));
  const migrated = migrating.then(migrate, migrate);
  migrating = migrated.catch(() => undefined);
  const ready = readyAfter(migrated, `the submissions database at ${filePath}`);
  const { kysely, close: closeConnection } = kyselyOn({ db, ready }, lock);
  let closed = false;
  const files = filesOnDisk(attachmentsDir(filePath), () => closed);

  /** Saves under way: closing lets them finish (a lead handed over is committed, files still being written are refused). */
  const saving = new Set<Promise<unknown>>();
  const store = submissionQueries(kysely, SQLITE, {
    files,
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled(saving);
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
    ready,
    db: kysely,
    // For the metrics: the work waiting for the one connection.
    depth: () => lock.depth(),
    save(input) {
      if (closed) return Promise.reject(new StoreError('The submissions store is closed'));
      const saved = store.save(input);
      saving.add(saved);
      void saved.catch(() => undefined).finally(() => saving.delete(saved));
      return saved;
    },
    delete: async (id, unless) => {
      const erased = await store.delete(id, unless);
      if (erased) await checkpoint();
      return erased;
    },
    purge: async (before) => {
      const purged = await store.purge(before);
      await checkpoint();
      return purged;
    },
  };
}

export function sqliteOutbox(kysely: Kysely<Database>, close: () => Promise<void>): OutboxStore {
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
export function openStaffStore(dbPath: string, migrated?: Promise<void>): StaffStore {
  const { kysely, close } = kyselyOn(openMigratedDatabase(dbPath, 9, 'staff accounts', migrated));
  return staffQueries(kysely, SQLITE, close);
}
