/**
 * The staff inbox in a real browser: sign in by keyboard, find a lead posted a moment
 * before, filter, open it, change its status, add a note to its timeline, export, delete; axe on every state;
 * readable at 390 px.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { addStaffAccount, solvedProof } from './staff-helpers';
import { violations } from './axe';
import { fillPartnerRequired, openFormPage, waitForProof } from './forms-helpers';
import { minimalDocx } from '../helpers/zip';

const PASSWORD = 'inbox password for tests';

const addStaff = (email: string): Promise<void> => addStaffAccount(email, PASSWORD);

async function expectNoAxeViolations(page: Page, state: string): Promise<void> {
  expect(await violations(page), state).toEqual([]);
}

/** Posts a lead as the contact form does, with a solved proof of work (so it is in the inbox, not held). */
async function postLead(page: Page, lastName: string): Promise<string> {
  const altcha = await solvedProof(page);
  const response = await page.request.post('/api/contact', {
    headers: {
      Origin: new URL(page.url() === 'about:blank' ? 'http://127.0.0.1' : page.url()).origin,
      'Content-Type': 'application/json',
    },
    data: {
      altcha,
      firstName: 'Sara',
      lastName,
      email: 'sara@gulfqa.example',
      country: 'Saudi Arabia',
      city: 'Dammam',
      company: 'Gulf QA',
      message: 'Please send a proposal for a Schedule Q assessment.\n<b>bold?</b>',
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL(/\/admin$/);
}

test('staff sign in, find a new lead, work it, export it and delete it', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const email = `staff-${testInfo.workerIndex}-${Date.now()}@globaq.example`;
  await addStaff(email);

  await page.goto('/admin/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill('a wrong password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('The e-mail address or the password is wrong.');
  await expectNoAxeViolations(page, 'sign-in refused');

  const lastName = `Al-Qahtani ${Date.now()}`;
  const id = await postLead(page, lastName);
  await signIn(page, email);
  const row = page.getByRole('row', { name: new RegExp(lastName) });
  await expect(row).toContainText('Gulf QA');
  await expect(row).toContainText('New');
  await expect(row).toContainText('English');
  await expectNoAxeViolations(page, 'lead list');

  // Filter: the search finds it; another form does not.
  await page.getByRole('searchbox', { name: 'Search' }).fill(lastName);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.locator('#lead-count')).toHaveText('1 lead found in Needs work with this filter.');
  // The other filters fold away under a disclosure.
  await page.getByText('Filters and order').click();
  await page.getByLabel('Form').selectOption('partner');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByRole('row', { name: new RegExp(lastName) })).toHaveCount(0);
  await page.getByLabel('Form').selectOption('contact');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.locator('#lead-count')).toHaveText('1 lead found in Needs work with this filter.');

  await page.getByRole('link', { name: `Sara ${lastName}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/leads/${id}\\?form=contact&q=`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Sara ${lastName}: Contact message`);
  await expect(page.locator('.lead-message')).toHaveText('Please send a proposal for a Schedule Q assessment.\n<b>bold?</b>');
  await expect(page.getByRole('button', { name: 'Reply by e-mail' })).toBeVisible();
  await expectNoAxeViolations(page, 'one lead');

  await page.getByLabel('Status').selectOption('answered');
  await page.getByRole('button', { name: 'Save status' }).click();
  await expect(page.getByRole('status')).toHaveText('The status was saved.');
  const timeline = page.getByRole('region', { name: 'Timeline' });
  await expect(timeline.getByRole('listitem').first()).toContainText(`Status set to Answered`);
  await expect(timeline.getByRole('listitem').first()).toContainText(email);
  await page
    .getByLabel("Add a note (for staff; a copy of the person's data includes it)")
    .fill('Proposal sent by e-mail on Sunday.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(timeline.locator('.lead-note').first()).toHaveText('Proposal sent by e-mail on Sunday.');

  // Export the list's filter (answered: the "All" tab).
  await page.goto(`/admin?status=all&q=${encodeURIComponent(lastName)}`);
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export this lead' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^globaq-contact-messages-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n').filter(Boolean)).toHaveLength(2);
  expect(csv).toContain(`"${id}"`);
  expect(csv).toContain('"Answered"');
  expect(csv).toContain('"Proposal sent by e-mail on Sunday."');

  // Delete, after a confirmation.
  await page.goto(`/admin/leads/${id}`);
  await page.getByRole('button', { name: 'Delete this lead' }).click();
  await expect(page.getByRole('heading', { name: 'Delete this lead for good?' })).toBeVisible();
  // It says what is not erased: copies outside the database.
  await expect(page.getByText('the notification e-mail in staff mailboxes')).toBeVisible();
  await expectNoAxeViolations(page, 'delete confirmation');
  await page.getByRole('button', { name: 'Yes, delete it', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\?done=deleted$/);
  await expect(page.getByRole('status').first()).toHaveText('The lead was deleted.');
  await expect(page.getByRole('row', { name: new RegExp(lastName) })).toHaveCount(0);

  await page.getByRole('link', { name: 'Audit log' }).click();
  for (const action of ['signed in', 'set status', 'added note', 'exported leads', 'deleted lead']) {
    await expect(page.getByRole('row', { name: new RegExp(`${email}.*${action}`) }).first()).toBeVisible();
  }
  await expectNoAxeViolations(page, 'audit log');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/admin\/login$/);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/login$/);
});

test('the inbox reads at 390 px: nothing wider than the screen, every control reachable', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const email = `phone-${testInfo.workerIndex}-${Date.now()}@globaq.example`;
  await addStaff(email);
  await page.goto('/');
  const id = await postLead(page, `Phone ${Date.now()}`);
  await signIn(page, email);
  for (const route of ['/admin', `/admin/leads/${id}`, '/admin/audit']) {
    await page.goto(route);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, route).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, `${route} at 390 px`);
  }
  // By keyboard: the skip link first, then the inbox's own navigation.
  await page.goto('/admin');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Leads', exact: true })).toBeFocused();
});

/** Two real CVs: a PDF and a Word document (a ZIP with the parts Word needs), as a partner's computer holds them. */
async function cvs(): Promise<{ name: string; mimeType: string; buffer: Buffer }[]> {
  return [
    {
      name: 'cv-trainer-1.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
    },
    {
      name: 'سيرة المدرب.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: await minimalDocx(),
    },
  ];
}

/** Signs in, opens the application by its applicant's name and downloads each file it lists. */
async function downloadedFiles(
  page: Page,
  email: string,
  name: string,
  count: number,
  held = false,
): Promise<{ name: string; bytes: Buffer }[]> {
  await signIn(page, email);
  if (held) {
    // Sent without JavaScript, so without a proof of work: held for review with its files; released here.
    await page.goto(`/admin?status=held&q=${encodeURIComponent(name)}`);
    const row = page.locator('.lead-row').filter({ hasText: name });
    await expect(row).toContainText('Sent from a browser with JavaScript turned off');
    await row.getByRole('link', { name }).click();
    await expect(page.getByRole('region', { name: 'Held for review' })).toContainText(
      'Sent from a browser with JavaScript turned off',
    );
    await expect(page.getByRole('region', { name: 'Files sent with it' }).getByRole('link')).toHaveCount(count);
    await page.getByRole('button', { name: 'Release to the inbox' }).click();
    await expect(page.getByRole('status')).toContainText('Released');
  }
  await page.goto(`/admin?q=${encodeURIComponent(name)}`);
  await page.getByRole('link', { name }).click();
  const links = page.getByRole('region', { name: 'Files sent with it' }).getByRole('link');
  await expect(links).toHaveCount(count);
  const out: { name: string; bytes: Buffer }[] = [];
  for (const link of await links.all()) {
    const downloading = page.waitForEvent('download');
    await link.click();
    const download = await downloading;
    out.push({ name: download.suggestedFilename(), bytes: fs.readFileSync((await download.path())!) });
  }
  return out;
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`a partner's CVs, JavaScript ${javaScriptEnabled ? 'on' : 'off'}`, () => {
    test.use({ javaScriptEnabled });
    test('sent with the application through the form, downloaded from the inbox byte for byte', async ({ browser }, testInfo) => {
      test.setTimeout(120_000);
      const email = `cvs-${javaScriptEnabled}-${testInfo.workerIndex}-${Date.now()}@globaq.example`;
      await addStaff(email);
      const CVS = await cvs();
      const applicant = `Aisha ${javaScriptEnabled ? 'Scripted' : 'Plain'} ${Date.now()}`;
      const visitor = await browser.newPage();
      if (javaScriptEnabled) await openFormPage(visitor, '/Partner');
      else await visitor.goto('/Partner');
      await fillPartnerRequired(visitor, applicant);
      await visitor.locator('input[type="file"]').setInputFiles(CVS);
      if (javaScriptEnabled) await waitForProof(visitor.locator('form.partner-form'));
      await visitor.getByRole('button', { name: 'Submit Application' }).click();
      if (javaScriptEnabled)
        await expect(visitor.getByRole('status').getByText('Application Submitted Successfully!')).toBeVisible({
          timeout: 15_000,
        });
      else await expect(visitor).toHaveURL(/\/ThanksPage$/);
      await visitor.close();

      // Staff (with JavaScript, whatever the visitor had).
      const staff = await browser.newPage({ javaScriptEnabled: true });
      const files = await downloadedFiles(staff, email, applicant, CVS.length, !javaScriptEnabled);
      expect(files.map((file) => file.name)).toEqual(CVS.map((cv) => cv.name));
      for (const [index, file] of files.entries()) expect(file.bytes.equals(CVS[index]!.buffer)).toBe(true);
      await staff.close();
    });
  });
}
