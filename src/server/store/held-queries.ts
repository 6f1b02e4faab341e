/**
 * Held leads' queries, written once for SQLite and PostgreSQL (../inbox/held-digest.ts holds the rules),
 * with the used challenges and the secrets the server generates and keeps.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { isHoldReason, type HoldReason, type LeadAcknowledgement, type LeadNotice, type StoredSubmission } from './store.ts';
import { mayAcknowledge, pendingMail } from './outbox-queries.ts';
import { countOf, digestClaims, guarded, iso, n, type Db, type DialectParts } from './common.ts';
import { isUuid } from './schema.ts';
import { SUBMISSION_COLUMNS, toSubmission } from './submission-queries.ts';

/** A `status` timeline entry's detail when a held lead was released to the inbox (by its actor). */
export const RELEASED = 'released';

export type ReviewState = 'held' | 'spam';

export interface HeldLead extends StoredSubmission {
  readonly review: ReviewState;
  readonly reason: HoldReason;
  readonly files: number;
}

export interface HeldSummary {
  readonly waiting: number;
  readonly byReason: Readonly<Partial<Record<HoldReason, number>>>;
  readonly oldestReceivedAt: string | undefined;
  /** Held leads past their age that no digest has warned of: kept, and shown to the operator. */
  readonly unwarnedOverdue: number;
}

export interface HeldStore {
  list(state: ReviewState, limit: number): Promise<HeldLead[]>;
  count(state: ReviewState): Promise<number>;
  /**
   * Releases a held lead into the inbox: its notification and acknowledgement are queued and the
   * release audited, in one transaction. False when no held lead has this id: nothing is queued twice.
   */
  release(
    id: string,
    by: string,
    now: Date,
    notice: ((lead: StoredSubmission) => LeadNotice) | undefined,
    acknowledgement?: ((lead: StoredSubmission) => LeadAcknowledgement | undefined) | undefined,
  ): Promise<boolean>;
  /** False when no held lead has this id. */
  markSpam(id: string, by: string, now: Date): Promise<boolean>;
  /**
   * Ids of leads to erase with the store's delete: those marked spam received before `before`,
   * and those still held received before it that a digest warned of at or before `warnedBefore`
   * (a held lead nobody was told of is never erased).
   */
  expired(before: Date, warnedBefore: Date): Promise<string[]>;
  /** Held leads received before `before`, oldest first, with whether a digest has warned of each. */
  dueForErasure(before: Date): Promise<(HeldLead & { readonly warnedAt: string | undefined })[]>;
  /** Records that a digest warned of these held leads now (those warned before keep their time). */
  markWarned(ids: readonly string[], now: Date): Promise<void>;
  /** How many leads are held, by reason, and since when; and how many are past `before` unwarned. */
  summary(before: Date): Promise<HeldSummary>;
  /** Takes the day's digest for this server; false when another server (or an earlier run) has it. */
  claimDigest(day: string, now: Date): Promise<boolean>;
  digestSent(day: string, now: Date, held: number): Promise<void>;
  /** Gives the day's digest back (its mail failed): the next sweep tries again. */
  unclaimDigest(day: string): Promise<void>;
  /** Forgets used challenges that have expired (their solutions are refused as expired anyway). */
  forgetChallenges(now: Date): Promise<number>;
  /** The kept secret of this name, made (random, 32 bytes) and stored the first time: every instance reads the same. */
  secret(name: string, now: Date): Promise<string>;
  close(): Promise<void>;
}

const reasonOf = (reason: string | null): HoldReason => (isHoldReason(reason) ? reason : 'noProof');

/** A held lead's row (with its count of files) as the held view reads it. */
const heldLead = (
  row: Parameters<typeof toSubmission>[0] & { review_reason: string | null; files: number | null },
): HeldLead => ({
  ...toSubmission(row),
  review: 'held',
  reason: reasonOf(row.review_reason),
  files: n(row.files),
});

