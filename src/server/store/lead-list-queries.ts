/**
 * The inbox's list, written once for SQLite and PostgreSQL: the leads a filter finds, in the list's
 * order, counted by status, a lead's neighbours, the export and one lead by its id; each read back
 * with its newest note and its notification's state.
 */
import { sql, type RawBuilder } from 'kysely';
import { StoreError, isHoldReason } from './store.ts';
import { isNoticeStatus } from '../mail/outbox.ts';
import {
  DEFAULT_ORDER,
  LEAD_STATUSES,
  PAGE_SIZE,
  isLeadStatus,
  type InboxLead,
  type InboxStore,
  type LeadFilter,
  type LeadOrder,
  type LeadStatus,
} from '../inbox/inbox-store.ts';
import { bySeq, countOf, iso, n, type Db, type DialectParts } from './common.ts';
import { isUuid } from './schema.ts';
import { ARABIC_DIGITS, PHONE_FIELDS, PHONE_PUNCTUATION, searchPlan } from '../inbox/lead-search.ts';
import { toSubmission, SUBMISSION_COLUMNS } from './submission-queries.ts';

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
type LeadWithNotice = Awaited<
  ReturnType<ReturnType<ReturnType<typeof leadListQueries>['withNotice']>['executeTakeFirstOrThrow']>
>;

export function toLead(row: LeadWithNotice): InboxLead {
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

/** The list's reads, and the parts a person's search shares (the phone answers, LIKE's pattern, the lead's select). */
export function leadListQueries(db: Db, dialect: DialectParts) {
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

  const list: Pick<InboxStore, 'leads' | 'statusCounts' | 'neighbours' | 'exportLeads' | 'lead' | 'countLeads'> = {
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
    async countLeads(filter) {
      return countOf(leadSelect(filter));
    },
  };
  return { phoneText, like, withNotice, ...list };
}
