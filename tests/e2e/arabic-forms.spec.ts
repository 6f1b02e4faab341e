/**
 * The two forms in Arabic, on the site's own server and receiver: the same fields
 * and rules with the Arabic words; the alert, the error summary and the banners in Arabic; the
 * countries in Arabic; counts typed in Arabic-Indic digits; the lead stored with its language and
 * the specification's field names; without JavaScript, the Arabic thanks page. Axe on each state
 * a visitor reaches (errors shown, success).
 */
import { expect, test, type Page } from '@playwright/test';
import { violations } from './axe';
import { exportRows, openFormPage, waitForProof } from './forms-helpers';
import { ar } from '../../src/i18n/ar';
import { PARTNER_REQUIRED, partnerLabelKey } from '../../src/forms/partner';

/** Alerts the page raises, accepted and kept in order. */
function collectAlerts(page: Page): string[] {
  const alerts: string[] = [];
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  return alerts;
}

test.describe('a phone, 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('contact in Arabic: the Arabic alert and error summary, then the Arabic success banner, and the lead stored as Arabic', async ({
    page,
  }) => {
    const marker = `e2e-ar-contact-${Date.now()}`;
    const alerts = collectAlerts(page);
    const form = await openFormPage(page, '/ar/ContactUs');
    await expect(form.locator('h2')).toHaveText(ar['contact.formTitle']);

    await form.getByRole('button', { name: ar['contact.submit'] }).tap();
    await expect.poll(() => alerts).toEqual([ar['contact.alert.required']]);
    await expect(form.locator('.error-summary__title')).toHaveText(ar['form.errorSummary']);
    await expect(form.locator('#contact-firstName-error')).toHaveText(ar['form.issue.required']);
    await expect(form.locator('#contact-firstName')).toBeFocused();
    expect(await violations(page)).toEqual([]);

    const sent = page.waitForRequest((request) => request.method() === 'POST' && request.url().includes('/api/contact'));
    await form.locator('#contact-firstName').fill('فاطمة');
    await form.locator('#contact-lastName').fill(marker);
    await form.locator('#contact-email').fill('fatimah@example.com');
    await form.locator('#contact-message').fill('نرغب في تقييم Schedule Q لمنشأتنا.');
    await waitForProof(form);
    await form.getByRole('button', { name: ar['contact.submit'] }).tap();
    await expect(page.locator('.banner--success')).toContainText(ar['contact.success.title']);
    const request = await sent;
    expect(new URL(request.url()).search).toBe('?lang=ar');
    expect(Object.keys(request.postDataJSON() as object).sort()).toEqual([
      'altcha',
      'city',
      'company',
      'country',
      'email',
      'firstName',
      'lastName',
      'message',
      'submissionDate',
      'submissionTimestamp',
    ]);
    expect(await violations(page)).toEqual([]);

    const row = exportRows('contact').find((r) => r['lastName'] === marker);
    expect(row).toMatchObject({ firstName: 'فاطمة', message: 'نرغب في تقييم Schedule Q لمنشأتنا.', language: 'ar' });
  });
});

