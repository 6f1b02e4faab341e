/**
 * The staff inbox in Arabic: the language switch (a small form posted with the
 * session's token, remembered in a cookie for /admin) on the sign-in page, a wrong password's message, the list, a lead page
 * (dates in Riyadh time with the Arabic month, the visitor's Arabic message in its own
 * direction), a status change, the held leads' tab, the audit log and two-step sign-in; axe on each
 * Arabic page; and Accept-Language choosing Arabic before any switch. The flow runs at 1440 px and
 * each page it stops at is looked at (axe, no sideways scrolling) at 1440 and 390 px; the
 * Accept-Language test runs at 390 px. With SHOTS_DIR set, each page's screenshot at both widths
 * goes there to be looked at (never committed).
 */
import { expect, test, type Page } from '@playwright/test';
import { addStaffAccount, solvedProof } from './staff-helpers';
import { violations } from './axe';
import { atBothWidths, DESKTOP, PHONE } from './look';
import { ar } from '../../src/i18n/ar';

const PASSWORD = 'arabic inbox password for tests';
/** "25 نوفمبر 2026، 09:30": the day, the Arabic month's name, the year and the time, Western digits. */
const ARABIC_DATE = /\d{1,2} [\u0600-\u06FF]+ \d{4}، \d{2}:\d{2}/;

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env['SHOTS_DIR'];
  const width = page.viewportSize()?.width ?? 0;
  if (dir) await page.screenshot({ path: `${dir}/inbox-ar-${name}-${width}.png`, fullPage: true });
}

async function expectArabic(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  expect(scroll).toBeLessThanOrEqual(client);
}

