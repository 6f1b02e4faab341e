/**
 * The header navigation (docs/requirements.md §3, §3.1, §3.2, §12: breakpoint
 * 1150 px, close delay 150 ms), as the islands DesktopNav and MobileNav deliver it, and the JavaScript a page
 * loads for it (none until the visitor reaches for the menu: the client:intent directive).
 *
 * Runs in both languages (tests/e2e/site-locale.ts): every label, name and path comes
 * from `lang`, the menu tree and the interface strings the pages are built from. Right to left
 * the menus mirror: the groups follow one another leftwards, flyouts open towards the left (and
 * flip to the right only when the left has no room), a label's chevron sits to the left of its
 * last word. Those checks are written once, along the reading direction.
 *
 * Timing is checked on Playwright's clock, never with real sleeps.
 */
import type { Locator, Page } from '@playwright/test';
import { escapeRegExp, expect, menuLinks, test, type SiteLanguage } from './site-locale';
import { ABOUT_HREF, ABOUT_MOBILE_HREF } from '../../src/data/navigation';
import { AIM_DELAY_MS } from '../../src/lib/menu';
import { getStandard, type IsoStandardId } from '../../src/data/standards';
import { readContentDir } from '../helpers/frontmatter';

const DESKTOP = { width: 1151, height: 800 };
const MOBILE = { width: 1149, height: 800 };
const CONTENT_PAGE = '/MangementSystemAudits/ScheduleQQualityAssessment';

const desktopNav = (page: Page) => page.locator('.desktop-nav');
const mobileNav = (page: Page) => page.locator('.mobile-nav');
/** A top-level group's toggle: a <summary> until the island starts, a <button> after. */
const topToggle = (page: Page, label: string) =>
  desktopNav(page).locator('.nav-list--depth-0 > li .nav-toggle', { hasText: new RegExp(`^${escapeRegExp(label)}$`) });
const button = (scope: Locator, name: string) => scope.getByRole('button', { name, exact: true });
const link = (scope: Locator, name: string) => scope.getByRole('link', { name, exact: true });
/** The name of the button that opens a page's own submenu (its standards), for the page named `english` in English. */
const submenuName = (lang: SiteLanguage, english: string) => lang.t('header.submenu', { label: lang.label(english) });
/** A standard's code ("ISO 45001:2018"), the name of its link in the menu: a proper name, the same in both languages. */
const standard = (id: IsoStandardId) => getStandard(id).code;

/** How far `to` lies past `from` along the reading direction: rightwards left to right, leftwards right to left. */
const ahead = (lang: SiteLanguage, from: number, to: number) => (lang.dir === 'rtl' ? from - to : to - from);

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${String(locator)} is not on screen`);
  return found;
}

/** `later` sits wholly after `earlier` along the reading direction (right of it in ltr, left of it in rtl). */
async function expectFollows(lang: SiteLanguage, earlier: Locator, later: Locator): Promise<void> {
  const [a, b] = [await box(earlier), await box(later)];
  const gap = lang.dir === 'rtl' ? a.x - (b.x + b.width) : b.x - (a.x + a.width);
  expect(gap, `${String(later)} follows ${String(earlier)} (${lang.dir})`).toBeGreaterThanOrEqual(-1);
}

async function started(nav: Locator): Promise<void> {
  await expect(nav).toHaveAttribute('data-enhanced', '');
}

/** Opens a group by hovering it, which starts the desktop menu's island, and waits until the island has taken over (for tests of the island's own hover rules). */
async function hoverOpenAfterIsland(page: Page, label: string): Promise<Locator> {
  await topToggle(page, label).hover();
  await started(desktopNav(page));
  const toggle = button(desktopNav(page), label);
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  return toggle;
}

const submenuOf = (page: Page, toggle: Locator) =>
  toggle.getAttribute('aria-controls').then((id) => page.locator(`[id="${id ?? ''}"]`));

/**
 * Walks a menu as a visitor would: every link of an open list is recorded, every submenu is
 * opened with `open` and walked in turn. Returns the hrefs of every link seen on screen.
 */
async function walk(page: Page, list: Locator, open: (toggle: Locator) => Promise<void>): Promise<string[]> {
  // The open list's own links, read in one go: each must be on screen (what toBeVisible checks:
  // a box of some size, not visibility: hidden).
  const links = await list.evaluate((ul) =>
    [...ul.children].flatMap((item) => {
      const anchor = item.querySelector(':scope > a, :scope > .nav-row > a');
      if (!anchor) return [];
      const box = anchor.getBoundingClientRect();
      return [
        {
          href: anchor.getAttribute('href') ?? '',
          visible: box.width > 0 && box.height > 0 && anchor.checkVisibility({ visibilityProperty: true }),
        },
      ];
    }),
  );
  const seen: string[] = [];
  for (const { href, visible } of links) {
    expect(visible, `${href} is on screen`).toBe(true);
    seen.push(href);
  }
  for (const toggle of await list.locator(':scope > li > button, :scope > li > .nav-row > button').all()) {
    await open(toggle);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const submenu = await submenuOf(page, toggle);
    await expect(submenu).toBeVisible();
    seen.push(...(await walk(page, submenu, open)));
  }
  return seen;
}

/**
 * What the specification puts in the menu, plus the standards each page in it lists when it lists
 * two or more (its front matter's `standards`), at their addresses in the language (the Arabic
 * menu leads to the Arabic pages, /ar/…).
 */
function expectedDestinations(lang: SiteLanguage, aboutHref: string): string[] {
  const links = menuLinks(lang).map((link) => link.href);
  const standards = readContentDir('pages').flatMap((page) => {
    const href = `/${String(page.frontmatter['route'])}`;
    const ids = (page.frontmatter['standards'] as string[] | undefined) ?? [];
    return links.includes(href) && ids.length >= 2 ? ids.map((id) => `${href}#${id}`) : [];
  });
  return [...links.map((href) => (href === ABOUT_HREF ? aboutHref : href)), ...standards].map(lang.path).sort();
}

