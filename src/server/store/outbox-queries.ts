/**
 * The outbox's queries, written once for SQLite and PostgreSQL. Only claiming what is due differs:
 * PostgreSQL's instances share the table and claim rows under a lease (./postgres/pg-store.ts).
 */
import { sql } from 'kysely';
import { DEFAULT_ACKNOWLEDGE_LIMITS, isFormName, StoreError, type AcknowledgeLimits } from './store.ts';
import { randomUUID } from 'node:crypto';
import { isMailKind, isNoticeStatus, type OutboxEntry, type OutboxStore } from '../mail/outbox.ts';
import { changedSince, countOf, guarded, iso, n, type Db, type DialectParts, type Tx } from './common.ts';
import { isUuid, type NewNotificationRow } from './schema.ts';

/** The columns an outbox entry is read from (`n`: notifications, `s`: its lead). */
export const OUTBOX_COLUMNS = [
  'n.id',
  'n.submission_id',
  'n.kind',
  'n.recipients',
  's.form',
  'n.status',
  'n.subject',
  'n.body_text',
  'n.body_html',
  'n.reply_to',
  'n.in_reply_to',
  'n.actor',
  'n.created_at',
  'n.attempts',
  'n.next_attempt_at',
  'n.sent_at',
  'n.last_error',
] as const;

/** Addresses as the column keeps them: comma-separated ('' for a notification's configured recipients). */
const joinRecipients = (addresses: readonly string[]): string => addresses.join(', ');
const splitRecipients = (text: string): string[] =>
  text
    .split(',')
    .map((address) => address.trim())
    .filter(Boolean);

/** An acknowledgement goes to one mailbox at most once in this long (a mail-bombing guard). */
const ACKNOWLEDGE_ONCE_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** The mailbox an address reaches, as acknowledgements are counted: "V.ictim+1@GoogleMail.com" is victim@gmail.com. */
export function canonicalMailbox(address: string): string {
  const at = address.lastIndexOf('@');
  const domain = address
    .slice(at + 1)
    .toLowerCase()
    .replace(/^googlemail\.com$/, 'gmail.com');
  const local = address.slice(0, at).toLowerCase().split('+')[0]!;
  return `${domain === 'gmail.com' ? local.replaceAll('.', '') : local}@${domain}`;
}

/** A mail's outbox row, pending and due at `at`; `to` absent for a lead notification (its recipients are read at sending). */
export function pendingMail(
  id: string,
  leadId: string,
  kind: string,
  mail: { subject: string; text: string; html: string; replyTo?: string | undefined; to?: string | undefined },
  at: string,
): NewNotificationRow {
  return {
    id,
    submission_id: leadId,
    kind,
    ...(mail.to === undefined ? {} : { recipients: mail.to }),
    status: 'pending',
    subject: mail.subject,
    body_text: mail.text,
    body_html: mail.html,
    reply_to: mail.replyTo ?? null,
    created_at: at,
    next_attempt_at: at,
  };
}

type AckRow = { readonly recipients: string | null; readonly created_at: string };

const likeText = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The acknowledgements that bound one more to `to` at `now`, read inside the transaction that would
 * queue it: the last day's to its domain (both of Gmail's names) and the last hour's to any. `allows`
 * decides: none to its mailbox in the day, fewer than the limits to its domain and in all in the hour.
 */
const acknowledgementCheck = {
  values(to: string, now: string): [string, string, string, string] {
    const domain = canonicalMailbox(to).split('@')[1]!;
    const at = new Date(now).getTime();
    const other = domain === 'gmail.com' ? 'googlemail.com' : domain;
    return [
      iso(new Date(at - ACKNOWLEDGE_ONCE_MS)),
      iso(new Date(at - HOUR_MS)),
      `%@${likeText(domain)}`,
      `%@${likeText(other)}`,
    ];
  },
  allows(rows: readonly AckRow[], to: string, now: string, limits: AcknowledgeLimits = DEFAULT_ACKNOWLEDGE_LIMITS): boolean {
    const mailbox = canonicalMailbox(to);
    const domain = mailbox.slice(mailbox.lastIndexOf('@'));
    const hourAgo = iso(new Date(new Date(now).getTime() - HOUR_MS));
    const sent = rows.map((row) => ({ mailbox: canonicalMailbox(row.recipients ?? ''), recent: row.created_at > hourAgo }));
    const recent = sent.filter((row) => row.recent);
    return (
      !sent.some((row) => row.mailbox === mailbox) &&
      recent.length < limits.total &&
      recent.filter((row) => row.mailbox.endsWith(domain)).length < limits.perDomain
    );
  },
};

/** acknowledgementCheck through Kysely (a lead's save, a held lead's release). */
export async function mayAcknowledge(tx: Db | Tx, to: string, now: string, limits?: AcknowledgeLimits): Promise<boolean> {
  const [day, hour, domain, other] = acknowledgementCheck.values(to, now);
  const rows = await tx
    .selectFrom('notifications')
    .select(['recipients', 'created_at'])
    .where('kind', '=', 'acknowledgement')
    .where('created_at', '>', day)
    .where((eb) =>
      eb.or([
        eb('created_at', '>', hour),
        sql<boolean>`recipients LIKE ${domain} ESCAPE '\\'`,
        sql<boolean>`recipients LIKE ${other} ESCAPE '\\'`,
      ]),
    )
    .execute();
  return acknowledgementCheck.allows(rows, to, now, limits);
}

type OutboxRow = Awaited<ReturnType<ReturnType<typeof outboxSelect>['execute']>>[number];

