/**
 * The PostgreSQL store: the same interfaces as the SQLite one (../store.ts, the outbox,
 * the staff accounts, the inbox), for a site served by several receiver instances on one
 * database, or a company that keeps its leads in the database its IT already backs up. Their
 * queries are written once for both databases (./store/*-queries.ts, through Kysely's
 * PostgreSQL dialect on `pg`); what is PostgreSQL's own stays here:
 *
 * - One connection pool per process (at most DATABASE_POOL_MAX connections, default 10), whose
 *   type parsers read times back as ISO text, bigints as numbers and jsonb as its text: the same
 *   values SQLite gives, so one set of row mappers serves both (../schema.ts).
 * - The same versioned migrations as SQLite, written for PostgreSQL (PG_MIGRATIONS: entry N takes
 *   the schema from version N to N+1, the same tables as SQLite's entry N), applied at start under
 *   an advisory lock: instances starting together migrate once.
 * - A lead, its notification and its files in one transaction. Files are kept in the database
 *   (bytea), so every instance can serve them.
 * - The outbox is claimed row by row (FOR UPDATE SKIP LOCKED) with a lease: each notification is
 *   sent by one instance; one that dies mid-send leaves it to another once the lease lapses.
 * - Sessions and failed sign-ins live in the database: a staff member stays signed in whichever
 *   instance answers, and the lock counts every instance's failures (rows locked FOR UPDATE).
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { InboxStore } from '../../inbox/inbox-store.ts';
import type { OutboxStore } from '../../mail/outbox.ts';
import type { StaffStore } from '../../inbox/staff.ts';
import { StoreError, type SubmissionStore } from '../store.ts';
import { POSTGRES, iso } from '../common.ts';
import { heldQueries, type HeldStore } from '../held-queries.ts';
import { inboxQueries } from '../inbox-queries.ts';
import { OUTBOX_COLUMNS, outboxQueries } from '../outbox-queries.ts';
import type { Database } from '../schema.ts';
import { staffQueries } from '../staff-queries.ts';
import { registerStoreDepth } from '../../ops/depth.ts';
import { attachmentRecord, insertSql, leadRows, submissionQueries, type FileKeeper } from '../submission-queries.ts';

/** The advisory lock key the migrations are applied under (any constant; the same in every instance). */
const MIGRATION_LOCK = 7_265_106_021;
/** How long an instance holds a notification it is sending before another may take it. */
export const CLAIM_LEASE_MS = 2 * 60 * 1000;

