/**
 * The staff inbox's queries, written once for SQLite and PostgreSQL: leads with their status,
 * assignment, notification and timeline, sessions, failed sign-ins and the audit log (the rules
 * they apply are ../inbox/inbox-store.ts's). The sign-in counts are read and changed inside one transaction
 * (`signInTransaction`), the failures' rows locked where the database shares them.
 */
import { randomBytes } from 'node:crypto';
import { sql, type RawBuilder, type UpdateObject } from 'kysely';
import { StoreError, isHoldReason, type SeenGuard } from './store.ts';
import { isNoticeStatus } from '../mail/outbox.ts';
import {
  LEAD_STATUSES,
  NOTE_MAX,
  PAGE_SIZE,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  DEVICE_MAX_MS,
  REFUSALS_KEPT_MS,
  PENDING_MAX_MS,
  SESSION_STAGES,
  DEFAULT_ORDER,
  afterFailure,
  failureRun,
  gateOf,
  isLeadEventKind,
  isCalendarDay,
  isLeadStatus,
  tokenHash,
  type LeadEvent,
  type AuditEntry,
  type PersonLead,
  type FailureRun,
  type InboxLead,
  type InboxStore,
  type LeadFilter,
  type LeadOrder,
  type LeadStatus,
  type SignInGate,
  type SignInKeys,
  type SignInKind,
  type SessionStage,
  type PersonData,
  type PersonLookup,
  type PersonMatch,
} from '../inbox/inbox-store.ts';
import { bySeq, changedSince, countOf, guarded, iso, n, type Db, type DialectParts, type Tx } from './common.ts';
import { isUuid, type Database, type LeadRow } from './schema.ts';
import { ARABIC_DIGITS, PHONE_FIELDS, PHONE_PUNCTUATION, searchPlan } from '../inbox/lead-search.ts';
import {
  leadOfEmail,
  leadPhones,
  personEmail,
  phoneE164,
  toAttachment,
  toSubmission,
  SUBMISSION_COLUMNS,
} from './submission-queries.ts';

/** The columns a lead is read back with: its submission's, then its working columns. */
const LEAD_COLUMNS = [
  'seq',
  ...SUBMISSION_COLUMNS,
  'status',
  'status_by',
  'status_at',
  'assigned_to',
  'review',
  'review_reason',
  'first_answered_at',
  'released_at',
  'follow_up_on',
] as const;

/** A lead row with its latest note and its notification's state, as both databases read it back. */
interface LeadWithNotice extends Pick<LeadRow, (typeof LEAD_COLUMNS)[number]> {
  note: string | null;
  n_status: string | null;
  n_attempts: number | null;
  n_sent_at: string | null;
  n_last_error: string | null;
}

function toLead(row: LeadWithNotice): InboxLead {
  if (!isLeadStatus(row.status)) throw new StoreError(`Unexpected lead row ${row.id}`);
  const noticeStatus = row.n_status;
  return {
    ...toSubmission(row),
    status: row.status,
    statusBy: row.status_by ?? undefined,
    statusAt: row.status_at ?? undefined,
    note: row.note ?? '',
    assignedTo: row.assigned_to ?? undefined,
    waitingSince: row.released_at ?? row.received_at,
    firstAnsweredAt: row.first_answered_at ?? undefined,
    followUpOn: row.follow_up_on ?? undefined,
    review: row.review === 'held' || row.review === 'spam' ? row.review : undefined,
    holdReason: row.review && isHoldReason(row.review_reason) ? row.review_reason : undefined,
    notification:
      noticeStatus !== null && isNoticeStatus(noticeStatus)
        ? {
            status: noticeStatus,
            attempts: n(row.n_attempts),
            sentAt: row.n_sent_at ?? undefined,
            lastError: row.n_last_error ?? undefined,
          }
        : undefined,
  };
}

const newToken = () => randomBytes(32).toString('base64url');

/** A key's run of failed sign-ins, read inside a sign-in transaction (its row locked where rows are shared). */
export async function failureOf(tx: Tx, dialect: DialectParts, key: string, now: Date): Promise<FailureRun> {
  const row = await tx
    .selectFrom('sign_in_failures')
    .select(['failures', 'last_failure_at', 'locked_until'])
    .where('key', '=', key)
    .$if(dialect.rowLocks, (q) => q.forUpdate())
    .executeTakeFirst();
  return failureRun(row, now);
}

