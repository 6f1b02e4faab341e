/** The submissions store's queries, for SQLite and PostgreSQL alike; where a file's bytes are kept differs (`FileKeeper`). */
import { createHash, randomUUID } from 'node:crypto';
import type { LocaleCode } from '../../i18n/index.ts';
import {
  StoreError,
  isFormName,
  type AcknowledgeLimits,
  type FormName,
  type NewAttachment,
  type Query,
  type SaveInput,
  type StoredAttachment,
  type StoredSubmission,
  type SubmissionFields,
  type SubmissionStore,
} from './store.ts';
import { sql, type DeleteQueryBuilder, type DeleteResult } from 'kysely';
import { leadEmail, personPhones, personTokens, searchNamesPerson } from '../inbox/lead-person.ts';
import { mayAcknowledge, pendingMail } from './outbox-queries.ts';
import { bySeq, changedSince, countOf, guarded, iso, n, type Db, type DialectParts, type Tx } from './common.ts';
import {
  isUuid,
  type AttachmentRow,
  type Database,
  type LeadRow,
  type NewAttachmentRow,
  type NewNotificationRow,
  type NewSubmissionRow,
  type NewUsedChallengeRow,
} from './schema.ts';

type SubmissionTableName = 'submissions' | 'bot_submissions';
const tableOf = (bots: boolean | undefined): SubmissionTableName => (bots === true ? 'bot_submissions' : 'submissions');

export const SUBMISSION_COLUMNS = ['id', 'form', 'received_at', 'language', 'fields'] as const;

type SubmissionRow = Pick<LeadRow, (typeof SUBMISSION_COLUMNS)[number]>;

export function toSubmission(row: SubmissionRow): StoredSubmission {
  if (!isFormName(row.form)) throw new StoreError(`Unknown form "${row.form}" in the database`);
  // The column's CHECK admits the site's locale codes only.
  return {
    id: row.id,
    form: row.form,
    receivedAt: row.received_at,
    language: row.language as LocaleCode,
    fields: JSON.parse(row.fields) as SubmissionFields,
  };
}

const ATTACHMENT_COLUMNS = ['id', 'submission_id', 'name', 'type', 'size', 'sha256'] as const;

export const toAttachment = (row: Pick<AttachmentRow, (typeof ATTACHMENT_COLUMNS)[number]>): StoredAttachment => ({
  id: row.id,
  submissionId: row.submission_id,
  name: row.name,
  type: row.type,
  size: n(row.size),
  sha256: row.sha256,
});

/** A file's record, with a new random id; the keeper adds where its bytes go. */
export function attachmentRecord(submissionId: string, position: number, file: NewAttachment): NewAttachmentRow {
  return {
    id: randomUUID(),
    submission_id: submissionId,
    position,
    name: file.name,
    type: file.type,
    size: file.bytes.byteLength,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
  };
}

/** Where the bytes of the files sent with leads are kept: the one part of them each database does its own way. */
export interface FileKeeper {
  /** Before the lead's transaction: the files' rows (SQLite writes the bytes to disk now, PostgreSQL puts them in the rows). */
  keep(submissionId: string, files: readonly NewAttachment[]): Promise<NewAttachmentRow[]>;
  /** The lead's transaction failed: whatever `keep` wrote goes. */
  drop(rows: readonly NewAttachmentRow[]): void;
  read(id: string, tx: Db): Promise<Uint8Array<ArrayBuffer>>;
  /** After the records are deleted for good: the bytes. */
  remove(ids: readonly string[]): void;
}

interface NewLead {
  readonly table: SubmissionTableName;
  /** The proof's challenge, marked used: written first, so a second use fails the lead's transaction. */
  readonly usedChallenge?: NewUsedChallengeRow | undefined;
  readonly submission: NewSubmissionRow;
  readonly notification: NewNotificationRow | undefined;
  /**
   * The acknowledgement to the sender: written after the lead's rows if ./outbox-queries.ts's
   * mayAcknowledge, read in the same transaction, allows it within `acknowledgeLimits`.
   */
  readonly acknowledgement?: NewNotificationRow | undefined;
  readonly acknowledgeLimits?: AcknowledgeLimits | undefined;
  readonly attachments: readonly NewAttachmentRow[];
}

