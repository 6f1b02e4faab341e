/**
 * A visitor on a slow phone starts typing before the form's island has started, on the English
 * or the Arabic page (each language's page hands its island its own words). Whatever is in
 * the server-rendered fields when the island takes over stays there, is what gets sent, and (on
 * the partner form) is kept as the draft; the focused field and its caret stay where they were
 * (on the Arabic page the fields run right to left, so the caret is moved back with the right arrow).
 *
 * The island loads only when the visitor reaches for the form (client:intent): the first
 * focus, press or pointer over it asks for its script. Deterministic: every script under
 * /_astro/ is held back by the test until it has typed, so the island cannot start early; it is
 * then let through and the test waits for the island.
 *
 * Before any of that, a form page (like a content page) asks for no script at all.
 */
import { expect, test } from './site-locale';
import type { Locator, Page } from '@playwright/test';
import {
  chosenOwnership,
  contactField,
  formEndpoint,
  interceptEndpoint,
  ownershipAnswer,
  partnerChoice,
  partnerField,
  sentBody,
} from './forms-helpers';
import { PARTNER_DRAFT_KEY as DRAFT_KEY, type PartnerField } from '../../src/forms/partner';
import type { ContactField } from '../../src/forms/contact';
import { TYPING_PAUSE_MS } from '../../src/lib/typing-pause';
import { requestsSeen } from './requests-seen';

/** Holds every request for a script under /_astro/ until `release()`; `held` lists them. */
async function holdIslandScripts(page: Page) {
  const held: string[] = [];
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  let released = false;
  await page.route('**/_astro/*.js', async (route) => {
    if (!released) {
      held.push(new URL(route.request().url()).pathname);
      await gate;
    }
    await route.continue();
  });
  return {
    held,
    release: () => {
      released = true;
      open();
    },
  };
}

/**
 * Follows, in the page, the island's directive fetching its module files ahead of running them
 * (src/integrations/intent-directive.client.ts, fetchModules: the only fetch of a script on these
 * pages), by wrapping the page's `fetch` to watch, not to change, them. The returned function
 * resolves, with the files' paths, once every file fetched has been read and no other fetch has
 * begun since, a turn of the page's task queue after the last read: by then the directive has
 * gone on to what it does next (an import of the island would have been asked for).
 */
async function watchIslandFileReads(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const original = window.fetch.bind(window);
    const paths: string[] = [];
    let reading = 0;
    let done: (paths: string[]) => void = () => {};
    const read = new Promise<string[]>((resolve) => (done = resolve));
    // A turn of the task queue (a MessageChannel, which the paused fake clock does not hold
    // back): the reads of the files a file imports begin in the microtasks after its read.
    const finished = () => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        reading -= 1;
        if (reading === 0) done([...paths]);
      };
      channel.port2.postMessage(null);
    };
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input), document.baseURI);
      const response = original(input, init);
      if (!/^\/_astro\/[^/]+\.js$/.test(url.pathname)) return response;
      reading += 1;
      paths.push(url.pathname);
      return response.then(
        (answer) => {
          if (!answer.ok) {
            finished();
            return answer;
          }
          const text = answer.text.bind(answer);
          answer.text = () => text().finally(finished);
          return answer;
        },
        (error: unknown) => {
          finished();
          throw error;
        },
      );
    };
    (window as unknown as { islandFilesRead: Promise<string[]> }).islandFilesRead = read;
  });
  return () => page.evaluate(() => (window as unknown as { islandFilesRead: Promise<string[]> }).islandFilesRead);
}

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const caret = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLInputElement | HTMLTextAreaElement | null)?.selectionStart ?? -1);
/**
 * The arrow key that moves the caret one character back in a field written in `dir`: the
 * fields of a right-to-left page run right to left, where "back" is the right arrow.
 */
