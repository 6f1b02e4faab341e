/** WCAG 2.2 AA, checked with axe on every page, at desktop and phone widths, menus open too. */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { PAGE_ROUTES } from './routes';

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const EXTRA = ['/services/not-yet-a-service', '/no-such-page'];

async function violations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const width of [1440, 390]) {
  test(`axe finds no violation on any page at ${width} px`, async ({ page }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const path of [...PAGE_ROUTES.map((r) => r.path), ...EXTRA]) {
      await page.goto(path);
      expect(await violations(page), path).toEqual([]);
    }
  });
}

test('axe finds no violation with the desktop dropdowns open', async ({ page }) => {
  await page.goto('/');
  for (const summary of await page.locator('.desktop-nav .nav-list--depth-0 > li > details > summary').all()) {
    await summary.click();
    for (const nested of await page.locator('.desktop-nav details[open] details:not([open]) > summary').all()) await nested.click();
    expect(await violations(page)).toEqual([]);
  }
});

test('axe finds no violation with the mobile menu open', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.locator('.mobile-nav > summary').click();
  for (const summary of await page.locator('.mobile-nav__panel summary').all()) await summary.click();
  expect(await violations(page)).toEqual([]);
});

test('keyboard: the skip link goes to the content, and every menu group opens with Enter', async ({ page }) => {
  await page.goto('/AboutUs');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#main$/);

  await page.goto('/');
  const summary = page.locator('.desktop-nav summary', { hasText: 'Management System Audits' });
  await summary.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.locator('.desktop-nav a[href="/MangementSystemAudits/VendorAssessment"]')).toBeFocused();
});

test('axe finds no violation on the home page with both carousels hydrated and rotating', async ({ page }) => {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await expect(page.locator('.carousel--hero')).toHaveAttribute('data-ready', 'true');
    await page.locator('.carousel--logos').scrollIntoViewIfNeeded();
    await expect(page.locator('.carousel--logos')).toHaveAttribute('data-ready', 'true');
    // Mid-rotation: the hero has moved on by itself (pointer parked outside both carousels).
    await page.mouse.move(1, 899);
    await expect(page.locator('.carousel--hero .carousel__dot[aria-current="true"]')).not.toHaveAccessibleName('Show slide 1 of 7', { timeout: 15_000 });
    expect(await violations(page), `${width} px`).toEqual([]);
  }
});
