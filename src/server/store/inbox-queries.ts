/**
 * The staff inbox's queries, written once for SQLite and PostgreSQL: leads with their status,
 * assignment, notification and timeline, and a person's leads (the rules they apply are
 * ../inbox/inbox-store.ts's); sessions, sign-ins and the audit log are ./staff-activity-queries.ts's.
 */
import { sql, type RawBuilder, type UpdateObject } from 'kysely';
import { StoreError, type SeenGuard } from './store.ts';
import {
  NOTE_MAX,
  isCalendarDay,
  isLeadEventKind,
  type AuditEntry,
  type InboxStore,
  type LeadEvent,
  type PersonData,
  type PersonLead,
  type PersonLookup,
  type PersonMatch,
} from '../inbox/inbox-store.ts';
import { changedSince, guarded, iso, n, type Db, type DialectParts } from './common.ts';
import { leadListQueries, toLead } from './lead-list-queries.ts';
import { auditEntry, staffActivityQueries } from './staff-activity-queries.ts';
import { isUuid, type Database } from './schema.ts';
import { toAttachment } from './submission-queries.ts';
import { leadOfEmail, leadPhones, personEmail, phoneE164 } from '../inbox/lead-person.ts';

export function inboxQueries(db: Db, dialect: DialectParts, close: () => Promise<void>): InboxStore {
  const { phoneText, like, withNotice, ...list } = leadListQueries(db, dialect);

  const CHANGE_KINDS = { status: 'status', assigned_to: 'assigned', follow_up_on: 'follow_up' } as const;

  /**
   * Sets one working column of a lead and adds the change to its timeline, the row taken: false when the lead is
   * unknown, held (it joins the inbox only by release) or changed since the page asking saw it (`unless`).
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
      for (const row of entries) if (!audit.some((entry) => entry.seq === n(row.seq))) audit.push(auditEntry(row));
    }
    return { leads, audit: audit.sort((a, b) => a.seq - b.seq) };
  }

  return guarded<InboxStore>(
    {
      ...list,
      personMatches,
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

      personData,
      ...staffActivityQueries(db, dialect),
      close,
    },
    dialect,
  );
}