test.describe('the breakpoint', () => {
  test('at 1151 px the dropdowns show and the menu button does not', async ({ page, lang }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto(lang.path('/'));
    await expect(desktopNav(page)).toBeVisible();
    await expect(mobileNav(page)).toBeHidden();
    await expect(page.getByRole('link', { name: lang.t('header.becomePartner') })).toBeVisible();
  });

  test('at 1149 px the menu button shows and the dropdowns do not', async ({ page, lang }) => {
    await page.setViewportSize(MOBILE);
    await page.goto(lang.path('/'));
    await expect(desktopNav(page)).toBeHidden();
    await expect(page.locator('.mobile-nav__toggle')).toBeVisible();
    await expect(page.getByRole('link', { name: lang.t('header.becomePartner') })).toBeVisible();
  });
});

test.describe('desktop dropdowns, 1151 px', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(DESKTOP);
  });

  test('hover opens a dropdown; 50 ms after the pointer leaves it is still open, by 400 ms it is closed', async ({
    page,
    lang,
  }) => {
    await page.clock.install();
    await page.goto(lang.path(CONTENT_PAGE));
    const toggle = await hoverOpenAfterIsland(page, lang.label('Audit Assistance'));
    const submenu = await submenuOf(page, toggle);
    await expect(submenu).toBeVisible();

    await page.clock.pauseAt(Date.now() + 60_000);
    await page.mouse.move(40, 600);
    await page.clock.runFor(50);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(submenu).toBeVisible();
    await page.clock.runFor(400);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(submenu).toBeHidden();
  });

  test('moving from the button into the dropdown and between nesting levels never closes it @rtl', async ({ page, lang }) => {
    await page.clock.install();
    await page.goto(lang.path(CONTENT_PAGE));
    const trainings = await hoverOpenAfterIsland(page, lang.label('Trainings'));
    await page.clock.pauseAt(Date.now() + 60_000);
    const nav = desktopNav(page);
    const isoTrainings = button(nav, lang.label('ISO Trainings'));
    const standardsToggle = button(nav, submenuName(lang, 'Internal Audit Training'));

    const path = [isoTrainings, standardsToggle, link(nav, standard('iso-45001-2018'))];
    for (const target of path) {
      const { x, y, width, height } = await box(target);
      // In small steps, across every gap between the button and the lists.
      await page.mouse.move(x + width / 2, y + height / 2, { steps: 8 });
      await page.clock.runFor(1000);
    }
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
    await expect(isoTrainings).toHaveAttribute('aria-expanded', 'true');
    await expect(standardsToggle).toHaveAttribute('aria-expanded', 'true');
    await expect(link(nav, standard('iso-45001-2018'))).toBeVisible();

    // Back up to a sibling: only the flyout the pointer left closes.
    await link(nav, lang.label('Other Trainings')).hover();
    await page.clock.runFor(400);
    await expect(isoTrainings).toHaveAttribute('aria-expanded', 'false');
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
  });

  test('on a slant from a training to its standards, the rows passed over keep their lists shut; resting on one opens it @rtl', async ({
    page,
    lang,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.clock.install();
    await page.goto(lang.path(CONTENT_PAGE));
    await hoverOpenAfterIsland(page, lang.label('Trainings'));
    await page.clock.pauseAt(Date.now() + 60_000);
    const nav = desktopNav(page);
    await button(nav, lang.label('ISO Trainings')).hover();
    await page.clock.runFor(10);
    const implementation = button(nav, submenuName(lang, 'ISO Implementation Training'));
    const awareness = button(nav, submenuName(lang, 'ISO Awareness Training'));
    await implementation.hover();
    await page.clock.runFor(10);
    await expect(implementation).toHaveAttribute('aria-expanded', 'true');
    const standards = (await submenuOf(page, implementation)).getByRole('link');
    const from = await box(link(nav, lang.label('ISO Implementation Training')));
    const to = await box(standards.last());
    const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
    const end = { x: to.x + to.width / 2, y: to.y + to.height / 2 };
    const steps = 10;
    // The straight way there crosses the next training's row (else this test proves nothing).
    const crossed = await page.evaluate(
      ({ start, end, steps }) =>
        Array.from({ length: steps + 1 }, (_, i) =>
          document.elementFromPoint(start.x + ((end.x - start.x) * i) / steps, start.y + ((end.y - start.y) * i) / steps),
        )
          .map((element) => element?.closest('li')?.querySelector(':scope > .nav-row > a')?.getAttribute('href') ?? '')
          .filter((href) => href.endsWith('/ISOAwarenessTraining')).length,
      { start, end, steps },
    );
    expect(crossed).toBeGreaterThan(0);
    await page.mouse.move(start.x, start.y);
    await page.mouse.move(end.x, end.y, { steps });
    await page.clock.runFor(1000);
    await expect(implementation).toHaveAttribute('aria-expanded', 'true');
    await expect(awareness).toHaveAttribute('aria-expanded', 'false');
    await expect(standards.last()).toBeVisible();

    // Resting on the next training opens its standards in place of these.
    await awareness.hover();
    await page.clock.runFor(AIM_DELAY_MS - 100);
    await expect(awareness).toHaveAttribute('aria-expanded', 'false');
    await page.clock.runFor(200);
    await expect(awareness).toHaveAttribute('aria-expanded', 'true');
    await expect(implementation).toHaveAttribute('aria-expanded', 'false');
  });

  test("a slant at a hand's pace (0.3 s and 1 s) from ISO Trainings to one of its trainings, across Other Trainings, keeps the flyout and the menu open @rtl", async ({
    page,
    lang,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.clock.install();
    await page.goto(lang.path(CONTENT_PAGE));
    const trainings = await hoverOpenAfterIsland(page, lang.label('Trainings'));
    await page.clock.pauseAt(Date.now() + 60_000);
    const nav = desktopNav(page);
    const isoTrainings = button(nav, lang.label('ISO Trainings'));
    await isoTrainings.hover();
    await page.clock.runFor(10);
    await expect(isoTrainings).toHaveAttribute('aria-expanded', 'true');
    const target = link(nav, lang.label('Internal Audit Training'));
    const from = await box(isoTrainings);
    const to = await box(target);
    const start = { x: from.x + from.width / 2, y: from.y + from.height / 2 };
    const end = { x: to.x + to.width / 2, y: to.y + to.height / 2 };
    const steps = 12;
    const points = Array.from({ length: steps + 1 }, (_, i) => ({
      x: start.x + ((end.x - start.x) * i) / steps,
      y: start.y + ((end.y - start.y) * i) / steps,
    }));
    // The straight way there crosses the Other Trainings row (else this test proves nothing).
    const crossed = await page.evaluate(
      (points) =>
        points.filter((point) =>
          document
            .elementFromPoint(point.x, point.y)
            ?.closest('li')
            ?.querySelector(':scope > a')
            ?.getAttribute('href')
            ?.endsWith('/OtherTrainings'),
        ).length,
      points,
    );
    expect(crossed).toBeGreaterThan(0);
    // A hand's pace: the whole way in 0.3 s, then in 1 s.
    for (const stepMs of [25, 80]) {
      await isoTrainings.hover();
      await page.clock.runFor(10);
      for (const point of points) {
        await page.mouse.move(point.x, point.y);
        await page.clock.runFor(stepMs);
      }
      await page.clock.runFor(1000);
      await expect(trainings).toHaveAttribute('aria-expanded', 'true');
      await expect(isoTrainings).toHaveAttribute('aria-expanded', 'true');
      await expect(target).toBeVisible();
    }
  });

  for (const width of [1151, 1339, 1440]) {
    test(`at ${width} px nothing in the header moves when the first hover starts the menu's island @rtl`, async ({
      page,
      lang,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(lang.path(CONTENT_PAGE));
      /** Where each top-level entry of the bar, the partner button and the language switch start and end. */
      const places = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('.desktop-nav .nav-list--depth-0 > li, .site-header a.button, .site-header a[hreflang]')]
            .map((element) => element.getBoundingClientRect())
            .filter((box) => box.width > 0)
            .map((box) => [Math.round(box.left * 10) / 10, Math.round(box.right * 10) / 10]),
        );
      const before = await places();
      await hoverOpenAfterIsland(page, lang.label('Audit Assistance'));
      expect(await places()).toEqual(before);
    });
  }

  test('the pointer may rest in the gap between a button and its dropdown', async ({ page, lang }) => {
    await page.clock.install();
    await page.goto(lang.path(CONTENT_PAGE));
    const toggle = await hoverOpenAfterIsland(page, lang.label('Audit Assistance'));
    const buttonBox = await box(toggle);
    const submenuBox = await box(await submenuOf(page, toggle));
    expect(submenuBox.y).toBeGreaterThan(buttonBox.y + buttonBox.height);
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.mouse.move(buttonBox.x + buttonBox.width / 2, (buttonBox.y + buttonBox.height + submenuBox.y) / 2);
    await page.clock.runFor(400);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  });

  test('every destination is reachable through the dropdowns and their submenus', async ({ page, lang }) => {
    test.setTimeout(180_000); // some seventy destinations, each a click and a check: minutes on a loaded machine
    await page.goto(lang.path('/'));
    await hoverOpenAfterIsland(page, lang.label('Trainings'));
    const seen = await walk(page, desktopNav(page).locator('.nav-list--depth-0'), (toggle) => toggle.hover());
    expect(seen.sort()).toEqual(expectedDestinations(lang, ABOUT_HREF));
    // Nothing in the menu's HTML is out of reach.
    expect(await desktopNav(page).locator('a[href]').count()).toBe(seen.length);

    await topToggle(page, lang.label('Trainings')).hover();
    await button(desktopNav(page), lang.label('ISO Trainings')).hover();
    await button(desktopNav(page), submenuName(lang, 'Internal Audit Training')).hover();
    await link(desktopNav(page), standard('iso-9001-2015')).click();
    await expect(page).toHaveURL(lang.url('/Trainings/ISOTrainings/InternalAuditTraining#iso-9001-2015'));
  });

  test('every open submenu stays inside the window, even four levels deep at 1151 px @rtl', async ({ page, lang }) => {
    await page.goto(lang.path('/'));
    const trainings = await hoverOpenAfterIsland(page, lang.label('Trainings'));
    const nav = desktopNav(page);
    await button(nav, lang.label('ISO Trainings')).hover();
    await button(nav, submenuName(lang, 'ISO Implementation Training')).hover();
    const panels = await nav.locator('.nav-panel:visible').all();
    expect(panels.length).toBe(3);
    const boxes = await Promise.all(panels.map(box));
    for (const { x, width } of boxes) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x + width).toBeLessThanOrEqual(DESKTOP.width);
    }

    // Which way each level opens. Along the reading direction (rightwards in English, leftwards
    // in Arabic) first: the dropdown hangs from its button's start edge, each flyout lies past
    // its list's end edge. A level keeps the way its parent went, and turns back only when that
    // way has no room for it before the window's edge.
    const rtl = lang.dir === 'rtl';
    type Box = Awaited<ReturnType<typeof box>>;
    const startEdge = (b: Box) => (rtl ? b.x + b.width : b.x);
    const endEdge = (b: Box) => (rtl ? b.x : b.x + b.width);
    const windowWidth = await page.evaluate(() => document.documentElement.clientWidth);
    /** The room from `edge` to the window's side, along (`forward`) or against the reading direction. */
    const room = (edge: number, forward: boolean) => (forward !== rtl ? windowWidth - edge : edge);
    const toggleBox = await box(trainings);
    const dropdown = boxes[0]!;
    let forward = Math.abs(startEdge(dropdown) - startEdge(toggleBox)) <= 1;
    if (!forward) {
      expect(
        Math.abs(endEdge(dropdown) - endEdge(toggleBox)),
        'the dropdown hangs from an edge of its button',
      ).toBeLessThanOrEqual(1);
      expect(room(startEdge(toggleBox), true), 'the dropdown turned back with room to spare').toBeLessThan(dropdown.width);
    }
    for (let level = 1; level < boxes.length; level += 1) {
      const [parent, flyout] = [boxes[level - 1]!, boxes[level]!];
      const opensForward = Math.abs(startEdge(flyout) - endEdge(parent)) <= 2;
      const opensBack = Math.abs(endEdge(flyout) - startEdge(parent)) <= 2;
      expect(opensForward || opensBack, `flyout ${level} lies beside its parent list`).toBe(true);
      if (opensForward !== forward) {
        const edge = forward ? endEdge(parent) : startEdge(parent);
        expect(room(edge, forward), `flyout ${level} turned with room to spare`).toBeLessThan(flyout.width);
      }
      forward = opensForward;
    }
  });

  test('keyboard: Tab reaches each group, Enter and Space toggle, Escape closes and returns focus, focus leaving closes @rtl', async ({
    page,
    lang,
  }) => {
    await page.goto(lang.path('/AboutUs'));
    const nav = desktopNav(page);
    const about = link(nav, lang.label('About Us'));
    await page.keyboard.press('Tab'); // skip link
    await page.keyboard.press('Tab'); // logo
    await page.keyboard.press('Tab');
    await expect(about).toBeFocused();
    await expect(about).toHaveAttribute('aria-current', 'page');
    await page.keyboard.press('Tab');
    // Focus woke the island; it took over with focus where it was.
    await started(nav);
    const audits = button(nav, lang.label('Management System Audits'));
    await expect(audits).toBeFocused();
    await expect(audits).toHaveAttribute('aria-expanded', 'false');
    // Tab moves along the reading direction: rightwards in English, leftwards in Arabic.
    await expectFollows(lang, about, audits);

    await page.keyboard.press('Enter');
    await expect(audits).toHaveAttribute('aria-expanded', 'true');
    for (const name of [
      'Vendor Assessment',
      'Schedule Q Quality Assessment',
      'Schedule D Safety Assessment',
      'Other Audits (Coming Soon)',
    ]) {
      await page.keyboard.press('Tab');
      await expect(link(nav, lang.label(name))).toBeFocused();
    }
    // Tabbing out of the group closes it.
    await page.keyboard.press('Tab');
    const trainings = button(nav, lang.label('Trainings'));
    await expect(trainings).toBeFocused();
    await expect(audits).toHaveAttribute('aria-expanded', 'false');
    await expectFollows(lang, audits, trainings);

    await page.keyboard.press('Space');
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    const isoTrainings = button(nav, lang.label('ISO Trainings'));
    await expect(isoTrainings).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(link(nav, lang.label('ISO Implementation Training'))).toBeFocused();
    // The flyout Enter opened lies along the reading direction too.
    await expectFollows(lang, isoTrainings, link(nav, lang.label('ISO Implementation Training')));
    await page.keyboard.press('Tab');
    const standardsToggle = button(nav, submenuName(lang, 'ISO Implementation Training'));
    await expect(standardsToggle).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(link(nav, standard('iso-iec-17025-2017'))).toBeFocused();

    // Escape closes the innermost submenu and returns focus to its button, level by level.
    await page.keyboard.press('Escape');
    await expect(standardsToggle).toBeFocused();
    await expect(standardsToggle).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Escape');
    await expect(isoTrainings).toBeFocused();
    await expect(isoTrainings).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Escape');
    await expect(trainings).toBeFocused();
    await expect(trainings).toHaveAttribute('aria-expanded', 'false');

    // Enter toggles: open, then closed again.
    await page.keyboard.press('Enter');
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Enter');
    await expect(trainings).toHaveAttribute('aria-expanded', 'false');

    // Focus leaving backwards closes too.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    await expect(audits).toBeFocused();
    await expect(trainings).toHaveAttribute('aria-expanded', 'false');
  });

  test('Escape dismisses a dropdown opened by hovering, wherever focus is', async ({ page, lang }) => {
    await page.goto(lang.path(CONTENT_PAGE));
    const toggle = await hoverOpenAfterIsland(page, lang.label('Laboratory Management Services (17025)'));
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('a click on a button the pointer has opened keeps it open; a click outside closes it', async ({ page, lang }) => {
    await page.goto(lang.path(CONTENT_PAGE));
    const toggle = await hoverOpenAfterIsland(page, lang.label('Audit Assistance'));
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    // Pinned by the click: the pointer may leave.
    await page.mouse.move(40, 600);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.mouse.click(40, 600);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('the current page is marked with aria-current, and the dropdown that holds it', async ({ page, lang }) => {
    await page.goto(lang.path('/AuditAssistance/ISOThirdPartyAudits'));
    const toggle = await hoverOpenAfterIsland(page, lang.label('Audit Assistance'));
    await expect(toggle).toHaveAttribute('data-current', '');
    await expect(desktopNav(page).locator('[aria-current="page"]')).toHaveAttribute(
      'href',
      lang.path('/AuditAssistance/ISOThirdPartyAudits'),
    );
    await expect(desktopNav(page).locator('[aria-current="page"]')).toHaveCount(1);
  });
});

test.describe('a group with one destination', () => {
  for (const [menu, width] of [
    ['desktop', 1440],
    ['phone', 390],
  ] as const) {
    test(`ISO Consultancy is a link at the menu's top level on a ${menu} (${width} px), its standards a submenu beside it`, async ({
      page,
      lang,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(lang.path(CONTENT_PAGE));
      const nav = menu === 'desktop' ? desktopNav(page) : mobileNav(page);
      if (menu === 'phone') {
        await page.locator('.mobile-nav__toggle').click();
        await started(nav);
        await expect(page.locator('.mobile-nav__panel')).toBeVisible();
      } else {
        await topToggle(page, lang.label('Audit Assistance')).hover();
        await started(nav);
      }
      const top = nav.locator('.nav-list--depth-0 > li');
      const iso = top.filter({ has: page.locator(`a[href="${lang.path('/ISOConsultancy')}"]`) });
      await expect(iso).toHaveCount(1);
      await expect(iso.locator(':scope > a, :scope > .nav-row > a')).toHaveText(lang.label('ISO Consultancy'));
      // No button that opens a list of one, named like the group.
      await expect(button(nav, lang.label('ISO Consultancy'))).toHaveCount(0);
      // Its standards stay reachable: the page's own submenu button, as for the ISO trainings.
      const standards = button(nav, submenuName(lang, 'ISO Consultancy'));
      await standards.click();
      await expect(link(nav, standard('iso-9001-2015'))).toBeVisible();
      await page.screenshot({ path: `test-results/screenshots/${lang.code}-${menu}-menu-iso-consultancy-${width}.png` });
    });
  }
});

test('ISO Consultancy leaves no empty room after it: without JavaScript none, before its island the chevron its button brings; its standards stay shut in the phone menu without JavaScript @rtl', async ({
  browser,
  page,
  lang,
}) => {
  const topLink = (p: Page, href: string) => desktopNav(p).locator(`.nav-list--depth-0 > li > a[href="${lang.path(href)}"]`);
  /** The room a top-level link takes after its words, in px. */
  const room = (a: Locator) =>
    a.evaluate((element) => {
      const words = document.createRange();
      words.selectNodeContents(element);
      return element.getBoundingClientRect().width - words.getBoundingClientRect().width;
    });
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1440, height: 900 } });
  try {
    const off = await context.newPage();
    await off.goto(lang.path(CONTENT_PAGE));
    expect(Math.abs((await room(topLink(off, '/ISOConsultancy'))) - (await room(topLink(off, ABOUT_HREF))))).toBeLessThan(1);
    await off.setViewportSize({ width: 390, height: 844 });
    await off.locator('.mobile-nav__toggle').click();
    await expect(off.locator('.mobile-nav__panel')).toBeVisible();
    await expect(link(off.locator('.mobile-nav__panel'), lang.label('ISO Consultancy'))).toBeVisible();
    await expect(off.locator('.mobile-nav__panel .nav-list--depth-0 > li > .nav-list--inline')).toBeHidden();
  } finally {
    await context.close();
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(lang.path(CONTENT_PAGE));
  const iso = topLink(page, '/ISOConsultancy');
  await expect(desktopNav(page)).not.toHaveAttribute('data-enhanced', '');
  expect(await iso.evaluate((element) => getComputedStyle(element, '::after').borderBottomWidth)).toBe('2px');
});

test.describe('touch screens at 1151 px and wider', () => {
  test.use({ hasTouch: true, viewport: { width: 1280, height: 800 } });

  test('a tap opens a group, a second tap closes it, a tap outside closes it', async ({ page, lang }) => {
    await page.goto(lang.path(CONTENT_PAGE));
    // The first tap wakes the island; what it opened is kept.
    await topToggle(page, lang.label('Trainings')).tap();
    await started(desktopNav(page));
    const trainings = button(desktopNav(page), lang.label('Trainings'));
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
    await trainings.tap();
    await expect(trainings).toHaveAttribute('aria-expanded', 'false');

    await trainings.tap();
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
    await button(desktopNav(page), lang.label('ISO Trainings')).tap();
    await expect(button(desktopNav(page), lang.label('ISO Trainings'))).toHaveAttribute('aria-expanded', 'true');
    await page.locator('main h1').tap();
    await expect(trainings).toHaveAttribute('aria-expanded', 'false');
    await expect(desktopNav(page).locator('.nav-panel:visible')).toHaveCount(0);
  });
});

test.describe('mobile menu, 1149 px', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(MOBILE);
  });

  async function openMenu(page: Page, lang: SiteLanguage): Promise<Locator> {
    await page.locator('.mobile-nav__toggle').click();
    await started(mobileNav(page));
    const toggle = button(mobileNav(page), lang.t('header.menu'));
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('.mobile-nav__panel')).toBeVisible();
    return toggle;
  }

  test('a named menu button with aria-expanded opens expandable groups; About is /Aboutus', async ({ page, lang }) => {
    await page.goto(lang.path('/'));
    const toggle = await openMenu(page, lang);
    await expect(toggle).toHaveAttribute('aria-controls', 'mnav-panel');
    const panel = page.locator('.mobile-nav__panel');
    // The specification's spelling of the About page, in the language (/ar/Aboutus in Arabic).
    await expect(link(panel, lang.label('About Us'))).toHaveAttribute('href', lang.path(ABOUT_MOBILE_HREF));
    const lab = button(panel, lang.label('Laboratory Management Services (17025)'));
    const accreditation = link(panel, lang.label('Support for Accreditation Process'));
    await expect(lab).toHaveAttribute('aria-expanded', 'false');
    await lab.click();
    await expect(lab).toHaveAttribute('aria-expanded', 'true');
    await expect(accreditation).toBeVisible();
    await lab.click();
    await expect(accreditation).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(panel).toBeHidden();
  });

  test('every destination is reachable through the menu and its nested groups', async ({ page, lang }) => {
    test.setTimeout(180_000); // some seventy destinations, each a click and a check: minutes on a loaded machine
    await page.goto(lang.path('/'));
    await openMenu(page, lang);
    const seen = await walk(page, page.locator('.mobile-nav__panel > .nav-list'), (toggle) => toggle.click());
    expect(seen.sort()).toEqual(expectedDestinations(lang, ABOUT_MOBILE_HREF));
    // Every link of the panel but the language switch (which leads to this page in the other language, not into the menu).
    expect(await page.locator('.mobile-nav__panel a[href]:not([hreflang])').count()).toBe(seen.length);
  });

  test('choosing a destination closes the menu, on the same page and on another', async ({ page, lang }) => {
    await page.goto(lang.path('/ISOConsultancy'));
    const toggle = await openMenu(page, lang);
    const panel = page.locator('.mobile-nav__panel');
    await button(panel, submenuName(lang, 'ISO Consultancy')).click();
    await link(panel, standard('iso-14001-2015')).click();
    await expect(page).toHaveURL(lang.url('/ISOConsultancy#iso-14001-2015'));
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(panel).toBeHidden();
    await expect(page.locator('#iso-14001-2015')).toBeInViewport();

    await toggle.click();
    await button(panel, lang.label('Management System Audits')).click();
    await link(panel, lang.label('Vendor Assessment')).click();
    await expect(page).toHaveURL(lang.url('/MangementSystemAudits/VendorAssessment'));
    await expect(page.locator('.mobile-nav__panel')).toBeHidden();
  });

  test('Escape closes the menu and returns focus to the menu button; focus leaving closes it', async ({ page, lang }) => {
    await page.goto(lang.path('/AboutUs'));
    const toggle = await openMenu(page, lang);
    const about = link(page.locator('.mobile-nav__panel'), lang.label('About Us'));
    await page.keyboard.press('Tab');
    await expect(about).toBeFocused();
    await expect(about).toHaveAttribute('aria-current', 'page');
    await page.keyboard.press('Escape');
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByRole('link', { name: lang.t('header.becomePartner') })).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('the page behind does not scroll while the menu is open', async ({ page, lang }) => {
    await page.goto(lang.path('/LaboratoryQualityManagementSystemServices/Training'));
    const toggle = await openMenu(page, lang);
    await page.mouse.move(300, 30); // over the header, outside the panel
    await page.mouse.wheel(0, 800);
    await page.mouse.move(300, 400); // over the panel (it spans the window's width)
    await page.mouse.wheel(0, 2000);
    // Give a scroll that should not happen every chance to happen before looking.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await toggle.click();
    await page.mouse.wheel(0, 800);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });
});

