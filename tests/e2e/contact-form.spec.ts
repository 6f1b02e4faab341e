/**
 * The contact form, every rule of docs/requirements.md §7, §10, §11, with the endpoint intercepted, in each
 * language: /ContactUs and /ar/ContactUs. The labels, alerts, banners and messages are the
 * language's (its dictionary); what is sent keeps the specification's field names, and the Arabic
 * form tells the site's own receiver its language (?lang=ar).
 */
import { expect, test, type SiteLanguage } from './site-locale';
import type { Page } from '@playwright/test';
import { PROOF_WAIT_MS } from '../../src/components/islands/use-proof';
import { violations } from './axe';
import {
  contactField,
  drawnLeftToRight,
  formEndpoint,
  interceptEndpoint,
  openFormPage,
  recordFormEvents,
  waitForProof,
} from './forms-helpers';
import type { ContactField } from '../../src/forms/contact';
import { site } from './site-data';

const MESSAGE = 'We need a Schedule Q assessment at 15% completion.';

async function fill(page: Page, lang: SiteLanguage) {
  const control = (name: ContactField) => contactField(page, name, lang);
  await control('firstName').fill('Omar');
  await control('lastName').fill('Al-Harbi');
  await control('email').fill('omar@example.com');
  await control('country').fill('Saudi Arabia');
  await control('city').fill('Dammam');
  await control('company').fill('Gulf Fabrication');
  await control('message').fill(MESSAGE);
}

const send = (page: Page, lang: SiteLanguage) => page.getByRole('button', { name: lang.t('contact.submit') }).click();

const axe = async (page: Page) => (await violations(page)).map((line) => line.split(':')[0]);

