/** The contact form, every rule of spec §4, §5, §7, §8, with the endpoint intercepted. */
import { expect, test, type Page } from '@playwright/test';
import { violations } from './axe';
import { field, interceptEndpoint, recordFormEvents } from './forms-helpers';
import { site } from './site-data';

const ENDPOINT = '/api/contact';

async function fill(page: Page) {
  await field(page, 'First Name').fill('Omar');
  await field(page, 'Last Name').fill('Al-Harbi');
  await field(page, 'Email').fill('omar@example.com');
  await field(page, 'Country').fill('Saudi Arabia');
  await field(page, 'City').fill('Dammam');
  await field(page, 'Company').fill('Gulf Fabrication');
  await field(page, 'Message').fill('We need a Schedule Q assessment at 15% completion.');
}

const axe = async (page: Page) => (await violations(page)).map((line) => line.split(':')[0]);

test.describe('with JavaScript', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/ContactUs');
    await expect(page.locator('form[data-hydrated], form.site-form')).toBeVisible();
    // Hydrated once the island has set noValidate.
    await expect.poll(() => page.locator('form.site-form').evaluate((f: HTMLFormElement) => f.noValidate)).toBe(true);
  });

  test('empty required fields: the alert, nothing sent, each field named and focus on the first', async ({ page }) => {
    const capture = await interceptEndpoint(page, ENDPOINT, { status: 201 });
    await field(page, 'Last Name').fill('Al-Harbi');
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect.poll(() => capture.alerts).toEqual(['Please fill in all required fields']);
    expect(capture.requests).toHaveLength(0);
    await expect(field(page, 'First Name')).toBeFocused();
    await expect(field(page, 'First Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(field(page, 'Last Name')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.locator('#contact-firstName-error')).toHaveText('This field is required.');
    await expect(page.locator('.error-summary')).toContainText('Email: This field is required.');
    expect(await axe(page)).toEqual([]);
  });

  test('a malformed e-mail is stopped by the browser’s own check, nothing sent', async ({ page }) => {
    const capture = await interceptEndpoint(page, ENDPOINT, { status: 201 });
    await fill(page);
    await field(page, 'Email').fill('omar-at-example');
    const events = await recordFormEvents(page);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect.poll(() => field(page, 'Email').evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
    await expect.poll(events).toEqual(['submit', `invalid:${await field(page, 'Email').getAttribute('name')}`]);
    expect(capture.requests).toHaveLength(0);
    expect(capture.alerts).toEqual([]);
  });

  test('success: disabled "Sending Message...", the exact JSON body, the banner, fields cleared', async ({ page }) => {
    const capture = await interceptEndpoint(page, ENDPOINT, { status: 201, hold: true });
    await fill(page);
    await page.getByRole('button', { name: 'Send Message' }).click();
    const button = page.locator('button[type="submit"]');
    await expect(button).toHaveText('Sending Message...');
    await expect(button).toBeDisabled();
    await expect.poll(() => capture.requests.length).toBe(1);
    const request = capture.requests[0]!;
    expect(request.method()).toBe('POST');
    expect(request.headers()['content-type']).toBe('application/json');
    const body = request.postDataJSON() as Record<string, string>;
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
    ]);
    expect(body).toMatchObject({
      firstName: 'Omar',
      lastName: 'Al-Harbi',
      email: 'omar@example.com',
      country: 'Saudi Arabia',
      city: 'Dammam',
      company: 'Gulf Fabrication',
      message: 'We need a Schedule Q assessment at 15% completion.',
    });
    expect(new Date(body['submissionDate'] ?? '').toISOString()).toBe(body['submissionDate']);
    expect(body['submissionTimestamp']).toMatch(/\d/);

    capture.release();
    const banner = page.locator('.banner--success');
    await expect(banner).toContainText('Message Sent Successfully!');
    await expect(banner).toContainText(
      "Thank you for your message! We'll get back to you soon. Your message has been saved to our records.",
    );
    await expect(banner).toBeFocused();
    for (const label of ['First Name', 'Last Name', 'Email', 'Country', 'City', 'Company', 'Message']) {
      await expect(field(page, label)).toHaveValue('');
    }
    await expect(button).toHaveText('Send Message');
    await expect(button).toBeEnabled();
    expect(await axe(page)).toEqual([]);
  });

  for (const [what, status] of [
    ['a server error', 500],
    ['a refused request', 400],
    ['a network failure', 'abort'],
  ] as const) {
    test(`failure (${what}): the failure banner, and every field kept`, async ({ page }) => {
      const capture = await interceptEndpoint(page, ENDPOINT, { status });
      await fill(page);
      await page.getByRole('button', { name: 'Send Message' }).click();
      const banner = page.locator('.banner--failure');
      await expect(banner).toContainText('Submission Failed');
      await expect(banner).toContainText('Oops! Something went wrong. Please try again.');
      await expect(banner).toHaveAttribute('role', 'alert');
      expect(capture.requests).toHaveLength(1);
      await expect(field(page, 'First Name')).toHaveValue('Omar');
      await expect(field(page, 'Message')).toHaveValue('We need a Schedule Q assessment at 15% completion.');
      // A way around the form: an e-mail already written from what was typed, and the phone.
      await expect(banner).toContainText(`Your answers are still here. If sending keeps failing, e-mail us at ${site.email} or call ${site.phone}.`);
      const mail = new URL((await banner.getByRole('link', { name: site.email }).getAttribute('href')) ?? '');
      expect(mail.protocol).toBe('mailto:');
      expect(mail.pathname).toBe(site.email);
      expect(mail.searchParams.get('subject')).toBe('Message from the website');
      expect(mail.searchParams.get('body')).toContain('We need a Schedule Q assessment at 15% completion.');
      expect(mail.searchParams.get('body')).toContain('Omar');
      await expect(banner.getByRole('link', { name: site.phone })).toHaveAttribute('href', `tel:${site.phone.replace(/\s+/g, '')}`);
      expect(await axe(page)).toEqual([]);
    });
  }

  test('a new submit clears the previous banner', async ({ page }) => {
    const first = await interceptEndpoint(page, ENDPOINT, { status: 500 });
    await fill(page);
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.locator('.banner--failure')).toBeVisible();
    expect(first.requests).toHaveLength(1);
    await page.unrouteAll({ behavior: 'wait' });
    const second = await interceptEndpoint(page, ENDPOINT, { status: 201, hold: true });
    await page.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.locator('button[type="submit"]')).toHaveText('Sending Message...');
    await expect(page.locator('.banner')).toHaveCount(0);
    second.release();
    await expect(page.locator('.banner--success')).toBeVisible();
  });

  test('the message box has 6 rows, the e-mail field is of e-mail type, and fields name their autocomplete', async ({ page }) => {
    await expect(field(page, 'Message')).toHaveAttribute('rows', '6');
    await expect(field(page, 'Email')).toHaveAttribute('type', 'email');
    await expect(field(page, 'First Name')).toHaveAttribute('autocomplete', 'given-name');
    await expect(field(page, 'Company')).toHaveAttribute('autocomplete', 'organization');
  });

  test('the three info cards: phone, e-mail, address', async ({ page }) => {
    const cards = page.locator('.contact-cards > li');
    await expect(cards).toHaveCount(3);
    await expect(cards.nth(0).locator('a[href^="tel:"]')).toBeVisible();
    await expect(cards.nth(1).locator('a[href^="mailto:"]')).toBeVisible();
    await expect(cards.nth(2)).toContainText('Al-Khobar, Saudi Arabia');
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form is a real form posting to the receiver, with every field named', async ({ page }) => {
    await page.goto('/ContactUs');
    const form = page.locator('form.site-form');
    await expect(form).toHaveAttribute('method', 'post');
    await expect(form).toHaveAttribute('action', ENDPOINT);
    for (const name of ['firstName', 'lastName', 'email', 'country', 'city', 'company', 'message']) {
      await expect(form.locator(`[name="${name}"]`)).toHaveCount(1);
    }
    for (const name of ['firstName', 'lastName', 'email'])
      await expect(form.locator(`[name="${name}"]`)).toHaveAttribute('required', '');
  });
});