const backKey = (dir: 'ltr' | 'rtl') => (dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft');
const direction = (locator: Locator) => locator.evaluate((el) => getComputedStyle(el).direction);

test('partner: answers typed before the island starts are kept, saved as the draft over the older one, and sent', async ({
  page,
  lang,
}) => {
  // A draft from an earlier visit: the fields typed now win over it, the others are taken from it.
  await page.addInitScript(
    ([key, draft]) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, draft);
    },
    [
      DRAFT_KEY,
      JSON.stringify({ name: 'Old Name', cityName: 'Khobar', targetMarkets: ['Education'], presidentName: 'Saeed' }),
    ] as const,
  );
  const scripts = await holdIslandScripts(page);
  const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 201 });
  await page.goto(lang.path('/Partner'), { waitUntil: 'domcontentloaded' });
  const form = page.locator('form.partner-form');
  const island = page.locator('astro-island', { has: form });
  await expect(form).toBeVisible();

  const control = (name: PartnerField) => partnerField(page, name, lang);
  await control('jobTitle').fill('Managing Director');
  await control('email').fill('aisha@example.com');
  await control('phoneNumber').fill('+966 50 123 4567');
  // The lists by their values, the specification's English words in every language.
  await control('country').selectOption({ value: 'Oman' });
  await control('organization').fill('Eastern Quality Training');
  await control('companyWebsite').fill('https://example.com');
  await control('yearsInBusiness').fill('7');
  await ownershipAnswer(page, 'Other').check();
  await control('ownershipSpecification').fill('Family partnership');
  await partnerChoice(page, 'servicesTypes', 'inspectionServices', lang).check();
  await partnerChoice(page, 'targetMarkets', 'healthcare', lang).check();
  await partnerChoice(page, 'classroomAvailable', 'no', lang).check();
  await control('futureClassroomPlans').fill('Rent a hall in Dammam.');
  await page
    .locator('input[type="file"]')
    .setInputFiles([{ name: 'trainer-cv.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') }]);
  // Last, the name, typed key by key, with the caret moved back into the middle.
  const name = control('name');
  expect(await direction(name)).toBe(lang.dir);
  await name.click();
  await page.keyboard.type('Aisha Qahtani');
  for (let i = 0; i < 'Qahtani'.length; i += 1) await page.keyboard.press(backKey(lang.dir));
  expect(await caret(page)).toBe('Aisha '.length);

  // Reaching for the form asked for the island's script; all of it was typed into the server's
  // HTML: the island has not started.
  await expect.poll(() => scripts.held.some((path) => path.includes('PartnerForm'))).toBe(true);
  await expect(island).toHaveAttribute('ssr', '');
  await expect(form).not.toHaveAttribute('data-hydrated');

  scripts.release();
  await expect(form).toHaveAttribute('data-hydrated', '', { timeout: 15_000 });
  await expect(island).not.toHaveAttribute('ssr');

  await expect(name).toHaveValue('Aisha Qahtani');
  await expect(control('jobTitle')).toHaveValue('Managing Director');
  await expect(control('country')).toHaveValue('Oman');
  await expect(control('yearsInBusiness')).toHaveValue('7');
  await expect(chosenOwnership(page)).toHaveValue('Other');
  await expect(control('ownershipSpecification')).toHaveValue('Family partnership');
  await expect(control('ownershipSpecification')).toBeVisible();
  await expect(page.locator('#partner-servicesTypes input:checked')).toHaveCount(1);
  await expect(page.locator('#partner-targetMarkets input:checked')).toHaveCount(1);
  await expect(partnerChoice(page, 'targetMarkets', 'healthcare', lang)).toBeChecked();
  await expect(partnerChoice(page, 'classroomAvailable', 'no', lang)).toBeChecked();
  await expect(control('futureClassroomPlans')).toHaveValue('Rent a hall in Dammam.');
  await expect(control('futureClassroomPlans')).toBeVisible();
  // Empty on the page, so taken from the older draft.
  await expect(control('cityName')).toHaveValue('Khobar');
  await expect(control('presidentName')).toHaveValue('Saeed');
  // The file chosen before the island started is listed, as if chosen after.
  await expect(page.locator('.selected-files__name')).toHaveText(['trainer-cv.pdf']);

  // Focus and caret are where the visitor left them: typing goes on in the middle of the name.
  expect(await focusedId(page)).toBe('partner-name');
  expect(await caret(page)).toBe('Aisha '.length);
  await page.keyboard.type('Al-');
  await expect(name).toHaveValue('Aisha Al-Qahtani');

  // The draft holds what the page shows, written in the pause after the last key.
  const draft = async () =>
    JSON.parse((await page.evaluate((key) => window.localStorage.getItem(key), DRAFT_KEY)) ?? '{}') as Record<string, unknown>;
  await expect.poll(draft).toMatchObject({
    name: 'Aisha Al-Qahtani',
    jobTitle: 'Managing Director',
    country: 'Oman',
    cityName: 'Khobar',
    yearsInBusiness: '7',
    formOfOwnership: 'Other',
    ownershipSpecification: 'Family partnership',
    servicesTypes: ['Inspection Services'],
    targetMarkets: ['Healthcare'],
    classroomAvailable: 'No',
    futureClassroomPlans: 'Rent a hall in Dammam.',
    presidentName: 'Saeed',
  });

  await page.getByRole('button', { name: lang.t('partner.submit') }).click();
  await expect.poll(() => capture.requests.length).toBe(1);
  expect(capture.alerts).toEqual([]);
  expect((await sentBody(capture.requests[0]!)).body).toMatchObject({
    name: 'Aisha Al-Qahtani',
    jobTitle: 'Managing Director',
    email: 'aisha@example.com',
    phoneNumber: '+966 50 123 4567',
    country: 'Oman',
    cityName: 'Khobar',
    organization: 'Eastern Quality Training',
    companyWebsite: 'https://example.com',
    yearsInBusiness: 7,
    formOfOwnership: 'Other',
    ownershipSpecification: 'Family partnership',
    presidentName: 'Saeed',
    servicesTypes: ['Inspection Services'],
    targetMarkets: ['Healthcare'],
    classroomAvailable: 'No',
    futureClassroomPlans: 'Rent a hall in Dammam.',
    uploadedFiles: 'trainer-cv.pdf',
  });
});

