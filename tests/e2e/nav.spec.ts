/**
 * The header navigation (spec §2 "Header", "Menu groups"; §4; §9: breakpoint 1150 px, close
 * delay 150 ms), as the islands DesktopNav and MobileNav deliver it, and the JavaScript a page
 * loads for it (none until the visitor reaches for the menu: the client:intent directive).
 *
 * Timing is checked on Playwright's clock, never with real sleeps.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ABOUT_HREF, ABOUT_MOBILE_HREF, flattenNavigation } from '../../src/data/navigation';
import { ISO_STANDARD_IDS } from '../../src/data/standards';

const DESKTOP = { width: 1151, height: 800 };
const MOBILE = { width: 1149, height: 800 };
const CONTENT_PAGE = '/MangementSystemAudits/ScheduleQQualityAssessment';

const desktopNav = (page: Page) => page.locator('.desktop-nav');
const mobileNav = (page: Page) => page.locator('.mobile-nav');
/** A top-level group's toggle: a <summary> until the island starts, a <button> after. */
const topToggle = (page: Page, label: string) =>
  desktopNav(page).locator('.nav-list--depth-0 > li .nav-toggle', { hasText: new RegExp(`^${label.replace(/[()]/g, '\\$&')}$`) });
const button = (scope: Locator, name: string) => scope.getByRole('button', { name, exact: true });

async function started(nav: Locator): Promise<void> {
  await expect(nav).toHaveAttribute('data-enhanced', '');
}

/** Opens the desktop menu's island by hovering a group, and waits until it has taken over. */
async function hoverOpen(page: Page, label: string): Promise<Locator> {
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
  const seen: string[] = [];
  for (const item of await list.locator(':scope > li').all()) {
    const link = item.locator(':scope > a, :scope > .nav-row > a');
    if ((await link.count()) > 0) {
      await expect(link).toBeVisible();
      seen.push((await link.getAttribute('href')) ?? '');
    }
    const toggle = item.locator(':scope > button, :scope > .nav-row > button');
    if ((await toggle.count()) === 0) continue;
    await open(toggle);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const submenu = await submenuOf(page, toggle);
    await expect(submenu).toBeVisible();
    seen.push(...(await walk(page, submenu, open)));
  }
  return seen;
}

/** What the specification puts in the menu, plus the standards each ISO page lists. */
function expectedDestinations(aboutHref: string): string[] {
  const pages = flattenNavigation().map((link) => (link.href === ABOUT_HREF ? aboutHref : link.href));
  const standards = (page: string, count: number) => ISO_STANDARD_IDS.slice(0, count).map((id) => `${page}#${id}`);
  return [
    ...pages,
    ...standards('/Trainings/ISOTrainings/ISOImplementationTraining', 11),
    ...standards('/Trainings/ISOTrainings/ISOAwarenessTraining', 11),
    ...standards('/Trainings/ISOTrainings/InternalAuditTraining', 6),
    ...standards('/ISOConsultancy', 11),
  ].sort();
}

test.describe('the breakpoint', () => {
  test('at 1151 px the dropdowns show and the menu button does not', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/');
    await expect(desktopNav(page)).toBeVisible();
    await expect(mobileNav(page)).toBeHidden();
    await expect(page.getByRole('link', { name: 'Become a Partner' })).toBeVisible();
  });

  test('at 1149 px the menu button shows and the dropdowns do not', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await page.goto('/');
    await expect(desktopNav(page)).toBeHidden();
    await expect(page.locator('.mobile-nav__toggle')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Become a Partner' })).toBeVisible();
  });
});

