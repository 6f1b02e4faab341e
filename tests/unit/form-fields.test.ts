/**
 * A form described once (src/forms/fields.ts): everything about a field follows from its entry.
 * Shown on a small form of its own, then on the two real tables and the dictionary.
 */
import * as z from 'zod/mini';
import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  SPARE_KEYS,
  bodyFromForm,
  buildPayload,
  completeBody,
  emptyValues,
  fieldShapes,
  jsonEntries,
  mailLines,
  maxBodyKeys,
  missingFields,
  requiredFields,
  shapeProblem,
  valuesFromDraft,
  type FieldSpec,
} from '../../src/forms/fields';
import { CONTACT_FIELDS, CONTACT_FORM, contactLabelKey } from '../../src/forms/contact';
import { PARTNER_FIELD_ORDER, PARTNER_FORM, partnerField } from '../../src/forms/partner';
import { en } from '../../src/i18n/en';
import { fieldIssues } from '../../src/forms/rules';

const SIZES = [
  { key: 'small', value: 'Small' },
  { key: 'large', value: 'Large' },
] as const;

/** A made-up form with one field of each kind that matters. */
const TABLE = {
  fullName: { kind: 'text', required: true, inMail: true },
  staff: { kind: 'count' },
  size: { kind: 'select', options: SIZES, required: true, inMail: true },
  sizeNote: { kind: 'text', askedWhen: { field: 'size', answers: ['large'] }, inMail: true },
  extras: { kind: 'checkboxes', options: SIZES },
  story: { kind: 'longText', inMail: true },
  files: { kind: 'files' },
} as const satisfies Record<string, FieldSpec>;

const schema = z.strictObject(fieldShapes(TABLE));

