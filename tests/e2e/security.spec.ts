/**
 * Security, in each language: the server sends its headers. That the policy blocks nothing the
 * site needs is checked on every page in a11y.spec.ts's pass over them.
 */
import { expect, test } from './site-locale';

test('the server sends the security headers, on pages and on errors', async ({ request, lang }) => {
  for (const path of ['/', '/AboutUs', '/no-such-page', '/services/unknown'].map(lang.path)) {
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

test('every link that opens a new tab says noopener noreferrer', async ({ page, lang }) => {
  for (const path of ['/', '/ContactUs'].map(lang.path)) {
    await page.goto(path);
    const links = await page.locator('a[target="_blank"]').all();
    expect(links.length, path).toBeGreaterThan(0);
    for (const link of links) {
      await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    }
  }
});