test.describe('desktop dropdowns, 1151 px', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(DESKTOP);
  });

  test('hover opens a dropdown; 50 ms after the pointer leaves it is still open, by 400 ms it is closed', async ({ page }) => {
    await page.clock.install();
    await page.goto(CONTENT_PAGE);
    const toggle = await hoverOpen(page, 'Audit Assistance');
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

  test('moving from the button into the dropdown and between nesting levels never closes it', async ({ page }) => {
    await page.clock.install();
    await page.goto(CONTENT_PAGE);
    const trainings = await hoverOpen(page, 'Trainings');
    await page.clock.pauseAt(Date.now() + 60_000);
    const nav = desktopNav(page);

    const path = [
      button(nav, 'ISO Trainings'),
      button(nav, 'Internal Audit Training submenu'),
      nav.getByRole('link', { name: 'ISO 45001:2018' }),
    ];
    for (const target of path) {
      const box = await target.boundingBox();
      if (!box) throw new Error('target not on screen');
      // In small steps, across every gap between the button and the lists.
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 8 });
      await page.clock.runFor(1000);
    }
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
    await expect(button(nav, 'ISO Trainings')).toHaveAttribute('aria-expanded', 'true');
    await expect(button(nav, 'Internal Audit Training submenu')).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'ISO 45001:2018' })).toBeVisible();

    // Back up to a sibling: only the flyout the pointer left closes.
    await nav.getByRole('link', { name: 'Other Trainings' }).hover();
    await page.clock.runFor(400);
    await expect(button(nav, 'ISO Trainings')).toHaveAttribute('aria-expanded', 'false');
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
  });

  test('the pointer may rest in the gap between a button and its dropdown', async ({ page }) => {
    await page.clock.install();
    await page.goto(CONTENT_PAGE);
    const toggle = await hoverOpen(page, 'Audit Assistance');
    const buttonBox = await toggle.boundingBox();
    const submenuBox = await (await submenuOf(page, toggle)).boundingBox();
    if (!buttonBox || !submenuBox) throw new Error('menu not on screen');
    expect(submenuBox.y).toBeGreaterThan(buttonBox.y + buttonBox.height);
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.mouse.move(buttonBox.x + buttonBox.width / 2, (buttonBox.y + buttonBox.height + submenuBox.y) / 2);
    await page.clock.runFor(400);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  });

  test('every destination is reachable through the dropdowns and their submenus', async ({ page }) => {
    test.setTimeout(180_000); // some seventy destinations, each a click and a check: minutes on a loaded machine
    await page.goto('/');
    await hoverOpen(page, 'Trainings');
    const seen = await walk(page, desktopNav(page).locator('.nav-list--depth-0'), (toggle) => toggle.hover());
    expect(seen.sort()).toEqual(expectedDestinations(ABOUT_HREF));
    // Nothing in the menu's HTML is out of reach.
    expect(await desktopNav(page).locator('a[href]').count()).toBe(seen.length);

    await topToggle(page, 'Trainings').hover();
    await button(desktopNav(page), 'ISO Trainings').hover();
    await button(desktopNav(page), 'Internal Audit Training submenu').hover();
    await desktopNav(page).getByRole('link', { name: 'ISO 9001:2015' }).click();
    await expect(page).toHaveURL(/\/Trainings\/ISOTrainings\/InternalAuditTraining#iso-9001-2015$/);
  });

  test('every open submenu stays inside the window, even four levels deep at 1151 px', async ({ page }) => {
    await page.goto('/');
    await hoverOpen(page, 'Trainings');
    const nav = desktopNav(page);
    await button(nav, 'ISO Trainings').hover();
    await button(nav, 'ISO Implementation Training submenu').hover();
    for (const panel of await nav.locator('.nav-panel:visible').all()) {
      const box = await panel.boundingBox();
      expect(box?.x).toBeGreaterThanOrEqual(0);
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(DESKTOP.width);
    }
    expect(await nav.locator('.nav-panel:visible').count()).toBe(3);
  });

  test('keyboard: Tab reaches each group, Enter and Space toggle, Escape closes and returns focus, focus leaving closes', async ({ page }) => {
    await page.goto('/AboutUs');
    const nav = desktopNav(page);
    await page.keyboard.press('Tab'); // skip link
    await page.keyboard.press('Tab'); // logo
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('link', { name: 'About Us' })).toBeFocused();
    await expect(nav.getByRole('link', { name: 'About Us' })).toHaveAttribute('aria-current', 'page');
    await page.keyboard.press('Tab');
    // Focus woke the island; it took over with focus where it was.
    await started(nav);
    const audits = button(nav, 'Management System Audits');
    await expect(audits).toBeFocused();
    await expect(audits).toHaveAttribute('aria-expanded', 'false');

    await page.keyboard.press('Enter');
    await expect(audits).toHaveAttribute('aria-expanded', 'true');
    for (const name of ['Vendor Assessment', 'Schedule Q Quality Assessment', 'Schedule D Safety Assessment', 'Other Audits (Coming Soon)']) {
      await page.keyboard.press('Tab');
      await expect(nav.getByRole('link', { name })).toBeFocused();
    }
    // Tabbing out of the group closes it.
    await page.keyboard.press('Tab');
    const trainings = button(nav, 'Trainings');
    await expect(trainings).toBeFocused();
    await expect(audits).toHaveAttribute('aria-expanded', 'false');

    await page.keyboard.press('Space');
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Tab');
    await expect(button(nav, 'ISO Trainings')).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('link', { name: 'ISO Implementation Training' })).toBeFocused();
    await page.keyboard.press('Tab');
    const standardsToggle = button(nav, 'ISO Implementation Training submenu');
    await expect(standardsToggle).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('link', { name: 'ISO/IEC 17025:2017' })).toBeFocused();

    // Escape closes the innermost submenu and returns focus to its button, level by level.
    await page.keyboard.press('Escape');
    await expect(standardsToggle).toBeFocused();
    await expect(standardsToggle).toHaveAttribute('aria-expanded', 'false');
    await page.keyboard.press('Escape');
    await expect(button(nav, 'ISO Trainings')).toBeFocused();
    await expect(button(nav, 'ISO Trainings')).toHaveAttribute('aria-expanded', 'false');
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

  test('Escape dismisses a dropdown opened by hovering, wherever focus is', async ({ page }) => {
    await page.goto(CONTENT_PAGE);
    const toggle = await hoverOpen(page, 'Laboratory Management Services (17025)');
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('a click on a button the pointer has opened keeps it open; a click outside closes it', async ({ page }) => {
    await page.goto(CONTENT_PAGE);
    const toggle = await hoverOpen(page, 'ISO Consultancy');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    // Pinned by the click: the pointer may leave.
    await page.mouse.move(40, 600);
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.mouse.click(40, 600);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('the current page is marked with aria-current, and the dropdown that holds it', async ({ page }) => {
    await page.goto('/AuditAssistance/ISOThirdPartyAudits');
    const toggle = await hoverOpen(page, 'Audit Assistance');
    await expect(toggle).toHaveAttribute('data-current', '');
    await expect(desktopNav(page).locator('[aria-current="page"]')).toHaveAttribute('href', '/AuditAssistance/ISOThirdPartyAudits');
    await expect(desktopNav(page).locator('[aria-current="page"]')).toHaveCount(1);
  });
});

test.describe('touch screens at 1151 px and wider', () => {
  test.use({ hasTouch: true, viewport: { width: 1280, height: 800 } });

  test('a tap opens a group, a second tap closes it, a tap outside closes it', async ({ page }) => {
    await page.goto(CONTENT_PAGE);
    // The first tap wakes the island; what it opened is kept.
    await topToggle(page, 'Trainings').tap();
    await started(desktopNav(page));
    const trainings = button(desktopNav(page), 'Trainings');
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
    await trainings.tap();
    await expect(trainings).toHaveAttribute('aria-expanded', 'false');

    await trainings.tap();
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
    await button(desktopNav(page), 'ISO Trainings').tap();
    await expect(button(desktopNav(page), 'ISO Trainings')).toHaveAttribute('aria-expanded', 'true');
    await page.locator('main h1').tap();
    await expect(trainings).toHaveAttribute('aria-expanded', 'false');
    await expect(desktopNav(page).locator('.nav-panel:visible')).toHaveCount(0);
  });
});

test.describe('mobile menu, 1149 px', () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize(MOBILE);
  });

  async function openMenu(page: Page): Promise<Locator> {
    await page.locator('.mobile-nav__toggle').click();
    await started(mobileNav(page));
    const toggle = button(mobileNav(page), 'Menu');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('.mobile-nav__panel')).toBeVisible();
    return toggle;
  }

  test('a named menu button with aria-expanded opens expandable groups; About is /Aboutus', async ({ page }) => {
    await page.goto('/');
    const toggle = await openMenu(page);
    await expect(toggle).toHaveAttribute('aria-controls', 'mnav-panel');
    const panel = page.locator('.mobile-nav__panel');
    await expect(panel.getByRole('link', { name: 'About Us' })).toHaveAttribute('href', ABOUT_MOBILE_HREF);
    const lab = button(panel, 'Laboratory Management Services (17025)');
    await expect(lab).toHaveAttribute('aria-expanded', 'false');
    await lab.click();
    await expect(lab).toHaveAttribute('aria-expanded', 'true');
    await expect(panel.getByRole('link', { name: 'Support for Accreditation Process' })).toBeVisible();
    await lab.click();
    await expect(panel.getByRole('link', { name: 'Support for Accreditation Process' })).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(panel).toBeHidden();
  });

  test('every destination is reachable through the menu and its nested groups', async ({ page }) => {
    test.setTimeout(180_000); // some seventy destinations, each a click and a check: minutes on a loaded machine
    await page.goto('/');
    await openMenu(page);
    const seen = await walk(page, page.locator('.mobile-nav__panel > .nav-list'), (toggle) => toggle.click());
    expect(seen.sort()).toEqual(expectedDestinations(ABOUT_MOBILE_HREF));
    // Every link of the panel but the language switch (which leads to this page in Arabic, not into the menu).
    expect(await page.locator('.mobile-nav__panel a[href]:not([hreflang])').count()).toBe(seen.length);
  });

  test('choosing a destination closes the menu, on the same page and on another', async ({ page }) => {
    await page.goto('/ISOConsultancy');
    const toggle = await openMenu(page);
    const panel = page.locator('.mobile-nav__panel');
    await button(panel, 'ISO Consultancy').click();
    await button(panel, 'ISO Consultancy submenu').click();
    await panel.getByRole('link', { name: 'ISO 14001:2015' }).click();
    await expect(page).toHaveURL(/\/ISOConsultancy#iso-14001-2015$/);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(panel).toBeHidden();
    await expect(page.locator('#iso-14001-2015')).toBeInViewport();

    await toggle.click();
    await button(panel, 'Management System Audits').click();
    await panel.getByRole('link', { name: 'Vendor Assessment' }).click();
    await expect(page).toHaveURL(/\/MangementSystemAudits\/VendorAssessment$/);
    await expect(page.locator('.mobile-nav__panel')).toBeHidden();
  });

  test('Escape closes the menu and returns focus to the menu button; focus leaving closes it', async ({ page }) => {
    await page.goto('/AboutUs');
    const toggle = await openMenu(page);
    await page.keyboard.press('Tab');
    await expect(page.locator('.mobile-nav__panel').getByRole('link', { name: 'About Us' })).toBeFocused();
    await expect(page.locator('.mobile-nav__panel').getByRole('link', { name: 'About Us' })).toHaveAttribute('aria-current', 'page');
    await page.keyboard.press('Escape');
    await expect(toggle).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByRole('link', { name: 'Become a Partner' })).toBeFocused();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('the page behind does not scroll while the menu is open', async ({ page }) => {
    await page.goto('/LaboratoryQualityManagementSystemServices/Training');
    const toggle = await openMenu(page);
    await page.mouse.move(300, 30); // over the header, outside the panel
    await page.mouse.wheel(0, 800);
    await page.mouse.move(300, 400); // over the panel
    await page.mouse.wheel(0, 2000);
    // Give a scroll that should not happen every chance to happen before looking.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    await toggle.click();
    await page.mouse.wheel(0, 800);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });
});