/**
 * The counts an attempt is judged by: its device's alone when the browser holds a live device
 * cookie of this account (OWASP's device cookies: a lock another caused does not reach it);
 * otherwise the account's and the network's.
 */
async function judgedBy(tx: Db | Tx, keys: SignInKeys, now: Date): Promise<[SignInKind, string][]> {
  const device = keys.device && keys.device.length <= 100 ? tokenHash(keys.device) : undefined;
  if (device) {
    const row = await tx
      .selectFrom('staff_devices')
      .select('token_hash')
      .where('token_hash', '=', device)
      .where('email', '=', keys.account)
      .where('created_at', '>=', iso(new Date(now.getTime() - DEVICE_MAX_MS)))
      .executeTakeFirst();
    if (row) return [['device', `device:${device}`]];
  }
  return [
    ['account', `account:${keys.account}`],
    ['address', `address:${keys.address}`],
  ];
}

/**
 * One attempt counted as a failure on each of its keys (a success clears them after), unless the
 * gate they make is closed: refused while closed, it is not counted, so trying during a lock never
 * makes it longer.
 */
async function countAttempt(
  tx: Tx,
  dialect: DialectParts,
  judged: readonly [SignInKind, string][],
  now: Date,
): Promise<SignInGate & { readonly lockStarted: boolean }> {
  const runs: Partial<Record<SignInKind, FailureRun>> = {};
  for (const [kind, key] of judged) {
    // The row first, then read under lock: attempts at once on one key (on any instance) queue here.
    await tx
      .insertInto('sign_in_failures')
      .values({ key, failures: 0, last_failure_at: iso(now) })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .execute();
    runs[kind] = await failureOf(tx, dialect, key, now);
  }
  const gate = gateOf(runs, now);
  if (!gate.open) return { ...gate, lockStarted: false };
  let lockStarted = false;
  for (const [kind, key] of judged) {
    const next = afterFailure(kind, runs[kind]!, now);
    lockStarted ||= next.lockedUntil !== null;
    await tx
      .updateTable('sign_in_failures')
      .set((eb) => ({
        failures: next.failures,
        last_failure_at: iso(now),
        locked_until: next.lockedUntil ? iso(next.lockedUntil) : eb.ref('locked_until'),
      }))
      .where('key', '=', key)
      .execute();
  }
  return { ...gate, lockStarted };
}

/** One transaction for reading and changing sign-in counts: SQLite's holds the file, PostgreSQL's the rows it reads. */
export const signInTransaction = <T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> => db.transaction().execute(work);

