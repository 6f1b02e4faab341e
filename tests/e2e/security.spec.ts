/**
 * Security: the server sends its headers. That the policy blocks nothing the site needs is checked
 * on every page in a11y.spec.ts's pass over them (English) and arabic.spec.ts (Arabic).
 */
import { expect, test } from '@playwright/test';

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
