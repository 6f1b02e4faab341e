/**
 * Chosen answers in the Arabic inbox: a partner application's options and a country, in the
 * words of the forms' own Arabic dictionary; typed text as typed; the English inbox as stored.
 */
import { describe, expect, test } from 'vitest';
import { leadSummary, leadView } from '../../src/server/inbox/lead-view';
import { answerIn } from '../../src/server/inbox/lead-columns';
import { personHtml } from '../../src/server/inbox/person-file';
import { locales } from '../../src/i18n';
import { ar } from '../../src/i18n/ar';
import { contactBody, partnerBody } from '../helpers/server';

const partner = {
  form: 'partner' as const,
  fields: partnerBody({
    formOfOwnership: 'Privately held company',
    servicesTypes: ['Training Courses', 'Inspection Services'],
    classroomAvailable: 'Yes',
    trainersAvailable: 'No',
    country: 'Saudi Arabia',
    organization: 'Yes Training',
  }),
};

describe('the Arabic inbox shows chosen answers in Arabic', () => {
  test('options and the country from the forms\u2019 dictionaries; typed text untouched', () => {
    expect(answerIn('partner', 'formOfOwnership', 'Privately held company', locales.ar)).toBe(ar['partner.option.privatelyHeld']);
    expect(answerIn('partner', 'classroomAvailable', 'Yes', locales.ar)).toBe('نعم');
    expect(answerIn('partner', 'trainersAvailable', 'No', locales.ar)).toBe('لا');
    expect(answerIn('partner', 'country', 'Saudi Arabia', locales.ar)).toBe('المملكة العربية السعودية');
    expect(answerIn('partner', 'servicesTypes', ['Training Courses', 'Inspection Services'], locales.ar)).toBe(
      `${ar['partner.option.trainingCourses']}، ${ar['partner.option.inspectionServices']}`,
    );
    // A typed answer that happens to read like an option stays as typed.
    expect(answerIn('partner', 'organization', 'Yes', locales.ar)).toBe('Yes');
    expect(answerIn('contact', 'country', 'Saudi Arabia', locales.ar)).toBe('المملكة العربية السعودية');
    expect(answerIn('contact', 'country', 'مصر', locales.ar)).toBe('مصر');
    // The English inbox: as stored.
    expect(answerIn('partner', 'classroomAvailable', 'Yes', locales.en)).toBe('Yes');
  });

  test('the lead page, the list and the person file', () => {
    const view = leadView(partner, locales.ar);
    const answers = view.sections.flatMap((section) => section.answers);
    const answer = (name: string) => answers.find((entry) => entry.name === name)?.text;
    expect(answer('formOfOwnership')).toBe(ar['partner.option.privatelyHeld']);
    expect(answer('classroomAvailable')).toBe('نعم');
    expect(answer('organization') ?? view.contact.find((entry) => entry.name === 'organization')?.text).toBe('Yes Training');
    expect(leadSummary(partner, locales.ar).country).toBe('المملكة العربية السعودية');
    expect(leadSummary(partner).country).toBe('Saudi Arabia');
    expect(leadSummary({ form: 'contact', fields: contactBody({ country: 'Saudi Arabia' }) }, locales.ar).country).toBe(
      'المملكة العربية السعودية',
    );
  });

  test('the person file in Arabic names the options and country in Arabic; in English as stored', () => {
    const lead = {
      ...partner,
      id: '0b7f2f4e-7a51-4c39-9a53-2f1a4a4b7c11',
      receivedAt: '2026-11-23T09:05:00.000Z',
      language: 'ar' as const,
      status: 'new' as const,
      statusBy: undefined,
      statusAt: undefined,
      note: '',
      assignedTo: undefined,
      notification: undefined,
    };
    const data = { leads: [{ lead, files: [], timeline: [] }], audit: [] } as unknown as Parameters<typeof personHtml>[0];
    const html = personHtml(data, new Date('2026-11-24T09:00:00Z'));
    expect(html).toContain(ar['partner.option.privatelyHeld']);
    expect(html).toContain('السعودية');
    expect(html).not.toContain('Privately held company');
    const english = personHtml(
      { ...data, leads: [{ lead: { ...lead, language: 'en' }, files: [], timeline: [] }] } as unknown as typeof data,
      new Date('2026-11-24T09:00:00Z'),
    );
    expect(english).toContain('Privately held company');
  });
});