test('partner: with no draft and nothing typed, starting the island saves nothing', async ({ page, lang }) => {
  const scripts = await holdIslandScripts(page);
  await page.goto(lang.path('/Partner'), { waitUntil: 'domcontentloaded' });
  await page.locator('form.partner-form h2').hover();
  await expect.poll(() => scripts.held.some((path) => path.includes('PartnerForm'))).toBe(true);
  scripts.release();
  await expect(page.locator('form.partner-form')).toHaveAttribute('data-hydrated', '', { timeout: 15_000 });
  await expect(partnerField(page, 'name', lang)).toHaveValue('');
  expect(await page.evaluate((key) => window.localStorage.getItem(key), DRAFT_KEY)).toBeNull();
  await expect(page.getByRole('button', { name: lang.t('partner.draft.clear') })).toHaveCount(0);
});

test('contact: what is typed before the island starts is kept and sent, focus and caret stay @rtl', async ({ page, lang }) => {
  const scripts = await holdIslandScripts(page);
  const capture = await interceptEndpoint(page, formEndpoint('contact', lang), { status: 201 });
  await page.goto(lang.path('/ContactUs'), { waitUntil: 'domcontentloaded' });
  const form = page.locator('form.site-form');
  const island = page.locator('astro-island', { has: form });
  await expect(form).toBeVisible();

  const control = (name: ContactField) => contactField(page, name, lang);
  await control('firstName').fill('Omar');
  await control('lastName').fill('Al-Harbi');
  await control('email').fill('omar@example.com');
  await control('city').fill('Dammam');
  const message = control('message');
  await message.click();
  await page.keyboard.type('We need a Schedule Q assessment.');
  expect(await direction(message)).toBe(lang.dir);
  // The message's line takes its direction from its own letters: English runs left to right on
  // either page, so "back" is the left arrow.
  await page.keyboard.press(backKey('ltr'));
  const caretAt = 'We need a Schedule Q assessment'.length;
  expect(await caret(page)).toBe(caretAt);

  await expect.poll(() => scripts.held.some((path) => path.includes('ContactForm'))).toBe(true);
  await expect(island).toHaveAttribute('ssr', '');
  expect(await form.evaluate((f: HTMLFormElement) => f.noValidate)).toBe(false);

  scripts.release();
  // Started once the island has set noValidate.
  await expect.poll(() => form.evaluate((f: HTMLFormElement) => f.noValidate), { timeout: 15_000 }).toBe(true);

  await expect(control('firstName')).toHaveValue('Omar');
  await expect(control('lastName')).toHaveValue('Al-Harbi');
  await expect(message).toHaveValue('We need a Schedule Q assessment.');
  expect(await focusedId(page)).toBe('contact-message');
  expect(await caret(page)).toBe(caretAt);
  await page.keyboard.type(' at 15%');
  await expect(message).toHaveValue('We need a Schedule Q assessment at 15%.');

  await page.getByRole('button', { name: lang.t('contact.submit') }).click();
  await expect.poll(() => capture.requests.length).toBe(1);
  expect(capture.alerts).toEqual([]);
  expect((await sentBody(capture.requests[0]!)).body).toMatchObject({
    firstName: 'Omar',
    lastName: 'Al-Harbi',
    email: 'omar@example.com',
    country: '',
    city: 'Dammam',
    company: '',
    message: 'We need a Schedule Q assessment at 15%.',
  });
  await expect(page.locator('.banner--success')).toContainText(lang.t('contact.success.title'));
});

