/**
 * The inbox's actions (src/server/inbox/actions.ts) against both stores, SQLite and PostgreSQL,
 * as the pages call them: each post changes the store and writes its audit entry together, and
 * answers where to go or why not. And what an attacker may post: a form without the session's
 * token or with another's, a forged or unknown lead id, an unknown action, too large a selection;
 * each refused with nothing changed and nothing recorded. (The inbox has no roles: every staff
 * member may do every action.)
 *
 * Without PostgreSQL (tests/postgres-setup.ts says why), its half is skipped, never passed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, inject, test } from 'vitest';
import { openStores, type Stores } from '../../src/server/store/database';
import { MAX_SELECTED, bulkAction, leadAction, listLeads, searchLeads, twoStepSetUp } from '../../src/server/inbox/actions';
import { totpCode } from '../helpers/totp';
import type { NotificationConfig, ReceiverConfig } from '../../src/server/config';
import { filterFromQuery } from '../../src/server/inbox/inbox-filter';
import { composeLeadNotice } from '../../src/server/mail/lead-mail';
import { freshDatabase } from '../helpers/postgres';
import { contactBody, tempDir } from '../helpers/server';

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
      const dir = tempDir('globaq-actions-');
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
const OMAR = 'omar@globaq.example';
/** Notifications on (nothing sends them here): a release queues the lead's one e-mail. */
const CONFIG: Pick<ReceiverConfig, 'notifications' | 'siteUrl'> = {
  notifications: {
    smtpUrl: 'smtp://127.0.0.1:9',
    requireTls: false,
    to: ['leads@globaq.example'],
    from: 'site@globaq.example',
    retrySeconds: 60,
    giveUpDays: 3,
  } satisfies NotificationConfig,
  siteUrl: 'https://www.globaq.example',
};
const KEY = Buffer.alloc(32, 7);
const NOW = new Date('2026-11-25T06:30:00Z');
const LIST = 'status=all&q=acme';
const FORGED = '99999999-9999-4999-8999-999999999999';

/** A form as the guard hands it on: the session's token unless told otherwise. */
function form(fields: Record<string, string | string[]>, csrf: string | null = HUDA.csrf): FormData {
  const data = new FormData();
  if (csrf !== null) data.set('csrf', csrf);
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) data.append(name, one);
  return data;
}

