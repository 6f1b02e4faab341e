/**
 * A person's data, on both stores (SQLite and PostgreSQL): staff look a person up by e-mail and
 * get every lead with it (held ones too) with its status, timeline and file list, and the audit
 * entries naming those leads; a lead sharing only the full international telephone number is
 * offered, marked with it, and added only when ticked; never another person's.
 *
 * Without PostgreSQL (tests/postgres-setup.ts says why), its half is skipped, never passed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, inject, test } from 'vitest';
import { openStores, type Stores } from '../../src/server/store/database';
import { phoneE164 } from '../../src/server/inbox/lead-person';
import { personHtml } from '../../src/server/inbox/person-file';
import { ar } from '../../src/i18n/ar';
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

const KINDS: { kind: string; skip: string; open: () => Promise<Stores> }[] = [
  {
    kind: 'SQLite',
    skip: '',
    open: async () => {
      const dir = tempDir('globaq-person-');
      dirs.push(dir);
      return openStores({ dbPath: path.join(dir, 'submissions.db'), databaseUrl: undefined, poolMax: 1 });
    },
  },
  {
    kind: 'PostgreSQL',
    skip: unavailable,
    open: async () => openStores({ dbPath: '', databaseUrl: await freshDatabase(postgresUrl), poolMax: 5 }),
  },
];

const at = (minute: number) => new Date(Date.UTC(2026, 10, 20, 8, minute));

test('a telephone number is one person’s by every digit with its country code; without one it is nobody’s', () => {
  for (const typed of ['+966 50 123 4567', '00966501234567', '+966 (50) 123-4567', '+٩٦٦٥٠١٢٣٤٥٦٧'])
    expect(phoneE164(typed), typed).toBe('+966501234567');
  for (const typed of ['0501234567', '050-123-4567', '٠٥٠١٢٣٤٥٦٧', '123 4567', '4567', '+966', ''])
    expect(phoneE164(typed), typed).toBe('');
});

for (const { kind, skip, open } of KINDS) {
  describe.skipIf(skip !== '')(`${kind}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    async function seeded() {
      const stores = await open();
      opened.push(stores);
      const { submissions, inbox } = stores;
      const first = await submissions.save({
        form: 'partner',
        fields: partnerBody({ email: 'Aisha@Example.com', phoneNumber: '+966 50 123 4567' }),
        language: 'ar',
        receivedAt: at(1),
        attachments: [{ name: 'profile.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1 profile') }],
      });
      const second = await submissions.save({
        form: 'contact',
        fields: contactBody({ email: 'other@example.com', phone: '00966501234567', firstName: 'Aisha' }),
        language: 'en',
        receivedAt: at(2),
      });
      const held = await submissions.save({
        form: 'contact',
        fields: contactBody({ email: 'aisha@example.com ' }),
        receivedAt: at(3),
        held: 'tooFast',
      });
      const stranger = await submissions.save({
        form: 'partner',
        fields: partnerBody({ email: 'someone@example.com', phoneNumber: '+966 55 999 0000' }),
        receivedAt: at(4),
      });
      // The attacker's: their own e-mail, and the last seven digits of Aisha's phone.
      const attacker = await submissions.save({
        form: 'partner',
        fields: partnerBody({ email: 'attacker@evil.example', phoneNumber: '123 4567' }),
        receivedAt: at(4),
      });
      await inbox.setStatus(first.id, 'in_progress', 'huda@globaq.example', at(5));
      await inbox.addNote(first.id, 'Called, <b>asked</b> for the price list', 'huda@globaq.example', at(6));
      await inbox.audit('huda@globaq.example', 'opened lead', first.id, '', at(7));
      await inbox.audit('huda@globaq.example', 'bulk status', undefined, `closed: ${second.id}`, at(8));
      await inbox.audit('huda@globaq.example', 'opened lead', stranger.id, '', at(9));
      return { inbox, first, second, held, stranger, attacker };
    }

    test('an e-mail finds every lead with it, case aside, held ones too, with status, timeline, files and audit', async () => {
      const { inbox, first, held, stranger } = await seeded();
      const data = await inbox.personData({ email: '  AISHA@example.COM ' });
      expect(data.leads.map((entry) => entry.lead.id)).toEqual([first.id, held.id]);
      const [lead] = data.leads;
      expect(lead!.lead.status).toBe('in_progress');
      expect(lead!.lead.language).toBe('ar');
      expect(lead!.lead.fields['organization']).toBe('Eastern Quality Training');
      expect(lead!.files.map(({ name, type, size }) => ({ name, type, size }))).toEqual([
        { name: 'profile.pdf', type: 'application/pdf', size: 14 },
      ]);
      expect(lead!.timeline.map((event) => [event.kind, event.detail])).toEqual([
        ['status', 'in_progress'],
        ['note', 'Called, <b>asked</b> for the price list'],
      ]);
      expect(data.leads[1]!.lead.review).toBe('held');
      expect(data.audit.map((entry) => [entry.action, entry.leadId])).toEqual([['opened lead', first.id]]);
      expect(data.audit.some((entry) => entry.leadId === stranger.id)).toBe(false);
      // The Arabic lead's page: in Arabic, the timeline in staff's words, the note's text escaped.
      const html = personHtml({ leads: [lead!], audit: data.audit }, at(10));
      expect(html).toContain('<html lang="ar" dir="rtl">');
      expect(html).toContain(ar['admin.lead.event.status'].replace('{status}', ar['admin.status.in_progress']));
      expect(html).toContain(`${ar['admin.lead.event.note']}: <bdi>Called, &lt;b&gt;asked&lt;/b&gt; for the price list</bdi>`);
      expect(html).not.toContain('in_progress');
    });

    test('a lead sharing only the full phone is offered, marked with it, and in the file only when ticked', async () => {
      const { inbox, first, second, held, stranger } = await seeded();
      const matches = await inbox.personMatches({ email: 'aisha@example.com' });
      expect(matches.map((match) => [match.lead.id, match.phone])).toEqual([
        [first.id, undefined],
        [second.id, '+966501234567'],
        [held.id, undefined],
      ]);
      const ids = async (lookup: Parameters<typeof inbox.personData>[0]) =>
        (await inbox.personData(lookup)).leads.map((entry) => entry.lead.id);
      expect(await ids({ email: 'aisha@example.com' })).toEqual([first.id, held.id]);
      // A ticked id that no lookup offered (a stranger's) is not added.
      expect(await ids({ email: 'aisha@example.com', ticked: [second.id, stranger.id] })).toEqual([first.id, second.id, held.id]);
      for (const phone of ['00966501234567', '+٩٦٦٥٠١٢٣٤٥٦٧', '+966 (50) 123-4567']) {
        expect(await ids({ phone }), phone).toEqual([]);
        const data = await inbox.personData({ phone, ticked: [second.id] });
        expect(data.leads.map((entry) => entry.lead.id)).toEqual([second.id]);
        // The audit entry naming the second lead in its detail only is found too.
        expect(data.audit.map((entry) => entry.action)).toEqual(['bulk status']);
      }
    });

    test("an attacker's lead with the last digits of someone's phone finds only itself", async () => {
      const { inbox, attacker } = await seeded();
      for (const lookup of [{ email: 'attacker@evil.example' }, { email: 'attacker@evil.example', phone: '123 4567' }]) {
        expect((await inbox.personMatches(lookup)).map((match) => match.lead.id)).toEqual([attacker.id]);
        expect((await inbox.personData(lookup)).leads.map((entry) => entry.lead.id)).toEqual([attacker.id]);
      }
    });

    test('nothing, a number without its country code, another number or a stranger finds none of them', async () => {
      const { inbox } = await seeded();
      for (const lookup of [
        {},
        { email: ' ' },
        { phone: '4567' },
        { phone: '0501234567' },
        { email: 'nobody@example.com' },
        { email: '%' },
        { phone: '+966 50 000 0000' },
      ])
        expect(await inbox.personData(lookup), JSON.stringify(lookup)).toEqual({ leads: [], audit: [] });
    });
  });
}
