/** ARCHITECTURE invariant 3: every page reads fully with JavaScript off, in both languages. */
import { expect, test } from '@playwright/test';
import { ARABIC_ROUTES, PAGE_ROUTES } from './routes';
import { ABOUT_HREF, ABOUT_MOBILE_HREF, flattenNavigation } from '../../src/data/navigation';

test.use({ javaScriptEnabled: false });

test('every page, English and Arabic, shows its heading, all its sections and the whole menu without JavaScript', async ({ page }) => {
  test.setTimeout(240_000); // every page of the site, one after the other
  for (const route of [...PAGE_ROUTES, ...ARABIC_ROUTES]) {
    await page.goto(route.path);
    await expect(page.locator('h1'), route.path).toContainText(route.heading);
    // Nothing is left hidden for a script to reveal.
    for (const section of await page.locator('[data-reveal]').all()) {
      await expect(section, route.path).toHaveCSS('opacity', '1');
    }
    await expect(page.locator('footer')).toContainText(route.path === '/ar' || route.path.startsWith('/ar/') ? 'الخبر' : 'Al-Khobar');
  }
});

test('the menu works without JavaScript, on a desktop and on a phone', async ({ page }) => {
  await page.goto('/');
  await page.locator('.desktop-nav summary', { hasText: 'Audit Assistance' }).click();
  await page.locator('.desktop-nav').getByRole('link', { name: 'ISO Third Party Audits' }).click();
  await expect(page.locator('h1')).toHaveText('ISO Third Party Audits');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.locator('.mobile-nav__toggle').click();
  const panel = page.locator('.mobile-nav__panel');
  await panel.locator('summary', { hasText: /^Trainings$/ }).click();
  await panel.locator('summary', { hasText: 'ISO Trainings' }).click();
  await panel.getByRole('link', { name: 'Internal Audit Training' }).click();
  await expect(page.locator('h1')).toHaveText('Internal Audit Training');
});

test('without JavaScript the home carousels show their first picture and logos, and no dead buttons', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const hero = page.locator('.carousel--hero');
  await expect(hero.getByRole('group', { name: '1 of 7', exact: true }).locator('img')).toBeVisible();
  await expect(hero.locator('.carousel__controls')).toBeHidden();
  const logos = page.locator('.carousel--logos');
  await logos.scrollIntoViewIfNeeded();
  await expect(logos.getByRole('group', { name: '1 of 5', exact: true }).locator('img')).toBeVisible();
  await expect(logos.locator('.carousel__controls')).toBeHidden();
  // The other pictures are a swipe away: the strip scrolls sideways.
  const scrollable = await hero.locator('.carousel__viewport').evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto');
  expect(scrollable).toBe(true);
});

test('every menu destination is a real link in the HTML of both menus', async ({ page }) => {
  await page.goto('/Partner');
  const desktop = await page.locator('.desktop-nav a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  // The menu's destinations; the language switch at the end of the panel is not one (/Partner has none yet).
  const mobile = await page.locator('.mobile-nav a[href]:not([hreflang])').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  for (const link of flattenNavigation()) {
    expect(desktop).toContain(link.href);
    expect(mobile).toContain(link.href === ABOUT_HREF ? ABOUT_MOBILE_HREF : link.href);
  }
  // The standards each ISO training and consultancy page lists are in the menus too.
  expect(desktop.filter((href) => href?.includes('#'))).toHaveLength(11 + 11 + 6 + 11);
  expect(mobile).toHaveLength(desktop.length);
});
