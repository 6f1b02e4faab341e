/**
 * The spreadsheet receiver (integrations/spreadsheet/Code.gs), run as Apps Script runs it: the
 * file loaded as a plain script into its own context, with small fakes of SpreadsheetApp,
 * LockService, ContentService and HtmlService standing in for Google's services.
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, test } from 'vitest';
import { CONTACT_FIELDS, buildContactPayload, emptyContact } from '../../src/forms/contact';
import { PARTNER_FIELD_ORDER, buildPartnerPayload, emptyPartner } from '../../src/forms/partner';
import { HONEYPOT_FIELD } from '../../src/forms/honeypot';
import { en } from '../../src/i18n/en';
import { ROOT } from '../helpers/frontmatter';
import { filledPartner as filledPartnerBase } from '../fixtures/partner';

const SCRIPT = path.join(ROOT, 'integrations/spreadsheet/Code.gs');
const NOW = new Date('2026-11-22T10:30:00.000Z');

type Cell = string | number;

class FakeLock {
  held = false;
  available = true;
  releases = 0;
  tryLock(_ms: number): boolean {
    if (!this.available) return false;
    this.held = true;
    return true;
  }
  releaseLock(): void {
    this.held = false;
    this.releases += 1;
  }
}

class FakeSheet {
  readonly rows: Cell[][] = [];
  frozenRows = 0;
  constructor(
    readonly name: string,
    private readonly lock: FakeLock,
  ) {}
  appendRow(row: Cell[]): this {
    // Every write must happen while the script holds the lock.
    if (!this.lock.held) throw new Error(`appendRow on "${this.name}" without the script lock`);
    this.rows.push(JSON.parse(JSON.stringify(row)) as Cell[]);
    return this;
  }
  getLastRow(): number {
    return this.rows.length;
  }
  getLastColumn(): number {
    return Math.max(0, ...this.rows.map((row) => row.length));
  }
  /** Apps Script's Range, as far as the script uses it: rows and columns count from 1. */
  getRange(row: number, column: number, rows: number, columns: number) {
    const cells = this.rows;
    return {
      getValues: (): Cell[][] =>
        Array.from({ length: rows }, (_, r) =>
          Array.from({ length: columns }, (_, c) => cells[row - 1 + r]?.[column - 1 + c] ?? ''),
        ),
      setValues: (values: Cell[][]) => {
        if (!this.lock.held) throw new Error(`setValues on "${this.name}" without the script lock`);
        values.forEach((line, r) => {
          const target = (cells[row - 1 + r] ??= []);
          line.forEach((value, c) => (target[column - 1 + c] = value));
        });
      },
    };
  }
  setFrozenRows(n: number): void {
    this.frozenRows = n;
  }
}

class FakeSpreadsheet {
  readonly sheets = new Map<string, FakeSheet>();
  constructor(private readonly lock: FakeLock) {}
  getSheetByName(name: string): FakeSheet | null {
    return this.sheets.get(name) ?? null;
  }
  insertSheet(name: string): FakeSheet {
    if (this.sheets.has(name)) throw new Error(`A sheet with the name "${name}" already exists.`);
    const sheet = new FakeSheet(name, this.lock);
    this.sheets.set(name, sheet);
    return sheet;
  }
}

interface Output {
  content: string;
  mimeType?: string;
  title?: string;
}

interface AppsScriptEvent {
  parameter: Record<string, string>;
  parameters: Record<string, string[]>;
  postData?: { contents: string; type: string; length: number; name: 'postData' };
}

