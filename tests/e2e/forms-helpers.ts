/** Shared tools for the form tests: intercepting the endpoint, collecting alerts, reading what was stored. */
import { spawnSync } from 'node:child_process';
import { expect, type Page, type Request, type Route } from '@playwright/test';
import { partnerValuesFromForm } from '../../src/forms/partner';

export interface Capture {
  readonly requests: Request[];
  readonly alerts: string[];
  /** Lets the intercepted request answer; until then the form stays in its submitting state. */
  release: () => void;
}

/**
 * Intercepts POSTs to `path`: each is recorded, held until `release()` when `hold` is set,
 * then answered with `status`, or aborted as a network failure when status is 'abort'.
 */
export async function interceptEndpoint(page: Page, path: string, options: { status: number | 'abort'; hold?: boolean }): Promise<Capture> {
  const requests: Request[] = [];
  const alerts: string[] = [];
  let release = () => {};
  const gate = options.hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  page.on('dialog', (dialog) => {
    alerts.push(dialog.message());
    void dialog.accept();
  });
  await page.route(`**${path}`, async (route: Route) => {
    requests.push(route.request());
    await gate;
    if (options.status === 'abort') await route.abort('failed');
    else await route.fulfill({ status: options.status, contentType: 'application/json', body: JSON.stringify({ id: 1 }) });
  });
  return {
    requests,
    alerts,
    release: () => release(),
  };
}

/** A form control by its exact label (a required field's label ends in "(required)"), inside the page's form. */
export const field = (page: Page, label: string) =>
  page.locator('form.site-form').getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\(required\\))?$`));

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
export async function sentBody(request: Request): Promise<{ body: Record<string, unknown>; files: { name: string; size: number; bytes: Uint8Array }[]; multipart: boolean }> {
  const type = request.headers()['content-type'] ?? '';
  if (!type.startsWith('multipart/form-data')) return { body: request.postDataJSON() as Record<string, unknown>, files: [], multipart: false };
  const data = await new Response(request.postDataBuffer() as unknown as BodyInit, { headers: { 'Content-Type': type } }).formData();
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

/** The partner form's required answers (spec §3), the name given or Aisha's. */
export async function fillPartnerRequired(page: Page, name = 'Aisha Al-Qahtani'): Promise<void> {
  await field(page, 'Full Name').fill(name);
  await field(page, 'Job Title').fill('Managing Director');
  await field(page, 'Email').fill('aisha@example.com');
  await field(page, 'Phone Number').fill('+966 50 123 4567');
  await field(page, 'Country').selectOption('Saudi Arabia');
  await field(page, 'City').fill('Dammam');
  await field(page, 'Organization').fill('Eastern Quality Training');
  await field(page, 'Company Website').fill('https://example.com');
  await field(page, 'Years in Business').fill('7');
  await field(page, 'Form of Ownership').selectOption('Privately held company');
}

/** The stored submissions of `form` (the honeypot's catch with `bots`), read through the staff command's JSON export. */
export function exportRows(form: 'contact' | 'partner', bots = false): Record<string, unknown>[] {
  const result = spawnSync('npm', ['run', '--silent', 'submissions', '--', 'export', '--form', form, '--format', 'json', ...(bots ? ['--bots'] : [])], {
    env: { ...process.env, SUBMISSIONS_DB: process.env['E2E_SUBMISSIONS_DB'] ?? '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>[];
}