test.describe('mobile menu group labels', () => {
  test.use({ hasTouch: true });

  interface Box {
    left: number;
    right: number;
    top: number;
    bottom: number;
  }
  interface LabelLayout {
    label: string;
    /** Each word of the label, in reading order. */
    words: (Box & { text: string })[];
    /** Where the row's content starts and ends (inside its padding). */
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
        return {
          label,
          words,
          start: box.left + parseFloat(style.borderInlineStartWidth) + parseFloat(style.paddingInlineStart),
          end: box.right - parseFloat(style.borderInlineEndWidth) - parseFloat(style.paddingInlineEnd),
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

  /** What is wrong with how each label is laid out: one phrase from the row's start edge, the chevron right after it. */
  async function labelProblems(page: Page): Promise<string[]> {
    const layouts = await labelLayouts(page);
    const chevrons = await chevronBoxes(page);
    expect(chevrons.length).toBe(layouts.length);
    const problems: string[] = [];
    let checked = 0;
    layouts.forEach((layout, i) => {
      if (!layout) return;
      checked += 1;
      const { label, words, start, space, fontSize } = layout;
      const round = (n: number) => Math.round(n);
      if (words.map((w) => w.text).join(' ') !== label.replace(/\s+/g, ' ')) problems.push(`${label}: words read "${words.map((w) => w.text).join(' ')}"`);
      // The first word, and the first word of any further line, starts at the row's start edge.
      if (Math.abs(words[0]!.left - start) > 1) problems.push(`${label}: starts ${round(words[0]!.left - start)} px from the row's start`);
      for (let w = 1; w < words.length; w++) {
        const [before, word] = [words[w - 1]!, words[w]!];
        const sameLine = Math.abs(word.top - before.top) < (before.bottom - before.top) / 2;
        if (sameLine) {
          const gap = word.left - before.right;
          if (gap < 0 || gap > 1.5 * space) problems.push(`${label}: ${round(gap)} px between "${before.text}" and "${word.text}" (a space is ${round(space)} px)`);
        } else if (word.top < before.bottom - 1 || Math.abs(word.left - start) > 1) {
          problems.push(`${label}: "${word.text}" does not start the next line at the row's start`);
        }
      }
      // The chevron follows the last word, on its line, a small gap after it.
      const last = words.at(-1)!;
      const chevron = chevrons[i];
      if (!chevron) problems.push(`${label}: no chevron`);
      else {
        const gap = chevron.left - last.right;
        const middle = (chevron.top + chevron.bottom) / 2;
        if (gap < 0 || gap > fontSize) problems.push(`${label}: chevron ${round(gap)} px after the text`);
        if (middle < last.top || middle > last.bottom) problems.push(`${label}: chevron is not on the last line of the text`);
      }
    });
    expect(checked, 'group labels measured').toBeGreaterThan(0);
    return problems;
  }

  /** Opens every group (and every submenu) of the open menu, one by one. */
  async function openEveryGroup(closed: Locator): Promise<void> {
    while ((await closed.count()) > 0) await closed.first().tap();
  }

  for (const width of [390, 768, 1100]) {
    test(`at ${width} px each group label reads as one phrase from the row's start, the chevron right after it`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await page.evaluate(() => document.fonts.ready);
      const toggle = page.locator('.mobile-nav__toggle');
      // Woken by focus first, so the tap below lands on the started island's button.
      await toggle.focus();
      await started(mobileNav(page));
      await toggle.tap();
      await expect(button(mobileNav(page), 'Menu')).toHaveAttribute('aria-expanded', 'true');
      const panel = page.locator('.mobile-nav__panel');
      await expect(panel).toBeVisible();
      const first = panel.locator('.nav-list--depth-0 > li > button').first();
      await first.tap();
      await expect(first).toHaveAttribute('aria-expanded', 'true');
      await page.screenshot({ path: `test-results/screenshots/mobile-menu-${width}.png` });
      expect(await labelProblems(page), 'one group open').toEqual([]);
      await openEveryGroup(panel.locator('button[aria-expanded="false"]:visible'));
      await page.screenshot({ path: `test-results/screenshots/mobile-menu-${width}-all-open.png` });
      expect(await labelProblems(page), 'every group open').toEqual([]);
    });

    test(`at ${width} px the same holds in the menu's server-rendered <details>, before its code has loaded`, async ({ page }) => {
      await page.route('**/_astro/*.js', (route) => route.abort());
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await page.evaluate(() => document.fonts.ready);
      await page.locator('.mobile-nav__toggle').tap();
      const panel = page.locator('.mobile-nav__panel');
      await expect(panel).toBeVisible();
      await panel.locator('.nav-list--depth-0 > li > details > summary').first().tap();
      await page.screenshot({ path: `test-results/screenshots/mobile-menu-details-${width}.png` });
      // The top-level groups are exclusive (<details name>): each in turn, with what it holds.
      for (const summary of await panel.locator('.nav-list--depth-0 > li > details > summary').all()) {
        if ((await summary.evaluate((el) => (el.parentElement as HTMLDetailsElement).open)) === false) await summary.tap();
        for (const nested of await panel.locator('details[open] details:not([open]) > summary').all()) await nested.tap();
        expect(await labelProblems(page), `with ${await summary.textContent()} open`).toEqual([]);
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
    return page.locator('script[src]').evaluateAll((scripts) => scripts.map((s) => new URL((s as HTMLScriptElement).src).pathname));
  }

  test('desktop: none of the menu or framework code before the visitor reaches for the menu; hovering loads the dropdowns only', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const requested = recordScripts(page);
    const errors = recordErrors(page);
    await page.goto(CONTENT_PAGE, { waitUntil: 'networkidle' });
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

    await topToggle(page, 'Trainings').hover();
    await started(desktopNav(page));
    expect(requested).toContain(desktop.component);
    expect(requested).toContain(desktop.renderer);
    expect(requested).not.toContain(mobile.component);
    expect(errors).toEqual([]);
  });

  test('desktop: focusing the menu with the keyboard loads it too', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const requested = recordScripts(page);
    await page.goto(CONTENT_PAGE, { waitUntil: 'networkidle' });
    const desktop = await islandFiles(page, '.desktop-nav');
    for (let i = 0; i < 3; i += 1) await page.keyboard.press('Tab'); // skip link, logo, About Us
    await expect(desktopNav(page).getByRole('link', { name: 'About Us' })).toBeFocused();
    await started(desktopNav(page));
    expect(requested).toContain(desktop.component);
  });

  test('phone width: the first tap on the menu button loads the mobile menu only, and the tap is not lost', async ({ browser }) => {
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
    await page.goto(CONTENT_PAGE, { waitUntil: 'load' });
    const desktop = await islandFiles(page, '.desktop-nav');
    const mobile = await islandFiles(page, '.mobile-nav');
    expect(requested).not.toContain(mobile.renderer);

    await page.locator('.mobile-nav__toggle').tap();
    // Before the code arrives, the tap already opened the menu (a native <details>).
    await expect(page.locator('.mobile-nav__panel')).toBeVisible();
    release();
    await started(mobileNav(page));
    await expect(button(mobileNav(page), 'Menu')).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('.mobile-nav__panel')).toBeVisible();
    expect(requested).toContain(mobile.component);
    expect(requested).toContain(mobile.renderer);
    expect(requested).not.toContain(desktop.component);
    expect(errors).toEqual([]);
    await context.close();
  });
});
