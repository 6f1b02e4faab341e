/** Which database every store uses: PostgreSQL when DATABASE_URL is set, else the SQLite file SUBMISSIONS_DB. */
import type { Kysely } from 'kysely';
import type { ReceiverConfig } from '../config.ts';
import { openPgDatabase, redactUrl } from './postgres/pg-store.ts';
import { openSqliteStore, sqliteOutbox } from './sqlite/sqlite-store.ts';
import { SQLITE, type DialectParts } from './common.ts';
import type { Database } from './schema.ts';
import { heldQueries } from './held-queries.ts';
import { inboxQueries } from './inbox-queries.ts';
import { staffQueries } from './staff-queries.ts';
import { templateQueries } from './template-queries.ts';

/** The stores written alike for both databases, built once on its Kysely (closed by its owner). */
function sharedStores(db: Kysely<Database>, dialect: DialectParts) {
  const none = async () => {};
  return {
    staff: staffQueries(db, dialect, none),
    inbox: inboxQueries(db, dialect, none),
    held: heldQueries(db, dialect, none),
    templates: templateQueries(db, dialect, none),
  };
}

/** What each database opens its own way: the submissions, the outbox, its Kysely, its depth, `ready` and `close`. */
type OwnStores = ReturnType<typeof openPgDatabase>;

export type Stores = OwnStores &
  ReturnType<typeof sharedStores> & {
    readonly kind: 'sqlite' | 'postgres';
    /** Where the leads are, for people (a PostgreSQL password is never shown). */
    readonly where: string;
  };

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

function openSqliteDatabase(file: string, create: boolean): OwnStores {
  const submissions = openSqliteStore(file, { create });
  const { db, depth, ready } = submissions;
  const close = () => submissions.close();
  return { submissions, outbox: sqliteOutbox(db, async () => {}), dialect: SQLITE, db, depth, ready, close };
}

/**
 * The stores of the configured database, on one set of handles (SQLite's one connection, or one
 * pool); the schema is checked in the background: `ready` tells when, and every query waits for it.
 */
export function openStores(
  config: Pick<ReceiverConfig, 'dbPath' | 'databaseUrl' | 'poolMax'>,
  options: OpenOptions = {},
): Stores {
  const own = config.databaseUrl
    ? openPgDatabase(config.databaseUrl, { max: options.poolMax ?? config.poolMax })
    : openSqliteDatabase(config.dbPath, options.create !== false);
  const kind = config.databaseUrl ? 'postgres' : 'sqlite';
  return { kind, where: databaseWhere(config), ...own, ...sharedStores(own.db, own.dialect) };
}