/** The schema's history for PostgreSQL: entry N mirrors SQLite's entry N (../sqlite/sqlite-store.ts). Append only. */
export const PG_MIGRATIONS: readonly string[] = [
  // 1: leads, and the honeypot's catch kept apart.
  `CREATE TABLE submissions (
    seq bigserial PRIMARY KEY,
    id uuid NOT NULL UNIQUE,
    form text NOT NULL CHECK (form IN ('contact', 'partner')),
    received_at timestamptz NOT NULL,
    fields jsonb NOT NULL CHECK (jsonb_typeof(fields) = 'object')
  );
  CREATE INDEX submissions_form_received ON submissions (form, received_at);
  CREATE TABLE bot_submissions (
    seq bigserial PRIMARY KEY,
    id uuid NOT NULL UNIQUE,
    form text NOT NULL CHECK (form IN ('contact', 'partner')),
    received_at timestamptz NOT NULL,
    fields jsonb NOT NULL CHECK (jsonb_typeof(fields) = 'object')
  );`,
  // 2: the outbox.
  `CREATE TABLE notifications (
    submission_id uuid PRIMARY KEY REFERENCES submissions (id) ON DELETE CASCADE,
    status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
    subject text NOT NULL,
    body_text text NOT NULL,
    body_html text NOT NULL,
    reply_to text,
    created_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    sent_at timestamptz,
    last_error text,
    claimed_until timestamptz
  );
  CREATE INDEX notifications_due ON notifications (status, next_attempt_at);`,
  // 3: staff accounts.
  `CREATE TABLE staff (
    email text PRIMARY KEY,
    password_hash text NOT NULL,
    created_at timestamptz NOT NULL,
    password_changed_at timestamptz NOT NULL
  );`,
  // 4: the staff inbox.
  `ALTER TABLE submissions ADD COLUMN status text NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'in_progress', 'answered', 'spam'));
  ALTER TABLE submissions ADD COLUMN status_by text;
  ALTER TABLE submissions ADD COLUMN status_at timestamptz;
  ALTER TABLE submissions ADD COLUMN note text NOT NULL DEFAULT '';
  ALTER TABLE submissions ADD COLUMN note_by text;
  ALTER TABLE submissions ADD COLUMN note_at timestamptz;
  CREATE INDEX submissions_status ON submissions (status, seq);
  CREATE TABLE staff_sessions (
    token_hash text PRIMARY KEY,
    email text NOT NULL REFERENCES staff (email) ON DELETE CASCADE,
    csrf text NOT NULL,
    created_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL
  );
  CREATE INDEX staff_sessions_email ON staff_sessions (email);
  CREATE TABLE sign_in_failures (
    key text PRIMARY KEY,
    failures integer NOT NULL,
    last_failure_at timestamptz NOT NULL,
    locked_until timestamptz
  );
  CREATE TABLE audit_log (
    seq bigserial PRIMARY KEY,
    at timestamptz NOT NULL,
    actor text NOT NULL,
    action text NOT NULL,
    lead_id uuid,
    detail text NOT NULL DEFAULT ''
  );`,
  // 5: files sent with a lead, their bytes in the database (every instance serves them).
  `CREATE TABLE attachments (
    id uuid PRIMARY KEY,
    submission_id uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    position integer NOT NULL,
    name text NOT NULL,
    type text NOT NULL,
    size integer NOT NULL,
    sha256 text NOT NULL,
    bytes bytea NOT NULL
  );
  CREATE INDEX attachments_submission ON attachments (submission_id, position);`,
  // 6: the language each lead (and each of the honeypot's catch) was sent in; earlier rows were English.
  `ALTER TABLE submissions ADD COLUMN language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar'));
  ALTER TABLE bot_submissions ADD COLUMN language text NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ar'));`,
  // 7: what SQLite's schema already held: the honeypot's catch indexed as the leads are.
  `CREATE INDEX bot_submissions_form_received ON bot_submissions (form, received_at);`,
  // 8: device cookies, refused sign-ins apart from the audit log, audit entries by lead id only.
  `CREATE TABLE staff_devices (
    token_hash text PRIMARY KEY,
    email text NOT NULL REFERENCES staff (email) ON DELETE CASCADE,
    created_at timestamptz NOT NULL
  );
  CREATE INDEX staff_devices_email ON staff_devices (email);
  CREATE TABLE sign_in_refusals (
    seq bigserial PRIMARY KEY,
    at timestamptz NOT NULL,
    account text NOT NULL,
    network text NOT NULL,
    reason text NOT NULL
  );
  CREATE INDEX sign_in_refusals_at ON sign_in_refusals (at);
  INSERT INTO sign_in_refusals (at, account, network, reason)
    SELECT at, actor, CASE WHEN detail LIKE 'from %' THEN substr(detail, 6) ELSE '' END, 'wrong credentials' FROM audit_log WHERE action = 'sign-in refused' ORDER BY seq;
  DELETE FROM audit_log WHERE action = 'sign-in refused';
  UPDATE audit_log SET detail = '' WHERE action IN ('deleted lead', 'downloaded file');
  CREATE INDEX audit_log_at ON audit_log (at);`,
  // 9: a lead can be closed (worked and done with, not answered by us): the status check widened.
  `ALTER TABLE submissions DROP CONSTRAINT submissions_status_check;
  ALTER TABLE submissions ADD CONSTRAINT submissions_status_check CHECK (status IN ('new', 'in_progress', 'answered', 'closed', 'spam'));`,
  // 10: a timeline per lead instead of one shared note; assignment; the old note, last status
  // change and delivered notification moved into the timeline in time order; the note columns go.
  `CREATE TABLE lead_events (
    seq bigserial PRIMARY KEY,
    lead_id uuid NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
    at timestamptz NOT NULL,
    actor text,
    kind text NOT NULL CHECK (kind IN ('note', 'status', 'assigned', 'notification', 'download', 'reply')),
    detail text NOT NULL DEFAULT '',
    corrects bigint
  );
  CREATE INDEX lead_events_lead ON lead_events (lead_id, seq);
  ALTER TABLE submissions ADD COLUMN assigned_to text REFERENCES staff (email) ON DELETE SET NULL;
  CREATE INDEX submissions_assigned ON submissions (assigned_to, seq);
  INSERT INTO lead_events (lead_id, at, actor, kind, detail)
    SELECT lead_id, at, actor, kind, detail FROM (
      SELECT seq, id AS lead_id, coalesce(note_at, received_at) AS at, note_by AS actor, 'note' AS kind, note AS detail, 2 AS part FROM submissions WHERE note <> ''
      UNION ALL SELECT seq, id, status_at, status_by, 'status', status, 1 FROM submissions WHERE status_at IS NOT NULL
      UNION ALL SELECT s.seq, n.submission_id, n.sent_at, NULL, 'notification', 'sent', 0 FROM notifications n JOIN submissions s ON s.id = n.submission_id WHERE n.status = 'sent' AND n.sent_at IS NOT NULL
    ) AS old ORDER BY at, seq, part;
  ALTER TABLE submissions DROP COLUMN note, DROP COLUMN note_by, DROP COLUMN note_at;`,
  // 11: two-step sign-in: the encrypted secret, its set-up time and last step; recovery codes
  // (hashed, each used once); a session's stage and the secret being set up in it.
  `ALTER TABLE staff ADD COLUMN totp_secret text;
  ALTER TABLE staff ADD COLUMN totp_enrolled_at timestamptz;
  ALTER TABLE staff ADD COLUMN totp_last_step integer;
  CREATE TABLE staff_recovery_codes (
    email text NOT NULL REFERENCES staff (email) ON DELETE CASCADE,
    code_hash text NOT NULL,
    used_at timestamptz,
    PRIMARY KEY (email, code_hash)
  );
  ALTER TABLE staff_sessions ADD COLUMN stage text NOT NULL DEFAULT 'signed-in' CHECK (stage IN ('code', 'enrol', 'signed-in'));
  ALTER TABLE staff_sessions ADD COLUMN pending_totp text;`,
  // 12: bots: held leads, used challenges, kept secrets (SQLite's 12).
  `ALTER TABLE submissions ADD COLUMN review text CHECK (review IN ('held', 'spam'));
  ALTER TABLE submissions ADD COLUMN review_reason text;
  CREATE INDEX submissions_review ON submissions (review, seq);
  CREATE TABLE used_challenges (
    id text PRIMARY KEY,
    expires_at timestamptz NOT NULL
  );
  CREATE INDEX used_challenges_expires ON used_challenges (expires_at);
  CREATE TABLE site_secrets (
    name text PRIMARY KEY,
    value text NOT NULL,
    created_at timestamptz NOT NULL
  );`,
  // 13: held leads' reminders and the daily digests (SQLite's 13).
  `ALTER TABLE submissions ADD COLUMN review_reminded_at timestamptz;
  CREATE TABLE held_digests (
    day text PRIMARY KEY,
    claimed_at timestamptz NOT NULL,
    sent_at timestamptz,
    held integer NOT NULL DEFAULT 0
  );`,
];