describe('one entry per field', () => {
  test('empty answers: text, a list for checkboxes, no entry for files', () => {
    expect(emptyValues(TABLE)).toEqual({ fullName: '', staff: '', size: '', sizeNote: '', extras: [], story: '' });
  });

  test('the body: every field in table order, text trimmed, counts as numbers, a follow-up only when asked, file names joined', () => {
    const values = {
      ...emptyValues(TABLE),
      fullName: '  Huda  ',
      staff: '12',
      size: 'Small',
      sizeNote: 'not asked',
      extras: ['Large'],
    };
    const body = buildPayload(TABLE, values, ['a.pdf', 'b.doc']);
    expect(Object.keys(body)).toEqual(Object.keys(TABLE));
    expect(body).toEqual({
      fullName: 'Huda',
      staff: 12,
      size: 'Small',
      sizeNote: '',
      extras: ['Large'],
      story: '',
      files: 'a.pdf, b.doc',
    });
    expect(buildPayload(TABLE, { ...values, size: 'Large' }, []).sizeNote).toBe('not asked');
    expect(schema.safeParse(body).success).toBe(true);
  });

  test('the schema follows each kind: required, options, counts, unknown fields', () => {
    const ok = buildPayload(TABLE, { ...emptyValues(TABLE), fullName: 'Huda', size: 'Small' }, []);
    const issues = (body: unknown) => {
      const result = schema.safeParse(body);
      return result.success ? [] : fieldIssues(result.error);
    };
    expect(issues(ok)).toEqual([]);
    expect(issues({ ...ok, fullName: '' })).toEqual([{ field: 'fullName', code: 'required' }]);
    expect(issues({ ...ok, size: 'Medium' })).toEqual([{ field: 'size', code: 'invalidOption' }]);
    expect(issues({ ...ok, extras: ['Small', 'Small'] })).toEqual([{ field: 'extras', code: 'invalidOption' }]);
    expect(issues({ ...ok, staff: -3 })).toEqual([{ field: 'staff', code: 'invalidNumber' }]);
    // A count as the text of its digits, as the original form sends it: read as a number.
    for (const [text, count] of [
      ['7', 7],
      [' 7 ', 7],
      ['١٢', 12],
      ['۳۴', 34],
      ['', null],
    ] as const) {
      const parsed = schema.safeParse({ ...ok, staff: text });
      expect(parsed.success && parsed.data.staff, JSON.stringify(text)).toBe(count);
    }
    for (const text of ['7.5', '-1', '1e3', '0x10', 'seven', '1 000'])
      expect(issues({ ...ok, staff: text }), text).toEqual([{ field: 'staff', code: 'invalidNumber' }]);
    expect(issues({ ...ok, colour: 'red' })).toEqual([{ field: 'colour', code: 'unknownField' }]);
  });

  test('required fields, and the ones left empty (invisible text counts as empty)', () => {
    expect(requiredFields(TABLE)).toEqual(['fullName', 'size']);
    expect(missingFields(TABLE, { ...emptyValues(TABLE), fullName: '\u200B' })).toEqual(['fullName', 'size']);
    expect(missingFields(TABLE, { ...emptyValues(TABLE), fullName: 'Huda', size: 'Large' })).toEqual([]);
  });

  test('a url-encoded post becomes the same body; a field left out is an empty answer', () => {
    const body = bodyFromForm(
      TABLE,
      new URLSearchParams('fullName=Huda&staff=4&size=Large&extras=Small&extras=Large&files=a.pdf&files='),
    );
    expect(body).toEqual({
      fullName: 'Huda',
      staff: 4,
      size: 'Large',
      extras: ['Small', 'Large'],
      files: 'a.pdf',
      sizeNote: '',
      story: '',
    });
    expect(completeBody(TABLE, { fullName: 'Huda', colour: 'red' })).toEqual({
      fullName: 'Huda',
      colour: 'red',
      staff: null,
      size: '',
      sizeNote: '',
      extras: [],
      story: '',
      files: '',
    });
  });

  test('a saved draft is read back field by field, of the right shape only', () => {
    const draft = JSON.stringify({
      fullName: 'Huda',
      extras: ['Small', 3],
      story: 7,
      size: 'Large',
      colour: 'red',
      files: 'x.pdf',
    });
    expect(valuesFromDraft(TABLE, draft)).toEqual({ ...emptyValues(TABLE), fullName: 'Huda', size: 'Large' });
    expect(valuesFromDraft(TABLE, '{"colour":"red"}')).toBeUndefined();
    expect(valuesFromDraft(TABLE, 'not json')).toBeUndefined();
    expect(valuesFromDraft(TABLE, null)).toBeUndefined();
  });

  test('the e-mail offered on failure: short answers marked for it as "Label: answer", long ones as paragraphs, follow-ups only when asked', () => {
    const values = { ...emptyValues(TABLE), fullName: 'Huda', size: 'Small', sizeNote: 'hidden', story: 'Line one\nLine two' };
    expect(mailLines(TABLE, values, (field) => field.toUpperCase())).toEqual([
      'FULLNAME: Huda',
      'SIZE: Small',
      '',
      'STORY:',
      'Line one\nLine two',
    ]);
    expect(mailLines(TABLE, { ...values, size: 'Large' }, (field) => field)).toContain('sizeNote: hidden');
  });
});

/** `count` keys named by their number in base 36 ("0" to "12kw"): none is a field of TABLE. */
const manyKeys = (count: number): [string, string][] => Array.from({ length: count }, (_, i) => [i.toString(36), 'x']);