for (const { kind, skip, open } of KINDS) {
  describe.skipIf(skip !== '')(`${kind}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    async function setUp() {
      const stores = await open();
      opened.push(stores);
      await stores.staff.add(HUDA.email, 'scrypt$x', NOW);
      await stores.staff.add(OMAR, 'scrypt$x', NOW);
      const lead = await stores.submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Layla', email: 'layla@acme.example' }),
        notice: (saved) => composeLeadNotice(saved, {}),
      });
      const held = await stores.submissions.save({ form: 'contact', fields: contactBody(), held: 'noProof' });
      const audit = async () => (await stores.inbox.auditLog({ limit: 100 })).entries.map((e) => [e.action, e.leadId, e.detail]);
      const act = (id: string, fields: Record<string, string>, csrf?: string | null) =>
        leadAction(stores, CONFIG, HUDA, { id, form: form(fields, csrf), list: LIST, now: NOW });
      return { stores, lead: lead.id, held: held.id, audit, act };
    }

    test('status, answered, assign, note and its correction: each changes the lead, is audited, and returns to it with the list kept', async () => {
      const { stores, lead, audit, act } = await setUp();
      expect(await act(lead, { action: 'status', status: 'in_progress' })).toEqual({
        redirect: `/admin/leads/${lead}?status=all&q=acme&done=status`,
      });
      expect((await stores.inbox.lead(lead))?.status).toBe('in_progress');
      expect(await act(lead, { action: 'answered' })).toEqual({
        redirect: `/admin/leads/${lead}?status=all&q=acme&done=answered`,
      });
      expect(await act(lead, { action: 'assign', assignee: OMAR })).toEqual({
        redirect: `/admin/leads/${lead}?status=all&q=acme&done=assigned`,
      });
      expect((await stores.inbox.lead(lead))?.assignedTo).toBe(OMAR);
      expect(await act(lead, { action: 'note', note: 'Call\r\nSunday ' })).toEqual({
        redirect: `/admin/leads/${lead}?status=all&q=acme&done=note#timeline`,
      });
      const note = (await stores.inbox.timeline(lead)).find((event) => event.kind === 'note')!;
      expect(note.detail).toBe('Call\nSunday');
      await act(lead, { action: 'note', note: 'Call Monday', corrects: String(note.seq) });
      expect((await stores.inbox.timeline(lead)).find((event) => event.seq === note.seq)?.correctedBy).toBeDefined();
      expect(await audit()).toEqual([
        ['corrected note', lead, expect.stringMatching(/^note \d+$/)],
        ['added note', lead, `note ${note.seq}`],
        ['assigned lead', lead, OMAR],
        ['set status', lead, 'Answered'],
        ['set status', lead, 'In progress'],
      ]);
    });

    test('reply opens the mail program, retry queues the notification again; both on the timeline and in the audit log', async () => {
      const { stores, lead, audit, act } = await setUp();
      const reply = await act(lead, { action: 'reply' });
      expect(reply).toEqual({ redirect: expect.stringMatching(/^mailto:layla@acme\.example\?subject=/) });
      expect(await act(lead, { action: 'retry' })).toEqual({ redirect: `/admin/leads/${lead}?status=all&q=acme&done=retry` });
      expect((await stores.inbox.timeline(lead)).map((event) => [event.kind, event.detail])).toEqual([
        ['notification', 'queued'],
        ['reply', ''],
      ]);
      expect(await audit()).toEqual([
        ['queued notification again', lead, ''],
        ['opened reply', lead, ''],
      ]);
    });

    test('delete asks first; confirmed, the lead is erased, audited by its id and form, and the list shown again', async () => {
      const { stores, lead, audit, act } = await setUp();
      expect(await act(lead, { action: 'delete' })).toEqual({ confirm: true });
      expect(await stores.inbox.lead(lead)).toBeDefined();
      expect(await act(lead, { action: 'delete-confirmed' })).toEqual({ redirect: '/admin?status=all&q=acme&done=deleted' });
      expect(await stores.inbox.lead(lead)).toBeUndefined();
      expect(await audit()).toEqual([['deleted lead', lead, 'Contact message']]);
    });

    test('a held lead is released or marked as spam, nothing else, until it is released; then it is a lead', async () => {
      const { stores, held, act } = await setUp();
      expect(await act(held, { action: 'status', status: 'answered' })).toEqual({ refused: 'admin.lead.heldFirst', status: 400 });
      expect(await act(held, { action: 'release' })).toEqual({
        redirect: `/admin/leads/${held}?status=all&q=acme&done=released`,
      });
      expect((await stores.inbox.lead(held))?.review).toBeUndefined();
      const other = await stores.submissions.save({ form: 'contact', fields: contactBody(), held: 'noProof' });
      expect(await act(other.id, { action: 'held-spam' })).toEqual({
        redirect: `/admin/leads/${other.id}?status=all&q=acme&done=held-spam`,
      });
      // Marked as spam, it is no longer held: it is worked as a lead (and is no longer released).
      expect(await act(other.id, { action: 'release' })).toEqual({ refused: 'admin.lead.notUnderstood', status: 400 });
    });

    test('refused, with nothing changed and nothing recorded: a wrong or missing token, a forged id, an unknown action, a bad note or assignee', async () => {
      const { stores, lead, audit, act } = await setUp();
      expect(await act(lead, { action: 'status', status: 'spam' }, 'someone-elses-token')).toEqual({
        refused: 'admin.refused.outOfDate',
        status: 403,
      });
      expect(await act(lead, { action: 'delete-confirmed' }, null)).toEqual({ refused: 'admin.refused.outOfDate', status: 403 });
      expect(await act(lead, { action: 'delete-confirmed' }, '')).toEqual({ refused: 'admin.refused.outOfDate', status: 403 });
      for (const id of [FORGED, 'not-a-uuid', `${lead}' OR 1=1`])
        expect(await act(id, { action: 'delete-confirmed' })).toEqual({ refused: 'admin.lead.notFound', status: 404 });
      expect(await act(lead, { action: 'drop-table' })).toEqual({ refused: 'admin.lead.notUnderstood', status: 400 });
      expect(await act(lead, { action: 'status', status: 'deleted' })).toEqual({
        refused: 'admin.lead.notUnderstood',
        status: 400,
      });
      expect(await act(lead, { action: 'note', note: '  ' })).toEqual({ refused: 'admin.lead.noteEmpty', status: 400 });
      expect(await act(lead, { action: 'note', note: 'x', corrects: '12abc' })).toEqual({
        refused: 'admin.lead.noteUnknown',
        status: 400,
      });
      expect(await act(lead, { action: 'note', note: 'x', corrects: '999999' })).toEqual({
        refused: 'admin.lead.noteUnknown',
        status: 400,
      });
      expect(await act(lead, { action: 'assign', assignee: 'mallory@evil.example' })).toEqual({
        refused: 'admin.lead.assignUnknown',
        status: 400,
      });
      const after = await stores.inbox.lead(lead);
      expect([after?.status, after?.assignedTo]).toEqual(['new', undefined]);
      expect(await stores.inbox.timeline(lead)).toEqual([]);
      expect(await audit()).toEqual([]);
    });

    test("the list's selection: a status for each lead found, forged ids counted and left alone, each change audited", async () => {
      const { stores, lead, audit } = await setUp();
      const second = await stores.submissions.save({ form: 'contact', fields: contactBody() });
      const bulk = (fields: Record<string, string | string[]>, csrf?: string | null) =>
        bulkAction(stores, CONFIG, HUDA, form({ list: `${LIST}&evil=1`, ...fields }, csrf), NOW);
      expect(await bulk({ action: 'spam', id: [lead, second.id, FORGED, 'nope'] })).toEqual({
        redirect: '/admin?status=all&q=acme&done=status&set=spam&n=2&missing=2',
      });
      expect((await stores.inbox.lead(second.id))?.status).toBe('spam');
      expect(await audit()).toEqual([
        ['set status', expect.any(String), 'Spam'],
        ['set status', expect.any(String), 'Spam'],
      ]);
      expect(await bulk({ action: 'delete', id: [lead, FORGED] })).toMatchObject({ confirm: [{ id: lead }], missing: 1 });
      expect(await bulk({ action: 'delete-confirmed', id: [lead, FORGED] })).toEqual({
        redirect: '/admin?status=all&q=acme&done=deleted&n=1&missing=1',
      });
      expect((await audit())[0]).toEqual(['deleted lead', lead, 'Contact message']);
      expect(await bulk({ action: 'delete', id: [FORGED] })).toEqual({
        redirect: '/admin?status=all&q=acme&done=none-found&missing=1',
      });
      expect(await bulk({ action: 'status' })).toEqual({ redirect: '/admin?status=all&q=acme&done=none-selected' });
    });

    test('the selection refused: a wrong or missing token, too many ids, an unknown action; nothing changed or recorded', async () => {
      const { stores, lead, held, audit } = await setUp();
      const bulk = (fields: Record<string, string | string[]>, csrf?: string | null) =>
        bulkAction(stores, CONFIG, HUDA, form(fields, csrf), NOW);
      expect(await bulk({ action: 'delete-confirmed', id: lead }, 'forged')).toEqual({
        refused: 'admin.refused.outOfDate',
        status: 403,
      });
      expect(await bulk({ action: 'delete-confirmed', id: lead }, null)).toEqual({
        refused: 'admin.refused.outOfDate',
        status: 403,
      });
      const many = Array.from({ length: MAX_SELECTED }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
      expect(await bulk({ action: 'delete-confirmed', id: [lead, ...many] })).toEqual({
        refused: 'admin.bulk.tooMany',
        status: 413,
      });
      expect(await bulk({ action: 'truncate', id: lead })).toEqual({ refused: 'admin.bulk.choose', status: 400 });
      expect(await stores.inbox.lead(lead)).toMatchObject({ status: 'new' });
      expect(await audit()).toEqual([]);
      // Held leads: released by the selection, a lead not held counted and left as it was.
      expect(await bulk({ action: 'release', id: [held, lead] })).toEqual({ redirect: '/admin?done=released&n=1&missing=1' });
      expect((await stores.inbox.lead(held))?.review).toBeUndefined();
    });

    test("the list records nothing; a search staff submit is audited with what was looked for; the tabs' counts are everyone's and mine", async () => {
      const { stores, lead, audit } = await setUp();
      await stores.inbox.assign(lead, HUDA.email, HUDA.email, NOW);
      const list = await listLeads(stores.inbox, HUDA.email, filterFromQuery(new URLSearchParams('q=layla'), HUDA.email));
      expect(list.leads.map((found) => found.id)).toEqual([lead]);
      // The held lead is not Layla's: the search leaves it out of every count.
      expect([list.counts.new, list.mineCounts.new, list.counts.held]).toEqual([1, 1, 0]);
      // Showing the list (a link, a reload, the redirect after an action) is not a search.
      expect(await audit()).toEqual([]);
      // A post without the session's token records nothing.
      for (const csrf of [null, 'forged'])
        expect(await searchLeads(stores.inbox, HUDA, form({ q: 'layla' }, csrf), NOW)).toEqual({
          refused: 'admin.refused.outOfDate',
          status: 403,
        });
      expect(await audit()).toEqual([]);
      expect(await searchLeads(stores.inbox, HUDA, form({ status: 'all', q: ' layla ', order: 'name:desc' }), NOW)).toEqual({
        redirect: '/admin?status=all&q=layla&sort=name&dir=desc',
      });
      // Filters without words are not a search.
      expect(await searchLeads(stores.inbox, HUDA, form({ status: 'all', form: 'contact' }), NOW)).toEqual({
        redirect: '/admin?status=all&form=contact',
      });
      expect(await audit()).toEqual([['searched leads', undefined, '1 found (filter: status=all&q=layla&sort=name&dir=desc)']]);
    });

    test('the conversation: "X is answering" for the others while under way; Customer answered on the timeline; of two sends at once one goes', async () => {
      const { stores, lead, audit, act } = await setUp();
      const omar = { email: OMAR, csrf: 'token-of-omars-session' };
      const omarActs = (fields: Record<string, string>, now = NOW) =>
        leadAction(stores, CONFIG, omar, { id: lead, form: form(fields, omar.csrf), list: LIST, now });
      const answering = async (me: string, now: Date) =>
        (await listLeads(stores.inbox, me, filterFromQuery(new URLSearchParams('status=all'), me), undefined, now)).answering;
      const seen = String(Math.max(0, ...(await stores.inbox.timeline(lead)).map((event) => event.seq)));
      expect(await omarActs({ action: 'answering' })).toEqual({ redirect: `/admin/leads/${lead}?status=all&q=acme#reply` });
      expect(await omarActs({ action: 'answering' }, new Date(NOW.getTime() + 60_000))).toHaveProperty('redirect');
      expect((await stores.inbox.timeline(lead)).filter((event) => event.detail === 'answering')).toHaveLength(1);
      expect((await answering(HUDA.email, NOW)).get(lead)).toBe(OMAR);
      expect((await answering(OMAR, NOW)).get(lead)).toBeUndefined();
      expect((await answering(HUDA.email, new Date(NOW.getTime() + 16 * 60_000))).get(lead)).toBeUndefined();
      // A forged token or id changes nothing.
      expect(await act(lead, { action: 'answering' }, 'forged')).toEqual({
        refused: 'admin.refused.outOfDate',
        status: 403,
      });
      expect(await act(FORGED, { action: 'customer-answered' })).toEqual({ refused: 'admin.lead.notFound', status: 404 });
      expect(await act(lead, { action: 'customer-answered' })).toEqual({
        redirect: `/admin/leads/${lead}?status=all&q=acme&done=customer#timeline`,
      });
      const customer = (await stores.inbox.timeline(lead)).find((event) => event.detail === 'customer');
      expect(customer).toMatchObject({ kind: 'reply', actor: HUDA.email, at: NOW.toISOString() });
      expect(await audit()).toEqual(
        expect.arrayContaining([
          ['began answer', lead, ''],
          ['customer answered', lead, ''],
        ]),
      );
      // A send from a page made before the customer's answer is refused; of two sends at the same moment from pages
      // made after it, exactly one goes.
      const fresh = String((await stores.inbox.timeline(lead))[0]!.seq);
      const send = (by: typeof omar | typeof HUDA, at: string) =>
        leadAction(stores, CONFIG, by, {
          id: lead,
          form: form({ action: 'send-reply', seen: at, subject: 'Hi', body: `From ${by.email}` }, by.csrf),
          list: LIST,
          now: NOW,
        });
      expect(await send(HUDA, seen)).toHaveProperty('stale');
      const both = await Promise.all([send(HUDA, fresh), send(omar, fresh)]);
      expect(both.filter((outcome) => 'redirect' in outcome)).toHaveLength(1);
      expect(both.filter((outcome) => 'stale' in outcome)).toHaveLength(1);
      expect((await stores.outbox.forLead(lead)).filter((mail) => mail.kind === 'reply')).toHaveLength(1);
    });

    test('two-step set-up: a secret made by a post only, kept in the session, the same on a GET and after a wrong code; the right code enrols the account, audited once', async () => {
      const { stores, audit } = await setUp();
      const { token } = await stores.inbox.createSession(HUDA.email, NOW);
      const session = async () => (await stores.inbox.session(token, NOW))!;
      // Opening the page makes nothing; a post without the session's token starts nothing either.
      expect(await twoStepSetUp(stores, KEY, await session(), token, undefined, NOW)).toEqual({});
      expect(await twoStepSetUp(stores, KEY, await session(), token, form({ action: 'start' }, 'forged'), NOW)).toEqual({
        refused: { refused: 'admin.refused.outOfDate', status: 403 },
      });
      expect((await session()).pendingTotp).toBeUndefined();
      const shown = await twoStepSetUp(
        stores,
        KEY,
        await session(),
        token,
        form({ action: 'start' }, (await session()).csrf),
        NOW,
      );
      const secret = shown.secret;
      if (!secret) throw new Error('a secret to show');
      // Opened again (a reload, another site's link): the same secret, not a new one.
      expect(await twoStepSetUp(stores, KEY, await session(), token, undefined, NOW)).toEqual({ secret });
      const post = async (code: string, csrf?: string) =>
        twoStepSetUp(stores, KEY, await session(), token, form({ code }, csrf ?? (await session()).csrf), NOW);
      expect(await post(totpCode(secret, HUDA.email, NOW), 'forged')).toEqual({
        secret,
        refused: { refused: 'admin.refused.outOfDate', status: 403 },
      });
      const valid = [-30_000, 0, 30_000].map((ms) => totpCode(secret, HUDA.email, new Date(NOW.getTime() + ms)));
      const wrong = ['000000', '111111', '222222', '333333'].find((code) => !valid.includes(code))!;
      expect(await post(wrong)).toEqual({
        secret,
        refused: { refused: 'admin.twoStep.wrongCode', status: 401 },
      });
      expect(await stores.staff.twoStep(HUDA.email)).toMatchObject({ sealedSecret: undefined });
      expect(await audit()).toEqual([]);
      const done = await post(totpCode(secret, HUDA.email, NOW));
      expect(done).toEqual({ recoveryCodes: expect.arrayContaining([expect.any(String)]) });
      expect((await stores.staff.twoStep(HUDA.email))?.sealedSecret).toEqual(expect.any(String));
      expect((await session()).pendingTotp).toBeUndefined();
      expect(await audit()).toEqual([['two-step sign-in set up', undefined, '10 recovery codes']]);
      // Its pending secret gone, a late post of the same code finds nothing to confirm.
      expect(await post(totpCode(secret, HUDA.email, NOW))).toMatchObject({
        refused: { refused: 'admin.twoStep.expired' },
      });
    });
  });
}
