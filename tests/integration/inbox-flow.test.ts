/**
 * Working the inbox's list lead after lead, on both stores (SQLite and PostgreSQL), as the lead
 * page and the list's selection call the actions (src/server/inbox/actions.ts, lead-flow.ts,
 * lead-person.ts):
 * - after an action the lead page keeps Previous and Next, even once the lead has left the list
 *   (answered from "Needs work"): its former place gives the leads either side; "... and go to
 *   next" opens the next lead of the list;
 * - a change posted from a page made before a colleague's change is refused with that change (who,
 *   what, when), nothing changed, and applied when posted again as of now; of two posted at the
 *   same moment from pages that saw the same lead, exactly one applies (the store checks as it writes);
 * - the selection's status: none chosen changes nothing; a chosen one is asked first;
 * - a lead's other leads from the same e-mail (case aside) or telephone (however written).
 *
 * Without PostgreSQL (tests/postgres-setup.ts says why), its half is skipped, never passed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, inject, test } from 'vitest';
import { openStores, type Stores } from '../../src/server/store/database';
import { bulkAction, leadAction } from '../../src/server/inbox/actions';
import { leadWalk, seenOf } from '../../src/server/inbox/lead-flow';
import { PREVIEW_MAX, leadPreview, otherLeads } from '../../src/server/inbox/lead-person';
import type { ReceiverConfig } from '../../src/server/config';
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

const KINDS = [
  {
    kind: 'SQLite',
    skip: '',
    open: async () => {
      const dir = tempDir('globaq-flow-');
      dirs.push(dir);
      return openStores({ dbPath: path.join(dir, 'submissions.db'), databaseUrl: undefined, poolMax: 1 });
    },
  },
  {
    kind: 'PostgreSQL',
    skip: unavailable,
    open: async () => openStores({ dbPath: '', databaseUrl: await freshDatabase(postgresUrl), poolMax: 5 }),
  },
] as const;

const HUDA = { email: 'huda@globaq.example', csrf: 'token-of-hudas-session' };
const OMAR = { email: 'omar@globaq.example', csrf: 'token-of-omars-session' };
const CONFIG: Pick<ReceiverConfig, 'notifications' | 'siteUrl'> = {
  notifications: undefined,
  siteUrl: 'https://www.globaq.example',
};
const T0 = new Date('2026-11-25T06:30:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
/** "Needs work", searched: the list staff work through. */
const LIST = 'q=acme';

function form(staff: { csrf: string }, fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  data.set('csrf', staff.csrf);
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) data.append(name, one);
  return data;
}

