/**
 * WCAG 2.2 AA and axe's best practices, checked on every page, at desktop and phone widths, menus
 * open too; in the same pass over every page, the content-security policy.
 */
import { expect, test, type Locator } from '@playwright/test';
import { violations } from './axe';
import { PAGE_ROUTES } from './routes';
import { readContentDir } from '../helpers/frontmatter';

const EXTRA = ['/services/not-yet-a-service', '/no-such-page'];

/**
 * At phone width, one page of each kind: what differs there is the layout of the page's kind (the
 * menu, the grids), which these cover; every page's own content is checked at desktop width, and
 * every page is checked for sideways scrolling at phone widths (screens.spec.ts).
 */
const content = readContentDir('pages');
const firstWith = (key: string) => `/${String(content.find((p) => key in p.frontmatter)?.frontmatter['route'])}`;
const PHONE_SAMPLE = [
  ...PAGE_ROUTES.filter((r) => !r.path.startsWith('/services/') && !content.some((p) => `/${String(p.frontmatter['route'])}` === r.path)).map((r) => r.path),
  PAGE_ROUTES.find((r) => r.path.startsWith('/services/'))!.path,
  firstWith('standards'),
  firstWith('courses'),
  `/${String(content.find((p) => !('standards' in p.frontmatter) && !('courses' in p.frontmatter) && p.frontmatter['route'] !== 'AboutUs')?.frontmatter['route'])}`,
];

for (const [width, paths] of [
  [1440, PAGE_ROUTES.map((r) => r.path)],
  [390, PHONE_SAMPLE],
] as const) {
  const everyPage = width === 1440;
  test(`axe finds no violation ${everyPage ? 'on any page, and the content-security policy blocks nothing there,' : 'on a page of each kind'} at ${width} px`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(new Set(paths).size).toBe(paths.length);
    // The policy (security.spec.ts checks its headers): every page carries it, and nothing the
    // page loads, the islands included, is refused. One pass over the pages for both checks.
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(`${page.url()}: ${message.text()}`);
    });
    for (const path of [...paths, ...EXTRA]) {
      await page.goto(path);
      if (everyPage) {
        await expect.soft(page.locator('meta[http-equiv="content-security-policy"]'), path).toHaveCount(1);
        // Reach for the menu and scroll, so the islands that wait for the visitor load and run too.
        await page.mouse.move(200, 30);
        await page.mouse.wheel(0, 2000);
      }
      expect.soft(await violations(page), path).toEqual([]);
    }
    if (everyPage) {
      await page.waitForLoadState('networkidle');
      expect(refused).toEqual([]);
    }
  });
}

/**
 * The menus' states: the page around them is checked whole above (every page, menus closed), so
 * each open state is checked in the header, where it changes: the same rules in a tenth of the time.
 */
const HEADER = 'header.site-header';

test('axe finds no violation with the desktop dropdowns and their submenus open', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  const nav = page.locator('.desktop-nav');
  await nav.locator('.nav-list--depth-0 > li .nav-toggle').first().hover();
  await expect(nav).toHaveAttribute('data-enhanced', '');
  const groups = await nav.locator('.nav-list--depth-0 > li > button').all();
  expect(groups.length).toBe(5);
  const opened = new Set<string>();
  for (const group of groups) {
    await group.click();
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    expect(await violations(page, HEADER)).toEqual([]);
    // Then each of its submenus, one by one, down to the deepest.
    for (;;) {
      let next: Locator | undefined;
      for (const toggle of await nav.locator('.nav-panel:visible button[aria-expanded="false"]:visible').all()) {
        const id = (await toggle.getAttribute('aria-controls')) ?? '';
        if (opened.has(id)) continue;
        opened.add(id);
        next = nav.locator(`button[aria-controls="${id}"]`);
        break;
      }
      if (!next) break;
      await next.click();
      await expect(next).toHaveAttribute('aria-expanded', 'true');
      expect(await violations(page, HEADER)).toEqual([]);
    }
  }
  expect(opened.size).toBe(5); // ISO Trainings, its three trainings, ISO Consultancy
});

test('axe finds no violation with the mobile menu and all its groups open', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.locator('.mobile-nav__toggle').click();
  await expect(page.locator('.mobile-nav')).toHaveAttribute('data-enhanced', '');
  const closed = page.locator('.mobile-nav__panel button[aria-expanded="false"]:visible');
  while ((await closed.count()) > 0) await closed.first().click();
  const links = page.locator('.mobile-nav__panel a[href]');
  expect(await links.locator('visible=true').count()).toBe(await links.count());
  expect(await violations(page)).toEqual([]);
});

test('axe finds no violation with the menus open as plain <details>, before their code has loaded', async ({ page }) => {
  // The baseline the islands start from (and what a visitor with JavaScript off gets). Axe itself
  // needs JavaScript, so the islands' code is held back instead.
  await page.route('**/_astro/*.js', (route) => route.abort());
  await page.goto('/');
  for (const summary of await page.locator('.desktop-nav .nav-list--depth-0 > li > details > summary').all()) {
    await summary.click();
    for (const nested of await page.locator('.desktop-nav details[open] details:not([open]) > summary').all()) await nested.click();
    expect(await violations(page, HEADER)).toEqual([]);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('.mobile-nav__toggle').click();
  for (const summary of await page.locator('.mobile-nav__panel summary').all()) await summary.click();
  expect(await violations(page)).toEqual([]);
  await expect(page.locator('[data-enhanced]')).toHaveCount(0);
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
  const nav = page.locator('.desktop-nav');
  await nav.locator('.nav-toggle', { hasText: 'Management System Audits' }).focus();
  await expect(nav).toHaveAttribute('data-enhanced', '');
  for (const group of await nav.locator('.nav-list--depth-0 > li > button').all()) {
    await group.focus();
    await page.keyboard.press('Enter');
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    const first = nav.locator(`[id="${(await group.getAttribute('aria-controls')) ?? ''}"] > li:first-child :is(a, button)`).first();
    await expect(first).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(group).toBeFocused();
  }
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
