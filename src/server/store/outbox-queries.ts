/**
 * The outbox's queries, written once for SQLite and PostgreSQL. Only claiming what is due
 * differs: one SQLite file has one server, which takes what is due; PostgreSQL's instances
 * share the table, and each claims rows under a lease with FOR UPDATE SKIP LOCKED
 * (./postgres/pg-store.ts). The lease column exists in PostgreSQL only (`leases`).
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import { isFormName, StoreError } from './store.ts';
import { isNoticeStatus, type OutboxEntry, type OutboxStore } from '../mail/outbox.ts';
import { guarded, iso, n, type Db, type DialectParts } from './common.ts';
import { isUuid } from './schema.ts';

/** The columns an outbox entry is read from (`n`: notifications, `s`: its lead). */
export const OUTBOX_COLUMNS = [
  'n.submission_id',
  's.form',
  'n.status',
  'n.subject',
  'n.body_text',
  'n.body_html',
  'n.reply_to',
  'n.created_at',
  'n.attempts',
  'n.next_attempt_at',
  'n.sent_at',
  'n.last_error',
] as const;

/** A notification row as both databases read it back. */
export interface OutboxRow {
  submission_id: string;
  form: string;
  status: string;
  subject: string;
  body_text: string;
  body_html: string;
  reply_to: string | null;
  created_at: string;
  attempts: number;
  next_attempt_at: string;
  sent_at: string | null;
  last_error: string | null;
}

export function toOutboxEntry(row: OutboxRow): OutboxEntry {
  if (!isFormName(row.form) || !isNoticeStatus(row.status))
    throw new StoreError(`Unexpected outbox row for ${row.submission_id}`);
  return {
    submissionId: row.submission_id,
    form: row.form,
    status: row.status,
    subject: row.subject,
    text: row.body_text,
    html: row.body_html,
    replyTo: row.reply_to ?? undefined,
    createdAt: row.created_at,
    attempts: n(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    sentAt: row.sent_at ?? undefined,
    lastError: row.last_error ?? undefined,
  };
}

/** The notifications with their lead's form. */
export const outboxSelect = (db: Db) =>
  db.selectFrom('notifications as n').innerJoin('submissions as s', 's.id', 'n.submission_id').select(OUTBOX_COLUMNS);

export interface OutboxParts {
  /** Due notifications, oldest first, claimed for this sender. */
  claimDue(now: Date, limit: number): Promise<OutboxRow[]>;
  /** PostgreSQL: a claim is a lease (`claimed_until`), ended by any outcome. */
  readonly leases: boolean;
  close(): Promise<void>;
}

export function outboxQueries(db: Db, dialect: DialectParts, parts: OutboxParts): OutboxStore {
  // Any outcome ends the sender's claim (PostgreSQL only has claims).
  const unclaimed = parts.leases ? { claimed_until: null } : {};
  const update = () => db.updateTable('notifications');
  return guarded<OutboxStore>(
    {
      claimDue: async (now, limit) => (await parts.claimDue(now, limit)).map(toOutboxEntry),
      async stillDue(id) {
        if (!isUuid(id)) return false;
        return (
          (await db
            .selectFrom('notifications')
            .select('submission_id')
            .where('submission_id', '=', id)
            .where('status', '=', 'pending')
            .executeTakeFirst()) !== undefined
        );
      },
      async markSent(id, at) {
        // The delivery goes into the lead's timeline with it.
        await db.transaction().execute(async (tx) => {
          const result = await tx
            .updateTable('notifications')
            .set((eb) => ({ status: 'sent', sent_at: iso(at), attempts: eb('attempts', '+', 1), last_error: null, ...unclaimed }))
            .where('submission_id', '=', id)
            .executeTakeFirst();
          if (n(result.numUpdatedRows) > 0)
            await tx
              .insertInto('lead_events')
              .values({ lead_id: id, at: iso(at), actor: null, kind: 'notification', detail: 'sent' })
              .execute();
        });
      },
      async markRetry(id, attempts, next, error) {
        await update()
          .set({ attempts, next_attempt_at: iso(next), last_error: error, ...unclaimed })
          .where('submission_id', '=', id)
          .where('status', '=', 'pending')
          .execute();
      },
      async markFailed(id, attempts, error, at = new Date()) {
        // Given up: that goes into the lead's timeline with it.
        await db.transaction().execute(async (tx) => {
          const result = await tx
            .updateTable('notifications')
            .set({ status: 'failed', attempts, last_error: error, ...unclaimed })
            .where('submission_id', '=', id)
            .where('status', '=', 'pending')
            .executeTakeFirst();
          if (n(result.numUpdatedRows) > 0)
            await tx
              .insertInto('lead_events')
              .values({ lead_id: id, at: iso(at), actor: null, kind: 'notification', detail: 'failed' })
              .execute();
        });
      },
      async list(statuses) {
        if (statuses.length === 0) return [];
        const rows = await outboxSelect(db).where('n.status', 'in', statuses).orderBy('n.created_at').execute();
        return rows.map(toOutboxEntry);
      },
      async retry(id, now) {
        if (!isUuid(id)) return false;
        const result = await update()
          .set({ status: 'pending', next_attempt_at: iso(now), sent_at: null, ...unclaimed })
          .where('submission_id', '=', id)
          .executeTakeFirst();
        return n(result.numUpdatedRows) > 0;
      },
      close: () => parts.close(),
    },
    dialect,
  );
}
