/**
 * Shared tools for the form tests, in either language: the form's endpoint and controls as the
 * language's page has them, intercepting the endpoint, collecting alerts, reading what was stored.
 * Without a language given, a helper reads the English page (the specs that run once).
 */
import { spawnSync } from 'node:child_process';
import { expect, type Locator, type Page, type Request, type Route } from '@playwright/test';
import { contactLabelKey, type ContactField } from '../../src/forms/contact';
import {
  partnerLabelKey,
  partnerOptionKey,
  partnerValuesFromForm,
  type PartnerField,
  type PartnerOptionKey,
} from '../../src/forms/partner';
import { LANGUAGE_PARAM } from '../../src/forms/submit';
import { escapeRegExp, siteLanguage, type SiteLanguage } from './site-locale';

const english = siteLanguage('en');

/**
 * Reaches for the page's form as a visitor does (the pointer moves over it), which loads and
 * starts its island (client:intent); resolves once the island runs. Until then the page is a
 * plain HTML form that posts without JavaScript.
 */
export async function reachForm(page: Page): Promise<Locator> {
  const form = page.locator('form.site-form, form.partner-form').first();
  await form.locator('h2').first().hover();
  await expect(page.locator('form[data-hydrated]')).toBeVisible({ timeout: 15_000 });
  return form;
}

/**
 * Waits for the form's proof of work to be solved (the widget fills its hidden `altcha` field),
 * as a visitor's browser does while they type: a lead sent then is mailed, not held.
 */
export async function waitForProof(form: Locator): Promise<void> {
  await expect(form.locator('altcha-widget input[name="altcha"]')).toHaveValue(/.+/, { timeout: 30_000 });
}

/** Opens a form page and reaches for its form (`reachForm`). */
export async function openFormPage(page: Page, path: string): Promise<Locator> {
  await page.goto(path);
  return reachForm(page);
}

/**
 * Where `form` posts from `lang`'s page: the site's own receiver, told the language in its query
 * when it is not English ("/api/contact", "/api/contact?lang=ar").
 */
export const formEndpoint = (form: 'contact' | 'partner', lang: SiteLanguage = english) =>
  lang.code === 'en' ? `/api/${form}` : `/api/${form}?${LANGUAGE_PARAM}=${lang.code}`;

export interface Capture {
  readonly requests: Request[];
  readonly alerts: string[];
  /** Lets the intercepted request answer; until then the form stays in its submitting state. */
  release: () => void;
}

/**
 * Intercepts POSTs to `path` (with its query, exactly: see formEndpoint): each is recorded, held until `release()` when `hold` is set,
 * then answered with `status`, or aborted as a network failure when status is 'abort'.
 */
export async function interceptEndpoint(
  page: Page,
  path: string,
  options: { status: number | 'abort'; hold?: boolean },
): Promise<Capture> {
  const endpoint = new URL(path, 'http://site.invalid');
  const requests: Request[] = [];
  const alerts: string[] = [];
  let release = () => {};
  const gate = options.hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  // The path and its query exactly ("/api/contact?lang=ar"): a post anywhere else is not caught.
  await page.route(
    (url) => url.pathname === endpoint.pathname && url.search === endpoint.search,
    async (route: Route) => {
      requests.push(route.request());
      await gate;
      if (options.status === 'abort') await route.abort('failed');
      else await route.fulfill({ status: options.status, contentType: 'application/json', body: JSON.stringify({ id: 1 }) });
    },
  );
  return {
    requests,
    alerts,
    release: () => release(),
  };
}

/**
 * A form control by its exact label, inside the page's form; a required field's label ends in
 * " (required)", in `lang`'s word for it (form.required).
 */
export const field = (page: Page, label: string, lang: SiteLanguage = english) =>
  page
    .locator('form.site-form')
    .getByLabel(new RegExp(`^${escapeRegExp(label)}( \\(${escapeRegExp(lang.t('form.required'))}\\))?$`));

/** The contact form's control for the specification's field `name`, by its label in `lang`. */
export const contactField = (page: Page, name: ContactField, lang: SiteLanguage = english) =>
  field(page, lang.t(contactLabelKey(name)), lang);

/** The partner form's control for the specification's field `name`, by its label in `lang`. */
export const partnerField = (page: Page, name: PartnerField, lang: SiteLanguage = english) =>
  field(page, lang.t(partnerLabelKey(name)), lang);

/** One checkbox or radio button of the partner form's group `name`: the option `option`, by its label in `lang`. */
export const partnerChoice = (page: Page, name: PartnerField, option: PartnerOptionKey, lang: SiteLanguage = english) =>
  page.locator(`#partner-${name}`).getByLabel(lang.t(partnerOptionKey(option)), { exact: true });

