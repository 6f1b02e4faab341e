/**
 * WCAG 2.2 AA and axe's best practices, checked on every page, at desktop and phone widths, menus
 * open too; in the same pass over every page, each route at its exact spelling with its heading
 * (docs/requirements.md §1.1), the content-security policy, sideways scrolling and (on a page of each kind) the fixed
 * header fitting the screen. In each language: the
 * `ar` project walks every Arabic page (the twins under /ar, right to left) and opens the Arabic
 * menus and carousels, with the Arabic words from lang.
 */
import type { Locator } from '@playwright/test';
import { expect, test, type SiteLanguage } from './site-locale';
import { violations } from './axe';
import { ARABIC_ROUTES, PAGE_ROUTES, type RouteCase } from './routes';
import { readContentDir } from '../helpers/frontmatter';

/** Pages beside the routes, in the language's paths: Coming Soon (an unknown service) and the 404 page. */
const EXTRA = ['/services/not-yet-a-service', '/no-such-page'];

/**
 * At phone width, one page of each kind: what differs there is the layout of the page's kind (the
 * menu, the grids), which these cover; every page's own content is checked at desktop width, and
 * every page is checked for sideways scrolling at phone widths (screens.spec.ts). The kinds are
 * the same in both languages (the Arabic content files have the English ones' routes and front
 * matter keys): the spec's paths, put in the language's by lang.path.
 */
const content = readContentDir('pages');
const firstWith = (key: string) => `/${String(content.find((p) => key in p.frontmatter)?.frontmatter['route'])}`;
const PHONE_SAMPLE = [
  ...PAGE_ROUTES.filter(
    (r) => !r.path.startsWith('/services/') && !content.some((p) => `/${String(p.frontmatter['route'])}` === r.path),
  ).map((r) => r.path),
  PAGE_ROUTES.find((r) => r.path.startsWith('/services/'))!.path,
  firstWith('standards'),
  firstWith('courses'),
  `/${String(content.find((p) => !('standards' in p.frontmatter) && !('courses' in p.frontmatter) && p.frontmatter['route'] !== 'AboutUs')?.frontmatter['route'])}`,
];

/**
 * Every page of the language with its heading: the English routes, or every Arabic twin with
 * /ar/Aboutus (tests/e2e/routes.ts).
 */
const everyPage = (lang: SiteLanguage): readonly RouteCase[] =>
  lang.code === 'ar' ? [...ARABIC_ROUTES, { path: '/ar/Aboutus', heading: lang.label('About Us') }] : PAGE_ROUTES;

/** Every page at desktop width is checked in this many tests, which run side by side, each with its own time. */
const DESKTOP_PARTS = 5;

for (const width of [1440, 390] as const) {
  const desktop = width === 1440;
  const parts = desktop ? DESKTOP_PARTS : 1;
  for (let part = 0; part < parts; part++) {
    test(`${desktop ? 'every route answers at its exact spelling with its heading, and axe finds no violation on any page' : 'axe finds no violation on a page of each kind'} at ${width} px${parts > 1 ? ` (part ${part + 1} of ${parts})` : ''}; nothing scrolls sideways, the header fits, the content-security policy blocks nothing`, async ({
      page,
      lang,
    }) => {
      test.setTimeout(240_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const sample = PHONE_SAMPLE.map(lang.path);
      const headings = new Map(desktop ? everyPage(lang).map((route) => [route.path, route.heading]) : []);
      const all = desktop ? [...headings.keys()] : sample;
      expect(new Set(all).size).toBe(all.length);
      const size = Math.ceil(all.length / parts);
      const routes = all.slice(part * size, (part + 1) * size);
      expect(routes.length).toBeGreaterThan(0);
      const extra = part === parts - 1 ? EXTRA.map(lang.path) : [];
      // The policy (security.spec.ts checks its headers): every page carries it, and nothing the
      // page loads, the islands included, is refused. One pass over the pages for every check.
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(`${page.url()}: ${message.text()}`);
      });
      for (const path of [...routes, ...extra]) {
        const where = `${path} at ${width} px`;
        const response = await page.goto(path);
        // A route is its page, not an error page standing in for it.
        expect.soft(response?.status(), where).toBe(extra.includes(path) ? 404 : 200);
        await expect.soft(page.locator('html'), where).toHaveAttribute('lang', lang.locale.lang);
        await expect.soft(page.locator('html'), where).toHaveAttribute('dir', lang.dir);
        const heading = headings.get(path);
        if (heading !== undefined) {
          // docs/requirements.md §1.1: no redirect to another case or a trailing slash; the address stays as spelled.
          expect.soft(new URL(page.url()).pathname, where).toBe(path);
          await expect.soft(page.locator('h1'), where).toHaveCount(1);
          await expect.soft(page.locator('h1'), where).toContainText(heading);
        }
        await expect.soft(page.locator('meta[http-equiv="content-security-policy"]'), where).toHaveCount(1);
        // Reach for the menu and scroll, so the islands that wait for the visitor load and run too.
        await page.mouse.move(200, 30);
        if (desktop) await page.mouse.wheel(0, 2000);
        expect.soft(await violations(page), where).toEqual([]);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect.soft(overflow, where).toBeLessThanOrEqual(0);
        // The fixed header (one template on every page) fits the screen: checked on a page of each kind.
        if (!sample.includes(path) && !extra.includes(path)) continue;
        for (const control of await page.locator('header.site-header :is(a, summary, button):visible').all()) {
          const box = await control.boundingBox();
          if (!box) continue;
          expect.soft(box.x, where).toBeGreaterThanOrEqual(0);
          expect.soft(box.x + box.width, where).toBeLessThanOrEqual(width);
        }
      }
      await page.waitForLoadState('networkidle');
      expect(refused).toEqual([]);
    });
  }
}

