/** The partner application, every rule of spec §3, §4, §5, §7, §8, with the endpoint intercepted. */
import { expect, test, type Page } from '@playwright/test';
import { violations } from './axe';
import { field, fillPartnerRequired, interceptEndpoint, recordFormEvents, sentBody } from './forms-helpers';
import { site } from './site-data';

const ENDPOINT = '/api/partner';
const MB = 1024 * 1024;

const file = (name: string, size: number, mimeType = 'application/pdf') => ({ name, mimeType, buffer: Buffer.alloc(size, 0x41) });

const fillRequired = (page: Page) => fillPartnerRequired(page);

const axe = async (page: Page) => (await violations(page)).map((line) => line.split(':')[0]);

test.describe('with JavaScript', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/Partner');
    await expect(page.locator('form.partner-form[data-hydrated]')).toBeVisible();
  });

  test('the six sections, in order', async ({ page }) => {
    await expect(page.locator('form.partner-form > fieldset > legend')).toHaveText([
      'Basic Information',
      'Company Information',
      'Partnership Interest',
      'Training & Capabilities',
      'Business Analysis',
      'Competition Analysis',
    ]);
  });

  test('controls of the right types: e-mail, URL, telephone, numbers from 0, about 195 countries with Saudi Arabia first', async ({
    page,
  }) => {
    await expect(field(page, 'Email')).toHaveAttribute('type', 'email');
    await expect(field(page, 'Company Website')).toHaveAttribute('type', 'url');
    await expect(field(page, 'Phone Number')).toHaveAttribute('type', 'tel');
    for (const label of ['Years in Business', 'Number of Sites', 'Number of Employees']) {
      await expect(field(page, label)).toHaveAttribute('type', 'number');
      await expect(field(page, label)).toHaveAttribute('min', '0');
    }
    const countries = field(page, 'Country').locator('optgroup option');
    expect(await countries.count()).toBeGreaterThanOrEqual(193);
    await expect(field(page, 'Country').locator('option').nth(1)).toHaveText('Saudi Arabia');
    await expect(field(page, 'Form of Ownership').locator('option')).toHaveText([
      'Select the form of ownership',
      'Corporation (publicly held)',
      'Privately held company',
      'Subsidiary (please specify name of parent company)',
      'University (please specify if private or public)',
      'Other',
    ]);
    await expect(page.locator('#partner-servicesTypes input[type="checkbox"]')).toHaveCount(3);
    await expect(page.locator('#partner-targetMarkets input[type="checkbox"]')).toHaveCount(6);
    for (const id of ['classroomAvailable', 'trainersAvailable', 'customerSatisfactionMeasured', 'qualityFamiliarity']) {
      await expect(page.locator(`#partner-${id} input[type="radio"]`)).toHaveCount(2);
    }
  });

  test('missing required fields: one alert naming them, nothing sent, focus on the first', async ({ page }) => {
    const capture = await interceptEndpoint(page, ENDPOINT, { status: 201 });
    await field(page, 'Organization').fill('EQT');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect
      .poll(() => capture.alerts)
      .toEqual([
        'Please fill in all required fields: Full Name, Job Title, Email, Phone Number, Country, City, Company Website, Years in Business, Form of Ownership',
      ]);
    expect(capture.requests).toHaveLength(0);
    await expect(field(page, 'Full Name')).toBeFocused();
    await expect(field(page, 'Country')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'Organization')).not.toHaveAttribute('aria-invalid', 'true');
    expect(await axe(page)).toEqual([]);

    // In the order of the page: the alert, the summary and the focus all start with the first gap on screen.
    await field(page, 'Organization').fill('');
    await field(page, 'Full Name').fill('Aisha Al-Qahtani');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect.poll(() => capture.alerts.length).toBe(2);
    expect(capture.alerts[1]).toBe(
      'Please fill in all required fields: Job Title, Email, Phone Number, Country, City, Organization, Company Website, Years in Business, Form of Ownership',
    );
    await expect(field(page, 'Job Title')).toBeFocused();
    await expect(page.locator('.error-summary li').first()).toContainText('Job Title');
    await expect(page.locator('.error-summary li').nth(5)).toContainText('Organization');
  });

  test('the browser checks number, URL and e-mail types before anything is sent', async ({ page }) => {
    const capture = await interceptEndpoint(page, ENDPOINT, { status: 201 });
    await fillRequired(page);
    await field(page, 'Years in Business').fill('-2');
    const events = await recordFormEvents(page);
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect
      .poll(() => field(page, 'Years in Business').evaluate((el: HTMLInputElement) => el.validity.rangeUnderflow))
      .toBe(true);
    await field(page, 'Years in Business').fill('7');
    await field(page, 'Company Website').fill('example dot com');
    await page.getByRole('button', { name: 'Submit Application' }).click();
    await expect
      .poll(() => field(page, 'Company Website').evaluate((el: HTMLInputElement) => el.validity.typeMismatch))
      .toBe(true);
    const names = await Promise.all(['Years in Business', 'Company Website'].map((label) => field(page, label).getAttribute('name')));
    await expect.poll(events).toEqual(names.flatMap((name) => ['submit', `invalid:${name}`]));
    expect(capture.requests).toHaveLength(0);
  });

  test('ownership details appear for Subsidiary and Other, with their placeholders', async ({ page }) => {
    const details = field(page, 'Ownership Details');
    await expect(details).toBeHidden();
    await field(page, 'Form of Ownership').selectOption('Subsidiary (please specify name of parent company)');
    await expect(details).toBeVisible();
    await expect(details).toHaveAttribute('placeholder', 'Name of parent company');
    await field(page, 'Form of Ownership').selectOption('Other');
    await expect(details).toHaveAttribute('placeholder', 'Please specify');
    await field(page, 'Form of Ownership').selectOption('Corporation (publicly held)');
    await expect(details).toBeHidden();
  });

  test('classroom plans appear only when there is no classroom', async ({ page }) => {
    const plans = field(page, 'How do you plan to provide training facilities?');
    await expect(plans).toBeHidden();
    await page.locator('#partner-classroomAvailable').getByLabel('No', { exact: true }).check();
    await expect(plans).toBeVisible();
    await page.locator('#partner-classroomAvailable').getByLabel('Yes', { exact: true }).check();
    await expect(plans).toBeHidden();
  });

  test('files: too large and wrong types are refused with their alerts; valid ones replace the selection', async ({ page }) => {
    const capture = await interceptEndpoint(page, ENDPOINT, { status: 201 });
    await expect(page.getByText('Upload valid files (JPG, PDF, DOC) with size less than 2MB')).toBeVisible();
    const input = page.locator('input[type="file"]');
    await input.setInputFiles([file('old-cv.pdf', 1000)]);
    await expect(page.locator('.selected-files')).toContainText('Selected files:');
    await expect(page.locator('.selected-files li')).toHaveText(['old-cv.pdf']);

    await input.setInputFiles([
      file('huge.pdf', 2 * MB + 1),
      file('virus.exe', 100, 'application/octet-stream'),
      file('cv-ahmed.docx', 2 * MB, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
      file('photo.JPG', 500, 'image/jpeg'),
    ]);
    await expect
      .poll(() => capture.alerts)
      .toEqual([
        'File "huge.pdf" is too large. Maximum size is 2MB.',
        'File "virus.exe" is not a valid type. Please upload JPG, PDF, or DOC files.',
      ]);
    await expect(page.locator('.selected-files li')).toHaveText(['cv-ahmed.docx', 'photo.JPG']);

    // Nothing valid in a new choice: nothing replaces the selection, so it stays.
    await input.setInputFiles([file('notes.txt', 100, 'text/plain')]);
    await expect.poll(() => capture.alerts.length).toBe(3);
    expect(capture.alerts[2]).toBe('File "notes.txt" is not a valid type. Please upload JPG, PDF, or DOC files.');
    await expect(page.locator('.selected-files li')).toHaveText(['cv-ahmed.docx', 'photo.JPG']);
    expect(await input.evaluate((el: HTMLInputElement) => Array.from(el.files ?? [], (f) => f.name))).toEqual(['cv-ahmed.docx', 'photo.JPG']);
  });

  test('a website typed without https:// is completed, on leaving the field and on Enter', async ({ page }) => {
    const capture = await interceptEndpoint(page, ENDPOINT, { status: 201 });
    const website = field(page, 'Company Website');
    await website.fill('globaq.com');
    await website.blur();
    await expect(website).toHaveValue('https://globaq.com');

    await fillRequired(page);
    await website.fill('www.eastern-quality.sa');
    await website.press('Enter');
    await expect.poll(() => capture.requests.length).toBe(1);
    expect((await sentBody(capture.requests[0]!)).body['companyWebsite']).toBe('https://www.eastern-quality.sa');
    expect(capture.alerts).toEqual([]);
  });

  test('success: "Submitting Application...", every answer and the CV files themselves sent to the site\'s own receiver, then after 2 s the banner, everything cleared', async ({
    page,
  }) => {
    // A paused clock: the 2-second wait below is stepped through, never raced.
    await page.clock.install({ time: new Date('2026-11-22T09:00:00Z') });
    await page.clock.pauseAt(new Date('2026-11-22T09:00:01Z'));
    await page.reload();
    await expect(page.locator('form.partner-form[data-hydrated]')).toBeVisible();
    const capture = await interceptEndpoint(page, ENDPOINT, { status: 201, hold: true });
    await fillRequired(page);
    await field(page, 'Number of Employees').fill('25');
    await page.locator('#partner-servicesTypes').getByLabel('Training Courses', { exact: true }).check();
    await page.locator('#partner-servicesTypes').getByLabel('Inspection Services', { exact: true }).check();
    await page.locator('#partner-targetMarkets').getByLabel('Government', { exact: true }).check();
    await page.locator('#partner-classroomAvailable').getByLabel('No', { exact: true }).check();
    await field(page, 'How do you plan to provide training facilities?').fill('Rent a hotel hall in Dammam.');
    await page.locator('input[type="file"]').setInputFiles([file('cv-1.pdf', 100), file('cv 2.doc', 100, 'application/msword')]);

    await page.getByRole('button', { name: 'Submit Application' }).click();
    const button = page.locator('button[type="submit"]');
    await expect(button).toHaveText('Submitting Application...');
    await expect(button).toBeDisabled();
    await expect.poll(() => capture.requests.length).toBe(1);
    const request = capture.requests[0]!;
    // The site's own receiver takes the files with the answers (an external endpoint gets JSON
    // with the names only, spec §7: tests/unit/form-hydration.test.ts).
    expect(request.headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const { body, files } = await sentBody(request);
    expect(files.map(({ name, size }) => ({ name, size }))).toEqual([
      { name: 'cv-1.pdf', size: 100 },
      { name: 'cv 2.doc', size: 100 },
    ]);
    expect(body).toMatchObject({
      name: 'Aisha Al-Qahtani',
      organization: 'Eastern Quality Training',
      jobTitle: 'Managing Director',
      country: 'Saudi Arabia',
      cityName: 'Dammam',
      email: 'aisha@example.com',
      phoneNumber: '+966 50 123 4567',
      companyWebsite: 'https://example.com',
      yearsInBusiness: 7,
      numberOfSites: null,
      numberOfEmployees: 25,
      formOfOwnership: 'Privately held company',
      ownershipSpecification: '',
      servicesTypes: ['Training Courses', 'Inspection Services'],
      targetMarkets: ['Government'],
      classroomAvailable: 'No',
      futureClassroomPlans: 'Rent a hotel hall in Dammam.',
      uploadedFiles: 'cv-1.pdf, cv 2.doc',
    });
    expect(Object.keys(body)).toHaveLength(30);

    capture.release();
    // Acknowledged; now the extra 2-second wait (spec §4): still submitting just before, the banner just after.
    await expect(page.locator('form.partner-form')).toHaveAttribute('data-status', 'confirming');
    await page.clock.runFor(1900);
    await expect(button).toHaveText('Submitting Application...');
    await expect(page.locator('.banner--success')).toHaveCount(0);
    await page.clock.runFor(200);
    const banner = page.locator('.banner--success');
    await expect(banner).toContainText('Application Submitted Successfully!');
    await expect(banner).toContainText(
      "Thank you for your partner application! We'll review your submission and get back to you soon.",
    );
    await expect(field(page, 'Full Name')).toHaveValue('');
    await expect(field(page, 'Country')).toHaveValue('');
    await expect(page.locator('#partner-servicesTypes input:checked')).toHaveCount(0);
    await expect(page.locator('.selected-files')).toHaveCount(0);
    expect(await page.locator('input[type="file"]').evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);
    expect(await page.evaluate(() => window.localStorage.getItem('globaq:partner-draft:v1'))).toBeNull();
    await page.clock.resume(); // axe needs running timers
    expect(await axe(page)).toEqual([]);
  });

  test('failure: the failure banner, and every answer and file kept', async ({ page }) => {
    const capture = await interceptEndpoint(page, ENDPOINT, { status: 503 });
    await fillRequired(page);
    await page.locator('input[type="file"]').setInputFiles([file('cv-1.pdf', 100)]);
    await page.getByRole('button', { name: 'Submit Application' }).click();
    const banner = page.locator('.banner--failure');
    await expect(banner).toContainText('Submission Failed');
    await expect(banner).toContainText('Something went wrong. Please try again.');
    expect(capture.requests).toHaveLength(1);
    await expect(field(page, 'Full Name')).toHaveValue('Aisha Al-Qahtani');
    await expect(field(page, 'Form of Ownership')).toHaveValue('Privately held company');
    await expect(page.locator('.selected-files li')).toHaveText(['cv-1.pdf']);
    const mail = new URL((await banner.getByRole('link', { name: site.email }).getAttribute('href')) ?? '');
    expect(mail.searchParams.get('subject')).toBe('Partner application from the website');
    expect(mail.searchParams.get('body')).toContain('Full Name: Aisha Al-Qahtani');
    expect(mail.searchParams.get('body')).toContain('Company Website: https://example.com');
    await expect(banner.getByRole('link', { name: site.phone })).toBeVisible();
    expect(await axe(page)).toEqual([]);
  });

  test('what the visitor types survives a reload; the form says files must be chosen again', async ({ page }) => {
    await field(page, 'Full Name').fill('Aisha Al-Qahtani');
    await field(page, 'Country').selectOption('Oman');
    await page.locator('#partner-targetMarkets').getByLabel('Healthcare', { exact: true }).check();
    await field(page, 'Who are your main local competitors?').fill('Two regional training centres.');
    await page.reload();
    await expect(page.locator('form.partner-form[data-hydrated]')).toBeVisible();
    await expect(field(page, 'Full Name')).toHaveValue('Aisha Al-Qahtani');
    await expect(field(page, 'Country')).toHaveValue('Oman');
    await expect(page.locator('#partner-targetMarkets').getByLabel('Healthcare', { exact: true })).toBeChecked();
    await expect(field(page, 'Who are your main local competitors?')).toHaveValue('Two regional training centres.');
    await expect(page.getByText('Files cannot be restored: please choose them again.')).toBeVisible();
  });

  test('"Clear my answers" wipes the form and the copy on this device, after asking', async ({ page }) => {
    const asked: string[] = [];
    let accept = false;
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });
    await field(page, 'Full Name').fill('Aisha Al-Qahtani');
    await page.locator('input[type="file"]').setInputFiles([file('cv.pdf', 1000)]);
    await page.reload();
    await expect(page.locator('form.partner-form[data-hydrated]')).toBeVisible();
    await expect(field(page, 'Full Name')).toHaveValue('Aisha Al-Qahtani');

    const clear = page.getByRole('button', { name: 'Clear my answers' });
    await expect(clear).toHaveCount(1);
    await clear.click();
    expect(asked).toEqual(['Clear every answer in this form, and the copy kept on this device?']);
    await expect(field(page, 'Full Name')).toHaveValue('Aisha Al-Qahtani'); // "Cancel" keeps everything

    accept = true;
    await clear.click();
    await expect(field(page, 'Full Name')).toHaveValue('');
    await expect(field(page, 'Full Name')).toBeFocused();
    await expect(page.getByText('Files cannot be restored')).toHaveCount(0);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => localStorage.getItem(key)?.includes('Aisha')))).toEqual([]);
    await page.reload();
    await expect(page.locator('form.partner-form[data-hydrated]')).toBeVisible();
    await expect(field(page, 'Full Name')).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Clear my answers' })).toHaveCount(0);

    // Typing brings the button back, at the end of the form.
    await field(page, 'City').fill('Dammam');
    await expect(page.getByRole('button', { name: 'Clear my answers' })).toBeVisible();
    expect(await axe(page)).toEqual([]);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a real form posting to the receiver; follow-up questions still appear when they apply', async ({ page }) => {
    await page.goto('/Partner');
    const form = page.locator('form.partner-form');
    await expect(form).toHaveAttribute('method', 'post');
    await expect(form).toHaveAttribute('action', ENDPOINT);
    const details = field(page, 'Ownership Details');
    await expect(details).toBeHidden();
    await field(page, 'Form of Ownership').selectOption('Other');
    await expect(details).toBeVisible();
    const plans = field(page, 'How do you plan to provide training facilities?');
    await expect(plans).toBeHidden();
    await page.locator('#partner-classroomAvailable').getByLabel('No', { exact: true }).check();
    await expect(plans).toBeVisible();
  });
});
