/**
 * Erasing a person reaches every search that named them, on both stores (SQLite and PostgreSQL),
 * as staff work: a partner lead is stored, staff search for it by its phone in every way people
 * type one (the digits alone, as written, in Arabic-Indic digits, with 00 for +), by its company,
 * city, name and e-mail, then delete it from its page, and the browser follows the redirect back
 * to the list it came from. Afterwards none of the person's values is left: in SQLite's file, its
 * write-ahead log and a backup taken then, byte for byte; in PostgreSQL, in the text of every row
 * of every table.
 * A search that named someone else stays as it was.
 *
 * Without PostgreSQL (tests/postgres-setup.ts says why), its half is skipped, never passed.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, inject, test } from 'vitest';
import { openStores, type Stores } from '../../src/server/store/database';
import { leadAction, listLeads, openLead, searchLeads } from '../../src/server/inbox/actions';
import { filterFromQuery } from '../../src/server/inbox/inbox-filter';
import type { ReceiverConfig } from '../../src/server/config';
import { composeLeadNotice } from '../../src/server/mail/lead-mail';
import { bareDigits, searchNamesPerson, personPhones, personTokens } from '../../src/server/inbox/lead-person';
import { backupSqlite } from '../../src/server/ops/backup';
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

/** Every byte SQLite keeps (the file, its write-ahead log, a backup of it), or the text of every PostgreSQL row. */
type Dump = () => Promise<string>;

const KINDS: { kind: string; skip: string; open: () => Promise<{ stores: Stores; dump: Dump }> }[] = [
  {
    kind: 'SQLite',
    skip: '',
    open: async () => {
      const dir = tempDir('globaq-erase-searches-');
      dirs.push(dir);
      const file = path.join(dir, 'submissions.db');
      const stores = openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 });
      // The file and its write-ahead log, and a backup taken now: what the next backup would carry.
      let backups = 0;
      const dump = async () => {
        const copy = path.join(dir, `backup-${(backups += 1)}`);
        await backupSqlite(file, copy);
        const copied = fs.readdirSync(copy, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
        return [file, `${file}-wal`, ...copied.map((entry) => path.join(entry.parentPath, entry.name))]
          .filter((name) => fs.existsSync(name))
          .map((name) => fs.readFileSync(name).toString('utf8'))
          .join('\n');
      };
      return { stores, dump };
    },
  },
  {
    kind: 'PostgreSQL',
    skip: unavailable,
    open: async () => {
      const url = await freshDatabase(postgresUrl);
      const stores = openStores({ dbPath: '', databaseUrl: url, poolMax: 5 });
      const dump = async () => {
        const pool = new pg.Pool({ connectionString: url, max: 1 });
        try {
          const tables = (
            await pool.query<{ table_name: string }>(
              "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
            )
          ).rows.map((row) => row.table_name);
          const text: string[] = [];
          for (const table of tables) {
            const { rows } = await pool.query<{ row: string }>(`SELECT t::text AS row FROM "${table}" t`);
            text.push(...rows.map((row) => row.row));
          }
          return text.join('\n');
        } finally {
          await pool.end();
        }
      };
      return { stores, dump };
    },
  },
];

const HUDA = { email: 'huda@globaq.example', csrf: 'token-of-hudas-session' };
const CONFIG: Pick<ReceiverConfig, 'notifications' | 'siteUrl'> = {
  notifications: undefined,
  siteUrl: 'https://www.globaq.example',
};

/** The person to erase: every value that identifies them is unlike anything else in the database. */
const PERSON = {
  name: 'Nawal Qurashizq',
  email: 'nawal.qz@example.net',
  phoneNumber: '+973-1700-0000',
  organization: 'Zarqapearl Trading',
  cityName: 'Muharraqxk',
  presidentName: 'Fahdqz Binwaleed',
};

/** How staff typed their searches for the person. */
const SEARCHES = [
  '17000000',
  '+973-1700-0000',
  '١٧٠٠٠٠٠٠',
  '0097317000000',
  '+973 1700 0000',
  'Zarqapearl',
  'Zarqapearl Trading',
  'muharraqxk',
  'Nawal',
  'Qurashizq',
  'nawal.qz@example.net',
];

/** Each value as it may be written down: as typed, lower case, and as an address writes it. */
function writings(value: string): string[] {
  return [value, value.toLowerCase(), new URLSearchParams({ q: value }).toString().slice(2), encodeURIComponent(value)];
}

const NEEDLES = [
  ...new Set(
    [
      ...Object.values(PERSON),
      ...SEARCHES,
      'Qurashizq',
      'Zarqapearl',
      'Binwaleed',
      '97317000000',
      '1700-0000',
      '1700 0000',
      '١٧٠٠',
    ].flatMap(writings),
  ),
];

