/** The form rules shared by the islands and the receiver (docs/requirements.md §7, §8, §9). */
import { describe, expect, test, vi } from 'vitest';
import {
  buildContactPayload,
  contactSchema,
  contactValuesFromForm,
  emptyContact,
  missingContactFields,
} from '../../src/forms/contact';
import {
  OWNERSHIP_OPTIONS,
  PARTNER_FIELD_ORDER,
  PARTNER_REQUIRED,
  PARTNER_SECTIONS,
  buildPartnerPayload,
  emptyPartner,
  missingPartnerFields,
  partnerAsks,
  partnerPlaceholder,
  partnerSchema,
  partnerValuesFromForm,
  sectionFields,
} from '../../src/forms/partner';
import { COUNTRIES, PREFERRED_COUNTRIES } from '../../src/forms/countries';
import { countryList, countryName } from '../../src/forms/country-list';
import { MAX_FILE_BYTES, checkFiles } from '../../src/forms/files';
import { cleanVisitorText, fieldIssues, hasVisibleText, withScheme } from '../../src/forms/rules';
import { isOwnReceiver, multipartBody, submitToEndpoint } from '../../src/forms/submit';
import { filledPartner } from '../fixtures/partner';

const NOW = new Date('2026-11-22T10:30:00.000Z');

describe('contact form', () => {
  test('the body has exactly the fields of docs/requirements.md §7.3, with both timestamps', () => {
    const payload = buildContactPayload(
      { ...emptyContact(), firstName: ' Omar ', lastName: 'Saleh', email: 'omar@example.com', message: 'Hello' },
      NOW,
      'en-GB',
    );
    expect(Object.keys(payload)).toEqual([
      'firstName',
      'lastName',
      'email',
      'country',
      'city',
      'company',
      'message',
      'submissionDate',
      'submissionTimestamp',
    ]);
    expect(payload.firstName).toBe('Omar');
    expect(payload.submissionDate).toBe('2026-11-22T10:30:00.000Z');
    expect(payload.submissionTimestamp).toBe(NOW.toLocaleString('en-GB'));
    expect(contactSchema.safeParse(payload).success).toBe(true);
  });

  test('firstName, lastName and email are required (docs/requirements.md §7.2)', () => {
    expect(missingContactFields(emptyContact())).toEqual(['firstName', 'lastName', 'email']);
    expect(missingContactFields({ ...emptyContact(), firstName: 'A', lastName: '  ', email: 'a@b.co' })).toEqual(['lastName']);
    const result = contactSchema.safeParse(buildContactPayload(emptyContact(), NOW));
    expect(result.success).toBe(false);
    if (!result.success)
      expect(fieldIssues(result.error)).toEqual([
        { field: 'firstName', code: 'required' },
        { field: 'lastName', code: 'required' },
        { field: 'email', code: 'required' },
      ]);
  });

  test('the schema refuses a bad e-mail, unknown fields, wrong types and over-long text', () => {
    const ok = buildContactPayload({ ...emptyContact(), firstName: 'A', lastName: 'B', email: 'a@example.com' }, NOW);
    const issues = (body: unknown) => {
      const result = contactSchema.safeParse(body);
      return result.success ? [] : fieldIssues(result.error);
    };
    expect(issues({ ...ok, email: 'not-an-address' })).toEqual([{ field: 'email', code: 'invalidEmail' }]);
    expect(issues({ ...ok, admin: true })).toEqual([{ field: 'admin', code: 'unknownField' }]);
    expect(issues({ ...ok, message: { $gt: '' } })).toEqual([{ field: 'message', code: 'invalidValue' }]);
    expect(issues({ ...ok, message: 'x'.repeat(5001) })).toEqual([{ field: 'message', code: 'tooLong' }]);
    expect(issues({ ...ok, submissionDate: 'yesterday' })).toEqual([{ field: 'submissionDate', code: 'invalidValue' }]);
  });

  test('a form post without JavaScript becomes the same body, stamped by the server', () => {
    const body = contactValuesFromForm(new URLSearchParams('firstName=Omar&lastName=Saleh&email=omar%40example.com'), NOW);
    expect(contactSchema.safeParse(body).success).toBe(true);
    expect(body['submissionDate']).toBe(NOW.toISOString());
  });
});