export function inboxQueries(db: Db, dialect: DialectParts, close: () => Promise<void>): InboxStore {
  /** Every answer of the lead, lower case (ASCII), as the search reads it. */
  const searchText: RawBuilder<string> = dialect.lowerAscii(dialect.allText('s.fields'));
  /** The phone answers as ../lead-search.ts's phoneDigits writes them: Western digits and +. */
  let phoneText: RawBuilder<unknown> = sql`${sql.join(
    PHONE_FIELDS.map((field) => sql`coalesce(${dialect.jsonText('s.fields', field)}, '')`),
    sql` || ' ' || `,
  )}`;
  for (const [from, to] of [...ARABIC_DIGITS, ...PHONE_PUNCTUATION.map((mark) => [mark, ''] as const)])
    phoneText = sql`replace(${phoneText}, ${sql.lit(from)}, ${sql.lit(to)})`;
  const like = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

  function leadSelect(filter: LeadFilter) {
    const plan = searchPlan(filter.search ?? '');
    const ids = filter.ids?.filter((id) => isUuid(id));
    return (
      db
        .selectFrom('submissions as s')
        // Held leads only on their own tab; the held leads marked as spam are spam like the others
        // (their status is spam: ./held-queries.ts's markSpam sets both).
        .$if(filter.review === 'held', (q) => q.where('s.review', '=', 'held'))
        .$if(filter.review === undefined, (q) =>
          q.where((eb) => eb.or([eb('s.review', 'is', null), eb('s.review', '=', 'spam')])),
        )
        .$if(filter.form !== undefined, (q) => q.where('s.form', '=', filter.form!))
        .$if(filter.status !== undefined, (q) => q.where('s.status', '=', filter.status!))
        .$if(filter.statuses !== undefined, (q) =>
          q.where((eb) => {
            const inStatuses = filter.statuses!.length > 0 ? eb('s.status', 'in', filter.statuses!) : sql<boolean>`1 = 0`;
            return filter.orFollowUp
              ? eb.or([inStatuses, eb.and([eb('s.follow_up_on', 'is not', null), eb('s.status', '<>', 'spam')])])
              : inStatuses;
          }),
        )
        .$if(filter.followUpBy !== undefined, (q) =>
          q.where('s.follow_up_on', 'is not', null).where('s.follow_up_on', '<=', filter.followUpBy!),
        )
        .$if(ids !== undefined, (q) => (ids!.length > 0 ? q.where('s.id', 'in', ids!) : q.where(sql<boolean>`1 = 0`)))
        .$if(filter.language !== undefined, (q) => q.where('s.language', '=', filter.language!))
        .$if(filter.since !== undefined, (q) => q.where('s.received_at', '>=', iso(filter.since!)))
        .$if(filter.until !== undefined, (q) => q.where('s.received_at', '<', iso(filter.until!)))
        .$if(filter.assignedTo !== undefined, (q) =>
          filter.assignedTo === null ? q.where('s.assigned_to', 'is', null) : q.where('s.assigned_to', '=', filter.assignedTo!),
        )
        .$if(plan.words.length > 0, (q) =>
          q.where((eb) => {
            const words = eb.and(
              plan.words.map((forms) => eb.or(forms.map((form) => sql<boolean>`${searchText} LIKE ${like(form)} ESCAPE '\\'`))),
            );
            return plan.phone ? eb.or([words, sql<boolean>`${phoneText} LIKE ${like(plan.phone)} ESCAPE '\\'`]) : words;
          }),
        )
    );
  }

  /** The list's order, then the newest first among equals (seq is unique: the order is total). */
  const sortName = dialect.binary(
    dialect.lowerAscii(
      sql`coalesce(nullif(trim(coalesce(${dialect.jsonText('s.fields', 'name')}, '')), ''), trim(coalesce(${dialect.jsonText('s.fields', 'firstName')}, '') || ' ' || coalesce(${dialect.jsonText('s.fields', 'lastName')}, '')))`,
    ),
  );
  const statusRank = sql<number>`CASE s.status ${sql.join(
    LEAD_STATUSES.map((status, rank) => sql`WHEN ${sql.lit(status)} THEN ${sql.lit(rank)}`),
    sql` `,
  )} END`;
  /** `former`: one lead ranked by the status it had (a lead that has just left the list keeps its place). */
  function orderSql(order: LeadOrder, former?: { readonly id: string; readonly status: LeadStatus }): RawBuilder<unknown> {
    const direction = order.direction === 'asc' ? sql`ASC` : sql`DESC`;
    const rank = former
      ? sql`CASE WHEN s.id = ${former.id} THEN ${sql.lit(LEAD_STATUSES.indexOf(former.status))} ELSE ${statusRank} END`
      : statusRank;
    const key = order.by === 'name' ? sortName : order.by === 'form' ? sql`s.form` : order.by === 'status' ? rank : undefined;
    return key ? sql`${key} ${direction}, s.seq DESC` : sql`s.seq ${direction}`;
  }

  const withNotice = (filter: LeadFilter) =>
    leadSelect(filter)
      // The lead's notification only: its other mails are the outbox's (forLead).
      .leftJoin('notifications as n', (join) => join.onRef('n.submission_id', '=', 's.id').on('n.kind', '=', 'notification'))
      .select(LEAD_COLUMNS.map((column) => `s.${column}` as const))
      .select([
        // The newest note of the lead's timeline.
        (eb) =>
          eb
            .selectFrom('lead_events as e')
            .select('e.detail')
            .whereRef('e.lead_id', '=', 's.id')
            .where('e.kind', '=', 'note')
            .orderBy('e.seq', 'desc')
            .limit(1)
            .as('note'),
        'n.status as n_status',
        'n.attempts as n_attempts',
        'n.sent_at as n_sent_at',
        'n.last_error as n_last_error',
      ]);

  /** The timeline's kind of each change of a lead's working columns. */
  const CHANGE_KINDS = { status: 'status', assigned_to: 'assigned', follow_up_on: 'follow_up' } as const;

  /**
   * Sets one working column of a lead and adds the change to its timeline, the row taken: false when the lead is
   * unknown, held (it joins the inbox only by release, which queues its one mail) or changed since the page asking
   * saw it (`unless`: of two pages that saw the same lead, the second is refused); saving the value it already has
   * changes nothing and adds nothing to the timeline.
   */
  function change(
    id: string,
    column: keyof typeof CHANGE_KINDS,
    value: string | null,
    by: string,
    now: Date,
    unless?: SeenGuard,
    more: (lead: { readonly review: string | null }) => UpdateObject<Database, 'submissions'> = () => ({}),
  ): Promise<boolean> {
    return db.transaction().execute(async (tx) => {
      const lead = await tx
        .selectFrom('submissions')
        .select([column, 'review'])
        .where('id', '=', id)
        .$if(dialect.rowLocks, (q) => q.forUpdate())
        .executeTakeFirst();
      if (!lead || lead.review === 'held') return false;
      if ((lead[column] ?? null) === value) return true;
      if (await changedSince(tx, id, unless)) return false;
      await tx
        .updateTable('submissions')
        .set({ [column]: value, ...more(lead) })
        .where('id', '=', id)
        .execute();
      await tx
        .insertInto('lead_events')
        .values({ lead_id: id, at: iso(now), actor: by, kind: CHANGE_KINDS[column], detail: value ?? '' })
        .execute();
      return true;
    });
  }

  /** Timeline rows, newest first. */
  const events = () =>
    db.selectFrom('lead_events').select(['seq', 'lead_id', 'at', 'actor', 'kind', 'detail', 'corrects']).orderBy('seq', 'desc');
  const toEvent = (row: Awaited<ReturnType<ReturnType<typeof events>['execute']>>[number], correctedBy?: number): LeadEvent => {
    if (!isLeadEventKind(row.kind)) throw new StoreError(`Unexpected timeline row ${row.seq}`);
    return {
      seq: n(row.seq),
      leadId: row.lead_id,
      at: row.at,
      actor: row.actor ?? undefined,
      kind: row.kind,
      detail: row.detail,
      corrects: row.corrects === null ? undefined : n(row.corrects),
      correctedBy,
    };
  };

  async function timeline(id: string): Promise<LeadEvent[]> {
    if (!isUuid(id)) return [];
    const rows = await events().where('lead_id', '=', id).execute();
    const correctedBy = new Map<number, number>();
    // Newest first: the first correction met for a note is its newest.
    for (const row of rows)
      if (row.corrects !== null && !correctedBy.has(n(row.corrects))) correctedBy.set(n(row.corrects), n(row.seq));
    return rows.map((row) => toEvent(row, correctedBy.get(n(row.seq))));
  }

  /**
   * The leads of a person, held ones too, oldest first (PersonMatch): SQL narrows to the same
   * e-mail (ASCII case aside, as lowerAscii does on both databases) or phone answers holding a
   * number's digits; leadOfEmail and phoneE164 decide, alike on both.
   */
  async function personMatches(person: PersonLookup): Promise<PersonMatch[]> {
    const email = personEmail(person.email ?? '');
    const asciiEmail = email.replace(/[A-Z]/g, (c) => c.toLowerCase());
    const found = async (where: RawBuilder<boolean>) =>
      [...(await withNotice({}).where(where).execute()), ...(await withNotice({ review: 'held' }).where(where).execute())]
        .sort((a, b) => n(a.seq) - n(b.seq))
        .map(toLead);
    const byEmail = email
      ? (
          await found(
            sql<boolean>`${dialect.lowerAscii(sql`trim(coalesce(${dialect.jsonText('s.fields', 'email')}, ''))`)} = ${asciiEmail}`,
          )
        ).filter((lead) => leadOfEmail(lead.fields, email))
      : [];
    const phones = new Set([phoneE164(person.phone ?? ''), ...byEmail.flatMap((lead) => leadPhones(lead.fields))]);
    phones.delete('');
    const byPhone = phones.size
      ? await found(
          sql<boolean>`(${sql.join(
            [...phones].map((phone) => sql`${phoneText} LIKE ${like(phone.slice(1))} ESCAPE '\\'`),
            sql` OR `,
          )})`,
        )
      : [];
    return [
      ...byEmail.map((lead) => ({ lead })),
      ...byPhone.flatMap((lead) => {
        const phone = leadPhones(lead.fields).find((number) => phones.has(number));
        return phone && !leadOfEmail(lead.fields, email) ? [{ lead, phone }] : [];
      }),
    ].sort((a, b) => a.lead.receivedAt.localeCompare(b.lead.receivedAt));
  }

  async function personData(person: PersonLookup): Promise<PersonData> {
    const leads: PersonLead[] = [];
    const ticked = new Set(person.ticked);
    for (const { lead } of (await personMatches(person)).filter((match) => !match.phone || ticked.has(match.lead.id))) {
      const files = await db
        .selectFrom('attachments')
        .select(['id', 'submission_id', 'name', 'type', 'size', 'sha256'])
        .where('submission_id', '=', lead.id)
        .orderBy('position')
        .execute();
      leads.push({ lead, files: files.map(toAttachment), timeline: (await timeline(lead.id)).reverse() });
    }
    const ids = leads.map((entry) => entry.lead.id);
    const audit: AuditEntry[] = [];
    for (let start = 0; start < ids.length; start += 100) {
      const chunk = ids.slice(start, start + 100);
      // An entry names a lead by its column, or by its id in the detail (an action on several leads).
      const entries = await db
        .selectFrom('audit_log')
        .select(['seq', 'at', 'actor', 'action', 'lead_id', 'detail'])
        .where((eb) => eb.or([eb('lead_id', 'in', chunk), ...chunk.map((id) => eb('detail', 'like', `%${id}%`))]))
        .orderBy('seq')
        .execute();
      for (const row of entries)
        if (!audit.some((entry) => entry.seq === n(row.seq)))
          audit.push({
            seq: n(row.seq),
            at: row.at,
            actor: row.actor,
            action: row.action,
            leadId: row.lead_id ?? undefined,
            detail: row.detail,
          });
    }
    return { leads, audit: audit.sort((a, b) => a.seq - b.seq) };
  }

  return guarded<InboxStore>(
    {
      async leads(filter, page, order = DEFAULT_ORDER) {
        const total = await countOf(leadSelect(filter));
        const offset = Math.max(0, Math.trunc(page) - 1) * PAGE_SIZE;
        const rows = await withNotice(filter).orderBy(orderSql(order)).limit(PAGE_SIZE).offset(offset).execute();
        return { leads: rows.map(toLead), total };
      },
      async statusCounts(filter) {
        const { status: _status, statuses: _statuses, review: _review, ...rest } = filter;
        const rows = await leadSelect(rest)
          .select(['s.status', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('s.status')
          .execute();
        const counts = Object.fromEntries([...LEAD_STATUSES, 'held'].map((status) => [status, 0])) as Record<
          LeadStatus | 'held',
          number
        >;
        for (const row of rows) if (isLeadStatus(row.status)) counts[row.status] = n(row.n);
        counts.held = await countOf(leadSelect({ ...rest, review: 'held' }));
        return counts;
      },
      async neighbours(filter, order, id, former) {
        if (!isUuid(id)) return undefined;
        const inList = Boolean(await leadSelect(filter).select('s.id').where('s.id', '=', id).executeTakeFirst());
        if (!inList && !former) return undefined;
        // Each lead's place in the list as it is ordered (with this lead, when it has left the list,
        // at the place its order key gives it); then the places either side of this one.
        const ranked = inList
          ? leadSelect(filter).select(['s.id', sql<number>`row_number() OVER (ORDER BY ${orderSql(order)})`.as('place')])
          : db
              .selectFrom('submissions as s')
              .where((eb) => eb.or([eb('s.id', 'in', leadSelect(filter).select('s.id')), eb('s.id', '=', id)]))
              .select([
                's.id',
                sql<number>`row_number() OVER (ORDER BY ${orderSql(order, former?.status ? { id, status: former.status } : undefined)})`.as(
                  'place',
                ),
              ]);
        const here = await db.selectFrom(ranked.as('r')).select('r.place').where('r.id', '=', id).executeTakeFirst();
        if (!here) return undefined;
        const place = n(here.place);
        const rows = await db
          .selectFrom(ranked.as('r'))
          .select(['r.id', 'r.place'])
          .where('r.place', 'in', [place - 1, place + 1])
          .execute();
        const at = (p: number) => rows.find((row) => n(row.place) === p)?.id;
        const total = await countOf(leadSelect(filter));
        return inList
          ? { previous: at(place - 1), next: at(place + 1), position: place, total }
          : { previous: at(place - 1), next: at(place + 1), position: place, total, left: true as const };
      },
      personMatches,
      async *exportLeads(filter) {
        const page = (after: number, size: number) =>
          withNotice(filter).where('s.seq', '>', after).orderBy('s.seq').limit(size).execute();
        for await (const row of bySeq(page)) yield toLead(row);
      },
      async lead(id) {
        if (!isUuid(id)) return undefined;
        const row =
          (await withNotice({}).where('s.id', '=', id).executeTakeFirst()) ??
          (await withNotice({ review: 'held' }).where('s.id', '=', id).executeTakeFirst());
        return row ? toLead(row) : undefined;
      },
      async setStatus(id, status, by, now, unless) {
        return (
          isUuid(id) &&
          change(id, 'status', status, by, now, unless, (lead) => ({
            status_by: by,
            status_at: iso(now),
            // The first answer is kept: answered again later, it stays when it first was.
            ...(status === 'answered'
              ? { first_answered_at: (eb) => eb.fn.coalesce('first_answered_at', eb.val(iso(now))) }
              : {}),
            // A held lead marked as spam and then worked joins the inbox now: its wait starts here.
            ...(status !== 'spam' && lead.review === 'spam' ? { review: null, released_at: iso(now) } : {}),
          }))
        );
      },
      async addNote(id, text, by, now, corrects) {
        if (!isUuid(id)) return undefined;
        // An insert, never an update: notes written at the same moment are all kept.
        return db.transaction().execute(async (tx) => {
          if (!(await tx.selectFrom('submissions').select('id').where('id', '=', id).executeTakeFirst())) return undefined;
          // A correction names a note of this lead, or nothing is added.
          if (
            corrects !== undefined &&
            !(await tx
              .selectFrom('lead_events')
              .select('seq')
              .where('seq', '=', corrects)
              .where('lead_id', '=', id)
              .where('kind', '=', 'note')
              .executeTakeFirst())
          )
            return undefined;
          const row = await tx
            .insertInto('lead_events')
            .values({
              lead_id: id,
              at: iso(now),
              actor: by,
              kind: 'note',
              detail: text.slice(0, NOTE_MAX),
              corrects: corrects ?? null,
            })
            .returning('seq')
            .executeTakeFirstOrThrow();
          return n(row.seq);
        });
      },
      async assign(id, to, by, now, unless) {
        return isUuid(id) && change(id, 'assigned_to', to, by, now, unless);
      },
      async setFollowUp(id, day, by, now) {
        return isUuid(id) && (day === null || isCalendarDay(day)) && change(id, 'follow_up_on', day, by, now);
      },
      async countLeads(filter) {
        return countOf(leadSelect(filter));
      },
      async firstAnswers(since) {
        const rows = await db
          .selectFrom('submissions')
          .select(['received_at', 'released_at', 'first_answered_at'])
          .where('review', 'is', null)
          .where('status', '<>', 'spam')
          .$if(since !== undefined, (q) =>
            q.where((eb) =>
              eb.or([
                eb('released_at', '>=', iso(since!)),
                eb.and([eb('released_at', 'is', null), eb('received_at', '>=', iso(since!))]),
              ]),
            ),
          )
          .execute();
        return rows.map((row) => ({
          waitingSince: row.released_at ?? row.received_at,
          firstAnsweredAt: row.first_answered_at ?? undefined,
        }));
      },
      async claimStaffDigest(day, email, now) {
        const row = await db
          .insertInto('staff_digests')
          .values({ day, email, claimed_at: iso(now) })
          .onConflict((conflict) => conflict.columns(['day', 'email']).doNothing())
          .returning('day')
          .executeTakeFirst();
        return row !== undefined;
      },
      async staffDigestSent(day, email, now) {
        await db
          .updateTable('staff_digests')
          .set({ sent_at: iso(now) })
          .where('day', '=', day)
          .where('email', '=', email)
          .execute();
      },
      async unclaimStaffDigest(day, email) {
        await db
          .deleteFrom('staff_digests')
          .where('day', '=', day)
          .where('email', '=', email)
          .where('sent_at', 'is', null)
          .execute();
      },
      async record(id, kind, detail, by, now) {
        if (!isUuid(id)) return false;
        return db.transaction().execute(async (tx) => {
          if (!(await tx.selectFrom('submissions').select('id').where('id', '=', id).executeTakeFirst())) return false;
          await tx
            .insertInto('lead_events')
            .values({ lead_id: id, at: iso(now), actor: by, kind, detail: detail.slice(0, 500) })
            .execute();
          return true;
        });
      },
      timeline,
      async recentReplies(ids, since) {
        const leads = ids.filter((id) => isUuid(id));
        if (leads.length === 0) return [];
        const rows = await events()
          .where('lead_id', 'in', leads)
          .where('kind', '=', 'reply')
          .where('at', '>=', iso(since))
          .execute();
        return rows.map((row) => toEvent(row));
      },

      async createSession(email, now, stage = 'signed-in') {
        const token = newToken();
        const csrf = newToken();
        await db
          .insertInto('staff_sessions')
          .values({ token_hash: tokenHash(token), email, csrf, created_at: iso(now), last_seen_at: iso(now), stage })
          .execute();
        // Sessions that ran out are cleared as new ones are made.
        await db
          .deleteFrom('staff_sessions')
          .where((eb) =>
            eb.or([
              eb('last_seen_at', '<', iso(new Date(now.getTime() - SESSION_IDLE_MS))),
              eb('created_at', '<', iso(new Date(now.getTime() - SESSION_MAX_MS))),
            ]),
          )
          .execute();
        return { token, csrf };
      },
      async session(token, now) {
        if (!token || token.length > 100) return undefined;
        const hash = tokenHash(token);
        const row = await db
          .selectFrom('staff_sessions as s')
          .innerJoin('staff as a', 'a.email', 's.email')
          .select(['s.email', 's.csrf', 's.created_at', 's.last_seen_at', 's.stage', 's.pending_totp', 'a.password_changed_at'])
          .where('s.token_hash', '=', hash)
          .executeTakeFirst();
        if (!row) return undefined;
        const created = Date.parse(row.created_at);
        const idle = now.getTime() - Date.parse(row.last_seen_at) > SESSION_IDLE_MS;
        const old = now.getTime() - created > SESSION_MAX_MS;
        // A password changed after sign-in ends the sessions made with the old one.
        const stale = Date.parse(row.password_changed_at) > created;
        const stage = (SESSION_STAGES as readonly string[]).includes(row.stage) ? (row.stage as SessionStage) : undefined;
        // A second step still owed is owed for minutes, not for the session's hours.
        const pendingTooLong = stage !== 'signed-in' && now.getTime() - created > PENDING_MAX_MS;
        if (idle || old || stale || !stage || pendingTooLong) {
          await db.deleteFrom('staff_sessions').where('token_hash', '=', hash).execute();
          return undefined;
        }
        await db
          .updateTable('staff_sessions')
          .set({ last_seen_at: iso(now) })
          .where('token_hash', '=', hash)
          .execute();
        return { email: row.email, csrf: row.csrf, createdAt: row.created_at, stage, pendingTotp: row.pending_totp ?? undefined };
      },
      async setPendingTotp(token, sealed) {
        await db.updateTable('staff_sessions').set({ pending_totp: sealed }).where('token_hash', '=', tokenHash(token)).execute();
      },
      async endSession(token) {
        await db.deleteFrom('staff_sessions').where('token_hash', '=', tokenHash(token)).execute();
      },

      gate: (keys, now) =>
        signInTransaction(db, async (tx) => {
          const judged = await judgedBy(tx, keys, now);
          return gateOf(
            Object.fromEntries(
              await Promise.all(judged.map(async ([kind, key]) => [kind, await failureOf(tx, dialect, key, now)])),
            ),
            now,
          );
        }),
      attempt: (keys, now) =>
        signInTransaction(db, async (tx) => {
          const judged = await judgedBy(tx, keys, now);
          const trusted = judged.some(([kind]) => kind === 'device');
          return { ...(await countAttempt(tx, dialect, judged, now)), trusted };
        }),
      async trustedDevice(keys, now) {
        return (await judgedBy(db, keys, now)).some(([kind]) => kind === 'device');
      },
      busy: (address, now) => signInTransaction(db, (tx) => countAttempt(tx, dialect, [['address', `address:${address}`]], now)),
      async clearFailures(keys) {
        await signInTransaction(db, async (tx) => {
          const judged = await judgedBy(tx, keys, new Date());
          await tx
            .deleteFrom('sign_in_failures')
            .where(
              'key',
              'in',
              judged.map(([, key]) => key),
            )
            .execute();
        });
      },
      async rememberDevice(email, now) {
        const token = newToken();
        await db
          .insertInto('staff_devices')
          .values({ token_hash: tokenHash(token), email, created_at: iso(now) })
          .execute();
        // Cookies that ran out are cleared as new ones are made.
        await db
          .deleteFrom('staff_devices')
          .where('created_at', '<', iso(new Date(now.getTime() - DEVICE_MAX_MS)))
          .execute();
        return token;
      },
      async refusal(entry, now) {
        await db
          .insertInto('sign_in_refusals')
          .values({
            at: iso(now),
            account: entry.account.slice(0, 320),
            network: entry.network.slice(0, 100),
            reason: entry.reason,
          })
          .execute();
        // Kept for REFUSALS_KEPT_MS: enough to see an attack, not a record of every typo for ever.
        await db
          .deleteFrom('sign_in_refusals')
          .where('at', '<', iso(new Date(now.getTime() - REFUSALS_KEPT_MS)))
          .execute();
      },
      async refusals({ limit, offset = 0 }) {
        const total = await countOf(db.selectFrom('sign_in_refusals'));
        const rows = await db
          .selectFrom('sign_in_refusals')
          .select(['at', 'account', 'network', 'reason'])
          .orderBy('seq', 'desc')
          .limit(limit)
          .offset(offset)
          .execute();
        return { entries: rows, total };
      },

      personData,
      async audit(actor, action, leadId, detail, now) {
        // A lead is named by its id; anything else that came in its place names no lead.
        const row = await db
          .insertInto('audit_log')
          .values({ at: iso(now), actor, action, lead_id: isUuid(leadId) ? leadId : null, detail })
          .returning('seq')
          .executeTakeFirstOrThrow();
        return n(row.seq);
      },
      async completeAudit(seq, detail) {
        await db.updateTable('audit_log').set({ detail }).where('seq', '=', seq).execute();
      },
      async auditLog(query) {
        const select = db
          .selectFrom('audit_log as a')
          .$if(Boolean(query.actor), (q) => q.where('a.actor', '=', query.actor!))
          .$if(Boolean(query.action), (q) => q.where('a.action', '=', query.action!))
          .$if(Boolean(query.hideViews) && !query.action, (q) => q.where('a.action', '<>', 'opened lead'))
          .$if(query.since !== undefined, (q) => q.where('a.at', '>=', iso(query.since!)))
          .$if(query.until !== undefined, (q) => q.where('a.at', '<', iso(query.until!)));
        const total = await countOf(select);
        const rows = await select
          .leftJoin('submissions as s', 's.id', 'a.lead_id')
          .select(['a.seq', 'a.at', 'a.actor', 'a.action', 'a.lead_id', 'a.detail', 's.id as kept_id'])
          .orderBy('a.seq', 'desc')
          .limit(Math.max(1, Math.trunc(query.limit)))
          .offset(Math.max(0, Math.trunc(query.offset ?? 0)))
          .execute();
        return {
          entries: rows.map((row) => ({
            seq: n(row.seq),
            at: row.at,
            actor: row.actor,
            action: row.action,
            leadId: row.lead_id ?? undefined,
            detail: row.detail,
            leadKept: row.kept_id !== null && row.kept_id !== undefined,
          })),
          total,
        };
      },
      close,
    },
    dialect,
  );
}
