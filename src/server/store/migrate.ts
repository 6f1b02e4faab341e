/** `npm run submissions -- migrate`: the one step that moves a schema forward (docs/deploy.md); opening the stores never does. */
import fs from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { Kysely } from 'kysely';
import pg from 'pg';
import type { ReceiverConfig } from '../config.ts';
import { StoreError } from './store.ts';
import { migrateToLatest, schemaVersion } from './migrations/index.ts';
import { migratePg } from './postgres/pg-store.ts';
import type { Database } from './schema.ts';
import { NodeSqliteDialect } from './sqlite/sqlite-dialect.ts';

/** The configured database brought to this code's schema: the version it was at, and now is. */
export async function migrateDatabase(
  config: Pick<ReceiverConfig, 'dbPath' | 'databaseUrl'>,
): Promise<{ from: number; to: number }> {
  let from = 0;
  const step = async (db: Kysely<Database>) => {
    from = (await schemaVersion(db)).version;
    return migrateToLatest(db);
  };
  if (config.databaseUrl) {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 1 });
    try {
      return { to: await migratePg(pool, step), from };
    } finally {
      await pool.end();
    }
  }
  if (!fs.existsSync(config.dbPath)) throw new StoreError(`No submissions database at ${config.dbPath}`);
  const db = new DatabaseSync(config.dbPath);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    db.exec('PRAGMA foreign_keys = ON');
    return { to: await step(new Kysely<Database>({ dialect: new NodeSqliteDialect(db) })), from };
  } finally {
    db.close();
  }
}
