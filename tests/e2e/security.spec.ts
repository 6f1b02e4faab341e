/** Security: the policy blocks nothing the site needs, and the server sends its headers. */
import { expect, test } from '@playwright/test';
import { PAGE_ROUTES } from './routes';

test('no page reports a content-security-policy violation, and every page carries the policy', async ({ page }) => {
  test.setTimeout(180_000);
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  for (const route of PAGE_ROUTES) {
    await page.goto(route.path);
    await expect(page.locator('meta[http-equiv="content-security-policy"]')).toHaveCount(1);
    // Interact a little so islands hydrate and run.
    await page.mouse.move(200, 30);
    await page.mouse.wheel(0, 2000);
    await page.waitForLoadState('networkidle');
  }
  expect(violations).toEqual([]);
});

test('the server sends the security headers, on pages and on errors', async ({ request }) => {
  for (const path of ['/', '/AboutUs', '/no-such-page', '/services/unknown']) {
    const response = await request.get(path);
    const headers = response.headers();
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(headers['content-security-policy'], path).toContain("frame-ancestors 'none'");
    expect(headers['permissions-policy'], path).toContain('camera=()');
    // Not told it is behind HTTPS: no HSTS over plain HTTP.
    expect(headers['strict-transport-security'], path).toBeUndefined();
  }
});

test('every link that opens a new tab says noopener noreferrer', async ({ page }) => {
  for (const path of ['/', '/ContactUs']) {
    await page.goto(path);
    for (const link of await page.locator('a[target="_blank"]').all()) {
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  }
});