/** A fresh copy of the script with its own empty spreadsheet. */
function load() {
  const lock = new FakeLock();
  const spreadsheet = new FakeSpreadsheet(lock);
  const errors: string[] = [];
  const properties = new Map<string, string>();
  const sent: Record<string, string>[] = [];
  const mailApp = { failWith: undefined as string | undefined };
  const context = vm.createContext({
    PropertiesService: { getScriptProperties: () => ({ getProperty: (key: string) => properties.get(key) ?? null }) },
    MailApp: {
      sendEmail(message: Record<string, string>) {
        if (mailApp.failWith) throw new Error(mailApp.failWith);
        sent.push(JSON.parse(JSON.stringify(message)) as Record<string, string>);
      },
    },
    // Apps Script's date formatting, faithful enough: the zone and the moment are what matter here.
    Utilities: { formatDate: (date: Date, zone: string) => `${date.toLocaleString('en-GB', { timeZone: zone })} [${zone}]` },
    SpreadsheetApp: { getActiveSpreadsheet: () => spreadsheet, flush: () => undefined },
    LockService: { getScriptLock: () => lock },
    ContentService: {
      MimeType: { JSON: 'application/json', TEXT: 'text/plain' },
      createTextOutput(content: string) {
        const out: Output & { setMimeType(m: string): Output } = {
          content,
          setMimeType(m: string) {
            out.mimeType = m;
            return out;
          },
        };
        return out;
      },
    },
    HtmlService: {
      createHtmlOutput(content: string) {
        const out: Output & { setTitle(t: string): Output } = {
          content,
          mimeType: 'text/html',
          setTitle(t: string) {
            out.title = t;
            return out;
          },
        };
        return out;
      },
    },
    console: { error: (...args: unknown[]) => errors.push(args.join(' ')), log: () => undefined },
  });
  vm.runInContext(fs.readFileSync(SCRIPT, 'utf8'), context, { filename: SCRIPT });
  const fn = (name: string) => context[name] as (...args: unknown[]) => unknown;
  /** A value from the script's own scope, copied into this realm. */
  const get = <T>(expression: string): T => JSON.parse(JSON.stringify(vm.runInContext(expression, context))) as T;
  return {
    lock,
    spreadsheet,
    errors,
    properties,
    sent,
    mailApp,
    get,
    doPost: (e: AppsScriptEvent) => fn('doPost')(e) as Output,
    doGet: () => fn('doGet')({}) as Output,
    rowFor: (form: string, payload: unknown) => fn('rowFor_')(vm.runInContext(`FORMS.${form}`, context), payload, NOW) as Cell[],
    neutralise: (text: string) => fn('neutralise_')(text) as string,
  };
}

/** A POST as Apps Script describes it: the no-cors fetch arrives as text/plain. */
function post(body: string, form?: string, type = 'text/plain;charset=UTF-8'): AppsScriptEvent {
  const parameter: Record<string, string> = form === undefined ? {} : { form };
  const parameters: Record<string, string[]> = form === undefined ? {} : { form: [form] };
  return { parameter, parameters, postData: { contents: body, type, length: body.length, name: 'postData' } };
}

const json = (out: Output) =>
  JSON.parse(out.content) as { ok: boolean; error?: string; form?: string; sheet?: string; row?: number; notified?: boolean };

const contactPayload = () =>
  buildContactPayload(
    {
      ...emptyContact(),
      firstName: 'Omar',
      lastName: 'Saleh',
      email: 'omar@example.com',
      country: 'Saudi Arabia',
      city: 'Al-Khobar',
      company: 'Gulf Fabrication',
      message: 'We need a Schedule Q assessment.',
    },
    NOW,
    'en-GB',
  );

const filledPartner = () =>
  filledPartnerBase({
    numberOfEmployees: '40',
    formOfOwnership: 'Other',
    ownershipSpecification: 'Family partnership',
    servicesTypes: ['Training Courses', 'Inspection Services'],
    targetMarkets: ['Manufacturing'],
    classroomAvailable: 'No',
    futureClassroomPlans: 'Renting a hall in 2027',
    trainersAvailable: 'Yes',
  });

