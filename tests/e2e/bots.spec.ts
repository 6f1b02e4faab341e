/**
 * The proof of work with the real widget in Chromium, in both languages, against a server of its
 * own with lead notifications on (a real SMTP server on loopback) and the default minimum time, the
 * work a light one (how long the default work takes in a browser depends on the machine, and a
 * send waits a bounded time for it: not a thing a test can wait for): nothing of ALTCHA loads
 * before the visitor reaches a field; it then solves by itself while
 * they fill the form, or as soon as a draft is restored; the lead is stored in the inbox (not held)
 * and mailed, however fast the visitor sends. A lead the server holds all the same is told as such,
 * never as sent. The widget speaks the page's language, reads right to left in
 * Arabic, is a labelled checkbox a keyboard reaches, and the content security policy blocks
 * nothing of it. Screenshots of the forms with the widget at 390 and 1440 px land in
 * test-results/screenshots/ to be looked at.
 */
import { PROOF_WAIT_MS } from '../../src/components/islands/use-proof';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { PARTNER_DRAFT_KEY } from '../../src/forms/partner';
import { openStores } from '../../src/server/store/database';
import { openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { violations } from './axe';
import { t, locales } from '../../src/i18n';
import { startServer, tempDir, type RunningServer } from '../helpers/server';
import { startSmtp, type MailSink } from '../helpers/smtp';
import { waitForProof } from './forms-helpers';
import { requestsSeen } from './requests-seen';

let server: RunningServer;
let smtp: MailSink;

test.beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({
    dbPath: path.join(tempDir('globaq-bots-e2e-'), 'leads.db'),
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      LEADS_NOTIFY_TO: 'leads@globaq.example',
      LEADS_NOTIFY_FROM: 'website@globaq.example',
      ALTCHA_COST: '1',
      ALTCHA_MAX_NUMBER: '2000',
      SUBMISSIONS_MIN_SECONDS: '3',
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

/**
 * Every address the page requested, the scripts it asked to run among them (a module fetched
 * ahead by the island's directive is a `fetch`, not a script), and every policy violation it reported.
 */
function watch(page: Page): { urls: string[]; scripts: string[]; csp: string[] } {
  const seen = { urls: [] as string[], scripts: [] as string[], csp: [] as string[] };
  page.on('request', (request) => {
    seen.urls.push(request.url());
    if (request.resourceType() === 'script') seen.scripts.push(request.url());
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) seen.csp.push(message.text());
  });
  return seen;
}

/** Fills the partner form's required answers, `marker` as the name. */
async function fillPartner(form: Locator, marker: string): Promise<void> {
  await form.locator('#partner-name').click();
  await form.locator('#partner-name').fill(marker);
  await form.locator('#partner-jobTitle').fill('Director');
  await form.locator('#partner-email').fill('partner@example.com');
  await form.locator('#partner-phoneNumber').fill('+973 1700 0000');
  await form.locator('#partner-country').selectOption('Bahrain');
  await form.locator('#partner-cityName').fill('Manama');
  await form.locator('#partner-organization').fill('Bahrain Quality Academy');
  await form.locator('#partner-companyWebsite').fill('https://example.bh');
  await form.locator('#partner-yearsInBusiness').fill('12');
  await form.locator('#partner-formOfOwnership input[type="radio"][value="Privately held company"]').check();
}

const CV = { name: 'trainer-cv.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') };

/** The held leads' reasons whose field `field` is `value`, and whether the lead is in the inbox. */
async function stored(field: string, value: string): Promise<{ held: (string | undefined)[]; inbox: number }> {
  const stores = openStores({ dbPath: server.dbPath, databaseUrl: undefined, poolMax: 1 }, { create: false });
  try {
    const held = (await stores.held.list('held', 100)).filter((lead) => lead.fields[field] === value).map((lead) => lead.reason);
    return { held, inbox: (await stores.inbox.leads({ search: value }, 1)).leads.length };
  } finally {
    await stores.close();
  }
}

/**
 * Each path once: the widget's first load in each language (its words and direction), at a width
 * of each kind; a restored draft in Arabic; the CV, autofill, Back and slow-CPU paths in English,
 * the same code with other words in Arabic (tests/unit/i18n-ar.test.ts checks every string has
 * its Arabic twin).
 */
for (const code of ['en', 'ar'] as const) {
  const locale = locales[code];
  const words = (key: Parameters<typeof t>[0]) => t(key, {}, locale);
  const prefix = code === 'en' ? '' : '/ar';
  const english = code === 'en';

  for (const width of english ? [1440] : [390]) {
    test(`${code}, ${width} px: the contact form's widget loads on the first field, solves while the visitor types, and the lead is mailed, not held`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      const seen = watch(page);
      await page.goto(`${server.baseUrl}${prefix}/ContactUs`);
      const form = page.locator('form.site-form');
      // The pointer over the form wakes the island: its files come (the widget's script among
      // them, downloaded, not run), but nothing of the widget runs: no challenge, no widget.
      await form.locator('h2').hover();
      await expect(page.locator('form[data-hydrated]')).toBeVisible({ timeout: 15_000 });
      // Once the page is idle, the work the island's start queued has run: a widget started with
      // the island would have imported its script by then (use-proof.tsx: no typing, no wait).
      await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
      await requestsSeen(page);
      const widgetScript = seen.urls.find((url) => /\/altcha-widget\.[\w-]+\.js$/.test(url));
      expect(widgetScript).toBeDefined();
      expect(seen.scripts.filter((url) => url === widgetScript)).toEqual([]);
      expect(await page.evaluate(() => customElements.get('altcha-widget'))).toBeUndefined();
      expect(seen.urls.filter((url) => /\/api\/challenge/.test(url))).toEqual([]);
      await expect(form.locator('altcha-widget')).toHaveCount(0);

      const marker = `e2e-proof-${code}-${width}-${Date.now()}`;
      await form.locator('#contact-firstName').click();
      await form.locator('#contact-firstName').pressSequentially(code === 'en' ? 'Sara' : 'سارة', { delay: 40 });
      await form.locator('#contact-lastName').fill(marker);
      await form.locator('#contact-email').fill('sara@example.com');
      await form
        .locator('#contact-message')
        .pressSequentially(code === 'en' ? 'We need a Schedule Q assessment.' : 'نحتاج تقييم Schedule Q.', { delay: 20 });
      // The first field reached: the widget runs in the visitor's first pause and asks for its challenge.
      await expect.poll(() => seen.urls.some((url) => /\/api\/challenge/.test(url))).toBe(true);

      const widget = form.locator('altcha-widget');
      await expect(widget).toBeVisible();
      // A checkbox a keyboard reaches, labelled in the page's language with its state (the label
      // reads "verifying", then "verified": a screen reader hears it; no motion-only cue); right
      // to left in Arabic.
      const box = widget.getByRole('checkbox');
      await expect(box).toBeVisible();
      expect(await box.getAttribute('tabindex')).not.toBe('-1');
      expect(await widget.evaluate((element) => getComputedStyle(element).direction)).toBe(code === 'en' ? 'ltr' : 'rtl');
      await waitForProof(form);
      await expect(box).toBeChecked();
      // Solved while the visitor typed: the focus stayed where they were typing.
      await expect(form.locator('#contact-message')).toBeFocused();
      await expect(box).toHaveAccessibleName(code === 'en' ? 'Verified' : 'تم التحقق');
      await page.screenshot({ path: `test-results/screenshots/bots-contact-${code}-${width}.png` });
      await form.screenshot({ path: `test-results/screenshots/bots-contact-form-${code}-${width}.png` });

      const before = smtp.mails.length;
      await form.getByRole('button', { name: words('contact.submit') }).click();
      await expect(page.locator('.banner--success')).toContainText(words('contact.success.title'));
      const [mail] = (await smtp.waitFor(before + 1)).slice(before);
      expect(mail!.parsed.text).toContain(marker);
      const stores = openStores({ dbPath: server.dbPath, databaseUrl: undefined, poolMax: 1 }, { create: false });
      try {
        const leads = await stores.inbox.leads({ search: marker }, 1);
        expect(leads.leads.map((lead) => lead.language)).toEqual([code]);
        expect((await stores.held.list('held', 100)).some((lead) => lead.fields['lastName'] === marker)).toBe(false);
      } finally {
        await stores.close();
      }
      expect(seen.csp).toEqual([]);
    });
  }

  if (english)
    test(`${code}: the partner form with a CV: solved while the visitor fills it, stored with its file and mailed`, async ({
      page,
    }) => {
      await page.setViewportSize({ width: 1440, height: 900 });
      const seen = watch(page);
      await page.goto(`${server.baseUrl}${prefix}/Partner`);
      const form = page.locator('form.partner-form');
      const marker = `e2e-proof-partner-${code}-${Date.now()}`;
      await fillPartner(form, marker);
      await form.locator('input[type="file"]').setInputFiles([CV]);
      await waitForProof(form);
      await form.screenshot({ path: `test-results/screenshots/bots-partner-form-${code}.png` });
      const before = smtp.mails.length;
      await form.getByRole('button', { name: words('partner.submit') }).click();
      await expect(page.locator('.banner--success')).toContainText(words('partner.success.title'), { timeout: 15_000 });
      const [mail] = (await smtp.waitFor(before + 1)).slice(before);
      expect(mail!.parsed.text).toContain(marker);
      const stores = openStores({ dbPath: server.dbPath, databaseUrl: undefined, poolMax: 1 }, { create: false });
      try {
        const [lead] = (await stores.inbox.leads({ search: marker }, 1)).leads;
        expect((await stores.submissions.attachments(lead!.id)).map((file) => file.name)).toEqual(['trainer-cv.pdf']);
      } finally {
        await stores.close();
      }
      expect(seen.csp).toEqual([]);
    });

  if (!english)
    test(`${code}: a restored draft sent at once, only a CV chosen: stored in the inbox, not held, and told "sent"`, async ({
      page,
    }) => {
      await page.goto(`${server.baseUrl}${prefix}/Partner`);
      const form = page.locator('form.partner-form');
      const marker = `e2e-draft-${code}-${Date.now()}`;
      await fillPartner(form, marker);
      await expect
        .poll(() => page.evaluate((key) => window.localStorage.getItem(key), PARTNER_DRAFT_KEY))
        .toContain('Privately held company');
      // The visitor leaves and comes back: the draft is restored, the files asked for again.
      await page.goto(`${server.baseUrl}${prefix}/`);
      // Watched from before the page comes back: with a draft saved, its island starts without
      // waiting for the visitor, and its challenge can be asked for before the page's load event.
      const seen = watch(page);
      await page.goto(`${server.baseUrl}${prefix}/Partner`);
      await form.locator('h2').first().hover();
      await expect(form.getByText(words('partner.draft.restored'))).toBeVisible();
      await expect(form.locator('#partner-name')).toHaveValue(marker);
      // The restored answers alone start the proof: its challenge is asked for before anything is pressed.
      await expect.poll(() => seen.urls.some((url) => /\/api\/challenge/.test(url))).toBe(true);
      await form.locator('input[type="file"]').setInputFiles([CV]);
      await form.getByRole('button', { name: words('partner.submit') }).click();
      await expect(page.locator('.banner--success')).toContainText(words('partner.success.title'), { timeout: 30_000 });
      expect(await stored('name', marker)).toEqual({ held: [], inbox: 1 });
    });

  if (english) {
    test(`${code}: the contact form filled by the browser's autofill: its proof starts with no key pressed; stored, not held`, async ({
      page,
    }) => {
      await page.goto(`${server.baseUrl}${prefix}/ContactUs`, { waitUntil: 'domcontentloaded' });
      const form = page.locator('form.site-form');
      const marker = `e2e-autofill-${code}-${Date.now()}`;
      // Autofill as the browser does it: every value at once, each with its input and change
      // events, no key pressed and nothing clicked, before or while the island starts.
      await form.evaluate(
        (element, values) => {
          for (const [id, value] of Object.entries(values)) {
            const control = element.querySelector<HTMLInputElement>(`#${id}`)!;
            Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(control, value);
            control.dispatchEvent(new Event('input', { bubbles: true }));
            control.dispatchEvent(new Event('change', { bubbles: true }));
          }
        },
        { 'contact-firstName': 'Sara', 'contact-lastName': marker, 'contact-email': 'sara@example.com' },
      );
      // The answers alone start the island and its proof: nothing else is touched before Send.
      await waitForProof(form);
      await form.getByRole('button', { name: words('contact.submit') }).click();
      await expect(page.locator('.banner--success')).toContainText(words('contact.success.title'), { timeout: 30_000 });
      expect(await stored('lastName', marker)).toEqual({ held: [], inbox: 1 });
    });

    test(`${code}: the contact form filled, left and come back to with Back: its answers are there; stored, not held`, async ({
      page,
    }) => {
      await page.goto(`${server.baseUrl}${prefix}/ContactUs`);
      const form = page.locator('form.site-form');
      const marker = `e2e-back-${code}-${Date.now()}`;
      await form.locator('#contact-firstName').fill('Sara');
      await form.locator('#contact-lastName').fill(marker);
      await form.locator('#contact-email').fill('sara@example.com');
      // Away to the home page and back: the page comes back from the back-forward cache, or is
      // loaded again with the browser's restored answers; either way the answers are there.
      await page.goto(`${server.baseUrl}${prefix}/`);
      await page.goBack();
      await expect(form.locator('#contact-lastName')).toHaveValue(marker);
      await expect(form.locator('#contact-email')).toHaveValue('sara@example.com');
      // Reaching for the form again starts its proof from the answers already there.
      await form.locator('h2').first().hover();
      await waitForProof(form);
      await form.getByRole('button', { name: words('contact.submit') }).click();
      await expect(page.locator('.banner--success')).toContainText(words('contact.success.title'), { timeout: 30_000 });
      expect(await stored('lastName', marker)).toEqual({ held: [], inbox: 1 });
    });

    test(`${code}: the contact form on a CPU six times slower, sent as soon as it is filled: stored in the inbox, not held`, async ({
      page,
    }) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
      await page.goto(`${server.baseUrl}${prefix}/ContactUs`);
      const form = page.locator('form.site-form');
      const marker = `e2e-slow-${code}-${Date.now()}`;
      await form.locator('#contact-firstName').click();
      await form.locator('#contact-firstName').fill('Sara');
      await form.locator('#contact-lastName').fill(marker);
      await form.locator('#contact-email').fill('sara@example.com');
      await form.getByRole('button', { name: words('contact.submit') }).click();
      await expect(page.locator('.banner--success')).toContainText(words('contact.success.title'), { timeout: 30_000 });
      expect(await stored('lastName', marker)).toEqual({ held: [], inbox: 1 });
    });
  }
}

