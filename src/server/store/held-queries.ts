/**
 * Held leads' queries, written once for SQLite and PostgreSQL (../held.ts holds the rules): the
 * held view and its count, release (the lead joins the inbox and its notification is queued, in
 * one transaction with its audit entry), mark as spam (audited), what is old enough to purge,
 * expired used challenges, and the secrets the server generates and keeps.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import { randomBytes } from 'node:crypto';
import { isHoldReason, type HoldReason, type LeadNotice, type StoredSubmission } from './store.ts';
import { guarded, iso, n, type Db, type DialectParts } from './common.ts';
import { isUuid } from './schema.ts';
import { SUBMISSION_COLUMNS, toSubmission } from './submission-queries.ts';

export type ReviewState = 'held' | 'spam';

export interface HeldLead extends StoredSubmission {
  readonly review: ReviewState;
  readonly reason: HoldReason;
  /** How many files came with it (kept with the held lead). */
  readonly files: number;
}

export interface HeldStore {
  /** Held leads (or those marked spam), newest first, at most `limit`. */
  list(state: ReviewState, limit: number): Promise<HeldLead[]>;
  count(state: ReviewState): Promise<number>;
  /**
   * Releases a held lead into the inbox: its notification (if `notice` makes one) is queued and
   * the release audited, in one transaction. False when no held lead has this id (already
   * released, marked spam, or erased): nothing is queued twice.
   */
  release(id: string, by: string, now: Date, notice: ((lead: StoredSubmission) => LeadNotice) | undefined): Promise<boolean>;
  /** Marks a held lead as spam (audited). False when no held lead has this id. */
  markSpam(id: string, by: string, now: Date): Promise<boolean>;
  /** Ids of held and spam leads received before `before` (to erase with the store's delete). */
  expired(before: Date): Promise<string[]>;
  /** Forgets used challenges that have expired (their solutions are refused as expired anyway). */
  forgetChallenges(now: Date): Promise<number>;
  /** The kept secret of this name, made (random, 32 bytes) and stored the first time: every instance reads the same. */
  secret(name: string, now: Date): Promise<string>;
  close(): Promise<void>;
}

export function heldQueries(db: Db, dialect: DialectParts, close: () => Promise<void>): HeldStore {
  return guarded<HeldStore>(
    {
      async list(state, limit) {
        const rows = await db
          .selectFrom('submissions as s')
          .select([...SUBMISSION_COLUMNS.map((column) => `s.${column}` as const), 's.review', 's.review_reason'])
          .select((eb) => eb.selectFrom('attachments as a').whereRef('a.submission_id', '=', 's.id').select((e) => e.fn.countAll<number>().as('c')).as('files'))
          .where('s.review', '=', state)
          .orderBy('s.seq', 'desc')
          .limit(Math.min(1000, Math.max(1, Math.trunc(limit))))
          .execute();
        return rows.map((row) => ({
          ...toSubmission(row),
          review: state,
          reason: isHoldReason(row.review_reason) ? row.review_reason : 'noProof',
          files: n(row.files),
        }));
      },

      async count(state) {
        const row = await db.selectFrom('submissions').select((eb) => eb.fn.countAll<number>().as('n')).where('review', '=', state).executeTakeFirst();
        return n(row?.n);
      },

      async release(id, by, now, notice) {
        if (!isUuid(id)) return false;
        return db.transaction().execute(async (tx) => {
          const released = await tx.updateTable('submissions').set({ review: null }).where('id', '=', id).where('review', '=', 'held').returning(SUBMISSION_COLUMNS).executeTakeFirst();
          if (!released) return false;
          const lead = toSubmission(released);
          const mail = notice?.(lead);
          if (mail) {
            const at = iso(now);
            await tx
              .insertInto('notifications')
              .values({ submission_id: id, status: 'pending', subject: mail.subject, body_text: mail.text, body_html: mail.html, reply_to: mail.replyTo ?? null, created_at: at, next_attempt_at: at })
              .execute();
          }
          await tx.insertInto('audit_log').values({ at: iso(now), actor: by, action: 'released held lead', lead_id: id }).execute();
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
          return true;
        });
      },

      async expired(before) {
        const rows = await db.selectFrom('submissions').select('id').where('review', 'in', ['held', 'spam']).where('received_at', '<', iso(before)).execute();
        return rows.map((row) => row.id);
      },

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