export const PG_SCHEMA_VERSION = PG_MIGRATIONS.length;

/** Applies the migrations the database lacks, under the advisory lock; refuses a newer schema. */
export async function migratePg(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS schema_version (version integer NOT NULL)');
      const found = await client.query<{ version: number }>('SELECT version FROM schema_version');
      let version = found.rows[0]?.version ?? 0;
      if (found.rowCount === 0) await client.query('INSERT INTO schema_version (version) VALUES (0)');
      if (version > PG_SCHEMA_VERSION)
        throw new StoreError(
          `The database is at schema version ${version}, newer than this code knows (${PG_SCHEMA_VERSION}): update the code.`,
        );
      while (version < PG_SCHEMA_VERSION) {
        await client.query('BEGIN');
        try {
          await client.query(PG_MIGRATIONS[version]!);
          await client.query('UPDATE schema_version SET version = $1', [version + 1]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        version += 1;
      }
      return version;
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** Where the password is, hidden: for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return 'the DATABASE_URL';
  }
}

/** The four stores on one pool (../database.ts's Stores, which adds which database it is). */
export interface PgDatabase {
  readonly submissions: SubmissionStore;
  readonly outbox: OutboxStore;
  readonly staff: StaffStore;
  readonly inbox: InboxStore;
  /** Held leads, used challenges and kept secrets (./held.ts). */
  readonly held: HeldStore;
  /** Resolves once the database is migrated; rejects with the reason when it cannot be. */
  readonly ready: Promise<void>;
  close(): Promise<void>;
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

/** The saves' INSERTs, as named statements: parsed once per connection. */
const statementNames = new Map<string, string>();

/** One pool and the four stores on it. Opening is synchronous; the first call waits for the migrations. */
export function openPgDatabase(url: string, options: { max?: number } = {}): PgDatabase {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 10_000,
    types: TYPES,
  });
  // An idle connection the server dropped: the pool replaces it; nothing to crash over.
  pool.on('error', (error) => console.error(`PostgreSQL connection lost (the pool reconnects): ${error.message}`));
  const ready = migratePg(pool).then(
    () => undefined,
    (error: unknown) => {
      throw error instanceof StoreError
        ? error
        : new StoreError(`Cannot open the PostgreSQL database at ${redactUrl(url)}: ${String(error)}`, { cause: error });
    },
  );
  // Callers see the failure through their own calls (and the start-up check); this keeps it from crashing the process.
  ready.catch(() => undefined);
  // For the metrics: clients waiting for a connection, and the pool's connections.
  const unregister = registerStoreDepth(() => ({
    waiting: pool.waitingCount,
    active: pool.totalCount - pool.idleCount,
    idle: pool.idleCount,
  }));
  let closed = false;
  // Every query waits for the migrations, and is refused once the database is closed.
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
      // On a pool client, with named statements: one transaction per lead (see leadRows).
      async commit(lead) {
        if (closed) throw new StoreError('The submissions store is closed');
        await ready;
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          for (const [table, row] of leadRows(lead)) {
            const columns = Object.keys(row);
            const text = insertSql(table, columns, (index) => `$${index + 1}`);
            let name = statementNames.get(text);
            if (name === undefined) statementNames.set(text, (name = `store-${statementNames.size + 1}`));
            await client.query({ name, text, values: Object.values(row) });
          }
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      },
      // The pool is the database's: close() below ends it.
      close: none,
    }),
    outbox: outboxQueries(db, POSTGRES, {
      async claimDue(now, limit) {
        const at = iso(now);
        const rows = await db
          .with('due', (q) =>
            q
              .selectFrom('notifications')
              .select('submission_id')
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
          .whereRef('n.submission_id', '=', 'due.submission_id')
          .whereRef('s.id', '=', 'n.submission_id')
          .returning(OUTBOX_COLUMNS)
          .execute();
        return rows.sort(
          (a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at) || a.created_at.localeCompare(b.created_at),
        );
      },
      leases: true,
      close: none,
    }),
    staff: staffQueries(db, POSTGRES, none),
    inbox: inboxQueries(db, POSTGRES, none),
    held: heldQueries(db, POSTGRES, none),
    ready,
    async close() {
      if (closed) return;
      closed = true;
      unregister();
      await db.destroy();
      await pool.end();
    },
  };
}