test.describe('mobile menu group labels @rtl', () => {
  test.use({ hasTouch: true });

  interface Box {
    left: number;
    right: number;
    top: number;
    bottom: number;
  }
  interface LabelLayout {
    label: string;
    /** The row's direction, as the page lays it out. */
    dir: string;
    /** Each word of the label, in reading order. */
    words: (Box & { text: string })[];
    /** Where the row's content starts and ends (inside its padding): x of the start edge, the left in ltr and the right in rtl. */
    start: number;
    end: number;
    /** The width of a space in the label's font. */
    space: number;
    fontSize: number;
  }

  const TOGGLES = '.mobile-nav__panel .nav-toggle';

  /** The layout of every group label on screen in the mobile menu, in document order (null: not shown, or no text). */
  function labelLayouts(page: Page): Promise<(LabelLayout | null)[]> {
    return page.locator(TOGGLES).evaluateAll((toggles) =>
      toggles.map((toggle) => {
        const label = toggle.textContent?.trim() ?? '';
        if (!toggle.checkVisibility() || label === '') return null;
        const words: (Box & { text: string })[] = [];
        const walker = document.createTreeWalker(toggle, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const { left, right, top, bottom } = range.getBoundingClientRect();
            words.push({ text: match[0], left, right, top, bottom });
          }
        }
        const style = getComputedStyle(toggle);
        const box = toggle.getBoundingClientRect();
        const context = document.createElement('canvas').getContext('2d')!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const inset = (side: 'Start' | 'End') =>
          parseFloat(style[`borderInline${side}Width`]) + parseFloat(style[`paddingInline${side}`]);
        const rtl = style.direction === 'rtl';
        return {
          label,
          dir: style.direction,
          words,
          start: rtl ? box.right - inset('Start') : box.left + inset('Start'),
          end: rtl ? box.left + inset('End') : box.right - inset('End'),
          space: context.measureText(' ').width,
          fontSize: parseFloat(style.fontSize),
        };
      }),
    );
  }

  /**
   * The box of the chevron each toggle draws (a ::after pseudo-element of the toggle or of
   * something inside it), in document order as `labelLayouts`. Pseudo-elements have no DOM API
   * for their box: the browser's DevTools protocol measures them.
   */
  async function chevronBoxes(page: Page): Promise<(Box | null)[]> {
    const cdp = await page.context().newCDPSession(page);
    try {
      type CdpNode = { nodeId: number; pseudoType?: string; children?: CdpNode[]; pseudoElements?: CdpNode[] };
      const { root } = (await cdp.send('DOM.getDocument', { depth: -1 })) as { root: CdpNode };
      const byId = new Map<number, CdpNode>();
      const index = (node: CdpNode) => {
        byId.set(node.nodeId, node);
        for (const child of [...(node.children ?? []), ...(node.pseudoElements ?? [])]) index(child);
      };
      index(root);
      const afters = (node: CdpNode): CdpNode[] => [
        ...(node.pseudoElements ?? []).filter((pseudo) => pseudo.pseudoType === 'after'),
        ...(node.children ?? []).flatMap(afters),
      ];
      const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: TOGGLES });
      const boxes: (Box | null)[] = [];
      for (const nodeId of nodeIds) {
        let found: Box | null = null;
        for (const pseudo of afters(byId.get(nodeId)!)) {
          const model = await cdp.send('DOM.getBoxModel', { nodeId: pseudo.nodeId }).catch(() => null);
          if (!model) continue;
          const xs = model.model.border.filter((_, i) => i % 2 === 0);
          const ys = model.model.border.filter((_, i) => i % 2 === 1);
          found = { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
        }
        boxes.push(found);
      }
      return boxes;
    } finally {
      await cdp.detach();
    }
  }

  /**
   * What is wrong with how each label is laid out: one phrase from the row's start edge, the
   * chevron past it at the row's end edge, every row's chevron in one column. Written along the
   * reading direction: right to left, a line starts at the row's right edge, each word follows
   * to the left of the one before, and the chevrons stand at the rows' left. A line's words are taken in their order on screen (the
   * reading order, but for a run of the other direction inside a line, which the browser lays
   * out its own way: "Schedule Q" in an Arabic label).
   */
  async function labelProblems(page: Page, lang: SiteLanguage): Promise<string[]> {
    const layouts = await labelLayouts(page);
    const chevrons = await chevronBoxes(page);
    expect(chevrons.length).toBe(layouts.length);
    const rtl = lang.dir === 'rtl';
    /** A box's start and end edges along the reading direction. */
    const startOf = (box: Box) => (rtl ? box.right : box.left);
    const endOf = (box: Box) => (rtl ? box.left : box.right);
    const problems: string[] = [];
    let checked = 0;
    layouts.forEach((layout, i) => {
      if (!layout) return;
      checked += 1;
      const { label, words, start, space, fontSize } = layout;
      const round = (n: number) => Math.round(n);
      if (layout.dir !== lang.dir) problems.push(`${label}: laid out ${layout.dir}, not ${lang.dir}`);
      if (words.map((w) => w.text).join(' ') !== label.replace(/\s+/g, ' '))
        problems.push(`${label}: words read "${words.map((w) => w.text).join(' ')}"`);
      // The lines of the label, in reading order: each word on the line of the one before or on a later one.
      const lines: (typeof words)[] = [[words[0]!]];
      for (let w = 1; w < words.length; w++) {
        const [before, word] = [words[w - 1]!, words[w]!];
        if (Math.abs(word.top - before.top) < (before.bottom - before.top) / 2) lines.at(-1)!.push(word);
        else {
          if (word.top < before.bottom - 1) problems.push(`${label}: "${word.text}" goes back up a line`);
          lines.push([word]);
        }
      }
      // Each line starts at the row's start edge, its words a space apart along the reading direction.
      const onScreen = lines.map((line) => [...line].sort((a, b) => ahead(lang, startOf(b), startOf(a))));
      onScreen.forEach((line, l) => {
        const offset = ahead(lang, start, startOf(line[0]!));
        if (Math.abs(offset) > 1) {
          problems.push(
            l === 0
              ? `${label}: starts ${round(offset)} px from the row's start`
              : `${label}: "${line[0]!.text}" does not start the next line at the row's start`,
          );
        }
        for (let w = 1; w < line.length; w++) {
          const [before, word] = [line[w - 1]!, line[w]!];
          const gap = ahead(lang, endOf(before), startOf(word));
          if (gap < 0 || gap > 1.5 * space)
            problems.push(
              `${label}: ${round(gap)} px between "${before.text}" and "${word.text}" (a space is ${round(space)} px)`,
            );
        }
      });
      // The chevron comes after the whole phrase, at the row's end edge.
      const chevron = chevrons[i];
      if (!chevron) problems.push(`${label}: no chevron`);
      else {
        const furthest = Math.max(...words.map((word) => (rtl ? -endOf(word) : endOf(word))));
        const gap = (rtl ? -startOf(chevron) : startOf(chevron)) - furthest;
        if (gap < 0) problems.push(`${label}: chevron over the text`);
        if (ahead(lang, endOf(chevron), layout.end) > fontSize * 2)
          problems.push(`${label}: chevron ${round(ahead(lang, endOf(chevron), layout.end))} px from the row's end`);
      }
    });
    expect(checked, 'group labels measured').toBeGreaterThan(0);
    // One placement at every level: each chevron shown (a group's, a page's submenu button's) in one column.
    const middles = chevrons
      .filter((box): box is Box => box !== null && box.right > box.left)
      .map((box) => (box.left + box.right) / 2);
    const spread = Math.max(...middles) - Math.min(...middles);
    if (spread > 1)
      problems.push(
        `chevrons spread over ${Math.round(spread)} px across the rows (${middles.map((x) => Math.round(x)).join(', ')})`,
      );
    return problems;
  }

  /** Opens every group (and every submenu) of the open menu, one by one. */
  async function openEveryGroup(closed: Locator): Promise<void> {
    while ((await closed.count()) > 0) await closed.first().tap();
  }

  test("at 390, 768 and 1100 px each group label reads as one phrase from the row's start, every chevron in one column at the row's end", async ({
    page,
    lang,
  }) => {
    // One group open at the phone's width; then every group open, at each width by resizing the open menu.
    const [width, ...wider] = [390, 768, 1100];
    await page.setViewportSize({ width: width!, height: 900 });
    await page.goto(lang.path('/'));
    await page.evaluate(() => document.fonts.ready);
    const toggle = page.locator('.mobile-nav__toggle');
    // Woken by focus first, so the tap below lands on the started island's button.
    await toggle.focus();
    await started(mobileNav(page));
    await toggle.tap();
    await expect(button(mobileNav(page), lang.t('header.menu'))).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator('.mobile-nav__panel');
    await expect(panel).toBeVisible();
    const first = panel.locator('.nav-list--depth-0 > li > button').first();
    await first.tap();
    await expect(first).toHaveAttribute('aria-expanded', 'true');
    await page.screenshot({ path: `test-results/screenshots/${lang.code}-mobile-menu-${width}.png` });
    expect(await labelProblems(page, lang), 'one group open').toEqual([]);
    await openEveryGroup(panel.locator('button[aria-expanded="false"]:visible'));
    for (const at of [width!, ...wider]) {
      await page.setViewportSize({ width: at, height: 900 });
      await page.screenshot({ path: `test-results/screenshots/${lang.code}-mobile-menu-${at}-all-open.png` });
      expect(await labelProblems(page, lang), `every group open at ${at} px`).toEqual([]);
    }
  });

  for (const width of [390, 768, 1100]) {
    test(`at ${width} px the same holds in the menu's server-rendered <details>, before its code has loaded`, async ({
      page,
      lang,
    }) => {
      await page.route('**/_astro/*.js', (route) => route.abort());
      await page.setViewportSize({ width, height: 900 });
      await page.goto(lang.path('/'));
      await page.evaluate(() => document.fonts.ready);
      await page.locator('.mobile-nav__toggle').tap();
      const panel = page.locator('.mobile-nav__panel');
      await expect(panel).toBeVisible();
      await panel.locator('.nav-list--depth-0 > li > details > summary').first().tap();
      await page.screenshot({ path: `test-results/screenshots/${lang.code}-mobile-menu-details-${width}.png` });
      // The top-level groups are exclusive (<details name>): each in turn, with what it holds.
      for (const summary of await panel.locator('.nav-list--depth-0 > li > details > summary').all()) {
        if ((await summary.evaluate((el) => (el.parentElement as HTMLDetailsElement).open)) === false) await summary.tap();
        for (const nested of await panel.locator('details[open] details:not([open]) > summary').all()) await nested.tap();
        expect(await labelProblems(page, lang), `with ${await summary.textContent()} open`).toEqual([]);
      }
      await expect(mobileNav(page)).not.toHaveAttribute('data-enhanced', '');
    });
  }
});

