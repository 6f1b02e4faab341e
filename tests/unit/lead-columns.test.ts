/**
 * The staff command and the inbox export in staff's words: the column table the command can
 * read (src/server/lead-columns.ts, runnable by Node alone) says what the forms say, in their
 * order; the CSV's times are Riyadh's with the offset; the search's phone digits and countries.
 */
import { describe, expect, test } from 'vitest';
import { CONTACT_FIELDS, contactLabelKey } from '../../src/forms/contact';
import { PARTNER_FIELD_ORDER, partnerField, partnerLabelKey } from '../../src/forms/partner';
import { t } from '../../src/i18n';
import { leadCsvHeader, leadCsvName, leadCsvRow, riyadhDay, riyadhStamp } from '../../src/server/inbox/export-format';
import { LANGUAGE_LABELS as INBOX_LANGUAGES } from '../../src/server/inbox/lead-columns';
import { CHOSEN_ANSWERS, CONTACT_ANSWERS, PARTNER_ANSWERS, answerColumns } from '../../src/server/inbox/lead-columns';
import { countryAlternatives, phoneDigits, searchPlan } from '../../src/server/inbox/lead-search';

describe('the export columns', () => {
  test("each form's answers in the form's order, under the form's labels", () => {
    expect(CONTACT_ANSWERS).toEqual(CONTACT_FIELDS);
    expect(PARTNER_ANSWERS).toEqual(PARTNER_FIELD_ORDER);
    expect([...CHOSEN_ANSWERS]).toEqual(PARTNER_FIELD_ORDER.filter((name) => partnerField(name).options));
    expect(
      answerColumns('contact')
        .slice(0, CONTACT_FIELDS.length)
        .map((column) => column.label),
    ).toEqual(CONTACT_FIELDS.map((name) => t(contactLabelKey(name))));
    expect(answerColumns('partner').map((column) => column.label)).toEqual(
      PARTNER_FIELD_ORDER.map((name) => t(partnerLabelKey(name))),
    );
    for (const form of ['contact', 'partner'] as const) {
      const labels = answerColumns(form).map((column) => column.label);
      expect(new Set(labels).size).toBe(labels.length);
    }
    // The language written as the lead e-mail and the inbox write it.
    expect(INBOX_LANGUAGES).toEqual({ en: t('mail.language.en'), ar: t('mail.language.ar') });
  });

  test('headers in staff words, times in Riyadh with the offset, a file name with the form and the day', () => {
    expect(leadCsvHeader('contact')).toBe(
      '"Lead ID","Received (Riyadh time)","Form","Language","Status","Status set by","Assigned to","First answered (Riyadh time)","Follow-up on","Latest note","First Name","Last Name","Email","Country","City","Company","Message","Sent (visitor’s clock, UTC)","Sent (visitor’s clock, as text)"\r\n',
    );
    expect(riyadhStamp('2026-11-25T06:30:00.000Z')).toBe('2026-11-25 09:30 +03:00');
    expect(riyadhStamp('2026-11-25T22:05:00.000Z')).toBe('2026-11-26 01:05 +03:00');
    expect(riyadhDay(new Date('2026-11-25T21:30:00Z')).day).toBe('2026-11-26');
    expect(leadCsvName('partner', '2026-11-25')).toBe('globaq-partner-applications-2026-11-25.csv');
    const row = leadCsvRow({
      id: 'a0000000-0000-4000-8000-000000000001',
      form: 'partner',
      receivedAt: '2026-11-25T06:30:00.000Z',
      language: 'ar',
      fields: { name: 'عائشة', servicesTypes: ['Training Courses', 'Audits'], phoneNumber: '+966 50 123 4567' },
      status: 'closed',
      statusBy: 'huda@globaq.example',
      assignedTo: 'omar@globaq.example',
      note: '=HYPERLINK("x")',
      firstAnsweredAt: '2026-11-25T07:05:00.000Z',
      followUpOn: '2026-11-29',
    });
    expect(
      row.startsWith(
        '"a0000000-0000-4000-8000-000000000001","2026-11-25 09:30 +03:00","Partner application","Arabic","Closed","huda@globaq.example","omar@globaq.example","2026-11-25 10:05 +03:00","2026-11-29","\'=HYPERLINK(""x"")","عائشة"',
      ),
    ).toBe(true);
    // A phone answer is text in E.164 (the one formula a spreadsheet reads as text), no apostrophe before its +.
    expect(row).toContain('"=""+966501234567"""');
    expect(row).toContain('"Training Courses; Audits"');
  });
});

describe('the search plan', () => {
  test('a phone number in any digits and spacing', () => {
    expect(phoneDigits('+٩٧٣ ٣٣١٢-٣٤٥٦')).toBe('+97333123456');
    expect(phoneDigits('(۰۵۰) 123.4567')).toBe('0501234567');
    expect(searchPlan('+973').phone).toBe('+973');
    // The national number: found however the lead typed the country code or a trunk 0.
    expect(searchPlan('+973 3312 3456').phone).toBe('33123456');
    expect(searchPlan('Manama').phone).toBeUndefined();
    expect(searchPlan('12').phone).toBeUndefined();
    // 00 dialled for +, and a local number's trunk 0 left out.
    expect(searchPlan('0097317000000').phone).toBe('17000000');
    expect(searchPlan('00973 ١٧٠٠ ٠٠٠٠').phone).toBe('17000000');
    expect(searchPlan('050 123 4567').phone).toBe('501234567');
  });

  test('a country in the other language', () => {
    expect(countryAlternatives('Saudi')).toEqual(expect.arrayContaining(['المملكة العربية السعودية', 'سعودية']));
    expect(countryAlternatives('البحرين')).toEqual(['bahrain']);
    expect(countryAlternatives('مصر')).toEqual(['egypt']);
    expect(countryAlternatives('al')).toEqual([]);
    expect(searchPlan('qahtani  Saudi').words[0]).toEqual(['qahtani']);
  });
});
