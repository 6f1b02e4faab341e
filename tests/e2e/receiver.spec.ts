/**
 * The receiver end to end, with JavaScript off: plain HTML forms posting to /api/contact and
 * /api/partner reach /ThanksPage, a refused post shows what to fix with a way back, and the
 * rows are checked through the staff export command.
 *
 * The site's own forms arrive with their own issue; until then the forms here are served by
 * the test at an address of the site (so the browser sends the site's Origin, as the real
 * forms will), with the fields and names of the forms' schemas.
 */
import { spawnSync } from 'node:child_process';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

const DB = process.env['E2E_SUBMISSIONS_DB'] ?? '';
const FORM_PAGE = '/__test__/receiver-form';

function exportRows(form: 'contact' | 'partner', bots = false): Record<string, unknown>[] {
  const result = spawnSync('npm', ['run', '--silent', 'submissions', '--', 'export', '--form', form, '--format', 'json', ...(bots ? ['--bots'] : [])], {
    env: { ...process.env, SUBMISSIONS_DB: DB },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>[];
}

const CONTACT_FORM = `
  <form method="post" action="/api/contact">
    <label>First Name <input name="firstName"></label>
    <label>Last Name <input name="lastName"></label>
    <label>Email <input name="email"></label>
    <label>Country <input name="country"></label>
    <label>City <input name="city"></label>
    <label>Company <input name="company"></label>
    <label>Message <textarea name="message"></textarea></label>
    <div class="honeypot" aria-hidden="true"><label>Homepage <input name="homepage" tabindex="-1" autocomplete="off"></label></div>
    <button type="submit">Send Message</button>
  </form>`;

const PARTNER_FORM = `
  <form method="post" action="/api/partner">
    <label>Name <input name="name"></label>
    <label>Organization <input name="organization"></label>
    <label>Job Title <input name="jobTitle"></label>
    <label>Country <select name="country"><option value="">Choose</option><option>Saudi Arabia</option><option>Bahrain</option></select></label>
    <label>City <input name="cityName"></label>
    <label>Email <input name="email"></label>
    <label>Phone <input name="phoneNumber"></label>
    <label>Website <input name="companyWebsite"></label>
    <label>Years in Business <input name="yearsInBusiness"></label>
    <label>Sites <input name="numberOfSites"></label>
    <label>Form of Ownership <select name="formOfOwnership"><option value="">Choose</option><option>Privately held company</option><option>Other</option></select></label>
    <fieldset><legend>Services</legend>
      <label><input type="checkbox" name="servicesTypes" value="Training Courses"> Training Courses</label>
      <label><input type="checkbox" name="servicesTypes" value="Inspection Services"> Inspection Services</label>
    </fieldset>
    <fieldset><legend>Classroom available</legend>
      <label><input type="radio" name="classroomAvailable" value="Yes"> Yes</label>
      <label><input type="radio" name="classroomAvailable" value="No"> No</label>
    </fieldset>
    <label>CVs <input type="file" name="uploadedFiles" multiple></label>
    <div class="honeypot" aria-hidden="true"><label>Homepage <input name="homepage" tabindex="-1" autocomplete="off"></label></div>
    <button type="submit">Submit Application</button>
  </form>`;

async function openForm(page: Page, form: string) {
  await page.route(`**${FORM_PAGE}`, (route) =>
    route.fulfill({ contentType: 'text/html; charset=utf-8', body: `<!doctype html><html lang="en"><head><title>Test form</title><style>.honeypot { position: absolute; inset-inline-start: -10000px; }</style></head><body><main><h1>Test form</h1>${form}</main></body></html>` }),
  );
  await page.goto(FORM_PAGE);
}

test.describe('with JavaScript off', () => {
  test.use({ javaScriptEnabled: false });

  test('a contact message reaches /ThanksPage and is stored, Arabic and markup verbatim', async ({ page }) => {
    const marker = `e2e-contact-${Date.now()}`;
    await openForm(page, CONTACT_FORM);
    await page.getByLabel('First Name').fill('عبدالله');
    await page.getByLabel('Last Name').fill(marker);
    await page.getByLabel('Email').fill('abdullah@example.com');
    await page.getByLabel('Message').fill('<b>Bold?</b> =1+1');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page).toHaveURL(/\/ThanksPage$/);
    await expect(page.locator('h1')).toHaveText('Thank You');
    const row = exportRows('contact').find((r) => r['lastName'] === marker);
    expect(row).toMatchObject({ firstName: 'عبدالله', email: 'abdullah@example.com', message: '<b>Bold?</b> =1+1', company: '' });
    expect(String(row?.['receivedAt'])).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test('a partner application reaches /ThanksPage; checkboxes become lists, file names are kept', async ({ page }) => {
    const marker = `e2e-partner-${Date.now()}`;
    await openForm(page, PARTNER_FORM);
    await page.getByLabel('Name', { exact: true }).fill(marker);
    await page.getByLabel('Organization').fill('Eastern Quality Training');
    await page.getByLabel('Job Title').fill('Managing Director');
    await page.getByLabel('Country').selectOption('Saudi Arabia');
    await page.getByLabel('City').fill('Dammam');
    await page.getByLabel('Email').fill('aisha@example.com');
    await page.getByLabel('Phone').fill('+966 50 123 4567');
    await page.getByLabel('Website').fill('https://example.com');
    await page.getByLabel('Years in Business').fill('7');
    await page.getByLabel('Form of Ownership').selectOption('Privately held company');
    await page.getByLabel('Training Courses').check();
    await page.getByLabel('Inspection Services').check();
    await page.getByLabel('No', { exact: true }).check();
    await page.getByLabel('CVs').setInputFiles([
      { name: 'cv-one.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') },
      { name: 'cv-two.docx', mimeType: 'application/octet-stream', buffer: Buffer.from('x') },
    ]);
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect(page).toHaveURL(/\/ThanksPage$/);
    const row = exportRows('partner').find((r) => r['name'] === marker);
    expect(row).toMatchObject({
      yearsInBusiness: 7,
      numberOfSites: null,
      servicesTypes: ['Training Courses', 'Inspection Services'],
      targetMarkets: [],
      classroomAvailable: 'No',
      uploadedFiles: 'cv-one.pdf, cv-two.docx',
    });
  });

  test('a refused post lists what to fix, links back to the form, and stores nothing', async ({ page }) => {
    const marker = `e2e-refused-${Date.now()}`;
    await openForm(page, CONTACT_FORM);
    await page.getByLabel('Last Name').fill(marker);
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.locator('h1')).toHaveText('Please check your form');
    const list = page.getByRole('region', { name: 'To correct' }).getByRole('listitem');
    await expect(list).toHaveText(['First Name: This field is required.', 'Email: Enter an e-mail address such as name@example.com.']);
    await page.getByRole('link', { name: 'Back to the contact form' }).click();
    await expect(page).toHaveURL(/\/ContactUs$/);
    expect(exportRows('contact').some((r) => r['lastName'] === marker)).toBe(false);
  });

  test('a bot that fills the hidden field sees /ThanksPage too, but is kept out of the leads', async ({ page }) => {
    const marker = `e2e-bot-${Date.now()}`;
    await openForm(page, CONTACT_FORM);
    await page.getByLabel('First Name').fill('Bot');
    await page.getByLabel('Last Name').fill(marker);
    await page.getByLabel('Email').fill('bot@example.com');
    await page.locator('input[name="homepage"]').fill('http://spam.example');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page).toHaveURL(/\/ThanksPage$/);
    expect(exportRows('contact').some((r) => r['lastName'] === marker)).toBe(false);
    expect(exportRows('contact', true).some((r) => r['lastName'] === marker)).toBe(true);
  });
});

test('the "what to fix" page has no axe violation', async ({ page }) => {
  await openForm(page, CONTACT_FORM);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.locator('h1')).toHaveText('Please check your form');
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('same-origin posts from the site work through its own server; other origins are refused', async ({ request, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const json = await request.post('/api/contact', {
    headers: { Origin: origin },
    data: { firstName: 'Fetch', lastName: `e2e-json-${Date.now()}`, email: 'f@example.com', country: '', city: '', company: '', message: '', submissionDate: new Date().toISOString(), submissionTimestamp: 'now' },
  });
  expect(json.status()).toBe(201);
  const form = await request.post('/api/partner', { headers: { Origin: origin }, form: { name: 'x' }, maxRedirects: 0 });
  expect(form.status()).toBe(400);
  const foreign = await request.post('/api/contact', { headers: { Origin: 'https://evil.example' }, form: { firstName: 'x' }, maxRedirects: 0 });
  expect(foreign.status()).toBe(403);
});
