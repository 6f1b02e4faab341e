/**
 * Timely, measured, on both stores (SQLite and PostgreSQL, through src/server/store/database.ts):
 * the first answer recorded by the store whatever path sets Answered (a lead page's status, the
 * list's selection, a held lead worked after spam) and never moved by a later one; a held lead's
 * wait counting from its release; follow-up dates set, cleared, refused when not a day, kept in
 * the timeline; the Mine tab (mine that need work, and mine with a follow-up date); the week's
 * waits; the morning digest's claims; and a database from before (schema version 13) migrated,
 * its first answers taken from the timeline and its releases from the audit log.
 *
 * Without PostgreSQL (tests/postgres-setup.ts says why), its half is skipped, never passed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, describe, expect, inject, test } from 'vitest';
import pg from 'pg';
import { openStores, type Stores } from '../../src/server/store/database';
import { migrateDatabase } from '../../src/server/store/migrate';
import { bulkAction, leadAction, listLeads } from '../../src/server/inbox/actions';
import { filterFromQuery } from '../../src/server/inbox/inbox-filter';
import { LEGACY } from '../fixtures/legacy-schema';
import { freshDatabase } from '../helpers/postgres';
import { contactBody, partnerBody, tempDir } from '../helpers/server';

const postgresUrl = inject('postgresUrl');
const unavailable = inject('postgresUnavailable');
const dirs: string[] = [];
const opened: Stores[] = [];
afterEach(async () => {
  for (const stores of opened.splice(0)) await stores.close();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const HUDA = { email: 'huda@globaq.example', csrf: 'csrf-huda' };
const OMAR = 'omar@globaq.example';
const T0 = new Date('2026-11-23T06:00:00.000Z'); // Monday 09:00 in Riyadh
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const CONFIG = { notifications: undefined, siteUrl: 'https://globaq.example' } as const;
const form = (values: Record<string, string | string[]>) => {
  const data = new FormData();
  data.set('csrf', HUDA.csrf);
  for (const [name, value] of Object.entries(values))
    for (const one of Array.isArray(value) ? value : [value]) data.append(name, one);
  return data;
};

const OLD = {
  answered: '11111111-2222-4333-8444-555555555555',
  released: '22222222-3333-4444-8555-666666666666',
  untouched: '33333333-4444-4555-8666-777777777777',
};
/** Rows as schema version 13 held them: a lead answered (then closed), a held lead released, one untouched. */
const OLD_ROWS = [
  `INSERT INTO staff (email, password_hash, created_at, password_changed_at) VALUES ('${HUDA.email}', 'x', '2026-10-01T08:00:00.000Z', '2026-10-01T08:00:00.000Z')`,
  ...Object.values(OLD).map(
    (id) =>
      `INSERT INTO submissions (id, form, received_at, fields) VALUES ('${id}', 'contact', '2026-10-01T08:00:00.000Z', '${JSON.stringify(contactBody())}')`,
  ),
  `UPDATE submissions SET status = 'closed' WHERE id = '${OLD.answered}'`,
  `INSERT INTO lead_events (lead_id, at, actor, kind, detail) VALUES ('${OLD.answered}', '2026-10-02T09:00:00.000Z', '${HUDA.email}', 'status', 'answered')`,
  `INSERT INTO lead_events (lead_id, at, actor, kind, detail) VALUES ('${OLD.answered}', '2026-10-03T09:00:00.000Z', '${HUDA.email}', 'status', 'answered')`,
  `INSERT INTO audit_log (at, actor, action, lead_id, detail) VALUES ('2026-10-01T10:00:00.000Z', '${HUDA.email}', 'released held lead', '${OLD.released}', '')`,
];

