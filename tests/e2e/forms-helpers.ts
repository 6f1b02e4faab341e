/** Shared tools for the form tests: intercepting the endpoint and collecting alerts. */
import type { Page, Request, Route } from '@playwright/test';

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
