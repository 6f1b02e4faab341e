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