const KINDS = [
  {
    kind: 'SQLite',
    skip: '',
    open: async () => {
      const dir = tempDir('timely-store-');
      dirs.push(dir);
      return openStores({ dbPath: path.join(dir, 'submissions.db'), databaseUrl: undefined, poolMax: 1 });
    },
    fromVersion13: async () => {
      const dir = tempDir('timely-store-');
      dirs.push(dir);
      const file = path.join(dir, 'submissions.db');
      const db = new DatabaseSync(file);
      LEGACY.sqlite(db, 13);
      for (const statement of OLD_ROWS) db.exec(statement);
      db.close();
      await migrateDatabase({ dbPath: file, databaseUrl: undefined });
      return openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 });
    },
  },
  {
    kind: 'PostgreSQL',
    skip: unavailable,
    open: async () => openStores({ dbPath: '', databaseUrl: await freshDatabase(postgresUrl), poolMax: 3 }),
    fromVersion13: async () => {
      const url = await freshDatabase(postgresUrl);
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        await LEGACY.postgres(pool, 13);
        for (const statement of OLD_ROWS) await pool.query(statement);
      } finally {
        await pool.end();
      }
      await migrateDatabase({ dbPath: '', databaseUrl: url });
      return openStores({ dbPath: '', databaseUrl: url, poolMax: 2 });
    },
  },
] as const;

