/**
 * A database's schema read from its live catalogue as a set of facts both dialects can state:
 * tables, columns (type as the app reads it back, nullability, default), primary keys, unique and
 * foreign keys, checks (allowed values, JSON objects, UUIDs) and indexes. Compared between the two
 * databases (tests/integration/schema-parity.test.ts) and between a database the old code made
 * and a fresh one (tests/integration/migrations.test.ts).
 */
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';

const UUID_GLOB = [8, 4, 4, 4, 12].map((length) => '[0-9a-f]'.repeat(length)).join('-');
const list = (values: string) =>
  values
    .split(',')
    .map((value) => value.trim().replace(/^'|'$/g, ''))
    .join(', ');

/** One check's expression as a fact both dialects can state, or the raw text (which then differs, and fails). */
function checkFact(table: string, expression: string): string {
  const e = expression.replace(/::\w+/g, '').replace(/\s+/g, ' ').trim();
  let match = /^\(*(\w+) IN \(([^)]*)\)\)*$/i.exec(e) ?? /^\(*(\w+) = ANY \(+ARRAY\[([^\]]*)\]\)+$/i.exec(e);
  if (match) return `check ${table}.${match[1]} in (${list(match[2]!)})`;
  match =
    /^\(*json_valid\((\w+)\) AND json_type\(\1\) = 'object'\)*$/i.exec(e) ?? /^\(*jsonb_typeof\((\w+)\) = 'object'\)*$/i.exec(e);
  if (match) return `check ${table}.${match[1]} is a JSON object`;
  return `check ${table}: ${e}`;
}

/** The text between the parenthesis at `open` and its match. */
function balanced(text: string, open: number): string {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`Unbalanced parentheses in ${text}`);
}

const normalDefault = (value: string | null): string =>
  value === null ? '' : `, default ${value.replace(/::[\w ]+/g, '').replace(/^\((.*)\)$/, '$1')}`;

/** Kysely's own tables (kysely_migration, kysely_migration_lock) record the migrations: not the app's schema. */
const withoutMigrationRecord = (facts: Set<string>) => new Set([...facts].filter((fact) => !/\bkysely_migration/.test(fact)));