test.describe('JavaScript a content page loads', () => {
  /** Records the path of every script the page requests. */
  function recordScripts(page: Page): string[] {
    const requested: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') requested.push(new URL(request.url()).pathname);
    });
    return requested;
  }

  async function islandFiles(page: Page, menu: string): Promise<{ component: string; renderer: string }> {
    const island = page.locator(`astro-island:has(${menu})`);
    return {
      component: (await island.getAttribute('component-url')) ?? 'missing',
      renderer: (await island.getAttribute('renderer-url')) ?? 'missing',
    };
  }

  /** Errors the page reports (a script error while the island starts is one). */
  function recordErrors(page: Page): string[] {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    return errors;
  }

  async function pageScripts(page: Page): Promise<string[]> {
    return page
      .locator('script[src]')
      .evaluateAll((scripts) => scripts.map((s) => new URL((s as HTMLScriptElement).src).pathname));
  }

  test('desktop: none of the menu or framework code before the visitor reaches for the menu; hovering loads the dropdowns only', async ({
    page,
    lang,
  }) => {
    await page.setViewportSize(DESKTOP);
    const requested = recordScripts(page);
    const errors = recordErrors(page);
    await page.goto(lang.path(CONTENT_PAGE), { waitUntil: 'networkidle' });
    await page.mouse.move(600, 500);
    await page.mouse.wheel(0, 600);
    await page.waitForLoadState('networkidle');
    const before = [...requested];
    // Only the page's own scripts, if any: no island, no framework runtime.
    for (const path of before) expect(await pageScripts(page)).toContain(path);
    const desktop = await islandFiles(page, '.desktop-nav');
    const mobile = await islandFiles(page, '.mobile-nav');
    expect(before).not.toContain(desktop.component);
    expect(before).not.toContain(desktop.renderer);

    await topToggle(page, lang.label('Trainings')).hover();
    await started(desktopNav(page));
    expect(requested).toContain(desktop.component);
    expect(requested).toContain(desktop.renderer);
    expect(requested).not.toContain(mobile.component);
    expect(errors).toEqual([]);
  });

  test('desktop: focusing the menu with the keyboard loads it too', async ({ page, lang }) => {
    await page.setViewportSize(DESKTOP);
    const requested = recordScripts(page);
    await page.goto(lang.path(CONTENT_PAGE), { waitUntil: 'networkidle' });
    const desktop = await islandFiles(page, '.desktop-nav');
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Tab'); // skip link, logo, About Us
    await expect(link(desktopNav(page), lang.label('About Us'))).toBeFocused();
    await started(desktopNav(page));
    expect(requested).toContain(desktop.component);
  });

  test('phone width: the first tap on the menu button loads the mobile menu only, and the tap is not lost', async ({
    browser,
    lang,
  }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await context.newPage();
    const requested = recordScripts(page);
    const errors = recordErrors(page);
    // Hold the menu's code back until the tap is over: a slow network.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_astro/MobileNav*.js', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(lang.path(CONTENT_PAGE), { waitUntil: 'load' });
    const desktop = await islandFiles(page, '.desktop-nav');
    const mobile = await islandFiles(page, '.mobile-nav');
    expect(requested).not.toContain(mobile.renderer);

    await page.locator('.mobile-nav__toggle').tap();
    // Before the code arrives, the tap already opened the menu (a native <details>).
    await expect(page.locator('.mobile-nav__panel')).toBeVisible();
    release();
    await started(mobileNav(page));
    await expect(button(mobileNav(page), lang.t('header.menu'))).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('.mobile-nav__panel')).toBeVisible();
    expect(requested).toContain(mobile.component);
    expect(requested).toContain(mobile.renderer);
    expect(requested).not.toContain(desktop.component);
    expect(errors).toEqual([]);
    await context.close();
  });
});