function toOutboxEntry(row: OutboxRow): OutboxEntry {
  if (!isFormName(row.form) || !isNoticeStatus(row.status) || !isMailKind(row.kind))
    throw new StoreError(`Unexpected outbox row ${row.id}`);
  return {
    id: row.id,
    submissionId: row.submission_id,
    kind: row.kind,
    form: row.form,
    recipients: splitRecipients(row.recipients),
    status: row.status,
    subject: row.subject,
    text: row.body_text,
    html: row.body_html,
    replyTo: row.reply_to ?? undefined,
    inReplyTo: row.in_reply_to ?? undefined,
    actor: row.actor ?? undefined,
    createdAt: row.created_at,
    attempts: n(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    sentAt: row.sent_at ?? undefined,
    lastError: row.last_error ?? undefined,
  };
}

export const outboxSelect = (db: Db) =>
  db.selectFrom('notifications as n').innerJoin('submissions as s', 's.id', 'n.submission_id').select(OUTBOX_COLUMNS);

interface OutboxParts {
  /** Due notifications, oldest first, claimed for this sender (one SQLite server takes what is due). */
  claimDue(now: Date, limit: number): Promise<OutboxRow[]>;
  /** PostgreSQL: a claim is a lease (`claimed_until`), ended by any outcome. */
  readonly leases: boolean;
  close(): Promise<void>;
}

/** A timeline's 'reply' entry for a reply sent from the inbox names its mail so ("mail:<id>"); one without names none ("Reply by e-mail" opened). */
export const REPLY_MAIL = 'mail:';

const isNotification = async (tx: Tx, id: string) =>
  (await tx.selectFrom('notifications').select('kind').where('id', '=', id).executeTakeFirst())?.kind === 'notification';

export function outboxQueries(db: Db, dialect: DialectParts, parts: OutboxParts): OutboxStore {
  // Any outcome ends the sender's claim (PostgreSQL only has claims).
  const unclaimed = parts.leases ? { claimed_until: null } : {};
  const update = () => db.updateTable('notifications');
  /** Sent, or given up while pending: a notification's outcome goes into the lead's timeline in the same transaction. */
  const settle = (
    id: string,
    outcome: { status: 'sent' | 'failed'; last_error: string | null; sent_at?: string; attempts?: number },
    at: Date,
  ) =>
    db.transaction().execute(async (tx) => {
      const result = await tx
        .updateTable('notifications')
        .set((eb) => ({ attempts: eb('attempts', '+', 1), ...outcome, ...unclaimed }))
        .where('id', '=', id)
        .$if(outcome.status === 'failed', (q) => q.where('status', '=', 'pending'))
        .executeTakeFirst();
      if (n(result.numUpdatedRows) > 0 && (await isNotification(tx, id)))
        await tx
          .insertInto('lead_events')
          .values({ lead_id: id, at: iso(at), actor: null, kind: 'notification', detail: outcome.status })
          .execute();
    });
  return guarded<OutboxStore>(
    {
      claimDue: async (now, limit) => (await parts.claimDue(now, limit)).map(toOutboxEntry),
      async stillDue(id) {
        if (!isUuid(id)) return false;
        return (await countOf(db.selectFrom('notifications').where('id', '=', id).where('status', '=', 'pending'))) > 0;
      },
      markSent: (id, at) => settle(id, { status: 'sent', sent_at: iso(at), last_error: null }, at),
      async markRetry(id, attempts, next, error) {
        await update()
          .set({ attempts, next_attempt_at: iso(next), last_error: error, ...unclaimed })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .execute();
      },
      markFailed: (id, attempts, error, at = new Date()) => settle(id, { status: 'failed', attempts, last_error: error }, at),
      async list(statuses) {
        if (statuses.length === 0) return [];
        const rows = await outboxSelect(db).where('n.status', 'in', statuses).orderBy('n.created_at').orderBy('n.id').execute();
        return rows.map(toOutboxEntry);
      },
      async retry(id, now) {
        if (!isUuid(id)) return false;
        const result = await update()
          .set({ status: 'pending', next_attempt_at: iso(now), sent_at: null, ...unclaimed })
          .where('id', '=', id)
          .executeTakeFirst();
        return n(result.numUpdatedRows) > 0;
      },
      async queue(mail, now) {
        if (!isUuid(mail.leadId)) return undefined;
        return db.transaction().execute(async (tx) => {
          const lead = await tx
            .selectFrom('submissions')
            .select('id')
            .where('id', '=', mail.leadId)
            .$if(dialect.rowLocks, (q) => q.forUpdate())
            .executeTakeFirst();
          // A reply from a page made before another answer: nothing is queued (checked with the lead's row taken).
          if (!lead || (await changedSince(tx, mail.leadId, mail.unless))) return undefined;
          const id = randomUUID();
          const at = iso(now);
          await tx
            .insertInto('notifications')
            .values({
              ...pendingMail(id, mail.leadId, mail.kind, { ...mail, to: joinRecipients(mail.recipients) }, at),
              in_reply_to: mail.inReplyTo ?? null,
              actor: mail.actor ?? null,
            })
            .execute();
          if (mail.kind === 'reply')
            await tx
              .insertInto('lead_events')
              .values({ lead_id: mail.leadId, at, actor: mail.actor ?? null, kind: 'reply', detail: `${REPLY_MAIL}${id}` })
              .execute();
          return id;
        });
      },
      async forLead(leadId) {
        if (!isUuid(leadId)) return [];
        const rows = await outboxSelect(db)
          .where('n.submission_id', '=', leadId)
          .orderBy('n.created_at')
          .orderBy('n.id')
          .execute();
        return rows.map(toOutboxEntry);
      },
      close: () => parts.close(),
    },
    dialect,
  );
}
