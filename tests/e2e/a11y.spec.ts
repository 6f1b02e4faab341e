/**
 * One walk over the site's pages in a browser, in each language (the `ar` project walks every
 * Arabic page, right to left): each page loaded once per width, and every check that needs a
 * browser done on that load. WCAG 2.2 AA and axe's best practices on every page at desktop width
 * and on a page of each kind at phone width; each route answering at its exact spelling with its
 * heading (docs/requirements.md §1.1); nothing scrolling sideways, the fixed header's controls and
 * every form field's parts inside the screen, from 320 to 1920 px (the other widths by resizing the
 * loaded page); the content-security policy blocking nothing; screenshots at 390 and 1440 px in
 * test-results/screenshots/. What the HTML alone shows (links, anchors, language, headings, the
 * policy's presence) is checked without a browser: tests/unit/site-pages.test.ts. Then the menus
 * and carousels open, below.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test, type SiteLanguage } from './site-locale';
import { violations } from './axe';
import { ARABIC_ROUTES, PAGE_KINDS, PAGE_ROUTES, type RouteCase } from './routes';

/** Pages beside the routes, in the language's paths: Coming Soon (an unknown service) and the 404 page. */
const EXTRA = ['/services/not-yet-a-service', '/no-such-page'];

/** At phone width, a page of each kind (tests/e2e/routes.ts): what differs there is the layout of the page's kind. */
/** The widths each loaded page is also laid out at, by resizing it: phones from 390, desktops from 1440. */
const RESIZED = { 390: [320], 1440: [1920, 1149, 768] } as const;

/**
 * Every page of the language with its heading: the English routes, or every Arabic twin with
 * /ar/Aboutus (tests/e2e/routes.ts).
 */
const everyPage = (lang: SiteLanguage): readonly RouteCase[] =>
  lang.code === 'ar' ? [...ARABIC_ROUTES, { path: '/ar/Aboutus', heading: lang.label('About Us') }] : PAGE_ROUTES;

/** What sticks out at the page's current width: sideways scrolling, a header control, a form field's part. */
async function layoutProblems(page: Page, where: string): Promise<string[]> {
  return page.evaluate((where) => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    const overflow = document.documentElement.scrollWidth - width;
    if (overflow > 0) problems.push(`${where}: scrolls ${overflow} px sideways`);
    // The fixed header does not widen the page, so its controls are checked on their own.
    for (const control of document.querySelectorAll('header.site-header :is(a, summary, button)')) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.top > 80) continue;
      if (box.left < 0 || box.right > width) problems.push(`${where}: "${control.textContent?.trim()}" outside the header`);
    }
    // Nothing in a form field sticks out of its box (a file input's own width once did).
    for (const field of document.querySelectorAll('.field')) {
      const box = field.getBoundingClientRect();
      for (const child of field.querySelectorAll(':scope > *, :scope label, :scope input, :scope p, :scope ul')) {
        const inner = child.getBoundingClientRect();
        if (inner.right > box.right + 0.5 || inner.left < box.left - 0.5)
          problems.push(`${where}: ${field.querySelector('label, legend')?.textContent?.trim()}: ${child.tagName} sticks out`);
      }
    }
    return problems;
  }, where);
}

/** The screenshot's name: the language, the page ("home", "services_ms-audits"), the width. */
const shotName = (lang: SiteLanguage, path: string, width: number) =>
  `${lang.code}-${path === lang.path('/') ? 'home' : path.replace(/^\/(ar\/)?/, '').replaceAll('/', '_')}-${width}`;

/** Every page at desktop width is checked in this many tests, which run side by side, each with its own time. */
const DESKTOP_PARTS = 5;

for (const width of [1440, 390] as const) {
  const desktop = width === 1440;
  const parts = desktop ? DESKTOP_PARTS : 1;
  for (let part = 0; part < parts; part++) {
    test(`${desktop ? 'every route answers at its exact spelling with its heading, and axe finds no violation on any page' : 'axe finds no violation on a page of each kind'} at ${width} px${parts > 1 ? ` (part ${part + 1} of ${parts})` : ''}; nothing sticks out at ${[width, ...RESIZED[width]].join(', ')} px; the content-security policy blocks nothing`, async ({
      page,
      lang,
    }) => {
      test.setTimeout(240_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const sample = PAGE_KINDS.map(lang.path);
      const headings = new Map(everyPage(lang).map((route) => [route.path, route.heading]));
      const all = desktop ? [...headings.keys(), ...EXTRA.map(lang.path)] : sample;
      expect(new Set(all).size).toBe(all.length);
      const size = Math.ceil(all.length / parts);
      const routes = all.slice(part * size, (part + 1) * size);
      expect(routes.length).toBeGreaterThan(0);
      // The policy (security.spec.ts checks its headers): nothing the page loads, the islands
      // included, is refused.
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(`${page.url()}: ${message.text()}`);
      });
      const problems: string[] = [];
      for (const path of routes) {
        const where = `${path} at ${width} px`;
        const response = await page.goto(path);
        // A route is its page, not an error page standing in for it.
        const heading = headings.get(path);
        expect.soft(response?.status(), where).toBe(heading === undefined ? 404 : 200);
        if (heading !== undefined) {
          // docs/requirements.md §1.1: no redirect to another case or a trailing slash; the address stays as spelled.
          expect.soft(new URL(page.url()).pathname, where).toBe(path);
          await expect.soft(page.locator('h1'), where).toContainText(heading);
        }
        // On a page of each kind, reach for the menu and scroll, so the islands that wait for the
        // visitor load and run too (the same islands on every page of a kind): axe checks them
        // started, and the policy refuses nothing of them. Elsewhere axe checks the page as it
        // first arrives.
        const kind = sample.includes(path);
        if (kind) {
          await page.mouse.move(200, 30);
          if (desktop) await page.mouse.wheel(0, 2000);
        }
        expect.soft(await violations(page), where).toEqual([]);
        problems.push(...(await layoutProblems(page, where)));
        if (!kind) continue;
        // A page of each kind: its screenshot, then the other widths of its kind of screen.
        await page.screenshot({ path: `test-results/screenshots/${shotName(lang, path, width)}.png`, fullPage: true });
        for (const other of RESIZED[width]) {
          await page.setViewportSize({ width: other, height: 900 });
          problems.push(...(await layoutProblems(page, `${path} at ${other} px`)));
        }
        await page.setViewportSize({ width, height: 900 });
      }
      expect(problems).toEqual([]);
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