for (const { kind, skip, open, fromVersion13 } of KINDS) {
  describe.skipIf(skip !== '')(`${kind}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    async function stores(opening?: Promise<Stores>): Promise<Stores> {
      const s = await (opening ?? open());
      opened.push(s);
      await s.ready;
      await s.staff.add(HUDA.email, 'scrypt$1', T0).catch(() => undefined);
      await s.staff.add(OMAR, 'scrypt$1', T0);
      return s;
    }

    test('the first answer is recorded by the store, by any path, once: the lead page, the selection, a held lead worked after spam', async () => {
      const s = await stores();
      const { submissions, inbox, held } = s;
      const a = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(0) });
      const b = await submissions.save({ form: 'partner', fields: partnerBody(), receivedAt: at(0) });
      const c = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(0), held: 'noProof' });
      expect((await inbox.lead(a.id))?.firstAnsweredAt).toBeUndefined();
      // The lead page's status select, then Mark answered: the first answer is the status's.
      await leadAction(s, CONFIG, HUDA, {
        id: a.id,
        form: form({ action: 'status', status: 'in_progress' }),
        list: '',
        now: at(10),
      });
      expect((await inbox.lead(a.id))?.firstAnsweredAt).toBeUndefined();
      await leadAction(s, CONFIG, HUDA, { id: a.id, form: form({ action: 'answered' }), list: '', now: at(30) });
      expect(await inbox.lead(a.id)).toMatchObject({ firstAnsweredAt: at(30).toISOString(), waitingSince: at(0).toISOString() });
      // Set back and answered again later: the first answer stays.
      await inbox.setStatus(a.id, 'in_progress', HUDA.email, at(40));
      await inbox.setStatus(a.id, 'answered', OMAR, at(50));
      expect((await inbox.lead(a.id))?.firstAnsweredAt).toBe(at(30).toISOString());
      // The list's selection.
      await bulkAction(s, CONFIG, HUDA, form({ action: 'status-confirmed', status: 'answered', id: [b.id] }), at(60));
      expect((await inbox.lead(b.id))?.firstAnsweredAt).toBe(at(60).toISOString());
      // A held lead cannot be answered; marked spam and then answered, its wait starts when it joined the inbox.
      expect(await inbox.setStatus(c.id, 'answered', HUDA.email, at(70))).toBe(false);
      expect((await inbox.lead(c.id))?.firstAnsweredAt).toBeUndefined();
      await held.markSpam(c.id, HUDA.email, at(80));
      await inbox.setStatus(c.id, 'answered', HUDA.email, at(90));
      expect(await inbox.lead(c.id)).toMatchObject({
        firstAnsweredAt: at(90).toISOString(),
        waitingSince: at(90).toISOString(),
      });
    });

    test("a held lead's wait counts from its release; the week's waits leave out held leads and spam", async () => {
      const { submissions, inbox, held } = await stores();
      const kept = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(0), held: 'noProof' });
      const spam = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(0) });
      const old = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(-60 * 24 * 10) });
      await inbox.setStatus(spam.id, 'spam', HUDA.email, at(1));
      expect(await inbox.firstAnswers(at(-60))).toEqual([]);
      expect(await held.release(kept.id, HUDA.email, at(120), undefined)).toBe(true);
      expect(await inbox.lead(kept.id)).toMatchObject({ receivedAt: at(0).toISOString(), waitingSince: at(120).toISOString() });
      await inbox.setStatus(kept.id, 'answered', HUDA.email, at(180));
      expect(await inbox.firstAnswers(at(-60))).toEqual([
        { waitingSince: at(120).toISOString(), firstAnsweredAt: at(180).toISOString() },
      ]);
      // Without a start: every inbox lead, the old one too.
      expect((await inbox.firstAnswers()).map((wait) => wait.waitingSince).sort()).toEqual(
        [old.receivedAt, at(120).toISOString()].sort(),
      );
    });

    test('follow-up dates: set, changed, cleared, each once in the timeline and the audit log; not a day, or a held lead, is refused', async () => {
      const s = await stores();
      const { submissions, inbox } = s;
      const lead = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(0) });
      const post = (values: Record<string, string>, minutes: number) =>
        leadAction(s, CONFIG, HUDA, { id: lead.id, form: form(values), list: 'mine=1', now: at(minutes) });
      expect(await post({ action: 'follow-up', followUp: '2026-11-29' }, 1)).toEqual({
        redirect: `/admin/leads/${lead.id}?mine=1&done=follow-up`,
      });
      expect((await inbox.lead(lead.id))?.followUpOn).toBe('2026-11-29');
      // The same day again adds nothing.
      await post({ action: 'follow-up', followUp: '2026-11-29' }, 2);
      expect(await post({ action: 'follow-up', followUp: '2026-02-30' }, 3)).toEqual({
        refused: 'admin.followUp.invalid',
        status: 400,
      });
      expect(await post({ action: 'follow-up', followUp: "2026-12-01'; --" }, 3)).toMatchObject({ status: 400 });
      expect(await inbox.setFollowUp(lead.id, '29/11/2026', HUDA.email, at(3))).toBe(false);
      await post({ action: 'follow-up', followUp: '2026-12-01' }, 4);
      await post({ action: 'follow-up-clear' }, 5);
      expect((await inbox.lead(lead.id))?.followUpOn).toBeUndefined();
      expect(
        (await inbox.timeline(lead.id)).filter((event) => event.kind === 'follow_up').map((event) => [event.detail, event.actor]),
      ).toEqual([
        ['', HUDA.email],
        ['2026-12-01', HUDA.email],
        ['2026-11-29', HUDA.email],
      ]);
      const audit = (await inbox.auditLog({ limit: 10 })).entries.filter((entry) => entry.action.includes('follow-up'));
      expect(audit.map((entry) => [entry.action, entry.detail, entry.leadId])).toEqual([
        ['cleared follow-up', '', lead.id],
        ['set follow-up', '2026-12-01', lead.id],
        ['set follow-up', '2026-11-29', lead.id],
        ['set follow-up', '2026-11-29', lead.id],
      ]);
      const heldLead = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(0), held: 'noProof' });
      expect(await inbox.setFollowUp(heldLead.id, '2026-11-29', HUDA.email, at(6))).toBe(false);
    });

    test("Mine: my leads not done (answered ones too), and mine with a follow-up date (a closed one too), never spam or another's", async () => {
      const { submissions, inbox } = await stores();
      const save = (minutes: number) => submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(minutes) });
      const fresh = await save(0);
      const answeredFollowUp = await save(1);
      const answered = await save(2);
      const closedFollowUp = await save(3);
      const spamFollowUp = await save(4);
      const omars = await save(5);
      for (const lead of [fresh, answeredFollowUp, answered, closedFollowUp, spamFollowUp])
        await inbox.assign(lead.id, HUDA.email, HUDA.email, at(10));
      await inbox.assign(omars.id, OMAR, HUDA.email, at(10));
      for (const [lead, status] of [
        [answeredFollowUp, 'answered'],
        [answered, 'answered'],
        [closedFollowUp, 'closed'],
        [spamFollowUp, 'spam'],
      ] as const)
        await inbox.setStatus(lead.id, status, HUDA.email, at(11));
      for (const lead of [answeredFollowUp, closedFollowUp, spamFollowUp, omars])
        await inbox.setFollowUp(lead.id, '2026-11-29', HUDA.email, at(12));
      const mine = filterFromQuery(new URLSearchParams('mine=1'), HUDA.email);
      const listed = await listLeads(inbox, HUDA.email, mine, undefined, at(20));
      expect(listed.leads.map((lead) => lead.id)).toEqual([closedFollowUp.id, answered.id, answeredFollowUp.id, fresh.id]);
      expect(listed.mine).toBe(4);
      expect(listed.week).toBe(
        'Last 7 days: 5 leads in, 2 answered within one working day; median time to first answer: 9 working minutes.',
      );
      // Everyone's default tab stays what needs work.
      const everyone = await listLeads(inbox, HUDA.email, filterFromQuery(new URLSearchParams(), HUDA.email), undefined, at(20));
      expect(everyone.leads.map((lead) => lead.id)).toEqual([omars.id, fresh.id]);
      // Follow-ups due by a day (the digest's): on or before it, not later.
      expect(await inbox.countLeads({ assignedTo: HUDA.email, followUpBy: '2026-11-28' })).toBe(0);
      expect(await inbox.countLeads({ assignedTo: HUDA.email, followUpBy: '2026-11-29', statuses: ['answered', 'closed'] })).toBe(
        2,
      );
    });

    test('a morning digest is claimed once a day per account; a failed one is given back, a sent one is not', async () => {
      const { inbox, staff } = await stores();
      expect(await inbox.claimStaffDigest('2026-11-29', HUDA.email, at(0))).toBe(true);
      expect(await inbox.claimStaffDigest('2026-11-29', HUDA.email, at(1))).toBe(false);
      expect(await inbox.claimStaffDigest('2026-11-29', OMAR, at(1))).toBe(true);
      await inbox.unclaimStaffDigest('2026-11-29', HUDA.email);
      expect(await inbox.claimStaffDigest('2026-11-29', HUDA.email, at(2))).toBe(true);
      await inbox.staffDigestSent('2026-11-29', HUDA.email, at(3));
      await inbox.unclaimStaffDigest('2026-11-29', HUDA.email);
      expect(await inbox.claimStaffDigest('2026-11-29', HUDA.email, at(4))).toBe(false);
      expect(await inbox.claimStaffDigest('2026-11-30', HUDA.email, at(5))).toBe(true);
      // A removed account's claims go with it.
      expect(await staff.remove(OMAR)).toBe(true);
    });

    test('a database from schema version 13: first answers from the timeline, releases from the audit log', async () => {
      const { inbox } = await stores(fromVersion13());
      expect(await inbox.lead(OLD.answered)).toMatchObject({
        status: 'closed',
        firstAnsweredAt: '2026-10-02T09:00:00.000Z',
        waitingSince: '2026-10-01T08:00:00.000Z',
      });
      expect(await inbox.lead(OLD.released)).toMatchObject({
        firstAnsweredAt: undefined,
        waitingSince: '2026-10-01T10:00:00.000Z',
      });
      expect(await inbox.lead(OLD.untouched)).toMatchObject({ firstAnsweredAt: undefined, followUpOn: undefined });
      // The widened timeline keeps its old entries and takes the new kind.
      expect((await inbox.timeline(OLD.answered)).map((event) => event.kind)).toEqual(['status', 'status']);
      expect(await inbox.setFollowUp(OLD.untouched, '2026-11-29', HUDA.email, at(0))).toBe(true);
      expect((await inbox.timeline(OLD.untouched))[0]).toMatchObject({ kind: 'follow_up', detail: '2026-11-29' });
    });
  });
}
