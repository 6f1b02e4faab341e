/** The staff command's commands on accounts and the database (../cli.ts's USAGE says what each does). */
import path from 'node:path';
import { receiverConfig } from '../config.ts';
import { hashPassword, passwordProblem, staffEmail } from '../inbox/staff.ts';
import { BackupError, backupSqlite, restoreSqlite } from '../ops/backup.ts';
import { databaseWhere } from '../store/database.ts';
import { migrateDatabase } from '../store/migrate.ts';
import { migrateToPostgres } from '../store/migrate-to.ts';
import { redactUrl } from '../store/postgres/pg-store.ts';
import { UsageError, actorOf, asUsage, audited, databaseOf, many, noMore, withStores, type Command, type Io } from './common.ts';

/** A new password, asked twice at a terminal. */
async function newPassword(io: Io): Promise<string> {
  if (!io.readSecret) throw new UsageError('No way to read a password here.');
  const password = await io.readSecret('Password (at least 12 characters): ');
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(problem);
  if (io.interactive && (await io.readSecret('The same password again: ')) !== password)
    throw new UsageError('The two passwords differ: nothing was changed.');
  return password;
}

const staff: Command = async (args, values, io) => {
  const [action = '', address, ...rest] = args;
  const needsEmail = ['add', 'password', 'remove', 'reset-two-step'].includes(action);
  if (!needsEmail && action !== 'list')
    throw new UsageError('staff takes add EMAIL, password EMAIL, list, remove EMAIL or reset-two-step EMAIL.');
  if (rest.length > 0 || (address === undefined) === needsEmail)
    throw new UsageError(`staff ${action} takes ${needsEmail ? 'one e-mail address' : 'nothing more'}.`);
  const email = needsEmail ? asUsage(() => staffEmail(address ?? '')) : '';
  return withStores(values.db, io, async (stores) => {
    const staff = stores.staff;
    if (action === 'list') {
      const accounts = await staff.list();
      await audited(stores, io, 'listed staff accounts', `${accounts.length} shown`);
      for (const account of accounts) {
        const how = account.twoStepSince ? `two-step since ${account.twoStepSince}` : 'password only (no two-step)';
        io.stdout(`${account.email}  created ${account.createdAt}  password set ${account.passwordChangedAt}  ${how}\n`);
      }
      if (accounts.length === 0) io.stderr('No staff accounts yet: npm run submissions -- staff add EMAIL\n');
      return 0;
    }
    const exists = (await staff.passwordHash(email)) !== undefined;
    if (action === 'add' && exists) {
      io.stderr(`There is already an account for ${email} (staff password ${email} changes its password).\n`);
      return 1;
    }
    if (action !== 'add' && !exists) {
      io.stderr(`No account for ${email}${action === 'password' ? ` (staff add ${email} makes one)` : ''}.\n`);
      return 1;
    }
    if (action === 'reset-two-step') {
      const record = await staff.twoStep(email);
      await staff.resetTwoStep(email);
      await audited(stores, io, 'reset two-step sign-in', email);
      io.stderr(
        record?.sealedSecret === undefined
          ? `${email} had no two-step sign-in; nothing to reset.\n`
          : `Two-step sign-in is off for ${email}: its secret and recovery codes are forgotten, and its sessions ended. They sign in again and set it up again at /admin/two-step.\n`,
      );
      return 0;
    }
    if (action === 'remove') {
      await staff.remove(email);
      await audited(stores, io, 'removed staff account', email);
      io.stderr(`Removed the account of ${email}.\n`);
      return 0;
    }
    const hash = await hashPassword(await newPassword(io));
    if (action === 'add') await staff.add(email, hash, new Date());
    else await staff.setPassword(email, hash, new Date());
    await audited(stores, io, action === 'add' ? 'added staff account' : 'set staff password', email);
    io.stderr(action === 'add' ? `Made an account for ${email}.\n` : `Set a new password for ${email}.\n`);
    return 0;
  });
};

const migrateTo: Command = async (args, values, io) => {
  const [target, ...rest] = args;
  if (target === undefined || rest.length > 0)
    throw new UsageError('migrate-to takes one PostgreSQL URL: migrate-to postgres://user:password@host:5432/database');
  const url = asUsage(() => receiverConfig({ DATABASE_URL: target }, io.root).databaseUrl!);
  const source = databaseOf(values.db, io).dbPath;
  // Recorded in the database moved to (its audit log's newest entry), under the person who ran it.
  const moved = await migrateToPostgres(source, url, actorOf(io));
  io.stderr(
    `Moved from ${source} to ${redactUrl(url)}: ${many(moved.leads, 'lead')}, ${moved.bots} caught by the honeypot, ` +
      `${many(moved.notifications, 'notification')}, ${many(moved.files, 'file')}, ` +
      `${many(moved.staff, 'staff account')}, ${many(moved.audit, 'audit entry', 'audit entries')}. ` +
      'Set DATABASE_URL for the server and restart it; keep the SQLite file as a backup.\n',
  );
  return 0;
};

const migrate: Command = async (extra, values, io) => {
  noMore(extra);
  const target = databaseOf(values.db, io);
  const { from, to } = await migrateDatabase(target);
  if (from === to) {
    io.stderr(`${databaseWhere(target)} is at schema version ${to} already: nothing to migrate.\n`);
    return 0;
  }
  await withStores(values.db, io, (stores) => audited(stores, io, 'migrated the database', `schema version ${from} to ${to}`));
  io.stderr(`Migrated ${databaseWhere(target)} from schema version ${from} to ${to}.\n`);
  return 0;
};

const backup: Command = async (args, values, io, command) => {
  const [folder, ...rest] = args;
  if (folder === undefined || rest.length > 0) throw new UsageError(`${command} takes one folder: ${command} DIR`);
  const { dbPath, databaseUrl } = databaseOf(values.db, io);
  if (databaseUrl)
    throw new UsageError(
      `${command} works on the SQLite database; with DATABASE_URL (PostgreSQL) use pg_dump and pg_restore, as docs/deploy.md shows`,
    );
  const dir = path.resolve(io.cwd, folder);
  try {
    const backup = command === 'backup';
    const { manifest, setAside } = backup
      ? { manifest: await backupSqlite(dbPath, dir), setAside: [] }
      : restoreSqlite(dir, dbPath);
    const counts = `${many(manifest.counts.leads, 'lead')}, ${many(manifest.files.length, 'file')}`;
    // A restore is recorded in the database restored, the one the server reads from now on.
    await withStores(dbPath, io, (stores) =>
      backup
        ? audited(stores, io, 'backed up the database', `to ${dir}`)
        : audited(stores, io, 'restored the database', `from ${dir}, taken ${manifest.createdAt}`),
    );
    io.stderr(
      backup
        ? `Backed up ${dbPath} to ${dir}: ${counts}, checksums in manifest.json.\n` +
            (manifest.missing.length > 0
              ? `${many(manifest.missing.length, 'file was', 'files were')} missing from the files folder: ${manifest.missing.join(', ')}\n`
              : '')
        : `Restored ${dir} (taken ${manifest.createdAt}) to ${dbPath}: ${counts}, every checksum checked.\n` +
            (setAside.length > 0 ? `Kept aside: ${setAside.join(', ')}\n` : ''),
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
};

export const ADMIN_COMMANDS = { staff, backup, restore: backup, migrate, 'migrate-to': migrateTo };
