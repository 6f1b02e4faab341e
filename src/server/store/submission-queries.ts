/**
 * The submissions store's queries, written once for SQLite and PostgreSQL, a save included (one
 * transaction per lead). What differs stays with each database: where a file's bytes are kept
 * (files beside the SQLite database; a bytea column in PostgreSQL): `FileKeeper`.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { LocaleCode } from '../../i18n/index.ts';
import {
  StoreError,
  isFormName,
  type AcknowledgeLimits,
  type FormName,
  type HoldReason,
  type LeadNotice,
  type NewAttachment,
  type Query,
  type SaveInput,
  type StoredAttachment,
  type StoredSubmission,
  type SubmissionFields,
  type SubmissionStore,
} from './store.ts';
import { sql } from 'kysely';
import { PHONE_FIELDS, phoneDigits } from '../inbox/lead-search.ts';
import { placeAlternatives } from '../inbox/places.ts';
import { COUNTRIES } from '../../forms/countries.ts';
import { localCountryName } from '../../forms/country-names.ts';
import { mayAcknowledge, pendingMail } from './outbox-queries.ts';
import { bySeq, changedSince, countOf, guarded, iso, n, type Db, type DialectParts, type Tx } from './common.ts';
import {
  isUuid,
  type AttachmentRow,
  type LeadRow,
  type NewAttachmentRow,
  type NewNotificationRow,
  type NewSubmissionRow,
  type NewUsedChallengeRow,
} from './schema.ts';

export type SubmissionTableName = 'submissions' | 'bot_submissions';
const tableOf = (bots: boolean | undefined): SubmissionTableName => (bots === true ? 'bot_submissions' : 'submissions');

/** The columns a submission is read back from. */
export const SUBMISSION_COLUMNS = ['id', 'form', 'received_at', 'language', 'fields'] as const;

/** A submission row as both databases read it back. */
export type SubmissionRow = Pick<LeadRow, (typeof SUBMISSION_COLUMNS)[number]>;

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
  /** A stored file's bytes. */
  read(id: string, tx: Db): Promise<Uint8Array<ArrayBuffer>>;
  /** After the records are deleted for good: the bytes. */
  remove(ids: readonly string[]): void;
}

/** Everything one save writes, in one transaction. */
export interface NewLead {
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
export function newLead(input: SaveInput): {
  lead: Omit<NewLead, 'attachments'>;
  files: readonly NewAttachment[];
  saved: { id: string; receivedAt: string; held?: HoldReason | undefined };
} {
  const form: FormName = input.form;
  if (!isFormName(form)) throw new StoreError(`Unknown form "${String(form)}"`);
  const id = randomUUID();
  const receivedAt = iso(input.receivedAt ?? new Date());
  const language: LocaleCode = input.language ?? 'en';
  const bot = input.bot === true;
  const held = bot ? undefined : input.held;
  let notice: LeadNotice | undefined;
  try {
    notice =
      bot || held !== undefined || !input.notice
        ? undefined
        : input.notice({ id, form, receivedAt, language, fields: input.fields });
  } catch (error) {
    throw new StoreError(`Could not compose the ${form} lead's notification: ${String(error)}`, { cause: error });
  }
  // Never to a held lead's address: it may be a bot's relay, or someone else's address typed in.
  let acknowledgement: NewNotificationRow | undefined;
  let acknowledgeLimits: AcknowledgeLimits | undefined;
  try {
    const mail =
      bot || held !== undefined || !input.acknowledgement
        ? undefined
        : input.acknowledgement({ id, form, receivedAt, language, fields: input.fields });
    acknowledgeLimits = mail?.limits;
    acknowledgement = mail && pendingMail(randomUUID(), id, 'acknowledgement', mail, receivedAt);
  } catch (error) {
    throw new StoreError(`Could not compose the ${form} lead's acknowledgement: ${String(error)}`, { cause: error });
  }
  // A notification's id is its lead's: one per lead, and `outbox retry` takes the lead's id.
  const notification = notice && pendingMail(id, id, 'notification', notice, receivedAt);
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
      notification,
      acknowledgement,
      acknowledgeLimits,
    },
    // The honeypot's catch keeps no files.
    files: bot ? [] : (input.attachments ?? []),
    saved: held ? { id, receivedAt, held } : { id, receivedAt },
  };
}