/**
 * The menus' states: the page around them is checked whole above (every page, menus closed), so
 * each open state is checked in the header, where it changes: the same rules in a tenth of the time.
 */
const HEADER = 'header.site-header';

test('axe finds no violation with the desktop dropdowns and their submenus open', async ({ page, lang }) => {
  test.setTimeout(180_000);
  await page.goto(lang.path('/'));
  const nav = page.locator('.desktop-nav');
  await nav.locator('.nav-list--depth-0 > li .nav-toggle').first().hover();
  await expect(nav).toHaveAttribute('data-enhanced', '');
  // Four groups, and the ISO Consultancy page's own submenu button (its standards).
  const groups = await nav.locator('.nav-list--depth-0 > li > button, .nav-list--depth-0 > li > .nav-row > button').all();
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
  expect(opened.size).toBe(4); // ISO Trainings and its three trainings
});

test('axe finds no violation with the mobile menu and all its groups open', async ({ page, lang }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(lang.path('/'));
  await page.locator('.mobile-nav__toggle').click();
  await expect(page.locator('.mobile-nav')).toHaveAttribute('data-enhanced', '');
  const closed = page.locator('.mobile-nav__panel button[aria-expanded="false"]:visible');
  while ((await closed.count()) > 0) await closed.first().click();
  const links = page.locator('.mobile-nav__panel a[href]');
  expect(await links.locator('visible=true').count()).toBe(await links.count());
  expect(await violations(page)).toEqual([]);
});

test('axe finds no violation with the menus open as plain <details>, before their code has loaded', async ({ page, lang }) => {
  // The baseline the islands start from (and what a visitor with JavaScript off gets). Axe itself
  // needs JavaScript, so the islands' code is held back instead.
  await page.route('**/_astro/*.js', (route) => route.abort());
  await page.goto(lang.path('/'));
  for (const summary of await page.locator('.desktop-nav .nav-list--depth-0 > li > details > summary').all()) {
    await summary.click();
    for (const nested of await page.locator('.desktop-nav details[open] details:not([open]) > summary').all())
      await nested.click();
    expect(await violations(page, HEADER)).toEqual([]);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('.mobile-nav__toggle').click();
  for (const summary of await page.locator('.mobile-nav__panel summary').all()) await summary.click();
  expect(await violations(page)).toEqual([]);
  await expect(page.locator('[data-enhanced]')).toHaveCount(0);
});

test('keyboard: the skip link goes to the content, and every menu group opens with Enter', async ({ page, lang }) => {
  await page.goto(lang.path('/AboutUs'));
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: lang.t('skip.toMain') });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(lang.url('/AboutUs#main'));

  await page.goto(lang.path('/'));
  const nav = page.locator('.desktop-nav');
  await nav.locator('.nav-toggle', { hasText: lang.label('Management System Audits') }).focus();
  await expect(nav).toHaveAttribute('data-enhanced', '');
  for (const group of await nav.locator('.nav-list--depth-0 > li > button').all()) {
    await group.focus();
    await page.keyboard.press('Enter');
    await expect(group).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    const first = nav
      .locator(`[id="${(await group.getAttribute('aria-controls')) ?? ''}"] > li:first-child :is(a, button)`)
      .first();
    await expect(first).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(group).toBeFocused();
  }
});

test('axe finds no violation on the home page with both carousels hydrated and rotating', async ({ page, lang }) => {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(lang.path('/'));
    // Each carousel's island starts when the visitor reaches for it (a pointer passing over it).
    await page.locator('.carousel--hero').dispatchEvent('pointerover');
    await expect(page.locator('.carousel--hero')).toHaveAttribute('data-ready', 'true');
    await page.locator('.carousel--logos').scrollIntoViewIfNeeded();
    await page.locator('.carousel--logos').dispatchEvent('pointerover');
    await expect(page.locator('.carousel--logos')).toHaveAttribute('data-ready', 'true');
    // Mid-rotation: the hero has moved on by itself (pointer parked outside both carousels).
    await page.mouse.move(1, 899);
    await expect(page.locator('.carousel--hero .carousel__dot[aria-current="true"]')).not.toHaveAccessibleName(
      lang.t('carousel.goToSlide', { index: 1, count: 7 }),
      { timeout: 15_000 },
    );
    expect(await violations(page), `${width} px`).toEqual([]);
  }
});