test.describe('with JavaScript', () => {
  test.beforeEach(async ({ page, lang }) => {
    await openFormPage(page, lang.path('/ContactUs'));
    // Started once the island has set noValidate.
    await expect.poll(() => page.locator('form.site-form').evaluate((f: HTMLFormElement) => f.noValidate)).toBe(true);
  });

  test('empty required fields: the alert, nothing sent, each field named and focus on the first @rtl', async ({ page, lang }) => {
    const control = (name: ContactField) => contactField(page, name, lang);
    const capture = await interceptEndpoint(page, formEndpoint('contact', lang), { status: 201 });
    await control('lastName').fill('Al-Harbi');
    await send(page, lang);
    await expect.poll(() => capture.alerts).toEqual([lang.t('contact.alert.required')]);
    expect(capture.requests).toHaveLength(0);
    await expect(control('firstName')).toBeFocused();
    await expect(control('firstName')).toHaveAttribute('aria-invalid', 'true');
    await expect(control('email')).toHaveAttribute('aria-invalid', 'true');
    await expect(control('lastName')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#contact-firstName-error')).toHaveText(lang.t('form.issue.required'));
    await expect(page.locator('.error-summary')).toContainText(
      `${lang.t('contact.field.email')}: ${lang.t('form.issue.required')}`,
    );
    expect(await axe(page)).toEqual([]);
  });

  test('the Send button stays where it is while the proof-of-work widget appears under a first field @rtl', async ({
    page,
    lang,
  }) => {
    const send = page.getByRole('button', { name: lang.t('contact.submit') });
    // Where the button stands in its form: a scroll of the page (the focus, a late picture above
    // the form) moves the whole form, not the button within it, and is not the widget's doing.
    const place = () =>
      send.evaluate((button: HTMLButtonElement) => button.getBoundingClientRect().top - button.form!.getBoundingClientRect().top);
    // The widget's stylesheets come late, as on a slow connection: it is drawn only once they are in.
    await page.route(/\/_astro\/altcha[\w.-]*\.css$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.continue();
    });
    // Measured once the page's fonts are in: a late font is not the widget's doing.
    await page.evaluate(() => document.fonts.ready);
    const before = await place();
    // Every place the button takes while the form changes size, not only the last.
    await send.evaluate((button: HTMLButtonElement) => {
      const places: number[] = [];
      Object.assign(window, { sendPlaces: places });
      new ResizeObserver(() =>
        places.push(button.getBoundingClientRect().top - button.form!.getBoundingClientRect().top),
      ).observe(button.form!);
    });
    await contactField(page, 'firstName', lang).focus();
    await expect(page.locator('form.site-form altcha-widget')).toBeVisible();
    // The widget's own stylesheet has arrived: it is drawn at its full height.
    await expect
      .poll(async () => (await page.locator('form.site-form altcha-widget').boundingBox())?.height ?? 0)
      .toBeGreaterThan(30);
    expect(await place()).toBe(before);
    const places = await page.evaluate(() => (window as unknown as { sendPlaces: number[] }).sendPlaces);
    expect(new Set(places)).toEqual(new Set(places.length ? [before] : []));
  });

  test('a malformed e-mail is stopped by the browser’s own check, nothing sent', async ({ page, lang }) => {
    const email = contactField(page, 'email', lang);
    const capture = await interceptEndpoint(page, formEndpoint('contact', lang), { status: 201 });
    await fill(page, lang);
    await email.fill('omar-at-example');
    const events = await recordFormEvents(page);
    await send(page, lang);
    await expect.poll(() => email.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
    await expect.poll(events).toEqual(['submit', `invalid:${await email.getAttribute('name')}`]);
    expect(capture.requests).toHaveLength(0);
    expect(capture.alerts).toEqual([]);
  });

  test('success: disabled "Sending Message...", the exact JSON body, the banner, fields cleared', async ({ page, lang }) => {
    const capture = await interceptEndpoint(page, formEndpoint('contact', lang), { status: 201, hold: true });
    await fill(page, lang);
    await waitForProof(page.locator('form.site-form'));
    await send(page, lang);
    const button = page.locator('button[type="submit"]');
    await expect(button).toHaveText(lang.t('contact.submitting'));
    await expect(button).toBeDisabled();
    await expect.poll(() => capture.requests.length).toBe(1);
    const request = capture.requests[0]!;
    expect(request.method()).toBe('POST');
    const url = new URL(request.url());
    expect(`${url.pathname}${url.search}`).toBe(formEndpoint('contact', lang));
    expect(request.headers()['content-type']).toBe('application/json');
    const body = request.postDataJSON() as Record<string, string>;
    // The specification's field names, whatever the page's language.
    expect(Object.keys(body)).toEqual([
      'firstName',
      'lastName',
      'email',
      'country',
      'city',
      'company',
      'message',
      'submissionDate',
      'submissionTimestamp',
      // The solved proof of work, for the site's own receiver.
      'altcha',
    ]);
    expect(body).toMatchObject({
      firstName: 'Omar',
      lastName: 'Al-Harbi',
      email: 'omar@example.com',
      country: 'Saudi Arabia',
      city: 'Dammam',
      company: 'Gulf Fabrication',
      message: MESSAGE,
    });
    expect(new Date(body['submissionDate'] ?? '').toISOString()).toBe(body['submissionDate']);
    expect(body['submissionTimestamp']).toMatch(/\d/);

    capture.release();
    const banner = page.locator('.banner--success');
    await expect(banner).toContainText(lang.t('contact.success.title'));
    await expect(banner).toContainText(lang.t('contact.success.text'));
    await expect(banner).toBeFocused();
    for (const name of ['firstName', 'lastName', 'email', 'country', 'city', 'company', 'message'] as const) {
      await expect(contactField(page, name, lang)).toHaveValue('');
    }
    await expect(button).toHaveText(lang.t('contact.submit'));
    await expect(button).toBeEnabled();
    expect(await axe(page)).toEqual([]);
  });

  for (const [what, status] of [
    ['a server error', 500],
    ['a refused request', 400],
    ['a network failure', 'abort'],
  ] as const) {
    test(`failure (${what}): the failure banner, and every field kept`, async ({ page, lang }) => {
      const capture = await interceptEndpoint(page, formEndpoint('contact', lang), { status });
      await fill(page, lang);
      await send(page, lang);
      const banner = page.locator('.banner--failure');
      await expect(banner).toContainText(lang.t('contact.failure.title'));
      await expect(banner).toContainText(lang.t('contact.failure.text'));
      await expect(banner).toHaveAttribute('role', 'alert');
      expect(capture.requests).toHaveLength(1);
      await expect(contactField(page, 'firstName', lang)).toHaveValue('Omar');
      await expect(contactField(page, 'message', lang)).toHaveValue(MESSAGE);
      // A way around the form: an e-mail already written from what was typed, and the phone.
      await expect(banner).toContainText(lang.t('form.failure.help', { email: site.email, phone: site.phone }));
      const mail = new URL((await banner.getByRole('link', { name: site.email }).getAttribute('href')) ?? '');
      expect(mail.protocol).toBe('mailto:');
      expect(mail.pathname).toBe(site.email);
      expect(mail.searchParams.get('subject')).toBe(lang.t('contact.failure.mailSubject'));
      expect(mail.searchParams.get('body')).toContain(MESSAGE);
      expect(mail.searchParams.get('body')).toContain('Omar');
      await expect(banner.getByRole('link', { name: site.phone })).toHaveAttribute(
        'href',
        `tel:${site.phone.replace(/\s+/g, '')}`,
      );
      // Both drawn in their own order, also inside an Arabic sentence.
      expect(await drawnLeftToRight(banner.getByRole('link', { name: site.phone }))).toBe(true);
      expect(await drawnLeftToRight(banner.getByRole('link', { name: site.email }))).toBe(true);
      expect(await axe(page)).toEqual([]);
    });
  }

  test('a new submit clears the previous banner', async ({ page, lang }) => {
    const first = await interceptEndpoint(page, formEndpoint('contact', lang), { status: 500 });
    await fill(page, lang);
    await send(page, lang);
    // The send waits up to PROOF_WAIT_MS for the proof of work, which a loaded CI machine stretches.
    await expect(page.locator('.banner--failure')).toBeVisible({ timeout: PROOF_WAIT_MS + 10_000 });
    expect(first.requests).toHaveLength(1);
    await page.unrouteAll({ behavior: 'wait' });
    const second = await interceptEndpoint(page, formEndpoint('contact', lang), { status: 201, hold: true });
    await send(page, lang);
    await expect(page.locator('button[type="submit"]')).toHaveText(lang.t('contact.submitting'));
    await expect(page.locator('.banner')).toHaveCount(0);
    second.release();
    await expect(page.locator('.banner--success')).toBeVisible({ timeout: 15_000 });
  });

  test('the message box has 6 rows, the e-mail field is of e-mail type, and fields name their autocomplete', async ({
    page,
    lang,
  }) => {
    await expect(contactField(page, 'message', lang)).toHaveAttribute('rows', '6');
    await expect(contactField(page, 'email', lang)).toHaveAttribute('type', 'email');
    await expect(contactField(page, 'firstName', lang)).toHaveAttribute('autocomplete', 'given-name');
    await expect(contactField(page, 'company', lang)).toHaveAttribute('autocomplete', 'organization');
  });

  test('the three info cards: phone, e-mail, address', async ({ page, lang }) => {
    const cards = page.locator('.contact-cards > li');
    await expect(cards).toHaveCount(3);
    await expect(cards.nth(0).locator('a[href^="tel:"]')).toBeVisible();
    await expect(cards.nth(1).locator('a[href^="mailto:"]')).toBeVisible();
    await expect(cards.nth(2)).toContainText(lang.addressLine);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form is a real form posting to the receiver, with every field named', async ({ page, lang }) => {
    await page.goto(lang.path('/ContactUs'));
    const form = page.locator('form.site-form');
    await expect(form).toHaveAttribute('method', 'post');
    await expect(form).toHaveAttribute('action', formEndpoint('contact', lang));
    for (const name of ['firstName', 'lastName', 'email', 'country', 'city', 'company', 'message']) {
      await expect(form.locator(`[name="${name}"]`)).toHaveCount(1);
    }
    for (const name of ['firstName', 'lastName', 'email'])
      await expect(form.locator(`[name="${name}"]`)).toHaveAttribute('required', '');
  });
});