export function heldQueries(db: Db, dialect: DialectParts, close: () => Promise<void>): HeldStore {
  const withFiles = () =>
    db
      .selectFrom('submissions as s')
      .select(SUBMISSION_COLUMNS.map((column) => `s.${column}` as const))
      .select((eb) =>
        eb
          .selectFrom('attachments as a')
          .whereRef('a.submission_id', '=', 's.id')
          .select((e) => e.fn.countAll<number>().as('c'))
          .as('files'),
      );
  const digests = digestClaims(db, 'held_digests');
  return guarded<HeldStore>(
    {
      async list(state, limit) {
        const rows = await withFiles()
          .select(['s.review', 's.review_reason'])
          .where('s.review', '=', state)
          .orderBy('s.seq', 'desc')
          .limit(Math.min(1000, Math.max(1, Math.trunc(limit))))
          .execute();
        return rows.map((row) => ({ ...heldLead(row), review: state }));
      },

      async count(state) {
        return countOf(db.selectFrom('submissions').where('review', '=', state));
      },

      async release(id, by, now, notice, acknowledgement) {
        if (!isUuid(id)) return false;
        return db.transaction().execute(async (tx) => {
          const released = await tx
            .updateTable('submissions')
            .set({ review: null, released_at: iso(now) })
            .where('id', '=', id)
            .where('review', '=', 'held')
            .returning(SUBMISSION_COLUMNS)
            .executeTakeFirst();
          if (!released) return false;
          const lead = toSubmission(released);
          const mail = notice?.(lead);
          if (mail)
            await tx
              .insertInto('notifications')
              .values(pendingMail(id, id, 'notification', mail, iso(now)))
              .execute();
          const ack = acknowledgement?.(lead);
          if (ack && (await mayAcknowledge(tx, ack.to, iso(now), ack.limits)))
            await tx
              .insertInto('notifications')
              .values(pendingMail(randomUUID(), id, 'acknowledgement', ack, iso(now)))
              .execute();
          await tx
            .insertInto('audit_log')
            .values({ at: iso(now), actor: by, action: 'released held lead', lead_id: id })
            .execute();
          // On the lead's timeline too: who released it, and when.
          await tx
            .insertInto('lead_events')
            .values({ lead_id: id, at: iso(now), actor: by, kind: 'status', detail: RELEASED })
            .execute();
          return true;
        });
      },

      async markSpam(id, by, now) {
        if (!isUuid(id)) return false;
        return db.transaction().execute(async (tx) => {
          const at = iso(now);
          const changed = await tx
            .updateTable('submissions')
            .set({ review: 'spam', status: 'spam', status_by: by, status_at: at })
            .where('id', '=', id)
            .where('review', '=', 'held')
            .executeTakeFirst();
          if (n(changed.numUpdatedRows) === 0) return false;
          await tx.insertInto('audit_log').values({ at, actor: by, action: 'marked held lead as spam', lead_id: id }).execute();
          await tx.insertInto('lead_events').values({ lead_id: id, at, actor: by, kind: 'status', detail: 'spam' }).execute();
          return true;
        });
      },

      async expired(before, warnedBefore) {
        const rows = await db
          .selectFrom('submissions')
          .select('id')
          .where('received_at', '<', iso(before))
          .where((eb) =>
            eb.or([
              eb('review', '=', 'spam'),
              eb.and([
                eb('review', '=', 'held'),
                eb('review_reminded_at', 'is not', null),
                eb('review_reminded_at', '<=', iso(warnedBefore)),
              ]),
            ]),
          )
          .execute();
        return rows.map((row) => row.id);
      },

      async dueForErasure(before) {
        const rows = await withFiles()
          .select(['s.review_reason', 's.review_reminded_at'])
          .where('s.review', '=', 'held')
          .where('s.received_at', '<', iso(before))
          .orderBy('s.seq')
          .limit(1000)
          .execute();
        return rows.map((row) => ({ ...heldLead(row), warnedAt: row.review_reminded_at ?? undefined }));
      },

      async markWarned(ids, now) {
        const valid = ids.filter(isUuid);
        if (valid.length === 0) return;
        await db
          .updateTable('submissions')
          .set({ review_reminded_at: iso(now) })
          .where('id', 'in', valid)
          .where('review', '=', 'held')
          .where('review_reminded_at', 'is', null)
          .execute();
      },

      async summary(before) {
        const rows = await db
          .selectFrom('submissions')
          .select(['review_reason', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('received_at').as('oldest')])
          .where('review', '=', 'held')
          .groupBy('review_reason')
          .execute();
        const overdue = await countOf(
          db
            .selectFrom('submissions')
            .where('review', '=', 'held')
            .where('received_at', '<', iso(before))
            .where('review_reminded_at', 'is', null),
        );
        const byReason: Partial<Record<HoldReason, number>> = {};
        let oldest: string | undefined;
        let waiting = 0;
        for (const row of rows) {
          const reason = reasonOf(row.review_reason);
          byReason[reason] = (byReason[reason] ?? 0) + n(row.n);
          waiting += n(row.n);
          const at = row.oldest === null ? undefined : String(row.oldest);
          if (at !== undefined && (oldest === undefined || at < oldest)) oldest = at;
        }
        return { waiting, byReason, oldestReceivedAt: oldest, unwarnedOverdue: overdue };
      },

      claimDigest: (day, now) => digests.claim({ day }, now),
      digestSent: (day, now, held) => digests.sent({ day }, now, { held }),
      unclaimDigest: (day) => digests.unclaim({ day }),

      async forgetChallenges(now) {
        const result = await db.deleteFrom('used_challenges').where('expires_at', '<', iso(now)).executeTakeFirst();
        return n(result.numDeletedRows);
      },

      async secret(name, now) {
        const found = await db.selectFrom('site_secrets').select('value').where('name', '=', name).executeTakeFirst();
        if (found) return found.value;
        // Two instances starting together: the first insert wins, both read it back.
        await db
          .insertInto('site_secrets')
          .values({ name, value: randomBytes(32).toString('base64url'), created_at: iso(now) })
          .onConflict((oc) => oc.column('name').doNothing())
          .execute();
        const row = await db.selectFrom('site_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
        return row.value;
      },

      close,
    },
    dialect,
  );
}
