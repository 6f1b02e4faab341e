/**
 * The routes of docs/requirements.md §1, §14, in each language (the Arabic twins under /ar): unknown paths get real
 * error pages in the path's language, a trailing slash and another letter case find the page.
 * That every route answers at its exact spelling with its heading is checked in a11y.spec.ts's
 * one pass over every page.
 */
import { expect, test } from './site-locale';

test('the thanks page says the form was submitted', async ({ page, lang }) => {
  await page.goto(lang.path('/ThanksPage'));
  await expect(page.getByText(lang.t('thanks.text'))).toBeVisible();
});

test('an unknown service slug shows Coming Soon with links home and to contact', async ({ page, lang }) => {
  const response = await page.goto(lang.path('/services/quantum-audits'));
  expect(response?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('dir', lang.dir);
  await expect(page.locator('h1')).toHaveText(lang.t('comingSoon.title'));
  const main = page.locator('main');
  await expect(main.locator(`a[href="${lang.path('/')}"]`)).toBeVisible();
  await expect(main.locator(`a[href="${lang.path('/ContactUs')}"]`)).toBeVisible();
});

test('any other unknown path is a real 404 with a way back', async ({ page, lang }) => {
  const response = await page.goto(lang.path('/no-such-page'));
  expect(response?.status()).toBe(404);
  await expect(page.locator('html')).toHaveAttribute('dir', lang.dir);
  await expect(page.locator('h1')).toHaveText(lang.t('notFound.title'));
  await page.locator(`main a[href="${lang.path('/')}"]`).click();
  await expect(page).toHaveURL(lang.code === 'ar' ? /\/ar$/ : /:\d+\/$/);
  await expect(page.locator('html')).toHaveAttribute('lang', lang.locale.lang);
});

test('a trailing slash is dropped with a permanent redirect', async ({ request, lang }) => {
  for (const path of [lang.path('/AboutUs'), ...(lang.code === 'ar' ? ['/ar'] : [])]) {
    const response = await request.get(`${path}/`, { maxRedirects: 0 });
    expect(response.status(), path).toBe(301);
    expect(response.headers()['location'], path).toMatch(new RegExp(`${path}$`));
  }
});

test('a path typed in another letter case reaches the page', async ({ page, lang }) => {
  await page.goto(lang.path('/contactus'));
  expect(new URL(page.url()).pathname).toBe(lang.path('/ContactUs'));
  await expect(page.locator('h1')).toHaveText(lang.t('contact.title'));
});