for (const { kind, skip, open } of KINDS) {
  describe.skipIf(skip !== '')(`${kind}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    async function setUp() {
      const stores = await open();
      opened.push(stores);
      for (const who of [HUDA, OMAR]) await stores.staff.add(who.email, 'scrypt$x', T0);
      // Received one after the other: the list shows the newest first (dana, carim, badr, amal).
      const save = async (firstName: string, minutes: number) =>
        (
          await stores.submissions.save({
            form: 'contact',
            fields: contactBody({ firstName, company: 'Acme', email: `${firstName.toLowerCase()}@acme.example` }),
            receivedAt: at(minutes),
          })
        ).id;
      const amal = await save('Amal', 0);
      const badr = await save('Badr', 1);
      const carim = await save('Carim', 2);
      const dana = await save('Dana', 3);
      const act = (staff: typeof HUDA, id: string, fields: Record<string, string>, list = LIST, minutes = 10) =>
        leadAction(stores, CONFIG, staff, { id, form: form(staff, fields), list, now: at(minutes) });
      const seen = async (id: string) => String(seenOf(await stores.inbox.timeline(id)));
      return { stores, amal, badr, carim, dana, act, seen };
    }

    test('a lead answered from "Needs work" keeps Previous and Next; "and go to next" opens the lead that followed it', async () => {
      const { stores, amal, badr, carim, dana, act } = await setUp();
      // Answered from its page: back to it, the list kept.
      const answered = await act(HUDA, carim, { action: 'answered' });
      expect(answered).toEqual({ redirect: `/admin/leads/${carim}?q=acme&done=answered` });
      const walkOf = (redirect: string, id: string) =>
        leadWalk(stores.inbox, HUDA.email, new URL(redirect, 'http://x').searchParams, id);
      // Out of the list now, yet between the leads either side of where it was.
      expect(await walkOf((answered as { redirect: string }).redirect, carim)).toEqual({
        previous: dana,
        next: badr,
        position: 2,
        total: 3,
        left: true,
      });
      // "Mark answered and go to next": on to the next lead, the previous one named for a way back.
      expect(await act(HUDA, badr, { action: 'answered', then: 'next' })).toEqual({
        redirect: `/admin/leads/${amal}?q=acme&done=answered&prior=${badr}`,
      });
      // Saving the status and going on; the last lead of the list says so and stays.
      expect(await act(HUDA, dana, { action: 'status', status: 'in_progress', then: 'next' })).toEqual({
        redirect: `/admin/leads/${amal}?q=acme&done=status&prior=${dana}`,
      });
      expect(await act(HUDA, amal, { action: 'answered', then: 'next' })).toEqual({
        redirect: `/admin/leads/${amal}?q=acme&done=answered&end=1`,
      });
      // Deleting with "and open the next lead" goes on through the list.
      const dir = await stores.submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Ezz', company: 'Acme' }),
        receivedAt: at(4),
      });
      expect(await act(HUDA, dir.id, { action: 'delete-confirmed', then: 'next' })).toEqual({
        redirect: `/admin/leads/${dana}?q=acme&done=deleted`,
      });
      expect(await stores.inbox.lead(dir.id)).toBeUndefined();
    });

    test('ordered by status, a lead that has left the list keeps the place its former status gave it', async () => {
      const { stores, amal, badr, carim, dana, act } = await setUp();
      await act(OMAR, badr, { action: 'status', status: 'in_progress' });
      await act(OMAR, carim, { action: 'status', status: 'in_progress' });
      const list = 'q=acme&sort=status';
      // New first (dana, amal), then In progress (carim, badr); carim is answered from there.
      expect(await act(HUDA, carim, { action: 'answered' }, list)).toEqual({
        redirect: `/admin/leads/${carim}?q=acme&sort=status&done=answered&was=in_progress`,
      });
      const walk = (query: string) => leadWalk(stores.inbox, HUDA.email, new URLSearchParams(query), carim);
      expect(await walk(`${list}&was=in_progress`)).toEqual({ previous: amal, next: badr, position: 3, total: 3, left: true });
      // Without its former status it would rank as Answered: after the list's end.
      expect(await walk(list)).toMatchObject({ previous: badr, next: undefined, left: true });
      expect(await act(HUDA, badr, { action: 'answered', then: 'next' }, list)).toEqual({
        redirect: `/admin/leads/${badr}?q=acme&sort=status&done=answered&was=in_progress&end=1`,
      });
      expect(await act(HUDA, dana, { action: 'status', status: 'closed', then: 'next' }, list)).toEqual({
        redirect: `/admin/leads/${amal}?q=acme&sort=status&done=status&prior=${dana}`,
      });
    });

    test('a change from a page made before a colleague changed the lead is refused with who, what and when; applied anyway when asked', async () => {
      const { stores, badr, act, seen } = await setUp();
      // Huda opens the lead; Omar, on his own page, marks it answered.
      const hudaSaw = await seen(badr);
      expect(await act(OMAR, badr, { action: 'answered', seen: await seen(badr) }, LIST, 5)).toMatchObject({
        redirect: expect.any(String),
      });
      // Huda's older page sets it to In progress: refused, nothing changed, Omar's change named.
      const refused = await act(HUDA, badr, { action: 'status', status: 'in_progress', seen: hudaSaw });
      expect(refused).toMatchObject({
        status: 409,
        stale: {
          changes: [{ kind: 'status', detail: 'answered', actor: OMAR.email, at: at(5).toISOString() }],
          posted: [
            ['action', 'status'],
            ['status', 'in_progress'],
          ],
        },
      });
      expect((await stores.inbox.lead(badr))?.status).toBe('answered');
      expect((await stores.inbox.auditLog({ limit: 10 })).entries.map((entry) => entry.actor)).toEqual([OMAR.email]);
      // What her page would do anyway (already so) is not refused; a note is never refused (it overwrites nothing).
      expect(await act(HUDA, badr, { action: 'answered', seen: hudaSaw })).toMatchObject({ redirect: expect.any(String) });
      expect(await act(HUDA, badr, { action: 'note', note: 'Called', seen: hudaSaw })).toMatchObject({
        redirect: expect.any(String),
      });
      // "Apply my change anyway": the same post, as of the timeline now.
      const { seen: now } = (refused as { stale: { seen: number } }).stale;
      expect(await act(HUDA, badr, { action: 'status', status: 'in_progress', seen: String(now) })).toMatchObject({
        redirect: expect.any(String),
      });
      expect((await stores.inbox.lead(badr))?.status).toBe('in_progress');
      // An assignment from a stale page, and a deletion after a note: refused the same way.
      await act(OMAR, badr, { action: 'assign', assignee: OMAR.email, seen: await seen(badr) }, LIST, 20);
      expect(await act(HUDA, badr, { action: 'assign', assignee: HUDA.email, seen: String(now) })).toMatchObject({
        status: 409,
        stale: { changes: [{ kind: 'assigned', detail: OMAR.email, actor: OMAR.email }] },
      });
      expect(await act(HUDA, badr, { action: 'delete-confirmed', seen: String(now) })).toMatchObject({ status: 409 });
      expect(await stores.inbox.lead(badr)).toMatchObject({ assignedTo: OMAR.email });
      // A form that says nothing of what it saw (not a lead page's) is not checked.
      expect(await act(HUDA, badr, { action: 'status', status: 'closed' })).toMatchObject({ redirect: expect.any(String) });
    });

    test('two changes posted at the same moment from pages that saw the same lead: exactly one applies, the other is refused naming it', async () => {
      const { stores, amal, badr, carim, dana, act, seen } = await setUp();
      const refusedOrDone = (outcome: unknown) => ('redirect' in (outcome as object) ? 'done' : 'refused');
      for (const id of [amal, badr, carim, dana]) {
        // Huda and Omar, on pages made at the same moment, press at once: a status each...
        const saw = await seen(id);
        const statuses = await Promise.all([
          act(HUDA, id, { action: 'status', status: 'in_progress', seen: saw }),
          act(OMAR, id, { action: 'status', status: 'closed', seen: saw }),
        ]);
        expect(statuses.map(refusedOrDone).sort()).toEqual(['done', 'refused']);
        const won =
          refusedOrDone(statuses[0]) === 'done' ? { who: HUDA, status: 'in_progress' } : { who: OMAR, status: 'closed' };
        expect(statuses.find((outcome) => refusedOrDone(outcome) === 'refused')).toMatchObject({
          status: 409,
          stale: { changes: [{ kind: 'status', detail: won.status, actor: won.who.email }] },
        });
        expect((await stores.inbox.lead(id))?.status).toBe(won.status);
        expect((await stores.inbox.timeline(id)).filter((event) => event.kind === 'status')).toHaveLength(1);
        // ... then each assigns the lead to themself, from pages made after that.
        const now = await seen(id);
        const assigned = await Promise.all([
          act(HUDA, id, { action: 'assign', assignee: HUDA.email, seen: now }),
          act(OMAR, id, { action: 'assign', assignee: OMAR.email, seen: now }),
        ]);
        expect(assigned.map(refusedOrDone).sort()).toEqual(['done', 'refused']);
        const to = refusedOrDone(assigned[0]) === 'done' ? HUDA.email : OMAR.email;
        expect(assigned.find((outcome) => refusedOrDone(outcome) === 'refused')).toMatchObject({
          status: 409,
          stale: { changes: [{ kind: 'assigned', detail: to, actor: to }] },
        });
        expect((await stores.inbox.lead(id))?.assignedTo).toBe(to);
      }
      // Each lead: one status and one assignment recorded, the refused ones never.
      const actions = (await stores.inbox.auditLog({ limit: 50 })).entries.map((entry) => entry.action);
      expect(actions.filter((what) => what === 'set status')).toHaveLength(4);
      expect(actions.filter((what) => what === 'assigned lead')).toHaveLength(4);
    });

    test('the store checks what the page saw as it writes: a status, an assignment or an erasure after a newer change writes nothing', async () => {
      const { stores, badr, seen } = await setUp();
      const before = Number(await seen(badr));
      await stores.inbox.setStatus(badr, 'answered', OMAR.email, at(5));
      await stores.inbox.addNote(badr, 'Called back', OMAR.email, at(6));
      // A page made before Omar's change: nothing is written, whichever store.
      expect(await stores.inbox.setStatus(badr, 'in_progress', HUDA.email, at(7), { seen: before, kinds: ['status'] })).toBe(
        false,
      );
      expect(
        await stores.inbox.assign(badr, HUDA.email, HUDA.email, at(7), { seen: before + 1, kinds: ['assigned', 'note'] }),
      ).toBe(false);
      expect(await stores.submissions.delete(badr, { seen: before, kinds: ['status', 'assigned', 'note'] })).toBeUndefined();
      expect(await stores.inbox.lead(badr)).toMatchObject({ status: 'answered', assignedTo: undefined });
      // As of the timeline now, each applies.
      const now = Number(await seen(badr));
      expect(await stores.inbox.setStatus(badr, 'in_progress', HUDA.email, at(8), { seen: now, kinds: ['status'] })).toBe(true);
      expect(await stores.inbox.lead(badr)).toMatchObject({ status: 'in_progress' });
      expect(await stores.submissions.delete(badr, { seen: now + 1, kinds: ['status', 'assigned', 'note'] })).toBeDefined();
      expect(await stores.inbox.lead(badr)).toBeUndefined();
    });

    test("the selection's status: none chosen changes nothing and says so; a chosen one is asked first, naming the count", async () => {
      const { stores, amal, badr, carim, dana } = await setUp();
      const bulk = (fields: Record<string, string | string[]>) =>
        bulkAction(stores, CONFIG, HUDA, form(HUDA, { list: LIST, ...fields }), at(10));
      const ids = [amal, badr, carim, dana];
      const statuses = async () => Promise.all(ids.map(async (id) => (await stores.inbox.lead(id))?.status));
      await bulk({ action: 'status-confirmed', status: 'answered', id: [amal] });
      expect(await bulk({ action: 'status', status: '', id: ids })).toEqual({ refused: 'admin.bulk.chooseStatus', status: 400 });
      expect(await bulk({ action: 'status-confirmed', id: ids })).toEqual({ refused: 'admin.bulk.chooseStatus', status: 400 });
      expect(await statuses()).toEqual(['answered', 'new', 'new', 'new']);
      expect(await bulk({ action: 'status', status: 'new', id: ids })).toMatchObject({
        status: 'new',
        missing: 0,
        confirm: ids.map((id) => expect.objectContaining({ id })),
      });
      expect(await statuses()).toEqual(['answered', 'new', 'new', 'new']);
      expect(await bulk({ action: 'status-confirmed', status: 'closed', id: ids })).toEqual({
        redirect: '/admin?q=acme&done=status&set=closed&n=4&missing=0',
      });
      expect(await statuses()).toEqual(['closed', 'closed', 'closed', 'closed']);
    });

    test("a lead's other leads: the same e-mail whatever its case, the same full international phone marked, held ones marked", async () => {
      const { stores, amal } = await setUp();
      const save = async (fields: Record<string, unknown>, held = false) =>
        (
          await stores.submissions.save({
            form: 'partner',
            fields: partnerBody(fields),
            ...(held ? { held: 'noProof' as const } : {}),
          })
        ).id;
      const shouting = await stores.submissions.save({
        form: 'contact',
        fields: contactBody({ email: ' AMAL@Acme.Example ' }),
      });
      const phone = await save({ email: 'p1@other.example', phoneNumber: '+966 50 444 3322' });
      await save({ email: 'p2@other.example', phoneNumber: '050 444 3322' });
      const zeros = await save({ email: 'p3@other.example', phoneNumber: '00966504443322' });
      const arabic = await save({ email: 'p4@other.example', phoneNumber: '+٩٦٦٥٠٤٤٤٣٣٢٢' }, true);
      await save({ email: 'p5@other.example', phoneNumber: '+971 50 444 3322' });
      const attacker = await save({ email: 'attacker@evil.example', phoneNumber: '444 3322' });
      await save({ email: 'someone@else.example', phoneNumber: '+966 55 000 1111' });
      const lead = (await stores.inbox.lead(amal))!;
      expect((await otherLeads(stores.inbox, lead)).map((other) => other.lead.id)).toEqual([shouting.id]);
      const byPhone = await otherLeads(stores.inbox, (await stores.inbox.lead(phone))!);
      expect(byPhone.map((other) => [other.lead.id, other.phone]).sort()).toEqual(
        [zeros, arabic].sort().map((id) => [id, '+966504443322']),
      );
      expect(byPhone.find((other) => other.lead.id === arabic)?.lead.review).toBe('held');
      // A number without its country code could be anyone's: it finds nobody, and nobody finds it.
      expect(await otherLeads(stores.inbox, (await stores.inbox.lead(attacker))!)).toEqual([]);
    });
  });
}

test("the list's preview: the start of the message on one line, cut at a word, script kept as text", () => {
  const message = `<script>alert(1)</script>\n\nWe need   a Schedule Q assessment ${'for our new site '.repeat(10)}`;
  const preview = leadPreview({ form: 'contact', fields: contactBody({ message }) });
  expect(preview.startsWith('<script>alert(1)</script> We need a Schedule Q assessment for')).toBe(true);
  expect(preview.length).toBeLessThanOrEqual(PREVIEW_MAX + 1);
  expect(preview.endsWith('…')).toBe(true);
  expect(preview).not.toMatch(/\s…$/);
  expect(leadPreview({ form: 'partner', fields: partnerBody({ interestReason: 'Train auditors in Dammam' }) })).toBe(
    'Train auditors in Dammam',
  );
  expect(leadPreview({ form: 'partner', fields: partnerBody({ interestReason: '', servicesTypes: [] }) })).toBe(
    'Eastern Quality Training',
  );
});