/** The answers that name a person or point to them: who, where, which company, how to reach them. */
export const PERSON_FIELDS = [
  'name',
  'firstName',
  'lastName',
  'email',
  'company',
  'organization',
  'city',
  'cityName',
  'presidentName',
  'companyWebsite',
  'ownershipSpecification',
] as const;

const lowerText = (value: unknown) => (typeof value === 'string' ? value.trim().toLowerCase() : '');

/**
 * The words that name a person in a lead: each identifying answer whole and its words of 3
 * letters or more, with the lead's country and city in English and Arabic.
 */
export function personTokens(fields: SubmissionFields): string[] {
  // The country and the city in each language staff may search them in, besides as written.
  const country = COUNTRIES.find((one) => one.value.toLowerCase() === lowerText(fields['country']));
  const wholes = [
    ...PERSON_FIELDS.map((field) => lowerText(fields[field])),
    `${lowerText(fields['firstName'])} ${lowerText(fields['lastName'])}`.trim(),
    ...(country ? [country.value.toLowerCase(), localCountryName(country.key, 'ar') ?? ''] : []),
    ...['city', 'cityName'].flatMap((field) => placeAlternatives(lowerText(fields[field]))),
  ].filter(Boolean);
  const tokens = new Set<string>();
  for (const whole of wholes) {
    tokens.add(whole);
    for (const part of whole.split(/[\s,]+/)) if ([...part].length >= 3) tokens.add(part);
  }
  return [...tokens];
}

/**
 * A telephone number as erasure compares it: Western digits only, without the international
 * prefix's "+" or "00" and without a leading trunk "0", so "+973-1700-0000", "0097317000000" and
 * "١٧٠٠٠٠٠٠" are all read as digits of one number.
 */
export function bareDigits(text: string): string {
  return phoneDigits(text)
    .replace(/[^0-9]/g, '')
    .replace(/^0+/, '');
}

/**
 * A telephone number as a person is matched by: E.164, "+" and every digit of the number as written
 * with its country code ("+966 50 765 4321", "00966507654321", "+٩٦٦٥٠٧٦٥٤٣٢١"); '' for a number
 * without one ("765 4321", "0507654321"), which could be anyone's somewhere.
 */
export function phoneE164(text: string): string {
  const digits = /^(?:\+|00)([1-9]\d{6,14})$/.exec(phoneDigits(text.trim()))?.[1];
  return digits ? `+${digits}` : '';
}

/** A lead's telephone numbers as phoneE164 writes them. */
export const leadPhones = (fields: SubmissionFields): string[] =>
  PHONE_FIELDS.map((field) => phoneE164(typeof fields[field] === 'string' ? fields[field] : '')).filter(Boolean);

/** An e-mail address as a person is found by: trimmed, lower case. */
export const personEmail = (text: string): string => text.trim().toLowerCase();

/** Whether a lead has the person's e-mail (case aside). */
export const leadOfEmail = (fields: SubmissionFields, email: string): boolean =>
  email !== '' && lowerText(fields['email']) === personEmail(email);

/** The person's telephone numbers, as bareDigits writes them. */
export function personPhones(fields: SubmissionFields): string[] {
  return [
    ...new Set(
      PHONE_FIELDS.map((field) => fields[field])
        .filter((value): value is string => typeof value === 'string')
        .map(bareDigits)
        .filter((digits) => digits.length >= 3),
    ),
  ];
}

/** The runs of a text that read as a number (digits, Arabic-Indic too, with the punctuation people group them by). */
const NUMBER_RUNS = /[+\d\u0660-\u0669\u06F0-\u06F9][\d\u0660-\u0669\u06F0-\u06F9\s().\-/\u00A0]*/gu;

/**
 * What staff looked for, from an audit entry of a search or an export: the `q` of the filter
 * it records ("3 found (filter: status=all&q=...)"); nothing for an entry without a filter (an
 * export of chosen leads, the staff command's).
 */
export function searchedText(detail: string): string {
  const mark = '(filter: ';
  const start = detail.lastIndexOf(mark);
  const text = detail.trimEnd();
  if (start < 0 || !text.endsWith(')')) return '';
  return new URLSearchParams(text.slice(start + mark.length, -1)).getAll('q').join(' ');
}

/**
 * Whether a search names the person or found them by what identifies them: any of the person's
 * words in it, any of its words (2 letters or more) inside one of the person's answers, or a
 * number in it that is part of the person's telephone (or holds it), in any digits and format.
 * Compared in this process, not in SQL, so SQLite and PostgreSQL judge alike.
 */