export function sqliteFacts(file: string): Set<string> {
  const db = new DatabaseSync(file, { readOnly: true });
  const facts = new Set<string>();
  try {
    const all = <T>(sql: string, ...params: string[]) => db.prepare(sql).all(...params) as T[];
    const tables = all<{ name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    );
    const triggers = all<{ tbl_name: string; sql: string }>("SELECT tbl_name, sql FROM sqlite_schema WHERE type = 'trigger'");
    for (const { name: table, sql } of tables) {
      facts.add(`table ${table}`);
      const columns = all<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(
        `SELECT * FROM pragma_table_info(?)`,
        table,
      );
      const keys = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk);
      for (const column of columns) {
        const type = { TEXT: 'text', INTEGER: 'integer', BLOB: 'bytes' }[column.type.toUpperCase()] ?? column.type;
        // An INTEGER PRIMARY KEY is the rowid: numbered by the database, never null.
        const rowid = keys.length === 1 && column.pk === 1 && type === 'integer';
        facts.add(
          `column ${table}.${column.name}: ${type}, ${column.notnull || column.pk ? 'not null' : 'null'}${rowid ? ', generated' : normalDefault(column.dflt_value)}`,
        );
      }
      facts.add(`primary key ${table}(${keys.map((column) => column.name).join(', ')})`);
      for (const index of all<{ name: string; unique: number; origin: string }>('SELECT * FROM pragma_index_list(?)', table)) {
        const indexed = all<{ name: string }>('SELECT name FROM pragma_index_info(?) ORDER BY seqno', index.name)
          .map((column) => column.name)
          .join(', ');
        if (index.origin === 'u') facts.add(`unique ${table}(${indexed})`);
        if (index.origin === 'c') facts.add(`${index.unique ? 'unique index' : 'index'} ${index.name} on ${table}(${indexed})`);
      }
      for (const key of all<{ from: string; table: string; to: string; on_delete: string }>(
        'SELECT * FROM pragma_foreign_key_list(?)',
        table,
      )) {
        facts.add(`foreign key ${table}(${key.from}) -> ${key.table}(${key.to}) on delete ${key.on_delete.toLowerCase()}`);
      }
      for (let at = sql.search(/\bCHECK\s*\(/i); at >= 0;) {
        const open = sql.indexOf('(', at);
        const expression = balanced(sql, open);
        facts.add(checkFact(table, expression));
        const next = sql.slice(open + expression.length).search(/\bCHECK\s*\(/i);
        at = next < 0 ? -1 : open + expression.length + next;
      }
      // Ids checked as UUIDs by triggers, on insert and on update alike.
      const checked = (event: 'INSERT' | 'UPDATE') =>
        new Set(
          triggers
            .filter((trigger) => trigger.tbl_name === table && new RegExp(`BEFORE ${event}\\b`, 'i').test(trigger.sql))
            .flatMap((trigger) =>
              [...trigger.sql.matchAll(new RegExp(`NEW\\.(\\w+) NOT GLOB '${UUID_GLOB.replace(/[[\]]/g, '\\$&')}'`, 'g'))].map(
                (m) => m[1]!,
              ),
            ),
        );
      const onInsert = checked('INSERT');
      const onUpdate = checked('UPDATE');
      for (const column of onInsert)
        facts.add(`check ${table}.${column} is a UUID${onUpdate.has(column) ? '' : ' (on insert only)'}`);
    }
  } finally {
    db.close();
  }
  return withoutMigrationRecord(facts);
}

export async function postgresFacts(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const facts = new Set<string>();
  try {
    const rows = async <T extends pg.QueryResultRow>(sql: string) => (await client.query<T>(sql)).rows;
    for (const { table_name: table } of await rows<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    ))
      facts.add(`table ${table}`);
    const columns = await rows<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
      column_default: string | null;
    }>(
      "SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const APP_TYPE: Record<string, string> = {
      text: 'text',
      uuid: 'text',
      'timestamp with time zone': 'text',
      jsonb: 'text',
      integer: 'integer',
      bigint: 'integer',
      bytea: 'bytes',
    };
    for (const column of columns) {
      const generated = column.column_default?.startsWith('nextval(') === true;
      const where = `${column.table_name}.${column.column_name}`;
      facts.add(
        `column ${where}: ${APP_TYPE[column.data_type] ?? column.data_type}, ${column.is_nullable === 'YES' ? 'null' : 'not null'}${generated ? ', generated' : normalDefault(column.column_default)}`,
      );
      if (column.data_type === 'uuid') facts.add(`check ${where} is a UUID`);
    }
    const constraints = await rows<{ table: string; type: string; definition: string }>(
      "SELECT c.conrelid::regclass::text AS table, c.contype AS type, pg_get_constraintdef(c.oid) AS definition FROM pg_constraint c JOIN pg_namespace s ON s.oid = c.connamespace WHERE s.nspname = 'public'",
    );
    for (const { table, type, definition } of constraints) {
      const columnsOf = (text: string) => /\(([^)]*)\)/.exec(text)![1]!.replace(/"/g, '');
      if (type === 'p') facts.add(`primary key ${table}(${columnsOf(definition)})`);
      else if (type === 'u') facts.add(`unique ${table}(${columnsOf(definition)})`);
      else if (type === 'f') {
        const match = /^FOREIGN KEY \(([^)]*)\) REFERENCES (\w+)\(([^)]*)\)(?: ON DELETE (CASCADE|SET NULL|RESTRICT))?/.exec(
          definition,
        )!;
        facts.add(
          `foreign key ${table}(${match[1]}) -> ${match[2]}(${match[3]}) on delete ${(match[4] ?? 'no action').toLowerCase()}`,
        );
      } else if (type === 'c') facts.add(checkFact(table, balanced(definition, definition.indexOf('('))));
      else facts.add(`constraint ${table}: ${definition}`);
    }
    const indexes = await rows<{ table: string; name: string; definition: string; unique: boolean }>(
      `SELECT t.relname AS table, i.relname AS name, pg_get_indexdef(i.oid) AS definition, x.indisunique AS unique
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace s ON s.oid = t.relnamespace
       WHERE s.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
    );
    // pg_get_indexdef quotes a column named by a keyword ("position"): the name is the fact.
    for (const index of indexes)
      facts.add(
        `${index.unique ? 'unique index' : 'index'} ${index.name} on ${index.table}(${/USING \w+ \(([^)]*)\)/.exec(index.definition)![1]!.replace(/"/g, '')})`,
      );
  } finally {
    await client.end();
  }
  return withoutMigrationRecord(facts);
}