async function postArabicContact(page: Page, stamp: string): Promise<void> {
  const altcha = await solvedProof(page);
  const response = await page.request.post('/api/contact?lang=ar', {
    headers: { Origin: new URL(page.url()).origin, 'Content-Type': 'application/json' },
    data: {
      altcha,
      firstName: 'ليلى',
      lastName: `العتيبي ${stamp}`,
      email: `laila.${stamp}@example.com`,
      company: 'مختبرات الشرقية',
      country: 'Saudi Arabia',
      city: 'الدمام',
      message: 'نرغب في تقييم Schedule Q لمصنعنا في الدمام، ونرجو التواصل عبر https://example.com/contact قبل نهاية الشهر.',
      submissionDate: new Date().toISOString(),
      submissionTimestamp: new Date().toLocaleString('en-GB'),
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test.describe('the Arabic inbox at 1440 px, each page looked at at 1440 and 390 px', () => {
  test.use({ viewport: DESKTOP });

  test('switch, a wrong password, the list, a lead, a status change, the other pages: Arabic, right to left, accessible', async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    const stamp = String(Date.now());
    const email = `arabic.${stamp}@globaq.example`;
    await addStaffAccount(email, PASSWORD);

    // The sign-in page in English (no choice made yet, an English browser), then the switch.
    await page.goto('/admin/login');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await page.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: 'العربية' }).click();
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expectArabic(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ar['admin.signIn.heading']);
    const cookie = (await context.cookies()).find((c) => c.name === 'globaq-inbox-language');
    expect(cookie).toMatchObject({ value: 'ar', path: '/admin', sameSite: 'Lax', httpOnly: false });
    await atBothWidths(page, async () => {
      expect(await violations(page)).toEqual([]);
    });

    // A wrong password: the message in Arabic.
    await page.getByLabel(ar['admin.signIn.email']).fill(email);
    await page.getByLabel(ar['admin.signIn.password']).fill('not the password');
    await page.getByRole('button', { name: ar['admin.signIn.submit'] }).click();
    await expect(page.getByRole('alert')).toHaveText(ar['admin.signIn.wrong']);
    await expectArabic(page);
    await atBothWidths(page, async () => {
      await shot(page, 'sign-in-wrong');
      expect(await violations(page)).toEqual([]);
    });

    // Signed in: the list in Arabic.
    await postArabicContact(page, stamp);
    await page.getByLabel(ar['admin.signIn.password']).fill(PASSWORD);
    await page.getByRole('button', { name: ar['admin.signIn.submit'] }).click();
    await expect(page).toHaveURL(/\/admin$/);
    await expectArabic(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ar['admin.list.title']);
    await expect(
      page.getByRole('navigation', { name: ar['admin.nav'] }).getByRole('link', { name: ar['admin.nav.audit'] }),
    ).toBeVisible();
    await expect(page.getByRole('navigation', { name: ar['admin.list.tabs'] })).toContainText(ar['admin.list.needsWork']);
    const row = page.locator('.lead-row', { hasText: `العتيبي ${stamp}` });
    await expect(row).toContainText(ar['admin.form.contact']);
    await expect(row).toContainText(ar['admin.status.new']);
    await expect(row.locator('.lead-list__received')).toContainText(ARABIC_DATE);
    await atBothWidths(page, async () => {
      await expectNoSidewaysScroll(page);
      await shot(page, 'list');
      expect(await violations(page)).toEqual([]);
    });

    // The lead page: Arabic labels, the date as people read it, the message in its own direction.
    await row.getByRole('link', { name: `ليلى العتيبي ${stamp}` }).click();
    await expectArabic(page);
    await expect(page.getByRole('heading', { name: ar['admin.lead.contact'] })).toBeVisible();
    await expect(page.locator('.lead-summary')).toContainText(ARABIC_DATE);
    await expect(page.locator('.lead-summary')).toContainText(ar['admin.leadLanguage.ar']);
    await expect(page.locator('.lead-message')).toHaveAttribute('dir', 'auto');
    await expect(page.locator('.lead-message')).toContainText('https://example.com/contact');
    // The visitor's message reads right to left, as Arabic text does.
    expect(await page.locator('.lead-message').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    await atBothWidths(page, async () => {
      await expectNoSidewaysScroll(page);
      expect(await violations(page)).toEqual([]);
    });

    // A status change: saved, said so, and on the timeline, in Arabic.
    await page.getByRole('combobox', { name: ar['admin.lead.status'] }).selectOption({ label: ar['admin.status.in_progress'] });
    await page.getByRole('button', { name: ar['admin.lead.saveStatus'] }).click();
    await expect(page.getByRole('status')).toHaveText(ar['admin.lead.done.status']);
    await expect(page.locator('.lead-summary .lead-status')).toHaveText(ar['admin.status.in_progress']);
    await expect(page.locator('.lead-timeline')).toContainText(
      ar['admin.lead.event.status'].replace('{status}', ar['admin.status.in_progress']),
    );
    await expect(page.locator('.lead-timeline time').first()).toHaveText(ARABIC_DATE);
    await atBothWidths(page, async () => {
      await shot(page, 'lead');
      expect(await violations(page)).toEqual([]);
    });

    // The held leads' tab, Mine, and the other pages, each in Arabic and accessible.
    await page.goto('/admin?status=held');
    await expect(page.getByRole('navigation', { name: ar['admin.list.tabs'] }).locator('[aria-current="page"]')).toContainText(
      ar['admin.held.title'],
    );
    await expect(page.getByRole('navigation', { name: ar['admin.list.tabs'] })).toContainText(ar['admin.list.mine']);
    for (const [path, heading, name] of [
      ['/admin?status=held', ar['admin.list.title'], 'held'],
      ['/admin/audit', ar['admin.audit.title'], 'audit'],
      ['/admin/two-step', ar['admin.twoStep.title'], 'two-step'],
    ] as const) {
      await page.goto(path);
      await expectArabic(page);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(heading);
      await atBothWidths(page, async (width) => {
        await expectNoSidewaysScroll(page);
        await shot(page, name);
        expect(await violations(page), `${path} at ${width} px`).toEqual([]);
      });
    }
    await expect(page.locator('.admin-table')).toHaveCount(0);
    await page.goto('/admin/audit');
    await expect(page.locator('.admin-table')).toContainText(ar['admin.audit.action.set status']);

    // Back to English from the same page.
    await page.getByRole('navigation', { name: ar['admin.language'] }).getByRole('button', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Audit log');
  });
});

test('an Arabic browser gets the Arabic inbox before any choice; the switch leaves only for inbox pages (390 px)', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'ar-SA', viewport: PHONE });
  const page = await context.newPage();
  await page.goto('/admin/login?next=%2Fadmin%2Faudit');
  await expectArabic(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(ar['admin.signIn.heading']);
  // The switch keeps where sign-in returns to; an address elsewhere is refused.
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Faudit$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const origin = new URL(page.url()).origin;
  const away = await page.request.post('/admin/language', {
    headers: { Origin: origin },
    form: { to: 'ar', next: 'https://evil.example' },
    maxRedirects: 0,
  });
  expect(away.status()).toBe(303);
  expect(away.headers()['location']).toBe('/admin');
  // The switch's address opened by a link changes nothing; a post from another site is refused.
  const opened = await page.request.get('/admin/language?to=en&next=%2Fadmin', { maxRedirects: 0 });
  expect(opened.status()).toBe(303);
  expect(opened.headers()['set-cookie']).toBeUndefined();
  const forged = await page.request.post('/admin/language', {
    headers: { Origin: 'https://evil.example' },
    form: { to: 'en', next: '/admin' },
    maxRedirects: 0,
  });
  expect(forged.status()).toBe(403);
  expect((await context.cookies()).find((c) => c.name === 'globaq-inbox-language')?.value).toBe('ar');
  await context.close();
});
