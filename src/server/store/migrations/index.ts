/**
 * The schema's history, one module per version, each written once for SQLite and PostgreSQL
 * (./dialect.ts names what differs), applied by Kysely's Migrator. Its table `kysely_migration`
 * records each migration applied by name; on PostgreSQL it holds an advisory lock and applies the
 * pending ones in one transaction, so instances starting together migrate once; on SQLite the
 * transaction is BEGIN IMMEDIATE (../sqlite/sqlite-dialect.ts), so one process migrates.
 *
 * Opening the stores never moves a schema forward (openSchema): `npm run submissions -- migrate`
 * does (../migrate.ts), a step of its own in a release, after a backup and before the switch, so
 * the release still serving keeps the schema it knows until then.
 *
 * The migrations are listed here rather than read from the folder: this module is also bundled
 * into dist/server/entry.mjs, where no folder of migrations exists. Append only; never edit a
 * migration that has shipped.
 */
import { sql } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { StoreError } from '../store.ts';
import { RECOVERY_FORM, fromPlainHash } from '../../inbox/recovery-codes.ts';
import { onPostgres, type Db } from './dialect.ts';
import * as leads from './0001-leads.ts';
import * as outbox from './0002-outbox.ts';
import * as staff from './0003-staff.ts';
import * as inbox from './0004-inbox.ts';
import * as attachments from './0005-attachments.ts';
import * as language from './0006-language.ts';
import * as uuids from './0007-uuids-and-bot-index.ts';
import * as signInUnderAttack from './0008-sign-in-under-attack.ts';
import * as closedStatus from './0009-closed-status.ts';
import * as timeline from './0010-timeline.ts';
import * as twoStep from './0011-two-step.ts';
import * as heldLeads from './0012-held-leads.ts';
import * as heldDigests from './0013-held-digests.ts';
import * as outboxMails from './0014-outbox-mails.ts';
import * as timely from './0015-timely.ts';

export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '0001-leads': leads,
  '0002-outbox': outbox,
  '0003-staff': staff,
  '0004-inbox': inbox,
  '0005-attachments': attachments,
  '0006-language': language,
  '0007-uuids-and-bot-index': uuids,
  '0008-sign-in-under-attack': signInUnderAttack,
  '0009-closed-status': closedStatus,
  '0010-timeline': timeline,
  '0011-two-step': twoStep,
  '0012-held-leads': heldLeads,
  '0013-held-digests': heldDigests,
  '0014-outbox-mails': outboxMails,
  '0015-timely': timely,
};

const NAMES = Object.keys(MIGRATIONS).sort();

/** The schema version this code migrates to: how many migrations it knows. */
export const SCHEMA_VERSION = NAMES.length;

/** Kysely's record of the migrations applied. */
export const MIGRATION_TABLE = 'kysely_migration';

/** The command that moves a database's schema forward, for the messages that name it. */
export const MIGRATE_COMMAND = 'npm run submissions -- migrate';

const newer = (version: number) =>
  new StoreError(
    `The database is at schema version ${version}, newer than this code knows (${SCHEMA_VERSION}): ` +
      'run the release that migrated it, or restore the backup taken before that migration (docs/deploy.md).',
  );

/**
 * The version the code before the migration files recorded, or undefined when there is no such
 * record: SQLite's `PRAGMA user_version`, PostgreSQL's table `schema_version`.
 */
async function legacyVersion(db: Db): Promise<number | undefined> {
  if (!onPostgres(db)) {
    const { rows } = await sql<{ user_version: number }>`PRAGMA user_version`.execute(db);
    return Number(rows[0]?.user_version ?? 0) || undefined;
  }
  const { rows } = await sql<{ found: string | null }>`SELECT to_regclass('schema_version')::text AS found`.execute(db);
  if (!rows[0]?.found) return undefined;
  const version = await sql<{ version: number }>`SELECT version FROM schema_version`.execute(db);
  return Number(version.rows[0]?.version ?? 0);
}