test('sent before the widget has a solution (its challenge never comes): the form goes after its bounded wait, never blocked; the lead is stored held, not mailed, and the visitor is told so', async ({
  page,
}) => {
  // The challenge is asked for and never answered while the test runs: no solution can come, so a
  // form that waited for one without bound would never show its banner. (How long the wait is:
  // tests/unit/form-hydration.test.ts, PROOF_WAIT_MS.)
  let challengeAsked = false;
  let answerChallenge = () => {};
  const never = new Promise<void>((resolve) => (answerChallenge = resolve));
  await page.route('**/api/challenge', async (route) => {
    challengeAsked = true;
    await never;
    await route.abort().catch(() => undefined);
  });
  try {
    // The page's clock runs on its own, and is run forward over the bounded wait below.
    await page.clock.install();
    await page.goto(`${server.baseUrl}/ContactUs`);
    const form = page.locator('form.site-form');
    const marker = `e2e-unsolved-${Date.now()}`;
    await form.locator('#contact-firstName').click();
    await expect(page.locator('form[data-hydrated]')).toBeVisible({ timeout: 15_000 });
    await form.locator('#contact-firstName').fill('Huda');
    await form.locator('#contact-lastName').fill(marker);
    await form.locator('#contact-email').fill('huda@example.com');
    await expect(form.locator('altcha-widget')).toBeVisible();
    // The widget is working: it has asked for its challenge, which is held.
    await expect.poll(() => challengeAsked).toBe(true);
    const before = smtp.mails.length;
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(form.getByRole('button', { name: t('contact.submitting') })).toBeDisabled();
    await page.clock.runFor(PROOF_WAIT_MS);
    await expect(page.getByRole('alert')).toContainText(t('form.held.title'));
    await expect(page.locator('.banner--success')).toHaveCount(0);
    await expect(form.locator('#contact-lastName')).toHaveValue(marker);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('alert').screenshot({ path: 'test-results/screenshots/bots-contact-held-390.png' });
    const stores = openStores({ dbPath: server.dbPath, databaseUrl: undefined, poolMax: 1 }, { create: false });
    try {
      const held = (await stores.held.list('held', 100)).find((lead) => lead.fields['lastName'] === marker);
      expect(held?.reason).toBe('noProof');
      // Not mailed, now or later: the outbox is all the server mails from, and a lead's mails are
      // queued with the lead in one transaction (the store queues none for a held lead).
      expect(await stores.outbox.forLead(held!.id)).toEqual([]);
    } finally {
      await stores.close();
    }
    expect(smtp.mails.length).toBe(before);
  } finally {
    answerChallenge();
  }
});

