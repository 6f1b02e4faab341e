/**
 * The receiver end to end, with JavaScript off: plain HTML forms posting to /api/contact and
 * /api/partner reach /ThanksPage (from an Arabic page, with ?lang=ar, /ar/ThanksPage), a refused
 * post shows what to fix with a way back (in the form's language), and the rows are checked
 * through the staff export command.
 *
 * The first group serves minimal forms from the test at an address of the site (so the browser
 * sends the site's Origin) to reach each of the receiver's answers; the last group uses the
 * site's own /ContactUs and /Partner forms, with JavaScript on and off.
 */
import { expect, test, type Page } from '@playwright/test';
import { violations } from './axe';
import { exportRows, openFormPage, waitForProof } from './forms-helpers';
import { locales, t } from '../../src/i18n';

const FORM_PAGE = '/__test__/receiver-form';

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
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><title>Test form</title><style>.honeypot { position: absolute; inset-inline-start: -10000px; }</style></head><body><main><h1>Test form</h1>${form}</main></body></html>`,
    }),
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
    // Stored, and held for review: a post without JavaScript carries no proof of work.
    expect(exportRows('contact').some((r) => r['lastName'] === marker)).toBe(false);
    const row = exportRows('contact', { withHeld: true }).find((r) => r['lastName'] === marker);
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
    const row = exportRows('partner', { withHeld: true }).find((r) => r['name'] === marker);
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
    await expect(list).toHaveText([
      'First Name: This field is required.',
      'Email: Enter an e-mail address such as name@example.com.',
    ]);
    await page.getByRole('link', { name: 'Back to the contact form' }).click();
    await expect(page).toHaveURL(/\/ContactUs$/);
    expect(exportRows('contact', { withHeld: true }).some((r) => r['lastName'] === marker)).toBe(false);
  });

  test('a contact message from an Arabic page (?lang=ar) reaches /ar/ThanksPage and is stored', async ({ page }) => {
    const marker = `e2e-contact-ar-${Date.now()}`;
    await openForm(page, CONTACT_FORM.replace('action="/api/contact"', 'action="/api/contact?lang=ar"'));
    await page.getByLabel('First Name').fill('نورة');
    await page.getByLabel('Last Name').fill(marker);
    await page.getByLabel('Email').fill('noura@example.com');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page).toHaveURL(/\/ar\/ThanksPage$/);
    await expect(page.locator('h1')).toHaveText(t('thanks.title', {}, locales.ar));
    expect(exportRows('contact', { withHeld: true }).some((r) => r['lastName'] === marker)).toBe(true);
  });

  test('a bot that fills the hidden field sees /ThanksPage too, but is held for review, out of the leads', async ({ page }) => {
    const marker = `e2e-bot-${Date.now()}`;
    await openForm(page, CONTACT_FORM);
    await page.getByLabel('First Name').fill('Bot');
    await page.getByLabel('Last Name').fill(marker);
    await page.getByLabel('Email').fill('bot@example.com');
    await page.locator('input[name="homepage"]').fill('http://spam.example');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page).toHaveURL(/\/ThanksPage$/);
    expect(exportRows('contact').some((r) => r['lastName'] === marker)).toBe(false);
    expect(exportRows('contact', { withHeld: true }).some((r) => r['lastName'] === marker)).toBe(true);
  });
});

test('the "what to fix" page has no axe violation', async ({ page }) => {
  await openForm(page, CONTACT_FORM);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.locator('h1')).toHaveText('Please check your form');
  expect(await violations(page)).toEqual([]);
});

test('from an Arabic page, the "what to fix" page is in Arabic, right to left, back to the Arabic form, with no axe violation', async ({
  page,
}) => {
  await openForm(page, CONTACT_FORM.replace('action="/api/contact"', 'action="/api/contact?lang=ar"'));
  await page.getByLabel('Last Name').fill(`e2e-refused-ar-${Date.now()}`);
  await page.getByLabel('Email').fill('not-an-address');
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('h1')).toHaveText(t('problem.title', {}, locales.ar));
  const list = page.getByRole('region', { name: t('problem.listHeading', {}, locales.ar) }).getByRole('listitem');
  await expect(list).toHaveText([
    `${t('contact.field.firstName', {}, locales.ar)}: ${t('form.issue.required', {}, locales.ar)}`,
    `${t('contact.field.email', {}, locales.ar)}: ${t('form.issue.invalidEmail', {}, locales.ar)}`,
  ]);
  await expect(page.getByRole('link', { name: t('problem.back.contact', {}, locales.ar) })).toHaveAttribute(
    'href',
    '/ar/ContactUs',
  );
  expect(await violations(page)).toEqual([]);
});

test('the "what to fix" page has the language switch every page has: to the same form in the other language', async ({
  page,
}) => {
  for (const [action, switchTo, name] of [
    ['/api/partner', '/ar/Partner', t('locale.name', {}, locales.ar)],
    ['/api/partner?lang=ar', '/Partner', t('locale.name', {}, locales.en)],
    ['/api/contact?lang=ar', '/ContactUs', t('locale.name', {}, locales.en)],
  ] as const) {
    await openForm(
      page,
      (action.includes('contact') ? CONTACT_FORM : PARTNER_FORM).replace(/action="[^"]+"/, `action="${action}"`),
    );
    await page.getByRole('button', { name: /Send Message|Submit Application/ }).click();
    await expect(page.locator('h1')).toHaveText(t('problem.title', {}, action.endsWith('ar') ? locales.ar : locales.en));
    const link = page.locator('header.site-header').getByRole('link', { name, exact: true });
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', switchTo);
  }
});

test('same-origin posts from the site work through its own server; other origins are refused', async ({ request, baseURL }) => {
  const origin = new URL(baseURL ?? '').origin;
  const json = await request.post('/api/contact', {
    headers: { Origin: origin },
    data: {
      firstName: 'Fetch',
      lastName: `e2e-json-${Date.now()}`,
      email: 'f@example.com',
      country: '',
      city: '',
      company: '',
      message: '',
      submissionDate: new Date().toISOString(),
      submissionTimestamp: 'now',
    },
  });
  expect(json.status()).toBe(201);
  const form = await request.post('/api/partner', { headers: { Origin: origin }, form: { name: 'x' }, maxRedirects: 0 });
  expect(form.status()).toBe(400);
  const foreign = await request.post('/api/contact', {
    headers: { Origin: 'https://evil.example' },
    form: { firstName: 'x' },
    maxRedirects: 0,
  });
  expect(foreign.status()).toBe(403);
});

test.describe("the site's own forms, against the real receiver", () => {
  test('contact, with JavaScript: the success banner, and the message stored field for field', async ({ page }) => {
    const marker = `e2e-island-contact-${Date.now()}`;
    await openFormPage(page, '/ContactUs');
    await expect.poll(() => page.locator('form.site-form').evaluate((f: HTMLFormElement) => f.noValidate)).toBe(true);
    const form = page.locator('form.site-form');
    await form.getByLabel(/^First Name/).fill('Fatimah');
    await form.getByLabel(/^Last Name/).fill(marker);
    await form.getByLabel(/^Email/).fill('fatimah@example.com');
    await form.getByLabel(/^Company$/).fill('Gulf <b>Labs</b>');
    await form.getByLabel(/^Message$/).fill('نحتاج تقييم Schedule Q');
    await waitForProof(form);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.locator('.banner--success')).toContainText('Message Sent Successfully!');
    const row = exportRows('contact').find((r) => r['lastName'] === marker);
    expect(row).toMatchObject({
      firstName: 'Fatimah',
      email: 'fatimah@example.com',
      company: 'Gulf <b>Labs</b>',
      message: 'نحتاج تقييم Schedule Q',
    });
    expect(String(row?.['submissionDate'])).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test('partner, with JavaScript: the success banner after the wait, and the application stored with the file names', async ({
    page,
  }) => {
    const marker = `e2e-island-partner-${Date.now()}`;
    await openFormPage(page, '/Partner');
    const form = page.locator('form.partner-form');
    await form.getByLabel(/^Full Name/).fill(marker);
    await form.getByLabel(/^Job Title/).fill('Director');
    await form.getByLabel(/^Email/).fill('partner@example.com');
    await form.getByLabel(/^Phone Number/).fill('+973 1700 0000');
    await form.getByLabel(/^Country/).selectOption('Bahrain');
    await form.getByLabel(/^City/).fill('Manama');
    await form.getByLabel(/^Organization/).fill('Bahrain Quality Academy');
    await form.getByLabel(/^Company Website/).fill('https://example.bh');
    await form.getByLabel(/^Years in Business/).fill('12');
    await form.locator('#partner-formOfOwnership input[type="radio"][value="Other"]').check();
    await form.getByLabel(/^Ownership Details/).fill('Family partnership');
    await form
      .locator('input[type="file"]')
      .setInputFiles([{ name: 'trainer-cv.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') }]);
    await waitForProof(form);
    await form.getByRole('button', { name: 'Submit Application' }).click();
    await expect(page.locator('.banner--success')).toContainText('Application Submitted Successfully!', { timeout: 15_000 });
    const row = exportRows('partner').find((r) => r['name'] === marker);
    expect(row).toMatchObject({
      country: 'Bahrain',
      yearsInBusiness: 12,
      formOfOwnership: 'Other',
      ownershipSpecification: 'Family partnership',
      uploadedFiles: 'trainer-cv.pdf',
    });
  });

  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false });

    test('the contact page’s own form reaches /ThanksPage and the message is stored', async ({ page }) => {
      const marker = `e2e-nojs-contact-${Date.now()}`;
      await page.goto('/ContactUs');
      const form = page.locator('form.site-form');
      await form.getByLabel(/^First Name/).fill('Khalid');
      await form.getByLabel(/^Last Name/).fill(marker);
      await form.getByLabel(/^Email/).fill('khalid@example.com');
      await form.getByRole('button', { name: 'Send Message' }).click();
      await expect(page).toHaveURL(/\/ThanksPage$/);
      await expect(page.getByText('Thank you! Your form was submitted successfully.')).toBeVisible();
      // Stored, held for review (no proof of work without JavaScript): staff release it.
      expect(exportRows('contact').some((r) => r['lastName'] === marker)).toBe(false);
      expect(exportRows('contact', { withHeld: true }).some((r) => r['lastName'] === marker)).toBe(true);
    });

    test('the partner page’s own form reaches /ThanksPage and the application is stored', async ({ page }) => {
      const marker = `e2e-nojs-partner-${Date.now()}`;
      await page.goto('/Partner');
      const form = page.locator('form.partner-form');
      await form.getByLabel(/^Full Name/).fill(marker);
      await form.getByLabel(/^Job Title/).fill('Manager');
      await form.getByLabel(/^Email/).fill('nojs@example.com');
      await form.getByLabel(/^Phone Number/).fill('+966 50 000 1111');
      await form.getByLabel(/^Country/).selectOption('Saudi Arabia');
      await form.getByLabel(/^City/).fill('Jubail');
      await form.getByLabel(/^Organization/).fill('Jubail Inspection Co');
      await form.getByLabel(/^Company Website/).fill('https://example.sa');
      await form.getByLabel(/^Years in Business/).fill('3');
      await form.locator('#partner-formOfOwnership input[type="radio"][value="Privately held company"]').check();
      await form.locator('#partner-trainersAvailable').getByLabel('Yes', { exact: true }).check();
      await form.getByRole('button', { name: 'Submit Application' }).click();
      await expect(page).toHaveURL(/\/ThanksPage$/);
      const row = exportRows('partner', { withHeld: true }).find((r) => r['name'] === marker);
      expect(row).toMatchObject({
        country: 'Saudi Arabia',
        yearsInBusiness: 3,
        trainersAvailable: 'Yes',
        formOfOwnership: 'Privately held company',
      });
    });
  });
});
