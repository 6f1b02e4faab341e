/**
 * Which database the receiver, the outbox, the staff inbox and the staff command use: PostgreSQL
 * when DATABASE_URL is set (./postgres/pg-store.ts), else the SQLite file SUBMISSIONS_DB (the embedded
 * default: `npm start` needs no database server). Both answer the same four interfaces.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import type { ReceiverConfig } from '../config.ts';
import type { InboxStore } from '../inbox/inbox-store.ts';
import type { OutboxStore } from '../mail/outbox.ts';
import { openPgDatabase, redactUrl, type PgDatabase } from './postgres/pg-store.ts';
import { openHeldStore, openInboxStore, openOutboxStore, openSqliteStore, openStaffStore } from './sqlite/sqlite-store.ts';
import type { HeldStore } from './held-queries.ts';
import type { StaffStore } from '../inbox/staff.ts';

export interface Stores extends PgDatabase {
  readonly kind: 'sqlite' | 'postgres';
  /** Where the leads are, for people (a PostgreSQL password is never shown). */
  readonly where: string;
}

/** Where the leads are, for people, without opening anything (a PostgreSQL password is never shown). */
export function databaseWhere(config: Pick<ReceiverConfig, 'dbPath' | 'databaseUrl'>): string {
  return config.databaseUrl ? `PostgreSQL at ${redactUrl(config.databaseUrl)}` : config.dbPath;
}

export interface OpenOptions {
  /** SQLite: create the file when missing (the server does; the staff command does not). */
  readonly create?: boolean;
  /** PostgreSQL: this pool's connection limit (default: the configuration's). */
  readonly poolMax?: number;
}

/**
 * The stores of the configured database. SQLite opens the file now, throwing when it cannot;
 * its other stores open their own connections when first used. PostgreSQL opens a pool now.
 * Both migrate in the background: `ready` tells when it is done, and every query waits for it.
 */
export function openStores(
  config: Pick<ReceiverConfig, 'dbPath' | 'databaseUrl' | 'poolMax'>,
  options: OpenOptions = {},
): Stores {
  if (config.databaseUrl) {
    const db = openPgDatabase(config.databaseUrl, { max: options.poolMax ?? config.poolMax });
    return { kind: 'postgres', where: databaseWhere(config), ...db, close: () => db.close() };
  }
  const submissions = openSqliteStore(config.dbPath, { create: options.create !== false });
  let outbox: OutboxStore | undefined;
  let staff: StaffStore | undefined;
  let inbox: InboxStore | undefined;
  let held: HeldStore | undefined;
  return {
    kind: 'sqlite',
    where: databaseWhere(config),
    submissions,
    get outbox() {
      return (outbox ??= openOutboxStore(config.dbPath, submissions.ready));
    },
    get staff() {
      return (staff ??= openStaffStore(config.dbPath, submissions.ready));
    },
    get inbox() {
      return (inbox ??= openInboxStore(config.dbPath, submissions.ready));
    },
    get held() {
      return (held ??= openHeldStore(config.dbPath, submissions.ready));
    },
    ready: submissions.ready,
    async close() {
      await Promise.all([submissions.close(), outbox?.close(), staff?.close(), inbox?.close(), held?.close()]);
    },
  };
}
