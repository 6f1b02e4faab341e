/**
 * Backups that restore, for the SQLite database (the staff command's `backup DIR` and `restore DIR`;
 * docs/deploy.md says what each does). The copy is SQLite's online backup: one consistent moment,
 * taken while the server runs. A file is written and flushed before its row is committed, so every
 * row in the copy has its file; `manifest.json`, written last, names each with its SHA-256: a folder
 * without it is an unfinished backup. The database put aside by a restore is first checkpointed into
 * one file: a server killed with `kill -9` leaves its newest leads in the write-ahead log, where
 * SQLite would not look for them under another name. PostgreSQL: pg_dump and pg_restore.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, backup as sqliteBackup } from 'node:sqlite';
import { attachmentsDir, sqliteSchemaVersion } from '../store/sqlite/sqlite-store.ts';

const MANIFEST = 'manifest.json';
const DATABASE_FILE = 'submissions.db';
const FILES_DIR = 'files';

interface Manifest {
  readonly format: 1;
  readonly createdAt: string;
  readonly schemaVersion: number;
  readonly database: { readonly file: string; readonly size: number; readonly sha256: string };
  readonly counts: { readonly leads: number; readonly notifications: number; readonly files: number };
  readonly files: readonly { readonly id: string; readonly size: number; readonly sha256: string }[];
  /** Rows whose file was not in the files folder (erased between the copy and the file copy, or lost before). */
  readonly missing: readonly string[];
}

export class BackupError extends Error {
  override name = 'BackupError';
}

const sha256File = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

function fsyncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** The pid file a running server keeps beside its SQLite database (../http/serve.ts). */
function serverPidFile(dbPath: string): string {
  return `${path.resolve(dbPath)}.server-pid`;
}

/** The pid of a live server using this database; undefined when none (or only a stale pid file). */
function runningServer(dbPath: string): number | undefined {
  let text: string;
  try {
    text = fs.readFileSync(serverPidFile(dbPath), 'utf8').trim();
  } catch {
    return undefined;
  }
  const pid = Number(text);
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

/** Marks the database as in use by this process until it exits. */
export function holdServerPidFile(dbPath: string): () => void {
  const file = serverPidFile(dbPath);
  fs.writeFileSync(file, `${process.pid}\n`, { mode: 0o644 });
  const release = () => {
    try {
      if (fs.readFileSync(file, 'utf8').trim() === String(process.pid)) fs.unlinkSync(file);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', release);
  return release;
}

export async function backupSqlite(dbPath: string, dir: string, now = new Date()): Promise<Manifest> {
  const source = path.resolve(dbPath);
  if (!fs.existsSync(source)) throw new BackupError(`No submissions database at ${source}`);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0)
    throw new BackupError(`${dir} is not empty: name a new folder for each backup`);
  fs.mkdirSync(path.join(dir, FILES_DIR), { recursive: true, mode: 0o700 });
  // The backup holds what the database holds: its owner's only, whatever the umask.
  fs.chmodSync(dir, 0o700);
  fs.chmodSync(path.join(dir, FILES_DIR), 0o700);
  const copy = path.join(dir, DATABASE_FILE);
  fs.closeSync(fs.openSync(copy, 'wx', 0o600));

  const db = new DatabaseSync(source, { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    // Every page in one step: one consistent moment, however busy the server is.
    await sqliteBackup(db, copy, { rate: 1_000_000_000 });
  } finally {
    db.close();
  }
  fs.chmodSync(copy, 0o600);
  fsyncFile(copy);

  const copied = new DatabaseSync(copy, { readOnly: true });
  let rows: { id: string; size: number; sha256: string }[];
  let counts: Manifest['counts'];
  let schemaVersion: number;
  try {
    const check = copied.prepare('PRAGMA integrity_check').get() as { integrity_check: string };
    if (check.integrity_check !== 'ok')
      throw new BackupError(`The copy fails SQLite's integrity check: ${check.integrity_check}`);
    schemaVersion = sqliteSchemaVersion(copied);
    rows = copied.prepare('SELECT id, size, sha256 FROM attachments ORDER BY id').all() as typeof rows;
    const count = (table: string) => Number((copied.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
    counts = { leads: count('submissions'), notifications: count('notifications'), files: rows.length };
  } finally {
    copied.close();
  }

  const filesFrom = attachmentsDir(source);
  const files: { id: string; size: number; sha256: string }[] = [];
  const missing: string[] = [];
  for (const row of rows) {
    if (!/^[0-9a-f-]{36}$/.test(row.id)) continue;
    const from = path.join(filesFrom, row.id);
    const to = path.join(dir, FILES_DIR, row.id);
    try {
      fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
      fs.chmodSync(to, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        missing.push(row.id);
        continue;
      }
      throw error;
    }
    const sha256 = sha256File(to);
    if (sha256 !== row.sha256)
      throw new BackupError(`The stored file ${row.id} does not match its record's SHA-256: the files folder is damaged`);
    fsyncFile(to);
    files.push({ id: row.id, size: fs.statSync(to).size, sha256 });
  }

  const manifest: Manifest = {
    format: 1,
    createdAt: now.toISOString(),
    schemaVersion,
    database: { file: DATABASE_FILE, size: fs.statSync(copy).size, sha256: sha256File(copy) },
    counts,
    files,
    missing,
  };
  const temporary = path.join(dir, `${MANIFEST}.partial`);
  fs.writeFileSync(temporary, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fsyncFile(temporary);
  fs.renameSync(temporary, path.join(dir, MANIFEST));
  return manifest;
}

/** The backup's manifest, once every checksum in it is checked; throws a BackupError naming the first that fails. */
function verifyBackup(dir: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(dir, MANIFEST), 'utf8')) as Manifest;
  } catch {
    throw new BackupError(`${dir} holds no readable ${MANIFEST}: not a finished backup`);
  }
  if (manifest.format !== 1 || manifest.database?.file !== DATABASE_FILE || !Array.isArray(manifest.files))
    throw new BackupError(`${MANIFEST} in ${dir} is not one this code wrote`);
  const check = (file: string, size: number, sha256: string, what: string) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) throw new BackupError(`The backup is incomplete: ${what} is missing`);
    if (stat.size !== size || sha256File(file) !== sha256)
      throw new BackupError(`The backup fails its checksum: ${what} has changed since it was written`);
  };
  check(path.join(dir, DATABASE_FILE), manifest.database.size, manifest.database.sha256, 'the database');
  for (const file of manifest.files) {
    if (!/^[0-9a-f-]{36}$/.test(file.id)) throw new BackupError(`${MANIFEST} names a file that is not a stored file's id`);
    check(path.join(dir, FILES_DIR, file.id), file.size, file.sha256, `the file ${file.id}`);
  }
  return manifest;
}

/** Moves the write-ahead log into the database file, so the file alone holds every committed lead. */
function checkpoint(dbPath: string): void {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(dbPath);
    db.exec('PRAGMA busy_timeout = 5000');
    db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get();
  } catch {
    // Damaged or not a database: set aside as it is, its log beside it under the matching name.
  } finally {
    try {
      db?.close();
    } catch {
      // Closing a database that failed to open.
    }
  }
}