describe('one pass over a body’s keys', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test('a url-encoded post is read in one pass: the work grows with its pairs, not their square', () => {
    /** Pairs read: one per pair iterated, and every pair for each lookup by key (get, getAll, has). */
    class CountedParams extends URLSearchParams {
      reads = 0;
      override *[Symbol.iterator](): URLSearchParamsIterator<[string, string]> {
        for (const pair of super.entries()) {
          this.reads += 1;
          yield pair;
        }
      }
      override entries() {
        return this[Symbol.iterator]();
      }
      override keys() {
        this.reads += this.size;
        return super.keys();
      }
      override values() {
        this.reads += this.size;
        return super.values();
      }
      override get(name: string) {
        this.reads += this.size;
        return super.get(name);
      }
      override getAll(name: string) {
        this.reads += this.size;
        return super.getAll(name);
      }
      override has(name: string) {
        this.reads += this.size;
        return super.has(name);
      }
    }
    const form = new CountedParams([...manyKeys(20_000), ['extras', 'Small'], ['extras', 'Large']]);
    const body = bodyFromForm(TABLE, form);
    expect(Object.keys(body)).toHaveLength(20_000 + Object.keys(TABLE).length);
    expect(body['extras']).toEqual(['Small', 'Large']);
    expect(form.reads).toBeLessThanOrEqual(2 * form.size);
  });

  test('the issues of 50,000 unknown keys are listed in one pass: each field once', () => {
    const keys = manyKeys(50_000).map(([key]) => key);
    const result = z.strictObject({ fullName: z.string() }).safeParse(Object.fromEntries(keys.map((key) => [key, 1])));
    expect(result.success).toBe(false);
    if (result.success) return;
    // The elements every array search scans (some, find, includes...): a search of the issues listed so far would be 50,000².
    let scanned = 0;
    for (const method of ['some', 'every', 'find', 'findIndex', 'filter', 'includes', 'indexOf'] as const) {
      const original = Array.prototype[method] as (...args: unknown[]) => unknown;
      vi.spyOn(Array.prototype, method).mockImplementation(function (this: unknown[], ...args: unknown[]) {
        scanned += this.length;
        return original.apply(this, args);
      } as never);
    }
    const issues = fieldIssues(result.error);
    vi.restoreAllMocks();
    expect(scanned).toBeLessThanOrEqual(20 * keys.length);
    expect(issues).toHaveLength(keys.length + 1);
    expect(issues[0]).toEqual({ field: 'fullName', code: 'invalidValue' });
    // Each key once (an object lists its keys that read as numbers first).
    expect(new Set(issues.slice(1).map((issue) => issue.field))).toEqual(new Set(keys));
    expect(issues.slice(1).every((issue) => issue.code === 'unknownField')).toBe(true);
  });
});