describe('partner application', () => {
  test('the required fields of docs/requirements.md §8.5, in the order the form shows them', () => {
    expect(missingPartnerFields(emptyPartner())).toEqual([
      'name',
      'jobTitle',
      'email',
      'phoneNumber',
      'country',
      'cityName',
      'organization',
      'companyWebsite',
      'yearsInBusiness',
      'formOfOwnership',
    ]);
    expect(new Set(missingPartnerFields(emptyPartner()))).toEqual(new Set(PARTNER_REQUIRED));
    expect(missingPartnerFields(filledPartner())).toEqual([]);
  });

  test('the body has every partner field plus uploadedFiles, file names joined, numbers as numbers', () => {
    const payload = buildPartnerPayload({ ...filledPartner(), numberOfSites: '3', servicesTypes: ['Training Courses'] }, [
      'cv-1.pdf',
      'cv 2.docx',
    ]);
    expect(payload.uploadedFiles).toBe('cv-1.pdf, cv 2.docx');
    expect(payload.yearsInBusiness).toBe(7);
    expect(payload.numberOfSites).toBe(3);
    expect(payload.numberOfEmployees).toBeNull();
    expect(Object.keys(payload).sort()).toEqual(Object.keys(partnerSchema.shape).sort());
    expect(partnerSchema.safeParse(payload).success).toBe(true);
  });

  test("the six sections, in the spec's order, hold every field exactly once, each section in one run", () => {
    expect(PARTNER_SECTIONS).toEqual(['basic', 'company', 'interest', 'training', 'business', 'competition']);
    const inSections = PARTNER_SECTIONS.flatMap(sectionFields);
    expect(inSections).toEqual([...PARTNER_FIELD_ORDER]);
    expect(Object.keys(partnerSchema.shape)).toEqual([...PARTNER_FIELD_ORDER]);
  });

  test('follow-up questions (docs/requirements.md §8.4): asked by the answers their entry names, and only then sent', () => {
    const asks = (formOfOwnership: string) => partnerAsks('ownershipSpecification', { ...emptyPartner(), formOfOwnership });
    expect(OWNERSHIP_OPTIONS.map((option) => option.value).filter(asks)).toEqual([
      'Subsidiary (please specify name of parent company)',
      'Other',
    ]);
    expect(asks('')).toBe(false);
    const classroom = (classroomAvailable: string) =>
      partnerAsks('futureClassroomPlans', { ...emptyPartner(), classroomAvailable });
    expect([classroom('No'), classroom('Yes'), classroom('')]).toEqual([true, false, false]);
    expect(partnerAsks('name', emptyPartner())).toBe(true);
    // The follow-up's placeholder follows the answer that asked it.
    expect(partnerPlaceholder('ownershipSpecification', { ...emptyPartner(), formOfOwnership: 'Other' })).toBe(
      'partner.placeholder.other',
    );
    expect(partnerPlaceholder('ownershipSpecification', { ...emptyPartner(), formOfOwnership: OWNERSHIP_OPTIONS[2].value })).toBe(
      'partner.placeholder.subsidiary',
    );
    expect(partnerPlaceholder('country', emptyPartner())).toBe('partner.placeholder.country');
    expect(partnerPlaceholder('name', emptyPartner())).toBeUndefined();
    // Answers to hidden follow-ups are not sent.
    const payload = buildPartnerPayload(
      { ...filledPartner(), ownershipSpecification: 'Parent Co', classroomAvailable: 'Yes', futureClassroomPlans: 'x' },
      [],
    );
    expect(payload.ownershipSpecification).toBe('');
    expect(payload.futureClassroomPlans).toBe('');
  });

  test('the schema refuses negative numbers, unknown options and countries, bad phone numbers and URLs', () => {
    const ok = buildPartnerPayload(filledPartner(), []);
    const issues = (body: unknown) => {
      const result = partnerSchema.safeParse(body);
      return result.success ? [] : fieldIssues(result.error);
    };
    expect(issues({ ...ok, yearsInBusiness: -1 })).toEqual([{ field: 'yearsInBusiness', code: 'invalidNumber' }]);
    expect(issues({ ...ok, yearsInBusiness: null })).toEqual([{ field: 'yearsInBusiness', code: 'required' }]);
    expect(issues({ ...ok, numberOfSites: 2.5 })).toEqual([{ field: 'numberOfSites', code: 'invalidNumber' }]);
    expect(issues({ ...ok, formOfOwnership: 'Cooperative' })).toEqual([{ field: 'formOfOwnership', code: 'invalidOption' }]);
    expect(issues({ ...ok, country: 'Atlantis' })).toEqual([{ field: 'country', code: 'invalidOption' }]);
    expect(issues({ ...ok, servicesTypes: ['Training Courses', 'Training Courses'] })).toEqual([
      { field: 'servicesTypes', code: 'invalidOption' },
    ]);
    expect(issues({ ...ok, phoneNumber: 'call me' })).toEqual([{ field: 'phoneNumber', code: 'invalidPhone' }]);
    expect(issues({ ...ok, companyWebsite: 'example.com' })).toEqual([{ field: 'companyWebsite', code: 'invalidUrl' }]);
    expect(issues({ ...ok, classroomAvailable: 'Maybe' })).toEqual([{ field: 'classroomAvailable', code: 'invalidOption' }]);
  });

  test('phone numbers as people write them pass: extensions, slashes, Arabic-Indic digits', () => {
    const ok = buildPartnerPayload(filledPartner(), []);
    const phoneIssue = (phoneNumber: string) => {
      const result = partnerSchema.safeParse({ ...ok, phoneNumber });
      return result.success ? undefined : fieldIssues(result.error)[0]?.code;
    };
    for (const good of ['+966 50 123 4567', '(013) 800-0000 ext. 12', '013 800 0000 x45', '013/8000000 #7', '+٩٦٦ ٥٠ ١٢٣ ٤٥٦٧']) {
      expect(phoneIssue(good), good).toBeUndefined();
    }
    for (const bad of ['12345', '123456789012345678901', 'call me', '0501234567 ext', '050 123 4567 ext 1234567']) {
      expect(phoneIssue(bad), bad).toBe('invalidPhone');
    }
  });

  test('a website without its scheme gets https://; anything else is left alone', () => {
    expect(withScheme('globaq.com')).toBe('https://globaq.com');
    expect(withScheme(' www.globaq.com.sa/about ')).toBe('https://www.globaq.com.sa/about');
    expect(withScheme('example.com:8080/x')).toBe('https://example.com:8080/x');
    for (const kept of [
      'https://globaq.com',
      'http://a.example',
      'mailto:a@example.com',
      'a@example.com',
      'not a url',
      'localhost',
      '1.2',
      '',
    ]) {
      expect(withScheme(kept), kept).toBe(kept);
    }
  });

  test('a form post without JavaScript becomes the same body', () => {
    const form = new URLSearchParams(
      'name=Aisha&organization=EQT&jobTitle=MD&country=Saudi+Arabia&cityName=Dammam&email=a%40example.com&phoneNumber=%2B966501234567' +
        '&companyWebsite=https%3A%2F%2Fexample.com&yearsInBusiness=7&numberOfSites=&numberOfEmployees=12&formOfOwnership=Other' +
        '&ownershipSpecification=Family+firm&servicesTypes=Training+Courses&servicesTypes=Inspection+Services&uploadedFiles=a.pdf&uploadedFiles=b.doc' +
        '&classroomAvailable=No&futureClassroomPlans=Renting&trainersAvailable=Yes&customerSatisfactionMeasured=&qualityFamiliarity=Yes' +
        '&interestReason=&salesMarketingCapabilities=&demandAnticipation=&marketPotential=&topThreeReasons=&localCompetition=&competitorEncounters=&competitorAnalysis=&presidentName=',
    );
    const body = partnerValuesFromForm(form);
    expect(body['servicesTypes']).toEqual(['Training Courses', 'Inspection Services']);
    expect(body['targetMarkets']).toEqual([]);
    expect(body['numberOfSites']).toBeNull();
    expect(body['numberOfEmployees']).toBe(12);
    expect(body['uploadedFiles']).toBe('a.pdf, b.doc');
    const result = partnerSchema.safeParse(body);
    expect(result.success ? [] : fieldIssues(result.error)).toEqual([]);
  });

  test('a form post that leaves out optional fields (hidden follow-up questions) is still complete', () => {
    const form = new URLSearchParams(
      'name=Aisha&organization=EQT&jobTitle=MD&country=Saudi+Arabia&cityName=Dammam&email=a%40example.com&phoneNumber=%2B966501234567' +
        '&companyWebsite=https%3A%2F%2Fexample.com&yearsInBusiness=7&formOfOwnership=Privately+held+company&classroomAvailable=Yes',
    );
    const body = partnerValuesFromForm(form);
    expect(body['ownershipSpecification']).toBe('');
    expect(body['futureClassroomPlans']).toBe('');
    expect(body['numberOfSites']).toBeNull();
    const result = partnerSchema.safeParse(body);
    expect(result.success ? [] : fieldIssues(result.error)).toEqual([]);
    // Required fields left out are reported as required, not as malformed.
    const missing = partnerSchema.safeParse(partnerValuesFromForm(new URLSearchParams('name=Aisha')));
    expect(missing.success ? [] : fieldIssues(missing.error).slice(0, 3)).toEqual([
      { field: 'jobTitle', code: 'required' },
      { field: 'email', code: 'required' },
      { field: 'phoneNumber', code: 'required' },
    ]);
  });

  test('about 195 countries, each once, Saudi Arabia offered first', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(193);
    expect(COUNTRIES.length).toBeLessThanOrEqual(197);
    expect(new Set(COUNTRIES.map((c) => c.value)).size).toBe(COUNTRIES.length);
    expect(new Set(COUNTRIES.map((c) => c.key)).size).toBe(COUNTRIES.length);
    expect(COUNTRIES.every((c) => /^[A-Z]{2}$/.test(c.key))).toBe(true);
    expect(PREFERRED_COUNTRIES[0]).toBe('SA');
    expect(COUNTRIES.find((c) => c.key === 'SA')?.value).toBe('Saudi Arabia');
    expect(COUNTRIES.map((c) => c.value)).toContain('Türkiye');
  });

  test("a country is sent by its English name and read in the visitor's language by its code", () => {
    const saudi = COUNTRIES.find((c) => c.key === 'SA')!;
    expect(countryName(saudi, 'en')).toBe('Saudi Arabia');
    expect(countryName(saudi, 'ar')).toBe('المملكة العربية السعودية');
    // Every code is a current ISO 3166-1 code the Unicode data knows, by which it names the
    // country as the list does (the list keeps its own spelling of a few: "Cabo Verde", "Holy See").
    const known = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    expect(COUNTRIES.filter((c) => known.of(c.key) === undefined)).toEqual([]);
    const canonical = (name: string) =>
      name
        .replace(/ & /g, ' and ')
        .replace(/’/g, "'")
        .replace(/^St\. /, 'Saint ');
    const differing = COUNTRIES.filter((c) => canonical(known.of(c.key) ?? '') !== c.value).map((c) => c.key);
    expect(differing.sort()).toEqual(['CD', 'CG', 'CV', 'MM', 'PS', 'VA', 'VC']);
  });

  test('the English list in English collation: accents sort with their letter, the stored list in that order', () => {
    const english = countryList('en').all.map((c) => c.value);
    const collated = [...english].sort(new Intl.Collator('en').compare);
    expect(english).toEqual(collated);
    expect(COUNTRIES.map((c) => c.value)).toEqual(collated);
    expect(english.indexOf('Costa Rica')).toBeLessThan(english.indexOf("Côte d'Ivoire"));
    expect(english.indexOf("Côte d'Ivoire")).toBeLessThan(english.indexOf('Croatia'));
    expect(english.indexOf('Tunisia')).toBeLessThan(english.indexOf('Türkiye'));
    expect(english.indexOf('Türkiye')).toBeLessThan(english.indexOf('Turkmenistan'));
  });

  test('the Arabic list: every country once, in Arabic, sorted without the article, Saudi Arabia first; the answers stay English', () => {
    const english = countryList('en');
    const arabic = countryList('ar');
    expect(new Set(english.all.map((c) => c.value))).toEqual(new Set(COUNTRIES.map((c) => c.value)));
    expect(english.all.every((c) => c.label === c.value)).toBe(true);
    expect(arabic.preferred).toEqual([{ value: 'Saudi Arabia', label: 'المملكة العربية السعودية' }]);
    expect(new Set(arabic.all.map((c) => c.value))).toEqual(new Set(COUNTRIES.map((c) => c.value)));
    expect(arabic.all.every((c) => /^[\u0600-\u06FF ()-]+$/.test(c.label))).toBe(true);
    const labels = arabic.all.map((c) => c.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toContain('فلسطين');
    // Without the article: Morocco (المغرب) among the م, between Egypt (مصر) and Mexico (المكسيك).
    const at = (value: string) => arabic.all.findIndex((c) => c.value === value);
    expect(at('Egypt')).toBeLessThan(at('Morocco'));
    expect(at('Morocco')).toBeLessThan(at('Mexico'));
    expect(at('Saudi Arabia')).toBeGreaterThan(at('Sudan')); // السعودية (سعودية) after السودان (سودان)
    expect(at('Jordan')).toBeLessThan(at('Germany')); // الأردن (أردن) before ألمانيا
    expect(at('Zambia')).toBeLessThan(at('Zimbabwe'));
  });
});