const form = (fields: Record<string, string>, csrf = HUDA.csrf) => {
  const data = new FormData();
  data.set('csrf', csrf);
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

for (const { kind, skip, open } of KINDS) {
  describe.skipIf(skip !== '')(`${kind}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    test('after a lead is deleted, no search for its phone (any digits, any format), company, city, name or e-mail is left, nor the list reloaded after it', async () => {
      const { stores, dump } = await open();
      opened.push(stores);
      const now = new Date();
      await stores.staff.add(HUDA.email, 'scrypt$x', now);
      const lead = await stores.submissions.save({
        form: 'partner',
        fields: partnerBody(PERSON),
        notice: composeLeadNotice,
      });
      const other = await stores.submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Keepme', lastName: 'Otherperson', email: 'keep@example.org', city: 'Jeddah' }),
      });
      // Staff search for the person every way, and a search for someone else.
      for (const q of [...SEARCHES, 'Keepme'])
        expect(await searchLeads(stores.inbox, HUDA, form({ status: 'all', q }), now)).toEqual({
          redirect: expect.stringMatching(/^\/admin\?status=all&q=/),
        });
      const found = async (q: string) =>
        (
          await listLeads(stores.inbox, HUDA.email, filterFromQuery(new URLSearchParams({ status: 'all', q }), HUDA.email))
        ).leads.map((one) => one.id);
      // The inbox finds the person by the phone as typed in each way.
      for (const q of ['17000000', '+973-1700-0000', '١٧٠٠٠٠٠٠', '0097317000000', 'Zarqapearl', 'muharraqxk'])
        expect(await found(q), q).toContain(lead.id);
      expect(await openLead(stores.inbox, HUDA.email, lead.id, true)).toBeDefined();
      expect(await dump()).toContain('Zarqapearl');

      // Deleted from its page, opened from the list searched by the name; the browser follows the redirect.
      const list = 'status=all&q=Nawal';
      const asked = await leadAction(stores, CONFIG, HUDA, { id: lead.id, form: form({ action: 'delete' }), list, now });
      expect(asked).toEqual({ confirm: true });
      const deleted = await leadAction(stores, CONFIG, HUDA, {
        id: lead.id,
        form: form({ action: 'delete-confirmed' }),
        list,
        now,
      });
      expect(deleted).toEqual({ redirect: '/admin?status=all&q=Nawal&done=deleted' });
      const back = new URL((deleted as { redirect: string }).redirect, 'https://www.globaq.example');
      expect((await listLeads(stores.inbox, HUDA.email, filterFromQuery(back.searchParams, HUDA.email))).total).toBe(0);

      const left = await dump();
      for (const needle of NEEDLES) expect(left.includes(needle), `${needle} is still in the database`).toBe(false);
      // What is kept: the deletion by the lead's id, the other person and the search for them.
      const entries = (await stores.inbox.auditLog({ limit: 100 })).entries;
      expect(entries.filter((entry) => entry.action === 'searched leads').map((entry) => entry.detail)).toEqual([
        '1 found (filter: status=all&q=Keepme)',
        ...SEARCHES.map(() => '(filter erased with a lead)'),
      ]);
      expect(entries.find((entry) => entry.action === 'deleted lead')).toMatchObject({ leadId: lead.id });
      expect(left).toContain(other.id);
    });
  });
}

describe('which searches name a person', () => {
  const fields = partnerBody(PERSON);
  const tokens = personTokens(fields);
  const phones = personPhones(fields);

  test("the lead's country and city in either language: the other language's name names them too", () => {
    const bahraini = partnerBody({ ...PERSON, country: 'Bahrain', cityName: 'Manama' });
    const words = personTokens(bahraini);
    for (const typed of ['Bahrain', 'البحرين', 'Manama', 'المنامة', 'منامه'])
      expect(searchNamesPerson(typed, words, []), typed).toBe(true);
    for (const typed of ['Riyadh', 'الرياض', 'Qatar']) expect(searchNamesPerson(typed, words, []), typed).toBe(false);
  });

  test('a phone in any digits and format, with + or 00 or a trunk 0', () => {
    expect(phones).toEqual(['97317000000']);
    for (const typed of [
      '17000000',
      '+973-1700-0000',
      '١٧٠٠٠٠٠٠',
      '۱۷۰۰۰۰۰۰',
      '0097317000000',
      '(973) 1700 0000',
      'call 1700-0000',
    ])
      expect(searchNamesPerson(typed, tokens, phones), typed).toBe(true);
    expect(bareDigits('+٩٧٣ ١٧٠٠-٠٠٠٠')).toBe('97317000000');
    expect(bareDigits('0501234567')).toBe('501234567');
  });

  test('the name, e-mail, company and city, whole, in part or inside a longer search; not someone else', () => {
    for (const typed of ['Nawal', 'qurashizq', 'NAWAL.QZ@EXAMPLE.NET', 'zarqapearl', 'Muharraqxk', 'nawal riyadh', 'Binwaleed'])
      expect(searchNamesPerson(typed, tokens, phones), typed).toBe(true);
    for (const typed of ['', 'Keepme', '12345678', 'jeddah']) expect(searchNamesPerson(typed, tokens, phones), typed).toBe(false);
  });
});