/** A save's rows and its answer, composed before anything is written: a notice that cannot be composed stores nothing. */
function newLead(input: SaveInput): {
  lead: Omit<NewLead, 'attachments'>;
  files: readonly NewAttachment[];
  saved: Awaited<ReturnType<SubmissionStore['save']>>;
} {
  const form: FormName = input.form;
  if (!isFormName(form)) throw new StoreError(`Unknown form "${String(form)}"`);
  const id = randomUUID();
  const receivedAt = iso(input.receivedAt ?? new Date());
  const language: LocaleCode = input.language ?? 'en';
  const bot = input.bot === true;
  const held = bot ? undefined : input.held;
  // No mail for the honeypot's catch; a held lead's mails wait for its release (../inbox/held-release.ts):
  // its address may be a bot's relay, or someone else's typed in.
  const compose = <T>(what: string, make: ((lead: StoredSubmission) => T) | undefined): T | undefined => {
    try {
      return bot || held !== undefined ? undefined : make?.({ id, form, receivedAt, language, fields: input.fields });
    } catch (error) {
      throw new StoreError(`Could not compose the ${form} lead's ${what}: ${String(error)}`, { cause: error });
    }
  };
  const notice = compose('notification', input.notice);
  const mail = compose('acknowledgement', input.acknowledgement);
  return {
    lead: {
      table: tableOf(bot),
      usedChallenge: !bot && input.challenge ? { id: input.challenge.id, expires_at: iso(input.challenge.expiresAt) } : undefined,
      // The review columns are written only for a held lead: an inbox lead's INSERT stays as it was.
      submission: {
        id,
        form,
        received_at: receivedAt,
        language,
        fields: JSON.stringify(input.fields),
        ...(held ? { review: 'held', review_reason: held } : {}),
      },
      // A notification's id is its lead's: one per lead, and `outbox retry` takes the lead's id.
      notification: notice && pendingMail(id, id, 'notification', notice, receivedAt),
      acknowledgement: mail && pendingMail(randomUUID(), id, 'acknowledgement', mail, receivedAt),
      acknowledgeLimits: mail?.limits,
    },
    // The honeypot's catch keeps no files.
    files: bot ? [] : (input.attachments ?? []),
    saved: held ? { id, receivedAt, held } : { id, receivedAt },
  };
}

/** What staff looked for, from an audit entry of a search or an export ("3 found (filter: status=all&q=...)"). */
function searchedText(detail: string): string {
  const mark = '(filter: ';
  const start = detail.lastIndexOf(mark);
  const text = detail.trimEnd();
  if (start < 0 || !text.endsWith(')')) return '';
  return new URLSearchParams(text.slice(start + mark.length, -1)).getAll('q').join(' ');
}

/** What a search or an export keeps of its filter once it named an erased person. */
const ERASED_FILTER = '(filter erased with a lead)';

/**
 * Everything else in the database that names an erased person: audit entries about the lead keep
 * its id and action only (their detail goes); searches and exports whose filter named the person
 * (searchNamesPerson: name, e-mail, phone, company, city, as typed or as the address wrote it)
 * lose their filter; refused sign-ins and failure counts under the person's e-mail go.
 */
async function eraseTraces(tx: Tx, erased: readonly { id: string; fields: SubmissionFields }[]): Promise<void> {
  for (const { id } of erased) await tx.updateTable('audit_log').set({ detail: '' }).where('lead_id', '=', id).execute();
  const people = erased
    .map(({ fields }) => ({ tokens: personTokens(fields), phones: personPhones(fields) }))
    .filter((person) => person.tokens.length > 0 || person.phones.length > 0);
  if (people.length > 0) {
    const searches = await tx
      .selectFrom('audit_log')
      .select(['seq', 'detail'])
      .where('action', 'in', ['searched leads', 'exported leads'])
      .where('detail', '<>', ERASED_FILTER)
      .execute();
    const named = searches
      .filter(({ detail }) => people.some((person) => searchNamesPerson(searchedText(detail), person.tokens, person.phones)))
      .map((entry) => entry.seq);
    // In batches: a purge may name more entries than a statement takes parameters.
    for (let start = 0; start < named.length; start += 500)
      await tx
        .updateTable('audit_log')
        .set({ detail: ERASED_FILTER })
        .where('seq', 'in', named.slice(start, start + 500))
        .execute();
  }
  for (const email of erased.map(({ fields }) => leadEmail(fields)).filter(Boolean)) {
    await tx
      .deleteFrom('sign_in_refusals')
      .where(sql<string>`lower(account)`, '=', email)
      .execute();
    await tx.deleteFrom('sign_in_failures').where('key', '=', `account:${email}`).execute();
  }
}