test('the held tab: each held lead with why, opened in full with its answers and files, release and spam; axe finds nothing at 390 and 1440 px', async ({
  page,
}) => {
  const staff = openStaffStore(server.dbPath);
  await staff.add('huda@globaq.example', await hashPassword('correct horse battery staple'), new Date());
  await staff.close();
  // Two held leads: an Arabic partner application with its CV and no proof, a message with links and no proof.
  const form = new FormData();
  for (const [key, value] of Object.entries({
    name: 'عائشة القحطاني',
    jobTitle: 'Director',
    email: 'aisha@example.com',
    phoneNumber: '+966 50 123 4567',
    country: 'Saudi Arabia',
    cityName: 'Dammam',
    organization: 'Eastern Quality Training',
    companyWebsite: 'https://example.com',
    yearsInBusiness: '7',
    formOfOwnership: 'Privately held company',
  }))
    form.append(key, value);
  form.append('uploadedFiles', new File([Buffer.from('%PDF-1.4\n%%EOF\n')], 'cv.pdf', { type: 'application/pdf' }));
  expect(
    (
      await fetch(`${server.baseUrl}/api/partner?lang=ar`, {
        method: 'POST',
        body: form,
        headers: { Accept: 'application/json', Origin: server.origin },
      })
    ).status,
  ).toBe(201);
  expect(
    (
      await fetch(`${server.baseUrl}/api/contact`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: server.origin },
        body: JSON.stringify({
          firstName: 'Omar',
          lastName: 'Links',
          email: 'omar@example.com',
          message: 'http://a.example http://b.example http://c.example http://d.example',
        }),
      })
    ).status,
  ).toBe(201);

  await page.goto(`${server.baseUrl}/admin/login`);
  await page.getByLabel('E-mail address').fill('huda@globaq.example');
  await page.getByLabel('Password').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const tab = page.getByRole('navigation', { name: 'Lead status' }).getByRole('link', { name: /^Held for review \(\d+\)$/ });
  await expect(tab).toBeVisible();
  await tab.click();
  await expect(tab).toHaveAttribute('aria-current', 'page');
  await expect(page.getByText('JavaScript turned off').or(page.getByText('spam check did not run')).first()).toBeVisible();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screenshots/bots-held-tab-${width}.png`, fullPage: true });
    expect(await violations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
  // The Arabic application in full: its answers and its CV, marked held.
  await page.getByRole('link', { name: 'عائشة القحطاني' }).click();
  await expect(page.getByRole('region', { name: 'Held for review' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Files sent with it' }).getByRole('link', { name: 'cv.pdf' })).toBeVisible();
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/screenshots/bots-held-${width}.png`, fullPage: true });
    expect(await violations(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  }
  const before = smtp.mails.length;
  await page.getByRole('button', { name: 'Release to the inbox' }).click();
  await expect(page.getByRole('status')).toContainText('Released');
  await smtp.waitFor(before + 1);
  await page.goto(`${server.baseUrl}/admin?status=held`);
  await page.getByRole('link', { name: /Omar Links/ }).click();
  await page.getByRole('button', { name: 'Mark as spam', exact: true }).click();
  await expect(page.getByRole('status')).toContainText('Marked as spam');
});