export function searchNamesPerson(searched: string, tokens: readonly string[], phones: readonly string[]): boolean {
  const text = searched.trim().toLowerCase();
  if (!text) return false;
  if (tokens.some((token) => text.includes(token))) return true;
  const words = text.split(/\s+/).filter((word) => [...word].length >= 2);
  if (words.some((word) => tokens.some((token) => token.includes(word)))) return true;
  const numbers = [...text.matchAll(NUMBER_RUNS)].map((run) => bareDigits(run[0])).filter((digits) => digits.length >= 3);
  return numbers.some((digits) => phones.some((phone) => phone.includes(digits) || digits.includes(phone)));
}

/** What a search or an export keeps of its filter once it named an erased person. */
export const ERASED_FILTER = '(filter erased with a lead)';

/**
 * Everything else in the database that names an erased person: audit entries about the lead keep
 * its id and action only (their detail goes); searches and exports whose filter named the person
 * (searchNamesPerson: name, e-mail, phone, company, city, as typed or as the address wrote it)
 * lose their filter; refused sign-ins and failure counts under the person's e-mail go.
 */
async function eraseTraces(tx: Tx, erased: readonly { id: string; fields: SubmissionFields }[]): Promise<void> {
  if (erased.length === 0) return;
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
      .filter((entry) => {
        const searched = searchedText(entry.detail);
        return people.some((person) => searchNamesPerson(searched, person.tokens, person.phones));
      })
      .map((entry) => entry.seq);
    for (let start = 0; start < named.length; start += 500)
      await tx
        .updateTable('audit_log')
        .set({ detail: ERASED_FILTER })
        .where('seq', 'in', named.slice(start, start + 500))
        .execute();
  }
  for (const { fields } of erased) {
    const email = lowerText(fields['email']);
    if (email) {
      await tx
        .deleteFrom('sign_in_refusals')
        .where(sql<string>`lower(account)`, '=', email)
        .execute();
      await tx.deleteFrom('sign_in_failures').where('key', '=', `account:${email}`).execute();
    }
  }
}

export interface SubmissionParts {
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
      async save(input): Promise<{ id: string; receivedAt: string; held?: HoldReason | undefined }> {
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
            const notification =
              lead &&
              n((await tx.deleteFrom('notifications').where('submission_id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
            const fileIds = lead
              ? (await tx.deleteFrom('attachments').where('submission_id', '=', id).returning('id').execute()).map(
                  (file) => file.id,
                )
              : [];
            await tx.deleteFrom(table).where('id', '=', id).execute();
            await eraseTraces(tx, [{ id, fields: JSON.parse(row.fields) as SubmissionFields }]);
            return { submission: toSubmission(row), notification, fileIds };
          }
          return undefined;
        });
        if (!erased) return undefined;
        // The records are gone for good: now the bytes.
        files.remove(erased.fileIds);
        return { submission: erased.submission, notification: erased.notification, attachments: erased.fileIds.length };
      },

      async purge(before) {
        const cutoff = iso(before);
        const older = db.selectFrom('submissions').select('id').where('received_at', '<', cutoff);
        const purged = await db.transaction().execute(async (tx) => {
          const people = [
            ...(await tx.selectFrom('submissions').select(['id', 'fields']).where('received_at', '<', cutoff).execute()),
            ...(await tx.selectFrom('bot_submissions').select(['id', 'fields']).where('received_at', '<', cutoff).execute()),
          ].map((row) => ({ id: row.id, fields: JSON.parse(row.fields) as SubmissionFields }));
          const notifications = n(
            (await tx.deleteFrom('notifications').where('submission_id', 'in', older).executeTakeFirst()).numDeletedRows,
          );
          const fileIds = (await tx.deleteFrom('attachments').where('submission_id', 'in', older).returning('id').execute()).map(
            (file) => file.id,
          );
          const leads = n(
            (await tx.deleteFrom('submissions').where('received_at', '<', cutoff).executeTakeFirst()).numDeletedRows,
          );
          const bots = n(
            (await tx.deleteFrom('bot_submissions').where('received_at', '<', cutoff).executeTakeFirst()).numDeletedRows,
          );
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
        files.remove(purged.fileIds);
        return {
          leads: purged.leads,
          bots: purged.bots,
          notifications: purged.notifications,
          attachments: purged.fileIds.length,
        };
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