test.describe('a desktop, 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('partner in Arabic: Arabic countries (Saudi Arabia first), the alert naming Arabic labels, counts in Arabic-Indic digits, stored with English answers', async ({
    page,
  }) => {
    const marker = `e2e-ar-partner-${Date.now()}`;
    const alerts = collectAlerts(page);
    const form = await openFormPage(page, '/ar/Partner');

    const country = form.locator('#partner-country');
    const options = await country
      .locator('option')
      .evaluateAll((list) => list.map((o) => ({ value: (o as HTMLOptionElement).value, label: o.textContent })));
    expect(options[0]).toEqual({ value: '', label: ar['partner.placeholder.country'] });
    expect(options[1]).toEqual({ value: 'Saudi Arabia', label: 'المملكة العربية السعودية' });
    expect(await country.locator('optgroup').getAttribute('label')).toBe(ar['partner.countryAll']);

    await form.locator('#partner-name').fill(marker);
    await form.getByRole('button', { name: ar['partner.submit'] }).click();
    await expect.poll(() => alerts.length).toBe(1);
    // The missing fields in the form's order, named as the page names them, between Arabic commas.
    const missing = PARTNER_REQUIRED.filter((f) => f !== 'name').map((f) => ar[partnerLabelKey(f)]);
    expect(missing.length).toBe(9);
    expect(alerts[0]).toBe(`${ar['partner.alert.required']} ${missing.join('، ')}`);
    await expect(form.locator('.error-summary')).toBeVisible();
    expect(await violations(page)).toEqual([]);

    await form.locator('#partner-organization').fill('مؤسسة الشرق للتدريب');
    await form.locator('#partner-jobTitle').fill('المدير العام');
    await country.selectOption('Bahrain');
    await form.locator('#partner-cityName').fill('المنامة');
    await form.locator('#partner-email').fill('partner-ar@example.com');
    await form.locator('#partner-phoneNumber').fill('+973 1700 0000');
    await form.locator('#partner-companyWebsite').fill('example.bh');
    // Typed key by key, as a visitor with an Arabic keyboard does: the browsers' number field would refuse these.
    await form.locator('#partner-yearsInBusiness').pressSequentially('١٢');
    await expect(form.locator('#partner-yearsInBusiness')).toHaveValue('١٢');
    await form.locator('#partner-numberOfEmployees').pressSequentially('٤٥');
    await form.locator('#partner-formOfOwnership').getByLabel(ar['partner.option.privatelyHeld'], { exact: true }).check();
    await waitForProof(form);
    await form.getByRole('button', { name: ar['partner.submit'] }).click();
    await expect(page.locator('.banner--success')).toContainText(ar['partner.success.title'], { timeout: 15_000 });

    const row = exportRows('partner').find((r) => r['name'] === marker);
    expect(row).toMatchObject({
      country: 'Bahrain',
      yearsInBusiness: 12,
      numberOfEmployees: 45,
      formOfOwnership: 'Privately held company',
      companyWebsite: 'https://example.bh',
      language: 'ar',
    });
  });

  test.describe('with JavaScript off', () => {
    test.use({ javaScriptEnabled: false });

    test('the Arabic contact form reaches the Arabic thanks page, and the lead is stored as Arabic', async ({ page }) => {
      const marker = `e2e-ar-nojs-${Date.now()}`;
      await page.goto('/ar/ContactUs');
      const form = page.locator('form.site-form');
      await expect(form).toHaveAttribute('action', '/api/contact?lang=ar');
      await form.locator('#contact-firstName').fill('خالد');
      await form.locator('#contact-lastName').fill(marker);
      await form.locator('#contact-email').fill('khalid@example.com');
      await form.getByRole('button', { name: ar['contact.submit'] }).click();
      await expect(page).toHaveURL(/\/ar\/ThanksPage$/);
      await expect(page.locator('h1')).toHaveText(ar['thanks.title']);
      // Stored, and held for review: without JavaScript there is no proof of work.
      expect(exportRows('contact', { withHeld: true }).find((r) => r['lastName'] === marker)).toMatchObject({
        firstName: 'خالد',
        language: 'ar',
      });
      expect(exportRows('contact').some((r) => r['lastName'] === marker)).toBe(false);
    });
  });
});

test('English typed into the Arabic partner form reads left to right, its full stop at its end; an empty field keeps the page’s direction, with JavaScript on and off', async ({
  browser,
  page,
}) => {
  const off = await browser.newContext({ javaScriptEnabled: false });
  try {
    const plain = await off.newPage();
    await plain.goto('/ar/Partner');
    for (const [form, scripted] of [
      [await openFormPage(page, '/ar/Partner'), true],
      [plain.locator('form.partner-form'), false],
    ] as const) {
      for (const field of [form.locator('#partner-interestReason'), form.locator('#partner-cityName')]) {
        const reading = () =>
          field.evaluate((element) => [getComputedStyle(element).direction, getComputedStyle(element).unicodeBidi]);
        // Empty, the field keeps the page's direction (its caret at the start of an Arabic line).
        await field.fill('');
        expect(await reading()).toEqual(['rtl', 'plaintext']);
        // English reads left to right, its full stop at its end; each line takes the direction of its own first letters.
        await field.fill('We want a local partner.');
        // With the island running the field is dir="auto"; without JavaScript each line still
        // takes the direction of its own first letters.
        expect(await reading()).toEqual([scripted ? 'ltr' : 'rtl', 'plaintext']);
        await field.fill('نريد شريكا محليا.');
        expect(await reading()).toEqual(['rtl', 'plaintext']);
      }
    }
  } finally {
    await off.close();
  }
});
