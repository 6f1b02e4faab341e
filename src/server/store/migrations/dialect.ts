/**
 * What the migrations write differently for each database, named once: the column types whose
 * names differ (each read back as ../schema.ts says), SQLite's STRICT tables, the JSON object
 * check and SQLite's UUID triggers. Everything else in a migration is written once.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Migrations describe the schema as it was at their version, not today's `Database`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- no table type fits every version
export type Db = Kysely<any>;

export const onPostgres = (db: Db): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** The column types and table options of the database `db` is on. */
export function dialect(db: Db) {
  const pg = onPostgres(db);
  return {
    pg,
    seq: pg ? 'bigserial' : 'integer',
    uuid: pg ? 'uuid' : 'text',
    time: pg ? 'timestamptz' : 'text',
    json: pg ? 'jsonb' : 'text',
    bigint: pg ? 'bigint' : 'integer',
    /** A new table; on SQLite a STRICT one, which refuses a value of the wrong type as PostgreSQL does. */
    table: (name: string) => (pg ? db.schema.createTable(name) : db.schema.createTable(name).modifyEnd(sql`strict`)),
    isObject: (column: string) =>
      sql.raw(pg ? `jsonb_typeof(${column}) = 'object'` : `json_valid(${column}) AND json_type(${column}) = 'object'`),
  } as const;
}

/** Runs each statement in turn (node:sqlite prepares one statement at a time). */
export async function run(db: Db, ...statements: readonly string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** A GLOB pattern that admits a lower-case UUID only (GLOB is case-sensitive). */
export const UUID_GLOB = [8, 4, 4, 4, 12].map((length) => '[0-9a-f]'.repeat(length)).join('-');

/**
 * SQLite: refuses, on insert and on update, a value of `columns` that is not a UUID (NULL passes),
 * as PostgreSQL's uuid type does. Triggers, since a STRICT table's CHECK cannot be added in place.
 */
export function uuidTriggers(table: string, columns: readonly string[]): string[] {
  const when = columns.map((column) => `NEW.${column} NOT GLOB '${UUID_GLOB}'`).join(' OR ');
  const raise = `BEGIN SELECT RAISE(ABORT, '${table}: an id is not a UUID'); END`;
  return [
    `CREATE TRIGGER ${table}_uuid_insert BEFORE INSERT ON ${table} WHEN ${when} ${raise}`,
    `CREATE TRIGGER ${table}_uuid_update BEFORE UPDATE OF ${columns.join(', ')} ON ${table} WHEN ${when} ${raise}`,
  ];
}