describe('spreadsheet receiver: columns', () => {
  test("each form's columns are the fields the site sends, in the order it sends them", () => {
    const s = load();
    expect(s.get<string[]>('FORMS.contact.fields')).toEqual(Object.keys(buildContactPayload(emptyContact(), NOW)));
    expect(s.get<string[]>('FORMS.partner.fields')).toEqual(Object.keys(buildPartnerPayload(emptyPartner(), [])));
  });

  test("the columns are the forms' field tables, in their order (src/forms)", () => {
    const s = load();
    expect(s.get<string[]>('FORMS.contact.fields')).toEqual([...CONTACT_FIELDS, 'submissionDate', 'submissionTimestamp']);
    expect(s.get<string[]>('FORMS.partner.fields')).toEqual([...PARTNER_FIELD_ORDER]);
  });

  test('each value goes under its own header: staff may reorder the columns and add their own', () => {
    const s = load();
    s.lock.held = true;
    const sheet = s.spreadsheet.insertSheet('Contact');
    sheet.appendRow([
      'Status',
      'email',
      'receivedAt',
      'lastName',
      'firstName',
      'message',
      'otherFields',
      'company',
      'city',
      'country',
      'submissionTimestamp',
      'submissionDate',
    ]);
    s.lock.held = false;
    expect(json(s.doPost(post(JSON.stringify(contactPayload()), 'contact'))).ok).toBe(true);
    const [header, row] = sheet.rows;
    const cell = (column: string) => row?.[header?.indexOf(column) ?? -1];
    expect(header).toHaveLength(12);
    expect(cell('Status')).toBe('');
    expect(cell('email')).toBe('omar@example.com');
    expect(cell('firstName')).toBe('Omar');
    expect(cell('lastName')).toBe('Saleh');
    expect(cell('message')).toBe('We need a Schedule Q assessment.');
    expect(cell('submissionDate')).toBe(contactPayload().submissionDate);
    expect(String(cell('receivedAt'))).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  test('a sheet made before the form gained a field gets a column for it at the end', () => {
    const s = load();
    s.lock.held = true;
    const sheet = s.spreadsheet.insertSheet('Contact');
    const older = ['firstName', 'lastName', 'email', 'message', 'receivedAt', 'otherFields'];
    sheet.appendRow(older);
    s.lock.held = false;
    expect(json(s.doPost(post(JSON.stringify(contactPayload()), 'contact'))).ok).toBe(true);
    const [header, row] = sheet.rows;
    expect(header).toEqual([...older, 'country', 'city', 'company', 'submissionDate', 'submissionTimestamp']);
    expect(row?.slice(-5)).toEqual([
      'Saudi Arabia',
      'Al-Khobar',
      'Gulf Fabrication',
      contactPayload().submissionDate,
      contactPayload().submissionTimestamp,
    ]);
    expect(row?.slice(0, 3)).toEqual(['Omar', 'Saleh', 'omar@example.com']);
    expect(s.lock.held).toBe(false);
  });

  test('the header row is written on first use only, then frozen', () => {
    const s = load();
    expect(json(s.doPost(post(JSON.stringify(contactPayload()), 'contact'))).ok).toBe(true);
    const sheet = s.spreadsheet.getSheetByName('Contact');
    expect(sheet?.rows[0]).toEqual([...Object.keys(contactPayload()), 'receivedAt', 'otherFields']);
    expect(sheet?.frozenRows).toBe(1);

    const second = json(s.doPost(post(JSON.stringify({ ...contactPayload(), firstName: 'Huda' }), 'contact')));
    expect(second).toEqual({ ok: true, form: 'contact', sheet: 'Contact', row: 3, notified: false });
    expect(sheet?.rows.map((r) => r[0])).toEqual(['firstName', 'Omar', 'Huda']);
  });

  test('a contact message becomes one row, one column per field in order, then the time received', () => {
    const s = load();
    const before = Date.now();
    const out = s.doPost(post(JSON.stringify(contactPayload()), 'contact'));
    const after = Date.now();
    expect(out.mimeType).toBe('application/json');
    expect(json(out)).toEqual({ ok: true, form: 'contact', sheet: 'Contact', row: 2, notified: false });

    const row = s.spreadsheet.getSheetByName('Contact')?.rows[1] ?? [];
    const p = contactPayload();
    expect(row.slice(0, 9)).toEqual([
      'Omar',
      'Saleh',
      'omar@example.com',
      'Saudi Arabia',
      'Al-Khobar',
      'Gulf Fabrication',
      'We need a Schedule Q assessment.',
      p.submissionDate,
      p.submissionTimestamp,
    ]);
    const received = Date.parse(String(row[9]));
    expect(received).toBeGreaterThanOrEqual(before);
    expect(received).toBeLessThanOrEqual(after);
    expect(row[10]).toBe('');
    expect(row).toHaveLength(11);
    expect(s.lock.held).toBe(false);
  });

  test('a partner application: lists joined, numbers kept as numbers, empty numbers blank, file names only', () => {
    const s = load();
    const payload = buildPartnerPayload(filledPartner(), ['cv-ahmed.pdf', 'cv-sara.docx']);
    expect(json(s.doPost(post(JSON.stringify(payload), 'partner')))).toMatchObject({
      ok: true,
      form: 'partner',
      sheet: 'Partner',
    });

    const [header, row] = s.spreadsheet.getSheetByName('Partner')?.rows ?? [];
    const cell = (field: string) => row?.[header?.indexOf(field) ?? -1];
    expect(header).toEqual([...Object.keys(payload), 'receivedAt', 'otherFields']);
    expect(['name', 'organization', 'jobTitle', 'country'].map(cell)).toEqual([
      'Aisha Al-Qahtani',
      'Eastern Quality Training',
      'Managing Director',
      'Saudi Arabia',
    ]);
    expect(cell('yearsInBusiness')).toBe(7);
    expect(cell('numberOfSites')).toBe('');
    expect(cell('numberOfEmployees')).toBe(40);
    expect(cell('servicesTypes')).toBe('Training Courses, Inspection Services');
    expect(cell('targetMarkets')).toBe('Manufacturing');
    expect(cell('futureClassroomPlans')).toBe('Renting a hall in 2027');
    expect(cell('uploadedFiles')).toBe('cv-ahmed.pdf, cv-sara.docx');
    // The phone number starts with "+": kept as text, not read as a formula.
    expect(cell('phoneNumber')).toBe("'+966 50 123 4567");
  });

  test('a field the script does not know is kept, as JSON in the last column', () => {
    const s = load();
    const row = s.rowFor('contact', { ...contactPayload(), newsletter: 'yes' });
    expect(row.at(-1)).toBe('{"newsletter":"yes"}');
    expect(row.at(-2)).toBe(NOW.toISOString());
  });

  test('a field missing from the body leaves its cell empty and the other columns in place', () => {
    const s = load();
    const { city: _city, ...withoutCity } = contactPayload();
    const row = s.rowFor('contact', withoutCity);
    expect(row.slice(3, 6)).toEqual(['Saudi Arabia', '', 'Gulf Fabrication']);
  });

  test('text longer than a cell can hold is cut to the 50,000-character limit', () => {
    const s = load();
    const row = s.rowFor('contact', { ...contactPayload(), message: 'a'.repeat(60_000) });
    expect(String(row[6]).length).toBeLessThanOrEqual(50_000);
    expect(String(row[6])).toMatch(/^a+ …\[truncated\]$/);
  });
});

describe('spreadsheet receiver: formula-like cells', () => {
  test.each([
    ['=HYPERLINK("http://evil.example","click")'],
    ['+1+2'],
    ['-2+3'],
    ['@SUM(A1:A2)'],
    ['\t=1+1'],
    ['\r=1+1'],
    ["'quoted"],
  ])('%j gets a leading apostrophe', (text) => {
    expect(load().neutralise(text)).toBe(`'${text}`);
  });

  test('ordinary text is left as it is', () => {
    const s = load();
    for (const text of ['Omar', 'a=b', '1+1', 'omar@example.com', ' =spaced', '']) expect(s.neutralise(text)).toBe(text);
  });

  test('every text column of a stored row is neutralised, lists and unknown fields included', () => {
    const s = load();
    const body = {
      ...contactPayload(),
      firstName: '=IMPORTXML("http://evil.example")',
      company: '@corp',
      message: '-1',
      extra: '=1',
    };
    s.doPost(post(JSON.stringify(body), 'contact'));
    const row = s.spreadsheet.getSheetByName('Contact')?.rows[1] ?? [];
    expect(row[0]).toBe('\'=IMPORTXML("http://evil.example")');
    expect(row[5]).toBe("'@corp");
    expect(row[6]).toBe("'-1");
    expect(row[1]).toBe('Saleh');
    // Unknown fields are stored as a JSON object, which starts with "{" and is never a formula.
    expect(row[10]).toBe('{"extra":"=1"}');

    const partner = s.rowFor('partner', {
      ...buildPartnerPayload(filledPartner(), []),
      servicesTypes: ['=cmd', 'Training Courses'],
    });
    const column = (field: string) => PARTNER_FIELD_ORDER.indexOf(field as (typeof PARTNER_FIELD_ORDER)[number]);
    expect(partner[column('servicesTypes')]).toBe("'=cmd, Training Courses");
    // A negative number stays a number: only text is read as a formula.
    expect(s.rowFor('partner', { numberOfSites: -3 })[column('numberOfSites')]).toBe(-3);
  });
});

describe('spreadsheet receiver: refusals', () => {
  test('an unknown form name is refused and nothing is written', () => {
    const s = load();
    const out = json(s.doPost(post(JSON.stringify(contactPayload()), 'newsletter')));
    expect(out).toEqual({ ok: false, error: 'unknown_form' });
    expect(s.spreadsheet.sheets.size).toBe(0);
    expect(s.errors.join('\n')).toMatch(/unknown_form/);
  });

  test('without ?form=, the form is recognised by its fields; fields of neither form are refused', () => {
    const s = load();
    expect(json(s.doPost(post(JSON.stringify(contactPayload()))))).toMatchObject({ ok: true, sheet: 'Contact' });
    expect(json(s.doPost(post(JSON.stringify(buildPartnerPayload(filledPartner(), [])))))).toMatchObject({
      ok: true,
      sheet: 'Partner',
    });
    expect(json(s.doPost(post(JSON.stringify({ subject: 'hello' }))))).toEqual({ ok: false, error: 'unknown_form' });
    expect([...s.spreadsheet.sheets.keys()]).toEqual(['Contact', 'Partner']);
  });

  test.each([
    ['{"firstName": "Omar", ', 'malformed_json'],
    ['not json at all', 'malformed_json'],
    ['[1, 2]', 'not_an_object'],
    ['"text"', 'not_an_object'],
    ['null', 'not_an_object'],
    ['   ', 'empty_body'],
  ])('the body %j is refused as %s, nothing written', (body, error) => {
    const s = load();
    expect(json(s.doPost(post(body, 'contact')))).toEqual({ ok: false, error });
    expect(s.spreadsheet.sheets.size).toBe(0);
  });

  test('a POST without a body, or a huge one, is refused', () => {
    const s = load();
    expect(json(s.doPost({ parameter: { form: 'contact' }, parameters: { form: ['contact'] } }))).toEqual({
      ok: false,
      error: 'empty_body',
    });
    const huge = JSON.stringify({ ...contactPayload(), message: 'x'.repeat(250_000) });
    expect(json(s.doPost(post(huge, 'contact')))).toEqual({ ok: false, error: 'too_large' });
    expect(s.spreadsheet.sheets.size).toBe(0);
  });
});

describe('spreadsheet receiver: lock, honeypot, plain form posts', () => {
  test('when the lock cannot be had, nothing is written and the answer says busy', () => {
    const s = load();
    s.lock.available = false;
    expect(json(s.doPost(post(JSON.stringify(contactPayload()), 'contact')))).toEqual({ ok: false, error: 'busy' });
    expect(s.spreadsheet.sheets.size).toBe(0);
  });

  test('the lock is released after every write', () => {
    const s = load();
    s.doPost(post(JSON.stringify(contactPayload()), 'contact'));
    s.doPost(post(JSON.stringify(contactPayload()), 'contact'));
    expect(s.lock.releases).toBe(2);
    expect(s.lock.held).toBe(false);
  });

  test('a filled-in honeypot goes to its own sheet, apart from real leads', () => {
    const s = load();
    const out = json(s.doPost(post(JSON.stringify({ ...contactPayload(), [HONEYPOT_FIELD]: 'http://spam.example' }), 'contact')));
    expect(out).toMatchObject({ ok: true, sheet: 'Contact (suspected spam)' });
    expect(s.spreadsheet.getSheetByName('Contact')).toBeNull();
    expect(s.spreadsheet.getSheetByName('Contact (suspected spam)')?.rows).toHaveLength(2);
  });

  test('a plain HTML form post (JavaScript off) is stored from its parameters and answered with a page', () => {
    const s = load();
    const parameters: Record<string, string[]> = {
      form: ['partner'],
      name: ['Aisha'],
      organization: ['Eastern Quality Training'],
      servicesTypes: ['Training Courses', 'Certification Services'],
      yearsInBusiness: ['7'],
      uploadedFiles: ['cv.pdf'],
      [HONEYPOT_FIELD]: [''],
    };
    const body = new URLSearchParams(Object.entries(parameters).flatMap(([k, vs]) => vs.map((v) => [k, v]))).toString();
    const parameter = Object.fromEntries(Object.entries(parameters).map(([k, vs]) => [k, vs[0] ?? '']));
    const out = s.doPost({
      parameter,
      parameters,
      postData: { contents: body, type: 'application/x-www-form-urlencoded', length: body.length, name: 'postData' },
    });
    expect(out.mimeType).toBe('text/html');
    expect(out.content).toContain('Your submission has been received');

    const [header, row] = s.spreadsheet.getSheetByName('Partner')?.rows ?? [];
    const cell = (field: string) => row?.[header?.indexOf(field) ?? -1];
    expect(cell('name')).toBe('Aisha');
    expect(cell('servicesTypes')).toBe('Training Courses, Certification Services');
    expect(cell('yearsInBusiness')).toBe('7');
    expect(cell('uploadedFiles')).toBe('cv.pdf');
    // `form` came from the address, not the form: it is not an unknown field.
    expect(cell('otherFields')).toBe('');
  });

  test('a refused plain form post shows the reason on the page', () => {
    const s = load();
    const out = s.doPost({
      parameter: { form: 'survey' },
      parameters: { form: ['survey'] },
      postData: { contents: 'a=1', type: 'application/x-www-form-urlencoded', length: 3, name: 'postData' },
    });
    expect(out.mimeType).toBe('text/html');
    expect(out.content).toContain('could not be saved (unknown_form)');
  });

  test('GET answers with a short text, for checking the address in a browser', () => {
    const out = load().doGet();
    expect(out.mimeType).toBe('text/plain');
    expect(out.content).toContain('?form=contact');
  });
});

describe('spreadsheet receiver: the lead e-mail (NOTIFY_TO)', () => {
  test("each field's label is the site's own (src/i18n/en.ts)", () => {
    const s = load();
    const strings: Record<string, string> = en;
    for (const form of ['contact', 'partner'] as const) {
      const labels = s.get<Record<string, string>>(`LABELS.${form}`);
      const fields = form === 'contact' ? CONTACT_FIELDS : PARTNER_FIELD_ORDER;
      expect(Object.keys(labels)).toEqual([...fields]);
      for (const field of fields) expect(labels[field], field).toBe(strings[`${form}.field.${field}`]);
    }
  });

  test('unset: the row is stored and no mail goes', () => {
    const s = load();
    expect(json(s.doPost(post(JSON.stringify(contactPayload()), 'contact')))).toMatchObject({ ok: true, notified: false });
    expect(s.sent).toEqual([]);
  });

  test('set: one mail per lead to those addresses, Reply-To the visitor, every answer labelled, visitor markup escaped', () => {
    const s = load();
    s.properties.set('NOTIFY_TO', 'leads@globaq.example,sales@globaq.example');
    const payload = { ...contactPayload(), message: '<img src=x onerror=alert(1)> hi', lastName: 'Saleh\r\nBcc: x@evil.example' };
    expect(json(s.doPost(post(JSON.stringify(payload), 'contact')))).toMatchObject({ ok: true, notified: true });
    expect(s.sent).toHaveLength(1);
    const [mail] = s.sent;
    expect(mail?.['to']).toBe('leads@globaq.example,sales@globaq.example');
    expect(mail?.['replyTo']).toBe('omar@example.com');
    expect(mail?.['subject']).toBe('New contact message from Omar Saleh Bcc: x@evil.example, Gulf Fabrication');
    expect(mail?.['body']).toContain('First Name: Omar');
    expect(mail?.['body']).toContain('Message: <img src=x onerror=alert(1)> hi');
    expect(mail?.['body']).toContain('[Asia/Riyadh]');
    expect(mail?.['htmlBody']).toContain('&lt;img src=x onerror=alert(1)&gt; hi');
    expect(mail?.['htmlBody']).not.toContain('<img');
  });

  test('a partner application: subject with organisation and country', () => {
    const s = load();
    s.properties.set('NOTIFY_TO', 'leads@globaq.example');
    s.doPost(post(JSON.stringify(buildPartnerPayload(filledPartner(), ['cv.pdf'])), 'partner'));
    expect(s.sent[0]?.['subject']).toBe('New partner application: Eastern Quality Training, Saudi Arabia');
    expect(s.sent[0]?.['body']).toContain("Trainers' CVs: cv.pdf");
  });

  test('a suspected bot gets no mail; a mail that cannot go leaves the row stored', () => {
    const s = load();
    s.properties.set('NOTIFY_TO', 'leads@globaq.example');
    s.doPost(post(JSON.stringify({ ...contactPayload(), [HONEYPOT_FIELD]: 'x' }), 'contact'));
    expect(s.sent).toEqual([]);
    s.mailApp.failWith = 'Service invoked too many times for one day: email.';
    expect(json(s.doPost(post(JSON.stringify(contactPayload()), 'contact')))).toMatchObject({
      ok: true,
      notified: false,
      row: 2,
    });
    expect(s.errors.join('\n')).toContain('too many times');
  });
});
