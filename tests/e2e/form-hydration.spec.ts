/**
 * A visitor on a slow phone starts typing before the form's island has started. Whatever is in
 * the server-rendered fields when the island takes over stays there, is what gets sent, and (on
 * the partner form) is kept as the draft; the focused field and its caret stay where they were.
 *
 * Deterministic: every script under /_astro/ is held back by the test until it has typed, so
 * the island cannot start early; it is then let through and the test waits for the island.
 */
import { expect, test, type Page } from '@playwright/test';
import { field, interceptEndpoint, sentBody } from './forms-helpers';

const DRAFT_KEY = 'globaq:partner-draft:v1';

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

const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const caret = (page: Page) => page.evaluate(() => (document.activeElement as HTMLInputElement | HTMLTextAreaElement | null)?.selectionStart ?? -1);

test('partner: answers typed before the island starts are kept, saved as the draft over the older one, and sent', async ({ page }) => {
  // A draft from an earlier visit: the fields typed now win over it, the others are taken from it.
  await page.addInitScript(
    ([key, draft]) => {
      if (!window.localStorage.getItem(key)) window.localStorage.setItem(key, draft);
    },
    [DRAFT_KEY, JSON.stringify({ name: 'Old Name', cityName: 'Khobar', targetMarkets: ['Education'], presidentName: 'Saeed' })] as const,
  );
  const scripts = await holdIslandScripts(page);
  const capture = await interceptEndpoint(page, '/api/partner', { status: 201 });
  await page.goto('/Partner', { waitUntil: 'domcontentloaded' });
  const form = page.locator('form.partner-form');
  const island = page.locator('astro-island', { has: form });
  await expect(form).toBeVisible();
  await expect.poll(() => scripts.held.some((path) => path.includes('PartnerForm'))).toBe(true);

  await field(page, 'Job Title').fill('Managing Director');
  await field(page, 'Email').fill('aisha@example.com');
  await field(page, 'Phone Number').fill('+966 50 123 4567');
  await field(page, 'Country').selectOption('Oman');
  await field(page, 'Organization').fill('Eastern Quality Training');
  await field(page, 'Company Website').fill('https://example.com');
  await field(page, 'Years in Business').fill('7');
  await field(page, 'Form of Ownership').selectOption('Other');
  await field(page, 'Ownership Details').fill('Family partnership');
  await page.locator('#partner-servicesTypes').getByLabel('Inspection Services', { exact: true }).check();
  await page.locator('#partner-targetMarkets').getByLabel('Healthcare', { exact: true }).check();
  await page.locator('#partner-classroomAvailable').getByLabel('No', { exact: true }).check();
  await field(page, 'How do you plan to provide training facilities?').fill('Rent a hall in Dammam.');
  await page.locator('input[type="file"]').setInputFiles([{ name: 'trainer-cv.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') }]);
  // Last, the name, typed key by key, with the caret moved back into the middle.
  const name = field(page, 'Full Name');
  await name.click();
  await page.keyboard.type('Aisha Qahtani');
  for (let i = 0; i < 'Qahtani'.length; i += 1) await page.keyboard.press('ArrowLeft');
  expect(await caret(page)).toBe('Aisha '.length);

  // All of it was typed into the server's HTML: the island has not started.
  await expect(island).toHaveAttribute('ssr', '');
  await expect(form).not.toHaveAttribute('data-hydrated');

  scripts.release();
  await expect(form).toHaveAttribute('data-hydrated', '', { timeout: 15_000 });
  await expect(island).not.toHaveAttribute('ssr');

  await expect(name).toHaveValue('Aisha Qahtani');
  await expect(field(page, 'Job Title')).toHaveValue('Managing Director');
  await expect(field(page, 'Country')).toHaveValue('Oman');
  await expect(field(page, 'Years in Business')).toHaveValue('7');
  await expect(field(page, 'Form of Ownership')).toHaveValue('Other');
  await expect(field(page, 'Ownership Details')).toHaveValue('Family partnership');
  await expect(field(page, 'Ownership Details')).toBeVisible();
  await expect(page.locator('#partner-servicesTypes input:checked')).toHaveCount(1);
  await expect(page.locator('#partner-targetMarkets input:checked')).toHaveCount(1);
  await expect(page.locator('#partner-targetMarkets').getByLabel('Healthcare', { exact: true })).toBeChecked();
  await expect(page.locator('#partner-classroomAvailable').getByLabel('No', { exact: true })).toBeChecked();
  await expect(field(page, 'How do you plan to provide training facilities?')).toHaveValue('Rent a hall in Dammam.');
  await expect(field(page, 'How do you plan to provide training facilities?')).toBeVisible();
  // Empty on the page, so taken from the older draft.
  await expect(field(page, 'City')).toHaveValue('Khobar');
  await expect(field(page, 'Name of President or CEO')).toHaveValue('Saeed');
  // The file chosen before the island started is listed, as if chosen after.
  await expect(page.locator('.selected-files li')).toHaveText(['trainer-cv.pdf']);

  // Focus and caret are where the visitor left them: typing goes on in the middle of the name.
  expect(await focusedId(page)).toBe('partner-name');
  expect(await caret(page)).toBe('Aisha '.length);
  await page.keyboard.type('Al-');
  await expect(name).toHaveValue('Aisha Al-Qahtani');

  // The draft holds what the page shows.
  const draft = JSON.parse((await page.evaluate((key) => window.localStorage.getItem(key), DRAFT_KEY)) ?? '{}') as Record<string, unknown>;
  expect(draft).toMatchObject({
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

  await page.getByRole('button', { name: 'Submit Application' }).click();
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

test('partner: with no draft and nothing typed, starting the island saves nothing', async ({ page }) => {
  const scripts = await holdIslandScripts(page);
  await page.goto('/Partner', { waitUntil: 'domcontentloaded' });
  await expect.poll(() => scripts.held.some((path) => path.includes('PartnerForm'))).toBe(true);
  scripts.release();
  await expect(page.locator('form.partner-form')).toHaveAttribute('data-hydrated', '', { timeout: 15_000 });
  await expect(field(page, 'Full Name')).toHaveValue('');
  expect(await page.evaluate((key) => window.localStorage.getItem(key), DRAFT_KEY)).toBeNull();
  await expect(page.getByRole('button', { name: 'Clear my answers' })).toHaveCount(0);
});

test('contact: what is typed before the island starts is kept and sent, focus and caret stay', async ({ page }) => {
  const scripts = await holdIslandScripts(page);
  const capture = await interceptEndpoint(page, '/api/contact', { status: 201 });
  await page.goto('/ContactUs', { waitUntil: 'domcontentloaded' });
  const form = page.locator('form.site-form');
  const island = page.locator('astro-island', { has: form });
  await expect(form).toBeVisible();
  await expect.poll(() => scripts.held.some((path) => path.includes('ContactForm'))).toBe(true);

  await field(page, 'First Name').fill('Omar');
  await field(page, 'Last Name').fill('Al-Harbi');
  await field(page, 'Email').fill('omar@example.com');
  await field(page, 'City').fill('Dammam');
  const message = field(page, 'Message');
  await message.click();
  await page.keyboard.type('We need a Schedule Q assessment.');
  await page.keyboard.press('ArrowLeft');
  const caretAt = 'We need a Schedule Q assessment'.length;
  expect(await caret(page)).toBe(caretAt);

  await expect(island).toHaveAttribute('ssr', '');
  expect(await form.evaluate((f: HTMLFormElement) => f.noValidate)).toBe(false);

  scripts.release();
  // Started once the island has set noValidate.
  await expect.poll(() => form.evaluate((f: HTMLFormElement) => f.noValidate), { timeout: 15_000 }).toBe(true);

  await expect(field(page, 'First Name')).toHaveValue('Omar');
  await expect(field(page, 'Last Name')).toHaveValue('Al-Harbi');
  await expect(message).toHaveValue('We need a Schedule Q assessment.');
  expect(await focusedId(page)).toBe('contact-message');
  expect(await caret(page)).toBe(caretAt);
  await page.keyboard.type(' at 15%');
  await expect(message).toHaveValue('We need a Schedule Q assessment at 15%.');

  await page.getByRole('button', { name: 'Send Message' }).click();
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
  await expect(page.locator('.banner--success')).toContainText('Message Sent Successfully!');
});