/**
 * The schema version of a database: how many migrations Kysely recorded (0 in an empty one), or
 * the old record's; `known` is false when it records a migration this code does not know.
 */
export async function schemaVersion(db: Db): Promise<{ version: number; known: boolean }> {
  const legacy = await legacyVersion(db);
  if (legacy !== undefined) return { version: legacy, known: legacy <= SCHEMA_VERSION };
  const applied = await db
    .selectFrom(MIGRATION_TABLE)
    .select('name')
    .execute()
    .catch(() => []);
  return { version: applied.length, known: applied.every((row) => row.name in MIGRATIONS) };
}

/**
 * What opening the stores does to the schema: creates it in an empty database (a fresh install
 * just starts), accepts one at this code's version, and refuses the others with what to do: an
 * older one waits for MIGRATE_COMMAND, a newer one is a newer release's.
 */
export async function openSchema(db: Db): Promise<number> {
  const { version, known } = await schemaVersion(db);
  if (version === 0) return migrateToLatest(db);
  if (!known || version > SCHEMA_VERSION) throw newer(version);
  if (version < SCHEMA_VERSION)
    throw new StoreError(
      `The database is at schema version ${version}; this release needs ${SCHEMA_VERSION}: ` +
        `back it up, then run \`${MIGRATE_COMMAND}\` (docs/deploy.md).`,
    );
  await upgradeRecoveryCodes(db);
  return version;
}

/**
 * Applies the migrations the database lacks and returns its version; refuses a database that
 * has applied a migration this code does not know.
 *
 * A database made before the migration files holds its version in the old record: on its first
 * open, migrations 1 to that version are recorded as applied without running (they ran then),
 * under the Migrator's lock, and the old record is cleared (kysely_migration is then the only one).
 */
export async function migrateToLatest(db: Db): Promise<number> {
  const legacy = await legacyVersion(db);
  if (legacy !== undefined) {
    if (legacy > SCHEMA_VERSION) throw newer(legacy);
    if (legacy > 0) {
      const ran = Object.fromEntries(NAMES.slice(0, legacy).map((name) => [name, { up: async () => {} }]));
      // Up to that version only; a migration applied since (by another instance) has no `down`, so stays.
      const adopt = new Migrator({ db, provider: { getMigrations: async () => ({ ...MIGRATIONS, ...ran }) } });
      const { error } = await adopt.migrateTo(NAMES[legacy - 1]!);
      if (error) throw error;
    }
    await (onPostgres(db) ? sql`DROP TABLE IF EXISTS schema_version` : sql`PRAGMA user_version = 0`).execute(db);
  }
  const result = await new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } }).migrateToLatest();
  if (result.error) {
    const applied = await db
      .selectFrom(MIGRATION_TABLE)
      .select('name')
      .execute()
      .catch(() => []);
    if (applied.some((row) => !(row.name in MIGRATIONS))) throw newer(applied.length);
    throw result.error;
  }
  await upgradeRecoveryCodes(db);
  return SCHEMA_VERSION;
}

/**
 * Recovery codes kept as a plain hash (before ../../inbox/recovery-codes.ts) rewritten in the
 * kept form, which is derived from that hash: the codes staff hold keep working. No schema
 * changes, so this is no migration; it runs at each open and costs one query once none are left.
 * Each row is rewritten only while it still holds its old value, so instances opening together
 * rewrite it once.
 */
async function upgradeRecoveryCodes(db: Db): Promise<void> {
  const old: { email: string; code_hash: string }[] = await db
    .selectFrom('staff_recovery_codes')
    .select(['email', 'code_hash'])
    .where('code_hash', 'not like', `${RECOVERY_FORM}%`)
    .execute();
  for (const row of old)
    await db
      .updateTable('staff_recovery_codes')
      .set({ code_hash: await fromPlainHash(row.email, row.code_hash) })
      .where('email', '=', row.email)
      .where('code_hash', '=', row.code_hash)
      .execute();
}
