/** What the shared store queries (./*-queries.ts) need from each database, and the helpers they share. */
import { sql, type Kysely, type RawBuilder, type SelectQueryBuilder, type Transaction } from 'kysely';
import { StoreError, type SeenGuard } from './store.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
/** A transaction's handle: the same queries as `Db`, all inside one BEGIN ... COMMIT. */
export type Tx = Transaction<Database>;

/** What differs between SQLite and PostgreSQL in the queries themselves (nothing else does). */
export interface DialectParts {
  readonly name: 'SQLite' | 'PostgreSQL';
  /**
   * Whether a transaction takes the rows it reads to change (`SELECT ... FOR UPDATE`):
   * PostgreSQL's instances share rows; a SQLite transaction holds the whole file (BEGIN IMMEDIATE).
   */
  readonly rowLocks: boolean;
  /** One field of a lead's JSON fields, as text (NULL when absent). */
  jsonText(column: string, field: string): RawBuilder<string | null>;
  /** Every answer of a lead's JSON fields as one text, space between (lists as their JSON text). */
  allText(column: string): RawBuilder<string>;
  /** Text compared byte by byte (code point order), whatever the database's collation: sorts agree on both. */
  binary(text: RawBuilder<unknown>): RawBuilder<string>;
  /** Lower case for ASCII letters only, as SQLite's lower() does (PostgreSQL's follows its locale). */
  lowerAscii(text: RawBuilder<unknown>): RawBuilder<string>;
}

export const SQLITE: DialectParts = {
  name: 'SQLite',
  rowLocks: false,
  jsonText: (column, field) => sql<string | null>`json_extract(${sql.ref(column)}, ${sql.lit(`$.${field}`)})`,
  allText: (column) => sql<string>`coalesce((SELECT group_concat(value, ' ') FROM json_each(${sql.ref(column)})), '')`,
  binary: (text) => sql<string>`${text}`,
  lowerAscii: (text) => sql<string>`lower(${text})`,
};

export const POSTGRES: DialectParts = {
  name: 'PostgreSQL',
  rowLocks: true,
  jsonText: (column, field) => sql<string | null>`${sql.ref(column)}->>${sql.lit(field)}`,
  allText: (column) => sql<string>`coalesce((SELECT string_agg(value, ' ') FROM jsonb_each_text(${sql.ref(column)})), '')`,
  binary: (text) => sql<string>`(${text}) COLLATE "C"`,
  lowerAscii: (text) => sql<string>`lower((${text}) COLLATE "C")`,
};

/** Any failure of the database, as the store's own error (a StoreError passes as it is). */
function toStoreError(error: unknown, dialect: DialectParts): StoreError {
  return error instanceof StoreError
    ? error
    : new StoreError(`${dialect.name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** A database that cannot be opened or migrated, as the store's own error (a StoreError passes as it is). */
export const openError = (what: string, error: unknown): StoreError =>
  error instanceof StoreError ? error : new StoreError(`Cannot open ${what}: ${String(error)}`, { cause: error });

/** The stores' `ready`: settles once `migrated` does; callers see a failure through it, never as an unhandled rejection. */
export function readyAfter(migrated: Promise<unknown>, what: string): Promise<void> {
  const ready = migrated.then(() => undefined).catch((error: unknown) => Promise.reject(openError(what, error)));
  ready.catch(() => undefined);
  return ready;
}

/** The store with each method's failures turned into StoreErrors: callers tell the store's failures from their own by type. */
export function guarded<T extends object>(store: T, dialect: DialectParts): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(store)) {
    if (typeof method !== 'function') {
      wrapped[name] = method;
      continue;
    }
    wrapped[name] = (...args: unknown[]) => {
      let result: unknown;
      try {
        result = method.apply(store, args);
      } catch (error) {
        throw toStoreError(error, dialect);
      }
      if (result instanceof Promise) return result.catch((error: unknown) => Promise.reject(toStoreError(error, dialect)));
      if (result && typeof result === 'object' && Symbol.asyncIterator in result)
        return guardedIterable(result as AsyncIterable<unknown>, dialect);
      return result;
    };
  }
  return wrapped as T;
}

async function* guardedIterable<T>(iterable: AsyncIterable<T>, dialect: DialectParts): AsyncGenerator<T> {
  try {
    yield* iterable;
  } catch (error) {
    throw toStoreError(error, dialect);
  }
}

/** A count or an affected-row count as a number (PostgreSQL's bigint, Kysely's bigint). */
export const n = (value: number | bigint | string | null | undefined): number => Number(value ?? 0);

export async function countOf<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): Promise<number> {
  const row = (await query.select(sql<number>`count(*)`.as('n')).executeTakeFirst()) as { n: number } | undefined;
  return n(row?.n);
}

/** ISO text from a Date: how every time is written, in both databases. */
export const iso = (date: Date): string => date.toISOString();

/** Reads a table in pages of `size` by its `seq`, so a large export never sits whole in memory. */
export async function* bySeq<R extends { seq: number }>(
  page: (after: number, size: number) => Promise<R[]>,
  size = 500,
): AsyncGenerator<R> {
  let after = 0;
  for (;;) {
    const rows = await page(after, size);
    yield* rows;
    if (rows.length < size) return;
    after = Number(rows.at(-1)!.seq);
  }
}

/** Whether the lead changed since the page asking saw it (SeenGuard); called in the change's transaction, its row taken. */
export async function changedSince(tx: Tx, id: string, unless: SeenGuard | undefined): Promise<boolean> {
  if (!unless || unless.kinds.length === 0) return false;
  const row = await tx
    .selectFrom('lead_events')
    .select('seq')
    .where('lead_id', '=', id)
    .where('seq', '>', unless.seen)
    .where('kind', 'in', [...unless.kinds])
    // An answer begun in the inbox (../inbox/inbox-store.ts's ANSWERING) is a sign, not a change.
    .where((eb) => eb.or([eb('kind', '<>', 'reply'), eb('detail', '<>', 'answering')]))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A day's digest claimed by one server among several (`key`: the day, and the account for a staff
 * digest), marked sent, or given back when its mail failed (never once sent).
 */
export function digestClaims(db: Db, table: 'held_digests' | 'staff_digests') {
  // Typed as the staff digests: the held ones are keyed by the day alone, and `sent` sets their count.
  const digests = table as 'staff_digests';
  type Key = { readonly day: string; readonly email?: string };
  return {
    async claim(key: Key, now: Date): Promise<boolean> {
      const row = await db
        .insertInto(digests)
        .values({ ...key, claimed_at: iso(now) } as { day: string; email: string; claimed_at: string })
        .onConflict((conflict) => conflict.doNothing())
        .returning('day')
        .executeTakeFirst();
      return row !== undefined;
    },
    async sent(key: Key, now: Date, count?: { readonly held: number }): Promise<void> {
      await db
        .updateTable(digests)
        .set({ sent_at: iso(now), ...count })
        .where((eb) => eb.and(key))
        .execute();
    },
    async unclaim(key: Key): Promise<void> {
      await db
        .deleteFrom(digests)
        .where((eb) => eb.and(key))
        .where('sent_at', 'is', null)
        .execute();
    },
  };
}