test('a content page and both form pages ask for no script before the visitor reaches for something; reaching for the form asks for its island', async ({
  page,
  lang,
}) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  for (const path of ['/AboutUs', '/ContactUs', '/Partner']) {
    scripts.length = 0;
    await page.goto(lang.path(path), { waitUntil: 'load' });
    // Past the browser's idle time, when an island on client:idle would have asked (its idle
    // callback, asked for as the page loaded, runs before this one), and every request asked for
    // until then has been reported.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    await requestsSeen(page);
    expect(scripts, path).toEqual([]);
    if (path === '/AboutUs') continue;
    await page.locator('main form h2').hover();
    await expect.poll(() => scripts.some((script) => /\/(ContactForm|PartnerForm)\./.test(script)), { message: path }).toBe(true);
    await expect(page.locator('form[data-hydrated]')).toBeVisible({ timeout: 15_000 });
  }
});

for (const form of ['contact', 'partner'] as const) {
  test(`${form}: text typed in the first 100 ms of the page survives the island's start, and typing goes on`, async ({
    page,
    lang,
  }) => {
    const start = Date.now();
    await page.goto(lang.path(form === 'contact' ? '/ContactUs' : '/Partner'), { waitUntil: 'commit' });
    const field = form === 'contact' ? contactField(page, 'firstName', lang) : partnerField(page, 'name', lang);
    await field.click();
    await page.keyboard.type('Omar');
    const typedWithin = Date.now() - start;
    await expect(page.locator('form[data-hydrated]')).toBeVisible({ timeout: 15_000 });
    await expect(field).toHaveValue('Omar');
    await expect(field).toBeFocused();
    await page.keyboard.type(' Al-Harbi');
    await expect(field).toHaveValue('Omar Al-Harbi');
    // Recorded, not asserted: the machine may be slow, the behaviour is the same.
    test.info().annotations.push({ type: 'typed within', description: `${typedWithin} ms of asking for the page` });
  });
}

for (const form of ['contact', 'partner'] as const) {
  test(`${form}: the island's script arrives while the visitor types and runs only in their pause`, async ({ page, lang }) => {
    await page.goto(lang.path(form === 'contact' ? '/ContactUs' : '/Partner'), { waitUntil: 'load' });
    // The island's files come only once the visitor is typing, as on a slow connection.
    const scripts = await holdIslandScripts(page);
    const run: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') run.push(new URL(request.url()).pathname);
    });
    const filesRead = await watchIslandFileReads(page);
    // The page's clock stands still from here: a pause in the typing lasts until the test says so.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1000);
    const field = form === 'contact' ? contactField(page, 'firstName', lang) : partnerField(page, 'name', lang);
    await field.click();
    await page.keyboard.type('Omar');
    const island = form === 'contact' ? /\/ContactForm\./ : /\/PartnerForm\./;
    await expect.poll(() => scripts.held.some((path) => island.test(path))).toBe(true);
    scripts.release();
    // Downloaded, not run: every file of the island is in the page, and the island asked for
    // none of them to run (an import is a script request) and has not started: the visitor is
    // still within their typing.
    expect(await filesRead()).toEqual(expect.arrayContaining([expect.stringMatching(island)]));
    await requestsSeen(page);
    expect(run).toEqual([]);
    await expect(page.locator('form[data-hydrated]')).toHaveCount(0);
    await page.clock.runFor(TYPING_PAUSE_MS);
    await expect(page.locator('form[data-hydrated]')).toBeVisible({ timeout: 15_000 });
    await expect(field).toHaveValue('Omar');
    await expect(field).toBeFocused();
  });
}