/** The partner form's form-of-ownership radio button that sends `value` (the specification's English words in every language). */
export const ownershipAnswer = (page: Page, value: string) =>
  page.locator(`#partner-formOfOwnership input[type="radio"][value="${value}"]`);

/** The form of ownership's chosen answer (none: an empty locator). */
export const chosenOwnership = (page: Page) => page.locator('#partner-formOfOwnership input[type="radio"]:checked');

/**
 * Starts recording the page form's `submit` and `invalid` events; returns a reader of what was
 * seen so far. The island runs the browser's own check (reportValidity) inside its submit
 * handler, which fires `invalid` on each bad control there and then, and returns before sending:
 * `submit` followed by `invalid` is the handler having stopped, with no time to wait out.
 */
export async function recordFormEvents(page: Page): Promise<() => Promise<string[]>> {
  await page.locator('form.site-form').evaluate((form) => {
    const seen: string[] = [];
    Object.assign(window, { __formEvents: seen });
    form.addEventListener('invalid', (event) => seen.push(`invalid:${(event.target as HTMLInputElement).name}`), true);
    form.addEventListener('submit', () => seen.push('submit'), true);
  });
  return () => page.evaluate(() => (window as unknown as { __formEvents: string[] }).__formEvents.slice());
}

/**
 * What a form sent, as the receiver reads it: a JSON body as it is; the partner form's multipart
 * body (its files, to the site's own receiver) through the same reading the receiver applies to a
 * form post (partnerValuesFromForm), with the files' names in `uploadedFiles`, and the files apart.
 */
export async function sentBody(
  request: Request,
): Promise<{ body: Record<string, unknown>; files: { name: string; size: number; bytes: Uint8Array }[]; multipart: boolean }> {
  const type = request.headers()['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data'))
    return { body: request.postDataJSON() as Record<string, unknown>, files: [], multipart: false };
  const data = await new Response(request.postDataBuffer() as unknown as BodyInit, {
    headers: { 'Content-Type': type },
  }).formData();
  const fields = new URLSearchParams();
  const files: { name: string; size: number; bytes: Uint8Array }[] = [];
  for (const [name, value] of data.entries()) {
    if (typeof value === 'string') fields.append(name, value);
    else {
      files.push({ name: value.name, size: value.size, bytes: new Uint8Array(await value.arrayBuffer()) });
      fields.append(name, value.name);
    }
  }
  return { body: partnerValuesFromForm(fields), files, multipart: true };
}

/**
 * The partner form's required answers (docs/requirements.md §8.5), the name given or Aisha's, on `lang`'s page.
 * The lists are chosen by their values, the specification's English words in every language.
 */
export async function fillPartnerRequired(page: Page, name = 'Aisha Al-Qahtani', lang: SiteLanguage = english): Promise<void> {
  const control = (field: PartnerField) => partnerField(page, field, lang);
  await control('name').fill(name);
  await control('jobTitle').fill('Managing Director');
  await control('email').fill('aisha@example.com');
  await control('phoneNumber').fill('+966 50 123 4567');
  await control('country').selectOption({ value: 'Saudi Arabia' });
  await control('cityName').fill('Dammam');
  await control('organization').fill('Eastern Quality Training');
  await control('companyWebsite').fill('https://example.com');
  await control('yearsInBusiness').fill('7');
  await ownershipAnswer(page, 'Privately held company').check();
}

/**
 * The stored submissions of `form` in the inbox, read through the staff command's JSON export;
 * with `withHeld`, the leads held for review too (no valid proof of work, the honeypot filled).
 */
export function exportRows(form: 'contact' | 'partner', options: { withHeld?: boolean } = {}): Record<string, unknown>[] {
  const result = spawnSync(
    'npm',
    [
      'run',
      '--silent',
      'submissions',
      '--',
      'export',
      '--form',
      form,
      '--format',
      'json',
      ...(options.withHeld ? ['--with-held'] : []),
    ],
    {
      env: { ...process.env, SUBMISSIONS_DB: process.env['E2E_SUBMISSIONS_DB'] ?? '' },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>[];
}

/**
 * True when the element's text is drawn left to right on screen, its first character left of its
 * last: an address or a phone number inside an Arabic sentence must keep its own order.
 */
export function drawnLeftToRight(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const text = element.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE || (text.textContent ?? '').length < 2) return false;
    const charBox = (index: number) => {
      const range = document.createRange();
      range.setStart(text, index);
      range.setEnd(text, index + 1);
      return range.getBoundingClientRect();
    };
    return charBox(0).left < charBox((text.textContent ?? '').length - 1).left;
  });
}
