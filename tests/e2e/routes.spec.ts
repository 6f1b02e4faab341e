/** Spec §2 routes: each answers at its exact spelling with its heading, and unknown paths get real error pages. */
import { expect, test } from '@playwright/test';
import { PAGE_ROUTES } from './routes';

// One walk over every route in one page (a test per route spent most of its time opening a browser context).
test('every route answers at its exact spelling with its heading', async ({ page }) => {
  test.setTimeout(180_000);
  for (const route of PAGE_ROUTES) {
    const response = await page.goto(route.path);
    expect.soft(response?.status(), route.path).toBe(200);
    // No redirect to another case or a trailing slash: the address stays as spelled.
    expect.soft(new URL(page.url()).pathname, route.path).toBe(route.path);
    await expect.soft(page.locator('h1'), route.path).toHaveCount(1);
    await expect.soft(page.locator('h1'), route.path).toContainText(route.heading);
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