describe('the shape of a body, judged before its answers', () => {
  test('at most one key per field, per checkbox, per file, and a few spare', () => {
    // 5 one-answer fields, 2 checkboxes, MAX_FILES (5) files.
    expect(maxBodyKeys(TABLE)).toBe(5 + 2 + 5 + SPARE_KEYS);
    expect(maxBodyKeys(CONTACT_FORM)).toBe(7 + SPARE_KEYS);
    // The partner form's 27 one-answer fields, its 3 + 6 checkboxes and 5 files.
    expect(maxBodyKeys(PARTNER_FORM)).toBe(27 + 9 + 5 + SPARE_KEYS);
    const full = manyKeys(maxBodyKeys(TABLE));
    expect(shapeProblem(TABLE, full)).toBeUndefined();
    expect(shapeProblem(TABLE, manyKeys(maxBodyKeys(TABLE) + 1))).toEqual({
      error: 'tooManyFields',
      maxFields: maxBodyKeys(TABLE),
    });
  });

  test('50,000 keys are refused at the first key past the bound: the rest are never read', () => {
    let read = 0;
    const keys = manyKeys(50_000);
    function* counted() {
      for (const entry of keys) {
        read += 1;
        yield entry;
      }
    }
    expect(shapeProblem(TABLE, counted())).toEqual({ error: 'tooManyFields', maxFields: maxBodyKeys(TABLE) });
    expect(read).toBe(maxBodyKeys(TABLE) + 1);
  });

  test('a key sent twice is refused, but for a checkbox group or a file input; a JSON list repeats its key', () => {
    expect(shapeProblem(TABLE, new URLSearchParams('extras=Small&extras=Large&files=a.pdf&files=b.pdf'))).toBeUndefined();
    expect(shapeProblem(TABLE, new URLSearchParams('fullName=A&size=Small&fullName=B'))).toEqual({
      error: 'repeatedField',
      field: 'fullName',
    });
    expect(shapeProblem(TABLE, new URLSearchParams('colour=red&colour=blue'))).toEqual({
      error: 'repeatedField',
      field: 'colour',
    });
    expect(shapeProblem(TABLE, jsonEntries({ fullName: 'A', extras: ['Small', 'Large'] }))).toBeUndefined();
    expect(shapeProblem(TABLE, jsonEntries({ fullName: ['A', 'B'] }))).toEqual({ error: 'repeatedField', field: 'fullName' });
    // A list is counted item by item: 50,000 items are as many keys.
    expect(shapeProblem(TABLE, jsonEntries({ extras: Array<string>(50_000).fill('Small') }))).toEqual({
      error: 'tooManyFields',
      maxFields: maxBodyKeys(TABLE),
    });
  });

  test('a text over twice its field’s limit is refused as it arrives, before it is cleaned; within it, the schema judges', () => {
    const problem = (body: Record<string, unknown>) => shapeProblem(TABLE, jsonEntries(body));
    // fullName takes 200 characters, story 5,000: line breaks sent as CRLF and spaces cleaning takes out fit in twice that.
    expect(problem({ fullName: 'a'.repeat(400), story: 'a\r\n'.repeat(3333) })).toBeUndefined();
    expect(problem({ fullName: 'a'.repeat(401) })).toEqual({ error: 'tooLong', field: 'fullName' });
    expect(problem({ story: 'a'.repeat(10_001) })).toEqual({ error: 'tooLong', field: 'story' });
    expect(problem({ extras: ['Small', 'x'.repeat(401)] })).toEqual({ error: 'tooLong', field: 'extras' });
    // A key outside the table (the proof, the honeypot, an unknown key) may be as long as a long answer twice.
    expect(problem({ altcha: 'x'.repeat(10_000) })).toBeUndefined();
    expect(problem({ altcha: 'x'.repeat(10_001) })).toEqual({ error: 'tooLong', field: 'altcha' });
    // Not cleaned to be measured: a phone number of 120,000 spaces is refused on its length.
    expect(shapeProblem(PARTNER_FORM, jsonEntries({ phoneNumber: `1${' '.repeat(120_000)}a` }))).toEqual({
      error: 'tooLong',
      field: 'phoneNumber',
    });
  });
});

describe('the two forms and the dictionary', () => {
  test('every field of both forms has its label, every option its label, every placeholder its text', () => {
    const strings: Record<string, string> = en;
    for (const field of PARTNER_FIELD_ORDER) {
      expect(strings[`partner.field.${field}`], field).toBeTruthy();
      for (const option of partnerField(field).options ?? [])
        expect(strings[`partner.option.${option.key}`], `${field}: ${option.key}`).toBeTruthy();
      const placeholder = partnerField(field).placeholder;
      const keys =
        placeholder === undefined ? [] : typeof placeholder === 'string' ? [placeholder] : Object.values(placeholder.byAnswer);
      for (const key of keys) expect(strings[key ?? ''], `${field}: ${key}`).toBeTruthy();
    }
    for (const field of CONTACT_FIELDS) expect(en[contactLabelKey(field)], field).toBeTruthy();
  });

  test("in English an option reads as the words it sends (the specification's)", () => {
    for (const field of PARTNER_FIELD_ORDER) {
      for (const option of partnerField(field).options ?? []) expect(en[`partner.option.${option.key}`]).toBe(option.value);
    }
  });

  test('a follow-up names a field before it, and answers that field offers', () => {
    const order: readonly string[] = PARTNER_FIELD_ORDER;
    for (const field of PARTNER_FIELD_ORDER) {
      const asked = partnerField(field).askedWhen;
      if (!asked) continue;
      expect(order.indexOf(asked.field), field).toBeLessThan(order.indexOf(field));
      const table: Readonly<Record<string, FieldSpec>> = PARTNER_FORM;
      const keys = table[asked.field]?.options?.map((option) => option.key) ?? [];
      for (const answer of asked.answers) expect(keys, field).toContain(answer);
    }
  });
});