/** Owns `file` like `folder` (when run as root; otherwise files are already the runner's). */
function ownLike(file: string, folder: string): void {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return;
  const { uid, gid } = fs.statSync(folder);
  fs.chownSync(file, uid, gid);
}

export function restoreSqlite(
  dir: string,
  dbPath: string,
  now = new Date(),
): { readonly manifest: Manifest; readonly setAside: readonly string[] } {
  const target = path.resolve(dbPath);
  const pid = runningServer(target);
  if (pid !== undefined)
    throw new BackupError(`A server (pid ${pid}) has ${target} open: stop it first (systemctl stop globaq), then restore`);
  const manifest = verifyBackup(dir);
  const folder = path.dirname(target);
  fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const filesTo = attachmentsDir(target);

  // What is there now is kept aside, never overwritten: the database as one file when it can be
  // checkpointed, else with its write-ahead log named so that SQLite still finds it.
  if (fs.existsSync(target)) checkpoint(target);
  const setAside: string[] = [];
  const databaseAside = `${target}.before-restore-${stamp}`;
  const moves: [string, string][] = [
    [target, databaseAside],
    [`${target}-wal`, `${databaseAside}-wal`],
    [`${target}-shm`, `${databaseAside}-shm`],
    [filesTo, `${filesTo}.before-restore-${stamp}`],
  ];
  for (const [existing, aside] of moves) {
    if (!fs.existsSync(existing)) continue;
    fs.renameSync(existing, aside);
    setAside.push(aside);
  }

  fs.mkdirSync(filesTo, { mode: 0o700 });
  ownLike(filesTo, folder);
  for (const file of manifest.files) {
    const to = path.join(filesTo, file.id);
    fs.copyFileSync(path.join(dir, FILES_DIR, file.id), to, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(to, 0o600);
    ownLike(to, folder);
    fsyncFile(to);
  }
  const partial = `${target}.restoring`;
  fs.copyFileSync(path.join(dir, DATABASE_FILE), partial);
  fs.chmodSync(partial, 0o600);
  ownLike(partial, folder);
  fsyncFile(partial);
  fs.renameSync(partial, target);
  return { manifest, setAside };
}