const deleted = async (query: { executeTakeFirst(): Promise<DeleteResult> }): Promise<number> =>
  n((await query.executeTakeFirst()).numDeletedRows);

const deletedIds = async (query: DeleteQueryBuilder<Database, 'attachments', DeleteResult>): Promise<string[]> =>
  (await query.returning('id').execute()).map((file) => file.id);

interface SubmissionParts {
  readonly files: FileKeeper;
  close(): Promise<void>;
}

export function submissionQueries(db: Db, dialect: DialectParts, parts: SubmissionParts): SubmissionStore {
  const { files } = parts;

  function select(query: Query) {
    if (query.form !== undefined && !isFormName(query.form)) throw new StoreError(`Unknown form "${String(query.form)}"`);
    return (
      db
        .selectFrom(tableOf(query.bots))
        .$if(query.form !== undefined, (q) => q.where('form', '=', query.form!))
        // Held for review is out of the inbox; marked as spam there is spam, as in the inbox's Spam tab.
        .$if(query.inboxOnly === true && query.bots !== true, (q) =>
          q.where((eb) => eb.or([eb('review', 'is', null), eb('review', '=', 'spam')])),
        )
        .$if(query.since !== undefined, (q) => q.where('received_at', '>=', iso(query.since!)))
        .$if(query.until !== undefined, (q) => q.where('received_at', '<=', iso(query.until!)))
        // The honeypot's catch has no status: only leads can be marked as spam.
        .$if(query.withoutSpam === true && query.bots !== true, (q) => q.where(sql<boolean>`status <> 'spam'`))
    );
  }

  /** One lead's rows in one transaction, all or nothing; resolves once COMMIT returned (durable). */
  function commit(lead: NewLead): Promise<void> {
    return db.transaction().execute(async (tx) => {
      if (lead.usedChallenge) await tx.insertInto('used_challenges').values(lead.usedChallenge).execute();
      await tx.insertInto(lead.table).values(lead.submission).execute();
      if (lead.notification) await tx.insertInto('notifications').values(lead.notification).execute();
      if (lead.attachments.length > 0)
        await tx
          .insertInto('attachments')
          .values([...lead.attachments])
          .execute();
      const ack = lead.acknowledgement;
      if (!ack) return;
      // PostgreSQL's acknowledging saves take turns, so each counts the others' (the hourly limits
      // are global); a SQLite transaction already holds the whole file.
      if (dialect.rowLocks) await sql`SELECT pg_advisory_xact_lock(hashtext('acknowledgement'))`.execute(tx);
      if (await mayAcknowledge(tx, ack.recipients ?? '', ack.created_at, lead.acknowledgeLimits))
        await tx.insertInto('notifications').values(ack).execute();
    });
  }

  async function challengeUsed(id: string): Promise<boolean> {
    try {
      return (await db.selectFrom('used_challenges').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    } catch {
      return false;
    }
  }

  return guarded<SubmissionStore>(
    {
      async save(input) {
        const { lead, files: sent, saved } = newLead(input);
        const attachments = sent.length > 0 ? await files.keep(saved.id, sent) : [];
        try {
          await commit({ ...lead, attachments });
        } catch (error) {
          files.drop(attachments);
          // The proof was taken by another lead (a replay, maybe at the same moment): this one is held, not lost.
          if (lead.usedChallenge && (await challengeUsed(lead.usedChallenge.id))) {
            return this.save({ ...input, challenge: undefined, held: 'replayedProof' });
          }
          throw error instanceof StoreError
            ? error
            : new StoreError(`Could not store the ${input.form} submission: ${String(error)}`, { cause: error });
        }
        return saved;
      },

      async list(query = {}) {
        const limit = Math.min(1000, Math.max(1, Math.trunc(query.limit ?? 20)));
        const rows = await select(query).select(SUBMISSION_COLUMNS).orderBy('seq', 'desc').limit(limit).execute();
        return rows.map(toSubmission);
      },

      async count(query = {}) {
        return countOf(select(query));
      },

      async *export(query = {}) {
        const page = (after: number, size: number) =>
          select(query)
            .select(['seq', ...SUBMISSION_COLUMNS])
            .where('seq', '>', after)
            .orderBy('seq')
            .limit(size)
            .execute();
        for await (const row of bySeq(page)) yield toSubmission(row);
      },

      async delete(id, unless) {
        if (!isUuid(id)) return undefined;
        const erased = await db.transaction().execute(async (tx) => {
          if (unless) {
            // The lead's row taken first: a change committed meanwhile is seen, one made now waits.
            await tx
              .selectFrom('submissions')
              .select('id')
              .where('id', '=', id)
              .$if(dialect.rowLocks, (q) => q.forUpdate())
              .executeTakeFirst();
            if (await changedSince(tx, id, unless)) return undefined;
          }
          for (const table of ['submissions', 'bot_submissions'] as const) {
            const row = await tx.selectFrom(table).select(SUBMISSION_COLUMNS).where('id', '=', id).executeTakeFirst();
            if (!row) continue;
            const lead = table === 'submissions';
            const notification = lead && (await deleted(tx.deleteFrom('notifications').where('submission_id', '=', id))) > 0;
            const fileIds = lead ? await deletedIds(tx.deleteFrom('attachments').where('submission_id', '=', id)) : [];
            await tx.deleteFrom(table).where('id', '=', id).execute();
            await eraseTraces(tx, [{ id, fields: JSON.parse(row.fields) as SubmissionFields }]);
            return { submission: toSubmission(row), notification, fileIds };
          }
          return undefined;
        });
        if (!erased) return undefined;
        // The records are gone for good: now the bytes.
        const { fileIds, ...rest } = erased;
        files.remove(fileIds);
        return { ...rest, attachments: fileIds.length };
      },

      async purge(before) {
        const cutoff = iso(before);
        const older = db.selectFrom('submissions').select('id').where('received_at', '<', cutoff);
        const { fileIds, ...counts } = await db.transaction().execute(async (tx) => {
          const people: { id: string; fields: SubmissionFields }[] = [];
          for (const table of ['submissions', 'bot_submissions'] as const)
            for (const row of await tx.selectFrom(table).select(['id', 'fields']).where('received_at', '<', cutoff).execute())
              people.push({ id: row.id, fields: JSON.parse(row.fields) as SubmissionFields });
          const notifications = await deleted(tx.deleteFrom('notifications').where('submission_id', 'in', older));
          const fileIds = await deletedIds(tx.deleteFrom('attachments').where('submission_id', 'in', older));
          const leads = await deleted(tx.deleteFrom('submissions').where('received_at', '<', cutoff));
          const bots = await deleted(tx.deleteFrom('bot_submissions').where('received_at', '<', cutoff));
          await eraseTraces(tx, people);
          // Refused sign-ins and failure counts as old as what was purged go too (a lock still running stays).
          await tx.deleteFrom('sign_in_refusals').where('at', '<', cutoff).execute();
          await tx
            .deleteFrom('sign_in_failures')
            .where('last_failure_at', '<', cutoff)
            .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso(new Date()))]))
            .execute();
          return { leads, bots, notifications, fileIds };
        });
        files.remove(fileIds);
        return { ...counts, attachments: fileIds.length };
      },
      async attachments(submissionId) {
        if (!isUuid(submissionId)) return [];
        const rows = await db
          .selectFrom('attachments')
          .select(ATTACHMENT_COLUMNS)
          .where('submission_id', '=', submissionId)
          .orderBy('position')
          .execute();
        return rows.map(toAttachment);
      },

      async attachment(id) {
        if (!isUuid(id)) return undefined;
        const row = await db.selectFrom('attachments').select(ATTACHMENT_COLUMNS).where('id', '=', id).executeTakeFirst();
        if (!row) return undefined;
        try {
          return { record: toAttachment(row), bytes: await files.read(row.id, db) };
        } catch (error) {
          throw new StoreError(`The stored file ${id} cannot be read: ${String(error)}`, { cause: error });
        }
      },

      close: () => parts.close(),
    },
    dialect,
  );
}
