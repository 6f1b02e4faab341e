/**
 * The PostgreSQL store, for several receiver instances on one database. The queries are shared
 * (../*-queries.ts); what is PostgreSQL's own stays here:
 *
 * - One pool per process, whose type parsers read values back as SQLite gives them (../schema.ts).
 * - Migrations under Kysely's advisory lock: instances starting together migrate once.
 * - Files kept in the database (bytea), so every instance can serve them.
 * - The outbox claimed row by row (FOR UPDATE SKIP LOCKED) with a lease: each notification is
 *   sent by one instance; one that dies mid-send leaves it to another once the lease lapses.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { StoreError } from '../store.ts';
import { POSTGRES, iso, readyAfter } from '../common.ts';
import { OUTBOX_COLUMNS, outboxQueries } from '../outbox-queries.ts';
import type { Database } from '../schema.ts';
import { migrateToLatest, openSchema } from '../migrations/index.ts';
import { attachmentRecord, submissionQueries, type FileKeeper } from '../submission-queries.ts';

/** How long an instance holds a notification it is sending before another may take it. */
const CLAIM_LEASE_MS = 2 * 60 * 1000;

/** Applies the migrations the database lacks under Kysely's advisory lock, or with `step` openSchema, only the opening check. */
export function migratePg(pool: pg.Pool, step = migrateToLatest): Promise<number> {
  // Never destroyed: that would end the pool, which is its owner's.
  return step(new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }));
}

/** Where the password is, hidden: for messages. */
export function redactUrl(url: string): string {
  const parsed = URL.parse(url);
  if (!parsed) return 'the DATABASE_URL';
  if (parsed.password) parsed.password = '***';
  return parsed.href;
}

const TIMESTAMPTZ = 1184;
const INT8 = 20;
const JSON_OIDS = new Set([114, 3802]);
const parseTimestamptz = pg.types.getTypeParser(TIMESTAMPTZ) as (text: string) => Date;

/** What the pool reads back: times as ISO text, bigints as numbers, JSON as its text (as SQLite does). */
const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === TIMESTAMPTZ) return (text: string) => parseTimestamptz(text).toISOString();
    if (oid === INT8) return Number;
    if (JSON_OIDS.has(oid)) return (text: string) => text;
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** Files in the database (bytea): every instance serves them; they go with their rows. */
function filesInDatabase(): FileKeeper {
  return {
    keep: async (submissionId, files) =>
      files.map((file, position) => ({ ...attachmentRecord(submissionId, position, file), bytes: Buffer.from(file.bytes) })),
    drop: () => undefined,
    async read(id, db) {
      const row = await db.selectFrom('attachments').select('bytes').where('id', '=', id).executeTakeFirstOrThrow();
      const bytes = new Uint8Array(row.bytes!.byteLength);
      bytes.set(row.bytes!);
      return bytes;
    },
    remove: () => undefined,
  };
}

/** One pool and the stores PostgreSQL opens its own way; the first query waits for the schema check. */
export function openPgDatabase(url: string, options: { max?: number } = {}) {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    types: TYPES,
  });
  // An idle connection the server dropped: the pool replaces it; nothing to crash over.
  pool.on('error', (error) => console.error(`PostgreSQL connection lost (the pool reconnects): ${error.message}`));
  const ready = readyAfter(migratePg(pool, openSchema), `the PostgreSQL database at ${redactUrl(url)}`);
  let closed = false;
  // Every query waits for the schema check, and is refused once the database is closed.
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({
      pool: {
        async connect() {
          if (closed) throw new StoreError('The submissions store is closed');
          await ready;
          return pool.connect();
        },
        // The pool is ended by close() below, whether Kysely ever used it or not.
        end: async () => {},
        options: pool.options,
      },
    }),
  });
  const none = async () => {};
  return {
    submissions: submissionQueries(db, POSTGRES, {
      files: filesInDatabase(),
      close: none,
    }),
    outbox: outboxQueries(db, POSTGRES, {
      async claimDue(now, limit) {
        const at = iso(now);
        const rows = await db
          .with('due', (q) =>
            q
              .selectFrom('notifications')
              .select('id')
              .where('status', '=', 'pending')
              .where('next_attempt_at', '<=', at)
              .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
              .orderBy('next_attempt_at')
              .orderBy('created_at')
              .limit(limit)
              .forUpdate()
              .skipLocked(),
          )
          .updateTable('notifications as n')
          .from(['due', 'submissions as s'])
          .set({ claimed_until: iso(new Date(now.getTime() + CLAIM_LEASE_MS)) })
          .whereRef('n.id', '=', 'due.id')
          .whereRef('s.id', '=', 'n.submission_id')
          .returning(OUTBOX_COLUMNS)
          .execute();
        return rows.sort(
          (a, b) =>
            a.next_attempt_at.localeCompare(b.next_attempt_at) ||
            a.created_at.localeCompare(b.created_at) ||
            a.id.localeCompare(b.id),
        );
      },
      leases: true,
      close: none,
    }),
    dialect: POSTGRES,
    db,
    depth: () => ({ waiting: pool.waitingCount, active: pool.totalCount - pool.idleCount, idle: pool.idleCount }),
    ready,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
      await pool.end();
    },
  };
}
