/**
 * The staff export read back as staff open it: phone numbers as text in E.164 (`="+966…"`, a
 * national number given its country's code), the formula guard still on everything else, spam only when asked for, and
 * when each lead was first answered and its follow-up day.
 * On a real SQLite store, through the list's own filter (the "All" tab's address).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { filterFromQuery } from '../../src/server/inbox/inbox-filter';
import type { InboxStore } from '../../src/server/inbox/inbox-store';
import { leadExport } from '../../src/server/inbox/lead-export';
import { locales } from '../../src/i18n';
import { leadCsvHeader } from '../../src/server/inbox/export-format';
import type { SubmissionStore } from '../../src/server/store/store';
import { openStores, type Stores } from '../../src/server/store/database';
import { partnerBody, tempDir } from '../helpers/server';

let dir: string;
let stores: Stores;
let submissions: SubmissionStore;
let inbox: InboxStore;
const T0 = new Date('2026-11-23T08:00:00Z');
const ids: Record<string, string> = {};

beforeAll(async () => {
  dir = tempDir('globaq-export-words-');
  const dbPath = path.join(dir, 'submissions.db');
  stores = openStores({ dbPath, databaseUrl: undefined, poolMax: 1 });
  ({ submissions, inbox } = stores);
  const leads: Record<string, Record<string, unknown>> = {
    plus: { name: 'Plus', phoneNumber: '+966 50 444 3322' },
    indic: { name: 'Indic', phoneNumber: '+٩٦٦ ٥٠ ٤٤٤ ٣٣٢٢' },
    persian: { name: 'Persian', phoneNumber: '۰۵۰۴۴۴۳۳۲۲' },
    national: { name: 'National', phoneNumber: '050 444 3322' },
    bahrain: { name: 'Bahrain', phoneNumber: '3312 3456', country: 'Bahrain' },
    nowhere: { name: 'Nowhere', phoneNumber: '0504443322', country: 'Other' },
    formula: { name: '=HYPERLINK("https://evil.example")', phoneNumber: '+SUM(1)', organization: '+cmd' },
    spam: { name: 'Spammer', phoneNumber: '+1 555 0100' },
  };
  for (const [key, fields] of Object.entries(leads))
    ids[key] = (await submissions.save({ form: 'partner', fields: partnerBody(fields), receivedAt: T0 })).id;
  await inbox.setStatus(ids.spam!, 'spam', 'huda@globaq.example', T0);
});

afterAll(async () => {
  await stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The export of a list address, as rows of cells keyed by the lead id. */
async function exported(query: string): Promise<Map<string, string>> {
  const { filter } = filterFromQuery(new URLSearchParams(query), 'huda@globaq.example');
  const csv = await (await leadExport(inbox, 'huda@globaq.example', filter, query, T0)).text();
  const rows = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  return new Map([['header', rows[0]!], ...rows.slice(1).map((row): [string, string] => [row.slice(1, 37), row])]);
}

test("phones as text in E.164, in Western digits, a national number with its country's code; formulas elsewhere still guarded", async () => {
  const rows = await exported('status=all&form=partner');
  // `="+966504443322"`: the text Excel and Google Sheets keep whole (no 9.67E+11, no leading zero dropped).
  const e164 = (number: string) => `"=""${number}"""`;
  expect(rows.get(ids.plus!)).toContain(e164('+966504443322'));
  expect(rows.get(ids.plus!)).not.toContain("'+966");
  expect(rows.get(ids.indic!)).toContain(e164('+966504443322'));
  expect(rows.get(ids.persian!)).toContain(e164('+966504443322'));
  expect(rows.get(ids.national!)).toContain(e164('+966504443322'));
  expect(rows.get(ids.bahrain!)).toContain(e164('+97333123456'));
  // No country to tell the code: as typed, still text, its zero kept.
  expect(rows.get(ids.nowhere!)).toContain(e164('0504443322'));
  const formula = rows.get(ids.formula!)!;
  expect(formula).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
  expect(formula).toContain(`"'+SUM(1)"`);
  expect(formula).toContain(`"'+cmd"`);
});

test('"All" leaves spam out; the Spam tab exports it', async () => {
  const all = await exported('status=all&form=partner');
  expect([...all.keys()].filter((key) => key !== 'header').sort()).toEqual(
    [ids.plus, ids.indic, ids.persian, ids.national, ids.bahrain, ids.nowhere, ids.formula].sort(),
  );
  const spam = await exported('status=spam&form=partner');
  expect([...spam.keys()]).toEqual(['header', ids.spam]);
  expect(spam.get(ids.spam!)).toContain('"=""+15550100"""');
});

test('each lead says when it was first answered (Riyadh time) and its follow-up day', async () => {
  // Answered at 09:30 UTC (12:30 in Riyadh), answered again later: the first answer stays.
  await inbox.setStatus(ids.plus!, 'answered', 'huda@globaq.example', new Date('2026-11-23T09:30:00Z'));
  await inbox.setStatus(ids.plus!, 'in_progress', 'huda@globaq.example', new Date('2026-11-23T10:00:00Z'));
  await inbox.setStatus(ids.plus!, 'answered', 'huda@globaq.example', new Date('2026-11-24T10:00:00Z'));
  await inbox.setFollowUp(ids.plus!, '2026-11-30', 'huda@globaq.example', T0);
  const cells = (row: string) => row.split('","').map((cell) => cell.replace(/^"|"$/g, ''));
  const rows = await exported('status=all&form=partner');
  // The export's headings are the English dictionary's, whatever the inbox's language (the same
  // columns as the staff command's); the dictionaries hold both languages' words for them.
  const header = cells(rows.get('header')!);
  const at = (name: string) => header.indexOf(name);
  expect(at('First answered (Riyadh time)')).toBe(at('Assigned to') + 1);
  expect(at('Follow-up on')).toBe(at('Assigned to') + 2);
  expect(leadCsvHeader('partner', locales.ar)).toContain('"أول رد (بتوقيت الرياض)","موعد المتابعة"');
  const answered = cells(rows.get(ids.plus!)!);
  expect(answered[at('First answered (Riyadh time)')]).toBe('2026-11-23 12:30 +03:00');
  expect(answered[at('Follow-up on')]).toBe('2026-11-30');
  // A lead never answered, with no follow-up day: both empty.
  const waiting = cells(rows.get(ids.persian!)!);
  expect([waiting[at('First answered (Riyadh time)')], waiting[at('Follow-up on')]]).toEqual(['', '']);
});
