/** Spec §2 routes: each answers at its exact spelling with its heading, and unknown paths get real error pages. */
import { expect, test } from '@playwright/test';
import { PAGE_ROUTES } from './routes';

test.describe('every route answers with its heading', () => {
  for (const route of PAGE_ROUTES) {
    test(`${route.path}`, async ({ page }) => {
      const response = await page.goto(route.path);
      expect(response?.status()).toBe(200);
      // No redirect to another case or a trailing slash: the address stays as spelled.
      expect(new URL(page.url()).pathname).toBe(route.path);
      await expect(page.locator('h1')).toHaveCount(1);
      await expect(page.locator('h1')).toContainText(route.heading);
    });
  }
});

test('/ThanksPage says the form was submitted', async ({ page }) => {
  await page.goto('/ThanksPage');
  await expect(page.getByText('Thank you! Your form was submitted successfully.')).toBeVisible();
});

test('an unknown service slug shows Coming Soon with links home and to contact', async ({ page }) => {
  const response = await page.goto('/services/quantum-audits');
  expect(response?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText('Coming Soon');
  const main = page.locator('main');
  await expect(main.locator('a[href="/"]')).toBeVisible();
  await expect(main.locator('a[href="/ContactUs"]')).toBeVisible();
});

test('any other unknown path is a real 404 with a way back', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.locator('h1')).toHaveText('Page not found');
  await page.locator('main a[href="/"]').click();
  await expect(page).toHaveURL(/\/$/);
});

test('a trailing slash is dropped with a permanent redirect', async ({ request }) => {
  const response = await request.get('/AboutUs/', { maxRedirects: 0 });
  expect(response.status()).toBe(301);
  expect(response.headers()['location']).toMatch(/\/AboutUs$/);
});

test('a path typed in another letter case reaches the page', async ({ page }) => {
  await page.goto('/contactus');
  expect(new URL(page.url()).pathname).toBe('/ContactUs');
  await expect(page.locator('h1')).toHaveText('Contact Us');
});