describe('CV files (docs/requirements.md §9)', () => {
  test('over 2MB is refused as too large; other types as invalid; the rest kept', () => {
    const { accepted, rejected } = checkFiles([
      { name: 'cv.pdf', size: 1000 },
      { name: 'photo.JPG', size: MAX_FILE_BYTES },
      { name: 'big.docx', size: MAX_FILE_BYTES + 1 },
      { name: 'script.exe', size: 10 },
      { name: 'noextension', size: 10 },
      { name: 'cv.jpeg', size: 5 },
      { name: 'old.doc', size: 5 },
    ]);
    expect(accepted.map((f) => f.name)).toEqual(['cv.pdf', 'photo.JPG', 'cv.jpeg', 'old.doc']);
    expect(rejected).toEqual([
      { file: 'big.docx', reason: 'tooLarge' },
      { file: 'script.exe', reason: 'invalidType' },
      { file: 'noextension', reason: 'invalidType' },
    ]);
  });
});

describe('submitToEndpoint (docs/requirements.md §10.3)', () => {
  const page = 'https://www.globaq.example/ContactUs';

  test('another origin: no-cors, JSON content type, the opaque answer not read', async () => {
    const fetchImpl = vi.fn(async () => new Response(null, { status: 200 }));
    const result = await submitToEndpoint('https://script.example.com/exec', { a: 1 }, { pageUrl: page, fetchImpl });
    expect(result).toEqual({ ok: true });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('https://script.example.com/exec');
    expect(init.mode).toBe('no-cors');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{"a":1}');
  });

  test('the own receiver: its answer is read (a lead held for review says so), and a 4xx/5xx is a failure', async () => {
    const ok = await submitToEndpoint(
      '/api/contact',
      {},
      { pageUrl: page, fetchImpl: async () => new Response('{}', { status: 201 }) },
    );
    expect(ok).toEqual({ ok: true });
    const held = await submitToEndpoint(
      '/api/contact',
      {},
      { pageUrl: page, fetchImpl: async () => new Response('{"id":"7","review":true}', { status: 201 }) },
    );
    expect(held).toEqual({ ok: true, review: true });
    const bad = await submitToEndpoint(
      '/api/contact',
      {},
      { pageUrl: page, fetchImpl: async () => new Response('{}', { status: 500 }) },
    );
    expect(bad).toEqual({ ok: false, reason: 'status', status: 500 });
  });

  test('files go only to the site’s own receiver, as multipart with the same field names', async () => {
    expect(isOwnReceiver('/api/partner')).toBe(true);
    expect(isOwnReceiver('//evil.example/api')).toBe(false);
    expect(isOwnReceiver('https://script.example.com/exec')).toBe(false);
    const cv = new File(['%PDF-1.7'], 'cv.pdf', { type: 'application/pdf' });
    const data = multipartBody(
      { name: 'Aisha', servicesTypes: ['Training Courses', 'Inspection Services'], numberOfSites: null, uploadedFiles: 'cv.pdf' },
      'uploadedFiles',
      [cv],
    );
    expect([...data.keys()]).toEqual(['name', 'servicesTypes', 'servicesTypes', 'numberOfSites', 'uploadedFiles']);
    expect(data.getAll('servicesTypes')).toEqual(['Training Courses', 'Inspection Services']);
    expect(data.get('numberOfSites')).toBe('');
    expect((data.get('uploadedFiles') as File).name).toBe('cv.pdf');
    const fetchImpl = vi.fn(async () => new Response('{}', { status: 201 }));
    await submitToEndpoint('/api/partner', data, { pageUrl: page, fetchImpl });
    const [, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    // The browser writes the multipart Content-Type with its boundary: none is set by hand.
    expect(init.headers).toEqual({ Accept: 'application/json' });
    expect(init.body).toBe(data);
  });

  test('a network error, or no answer in time, is a failure', async () => {
    const network = await submitToEndpoint(
      '/api/contact',
      {},
      { pageUrl: page, fetchImpl: async () => Promise.reject(new TypeError('Failed to fetch')) },
    );
    expect(network).toEqual({ ok: false, reason: 'network' });
    const hang: typeof fetch = (_url, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
      );
    const slow = await submitToEndpoint('/api/contact', {}, { pageUrl: page, fetchImpl: hang, timeoutMs: 20 });
    expect(slow).toEqual({ ok: false, reason: 'timeout' });
  });
});

describe('visitor text: visible, and free of control characters', () => {
  test('text with no visible character is empty: zero-width, format, filler and combining characters alone', () => {
    for (const blank of [
      '',
      '   ',
      '\u200B\u200B',
      '\u200C\u200D\u2060\uFEFF',
      '\u200E\u200F\u061C',
      '\u3164',
      '\u2800',
      '\u0301\u0301',
      '\u00A0\u3000\t\n',
    ]) {
      expect(hasVisibleText(blank), JSON.stringify(blank)).toBe(false);
    }
    for (const real of ['a', 'عبدالله', '\u200Fعبدالله', '😊', '👩\u200D💻', 'Zoë', '1', '\u200B.'])
      expect(hasVisibleText(real), real).toBe(true);
  });

  test('the alert names a required field holding only invisible characters as missing', () => {
    expect(
      missingContactFields({ ...emptyContact(), firstName: '\u200B\u200B', lastName: 'Al-Harbi', email: 'a@example.com' }),
    ).toEqual(['firstName']);
    expect(missingPartnerFields({ ...filledPartner(), name: '\u2060\u200D', organization: '\uFEFF' })).toEqual([
      'name',
      'organization',
    ]);
    expect(
      contactSchema.safeParse(
        buildContactPayload({ ...emptyContact(), firstName: '\u200B', lastName: 'B', email: 'a@example.com' }),
      ).success,
    ).toBe(false);
  });

  test('an optional answer of invisible characters is stored as empty; real text keeps its direction marks', () => {
    const parsed = contactSchema.parse({
      ...buildContactPayload({ ...emptyContact(), firstName: '\u200Fسارة', lastName: 'B', email: 'a@example.com' }),
      company: '\u200B\u200B',
    });
    expect(parsed.company).toBe('');
    expect(parsed.firstName).toBe('\u200Fسارة');
  });

  test('bidirectional overrides, embeddings and isolates are taken out of every answer; direction marks stay', () => {
    expect(cleanVisitorText('Omar \u202Ecod.exe\u202C', false)).toBe('Omar cod.exe');
    expect(cleanVisitorText('\u2066a\u2067b\u2068c\u2069 \u202Ad\u202Be\u202Df', true)).toBe('abc def');
    const parsed = contactSchema.parse({
      ...buildContactPayload({
        ...emptyContact(),
        firstName: '\u202Eramo\u202C',
        lastName: '\u200Fسارة',
        email: 'a@example.com',
      }),
      message: 'Invoice \u202Efdp.exe',
    });
    expect(parsed.firstName).toBe('ramo');
    expect(parsed.lastName).toBe('\u200Fسارة');
    expect(parsed.message).toBe('Invoice fdp.exe');
    // An answer of nothing but overrides is no answer.
    expect(
      contactSchema.safeParse(
        buildContactPayload({ ...emptyContact(), firstName: '\u202E\u202E', lastName: 'B', email: 'a@example.com' }),
      ).success,
    ).toBe(false);
  });

  test('control characters are taken out; a one-line answer loses line breaks, a long one keeps them and its tabs', () => {
    expect(cleanVisitorText('Omar\u001B]0;title\u0007 \u001B[2KAl\u009B31m\u0000\u007F', false)).toBe('Omar]0;title [2KAl31m');
    expect(cleanVisitorText('First\r\nSecond\tThird', false)).toBe('First Second Third');
    expect(cleanVisitorText('First\r\nSecond\rThird\tcolumn\u001B[31m', true)).toBe('First\nSecond\nThird\tcolumn[31m');
    const parsed = contactSchema.parse({
      ...buildContactPayload({ ...emptyContact(), firstName: 'A\u001B[2K', lastName: 'B', email: 'a@example.com' }),
      message: 'Hi\r\n\tthere\u0007',
    });
    expect(parsed.firstName).toBe('A[2K');
    expect(parsed.message).toBe('Hi\n\tthere');
  });
});
