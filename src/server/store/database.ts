/**
 * Which database the receiver, the outbox, the staff inbox and the staff command use: PostgreSQL
 * when DATABASE_URL is set (./postgres/pg-store.ts), else the SQLite file SUBMISSIONS_DB (the embedded
 * default: `npm start` needs no database server). Both answer the same four interfaces.
 */
import type { ReceiverConfig } from '../config.ts';
import { openPgDatabase, redactUrl, sharedStores, type PgDatabase } from './postgres/pg-store.ts';
import { openSqliteStore, sqliteOutbox } from './sqlite/sqlite-store.ts';
import { SQLITE } from './common.ts';

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
 * The stores of the configured database, on one set of handles: SQLite opens the file now
 * (throwing when it cannot) and every store shares its one connection; PostgreSQL opens one pool.
 * Both check the schema in the background (./migrations/index.ts, openSchema): `ready` tells when
 * it is done, and every query waits for it.
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
  const { db } = submissions;
  return {
    kind: 'sqlite',
    where: databaseWhere(config),
    submissions,
    outbox: sqliteOutbox(db, async () => {}),
    ...sharedStores(db, SQLITE),
    depth: submissions.depth,
    ready: submissions.ready,
    close: () => submissions.close(),
  };
}
