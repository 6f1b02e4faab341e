/**
 * What only the Arabic site has, on the site's own server: every Arabic route answers
 * at its path, right to left, with its Arabic error pages; the mobile menu, the dropdowns and
 * their chevrons, and the hero carousel mirror; the language switch goes both ways; Cairo is
 * drawn from the cache only, and nothing shifts. Behaviour shared with English (menus, carousels, forms,
 * no-JS, axe, links, overflow, CSP) is in the bilingual specs, whose `@rtl` tests and whole-site
 * sweeps run in Arabic too (the `ar` project of playwright.config.ts); the forms' Arabic-only parts
 * are arabic-forms.spec.ts.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { violations } from './axe';
import { ARABIC_ROUTES } from './routes';
import { ar } from '../../src/i18n/ar';

/** Which way a chevron (a box with two borders, turned) points on screen. */
function chevron(toggle: Locator, part: ':scope' | '.nav-toggle__tail' = ':scope'): Promise<string> {
  return toggle.evaluate((el, selector) => {
    const target = selector === ':scope' ? el : (el.querySelector(selector) ?? el);
    const style = getComputedStyle(target, '::after');
    const m = new DOMMatrix(style.transform === 'none' ? undefined : style.transform);
    // The corner the two borders make, before the turn.
    const cx = parseFloat(style.borderRightWidth) > 0 ? 1 : -1;
    const cy = parseFloat(style.borderBottomWidth) > 0 ? 1 : -1;
    const x = m.a * cx + m.c * cy;
    const y = m.b * cx + m.d * cy;
    if (Math.abs(x) < 0.1) return y > 0 ? 'down' : 'up';
    if (Math.abs(y) < 0.1) return x > 0 ? 'right' : 'left';
    return `${x.toFixed(2)},${y.toFixed(2)}`;
  }, part);
}

test('every Arabic route answers 200 at its exact path, in Arabic and right to left; unknown ones the Arabic error pages', async ({
  request,
}) => {
  // Every English page has its Arabic route (ARABIC_ROUTES: the content decides how many there
  // are); one not yet translated is there too, its English heading on an Arabic page.
  for (const route of [...ARABIC_ROUTES, { path: '/ar/Aboutus', heading: 'من نحن' }]) {
    const response = await request.get(route.path, { maxRedirects: 0 });
    expect(response.status(), route.path).toBe(200);
    const html = await response.text();
    expect(html, route.path).toMatch(/<html lang="ar" dir="rtl"[\s>]/);
    // The heading's text, names kept whole by their nowrap spans (src/lib/whole-names.ts) read through.
    const heading = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1]?.replace(/<[^>]+>/g, '');
    expect(heading?.startsWith(route.heading), `${route.path}: ${heading ?? 'no h1'}`).toBe(true);
  }
  // Without compression too (Astro's own file handler then answers: /ar is a file beside the ar/ folder).
  const plain = await request.get('/ar', { maxRedirects: 0, headers: { 'Accept-Encoding': 'identity' } });
  expect(plain.status()).toBe(200);
  expect(await plain.text()).toContain('<html lang="ar" dir="rtl"');
  const slash = await request.get('/ar/', { maxRedirects: 0 });
  expect(slash.status()).toBe(301);
  expect(slash.headers()['location']).toMatch(/\/ar$/);

  const comingSoon = await request.get('/ar/services/quantum-audits');
  expect(comingSoon.status()).toBe(404);
  expect(await comingSoon.text()).toMatch(/<html lang="ar" dir="rtl"[\s\S]*<h1[^>]*>قريبًا<\/h1>/);
  const notFound = await request.get('/ar/no-such-page');
  expect(notFound.status()).toBe(404);
  expect(await notFound.text()).toMatch(/<html lang="ar" dir="rtl"[\s\S]*<h1[^>]*>الصفحة غير موجودة<\/h1>/);
});

test.describe('a phone, 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('the mobile menu opens by a tap, reads right to left, nests toward the left, and ends with the switch to English', async ({
    page,
  }) => {
    await page.goto('/ar/AboutUs');
    const toggle = page.locator('.mobile-nav__toggle');
    await toggle.tap();
    await expect(page.locator('.mobile-nav')).toHaveAttribute('data-enhanced', '');
    await expect(page.getByRole('button', { name: 'القائمة', exact: true })).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator('.mobile-nav__panel');
    await expect(panel).toBeVisible();
    expect(await panel.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');

    // A row's words start at its right edge.
    const about = panel.getByRole('link', { name: 'من نحن' });
    await expect(about).toHaveAttribute('href', '/ar/Aboutus');
    await expect(about).toHaveAttribute('aria-current', 'page');
    const row = await about.evaluate((a) => {
      const range = document.createRange();
      range.selectNodeContents(a);
      const text = range.getBoundingClientRect();
      const box = a.getBoundingClientRect();
      return { fromRight: box.right - text.right, fromLeft: text.left - box.left };
    });
    expect(row.fromRight).toBeLessThanOrEqual(12);
    expect(row.fromLeft).toBeGreaterThan(150);

    // A group opens by a tap; its chevron points down, then up; its links sit further from the right.
    const trainings = panel.getByRole('button', { name: 'التدريب', exact: true });
    expect(await chevron(trainings)).toBe('down');
    await trainings.tap();
    await expect(trainings).toHaveAttribute('aria-expanded', 'true');
    expect(await chevron(trainings)).toBe('up');
    const other = panel.getByRole('link', { name: 'دورات تدريبية أخرى' });
    await expect(other).toBeVisible();
    const [groupBox, itemBox] = await Promise.all([trainings.boundingBox(), other.boundingBox()]);
    expect((itemBox?.x ?? 0) + (itemBox?.width ?? 0)).toBeLessThan((groupBox?.x ?? 0) + (groupBox?.width ?? 0) - 8);

    const english = panel.locator('a[hreflang="en"]');
    await expect(english).toHaveText('English');
    await expect(english).toHaveAttribute('lang', 'en');
    await expect(english).toHaveAttribute('href', '/AboutUs');
    expect(await violations(page)).toEqual([]);

    await other.tap();
    await expect(page).toHaveURL(/\/ar\/Trainings\/OtherTrainings$/);
    await expect(page.locator('h1')).toHaveText('دورات تدريبية أخرى');
    await expect(panel).toBeHidden();
  });
});

test.describe('a desktop, 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('dropdowns open toward the start edge (the right), flyouts toward the left; chevrons point down, up, and to the flyout', async ({
    page,
  }) => {
    await page.goto('/ar');
    const nav = page.locator('.desktop-nav');
    const trainings = nav.locator('.nav-list--depth-0 > li .nav-toggle', { hasText: /^التدريب$/ });
    await trainings.hover();
    await expect(nav).toHaveAttribute('data-enhanced', '');
    const button = nav.getByRole('button', { name: 'التدريب', exact: true });
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(await chevron(button, '.nav-toggle__tail')).toBe('up');
    expect(await chevron(nav.getByRole('button', { name: 'المساندة في التدقيق' }), '.nav-toggle__tail')).toBe('down');

    const dropdown = page.locator(`[id="${(await button.getAttribute('aria-controls')) ?? ''}"]`);
    const [item, list] = await Promise.all([
      button.evaluate((b) => b.closest('li')!.getBoundingClientRect().toJSON() as DOMRect),
      dropdown.boundingBox(),
    ]);
    // Its right edges line up with the group's: it hangs from the start edge and grows leftward.
    expect(Math.abs((list?.x ?? 0) + (list?.width ?? 0) - item.right)).toBeLessThanOrEqual(2);

    const iso = nav.getByRole('button', { name: 'تدريبات ISO' });
    expect(await chevron(iso)).toBe('left');
    await iso.hover();
    await expect(iso).toHaveAttribute('aria-expanded', 'true');
    const flyout = page.locator(`[id="${(await iso.getAttribute('aria-controls')) ?? ''}"]`);
    const flyoutBox = await flyout.boundingBox();
    expect((flyoutBox?.x ?? 0) + (flyoutBox?.width ?? 0)).toBeLessThanOrEqual((list?.x ?? 0) + 2);
    expect(flyoutBox?.x ?? -1).toBeGreaterThanOrEqual(0);
    expect(await violations(page)).toEqual([]);

    // English, for comparison: the same chevron points right, toward its flyout.
    await page.goto('/');
    await nav.locator('.nav-list--depth-0 > li .nav-toggle', { hasText: /^Trainings$/ }).hover();
    await expect(nav).toHaveAttribute('data-enhanced', '');
    expect(await chevron(nav.getByRole('button', { name: 'ISO Trainings' }))).toBe('right');
    expect(await chevron(nav.getByRole('button', { name: 'Audit Assistance' }), '.nav-toggle__tail')).toBe('down');
  });

  test('the hero carousel runs right to left: the next slide waits on the left, arrows point the reading way, and it moves', async ({
    page,
  }) => {
    await page.goto('/ar');
    const hero = page.locator('.carousel--hero');
    // The island starts when the visitor reaches for it (a pointer passing over it).
    await hero.dispatchEvent('pointerover');
    await expect(hero).toHaveAttribute('data-ready', 'true');
    const slide = (n: number) => hero.getByRole('group', { name: `${n} من 7`, exact: true });
    const [first, second] = await Promise.all([slide(1).boundingBox(), slide(2).boundingBox()]);
    expect(second?.x ?? 0).toBeLessThan(first?.x ?? 0);

    const previous = hero.getByRole('button', { name: 'الشريحة السابقة' });
    const next = hero.getByRole('button', { name: 'الشريحة التالية' });
    const [previousBox, nextBox] = await Promise.all([previous.boundingBox(), next.boundingBox()]);
    expect(nextBox?.x ?? 0).toBeLessThan(previousBox?.x ?? 0);
    // The icons are drawn for left to right and mirrored here: "next" points left.
    expect(await next.locator('svg').evaluate((svg) => new DOMMatrix(getComputedStyle(svg).transform).a)).toBe(-1);

    // Moving: by itself first (the pointer parked away), then by the "next" button.
    await page.mouse.move(1, 899);
    await expect(hero.locator('.carousel__dot[aria-current="true"]')).not.toHaveAccessibleName('عرض الشريحة 1 من 7', {
      timeout: 15_000,
    });
    const viewport = await hero.locator('.carousel__viewport').boundingBox();
    await hero.getByRole('button', { name: 'إيقاف العرض التلقائي للشرائح' }).click();
    const current = await hero
      .locator('.carousel__dot')
      .evaluateAll((dots) => dots.findIndex((d) => d.getAttribute('aria-current') === 'true'));
    await next.click();
    const after = (current + 1) % 7;
    await expect(hero.locator('.carousel__dot').nth(after)).toHaveAttribute('aria-current', 'true');
    await expect
      .poll(async () => Math.abs(((await slide(after + 1).boundingBox())?.x ?? 0) - (viewport?.x ?? 0)))
      .toBeLessThanOrEqual(1);
  });

  test('the language switch goes to the same page in the other language and back, the forms too', async ({ page }) => {
    await page.goto('/Trainings/OtherTrainings');
    await page.locator('header').getByRole('link', { name: 'العربية' }).click();
    await expect(page).toHaveURL(/\/ar\/Trainings\/OtherTrainings$/);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('h1')).toHaveText('دورات تدريبية أخرى');
    await page.locator('header').getByRole('link', { name: 'English' }).click();
    await expect(page).toHaveURL(/\/Trainings\/OtherTrainings$/);
    await expect(page.locator('h1')).toHaveText('Other Trainings');
    await page.goto('/Partner');
    await page.locator('header').getByRole('link', { name: 'العربية' }).click();
    await expect(page).toHaveURL(/\/ar\/Partner$/);
    await expect(page.locator('h1')).toHaveText(ar['partner.title']);
  });

  test("an Arabic first view asks for no font and is drawn in the system's font; after its load event it fetches Cairo, and the next page is in Cairo from its first paint; nothing shifts on either", async ({
    page,
  }) => {
    await page.goto('/ar/AboutUs');
    await page.waitForLoadState('load');
    const first = await fontView(page);
    expect(first.marked).toBe(false);
    expect(first.fontsBeforeLoad).toEqual([]);
    expect(first.family).not.toContain('Cairo Variable');
    expect(await drawnIn(page, 'h1')).not.toContain('Cairo');
    expect(first.shifts, `${first.shifted.join(', ')} (Cairo Fallback ${first.fallbackFace})`).toBeLessThan(HAIR_SHIFT);
    // After the load event: Cairo's Arabic and Latin files, fetched and remembered.
    await expect.poll(() => remembered(page)).toEqual(['cairo-arabic-wght-normal', 'cairo-latin-wght-normal']);
    await page.goto('/ar/ContactUs');
    await page.waitForLoadState('load');
    const next = await fontView(page);
    expect(next.marked).toBe(true);
    expect(next.family).toMatch(/^"?Cairo Variable"?,/);
    expect(next.arabicFace).toBe('loaded');
    // Drawn in Cairo: a page's first paint waits for a preloaded `optional` font only, so the
    // head script preloads the files it knows are in the cache.
    expect(await inCairoWithin(page, ['/ar/AboutUs', '/ar/Trainings/OtherTrainings'], 'h1')).toBe(true);
    // From the cache: no font crossed the network again.
    expect(next.fontsOverNetwork).toEqual([]);
    expect(next.shifts, next.shifted.join(', ')).toBeLessThan(HAIR_SHIFT);
  });

  test("an English page draws the switch's «العربية» in a face of its letters only once the browser holds it, and never loads Cairo's 31 KB Arabic file", async ({
    page,
  }) => {
    const fonts: string[] = [];
    page.on('request', (request) => {
      if (/\.woff2$/.test(request.url())) fonts.push(new URL(request.url()).pathname);
    });
    await page.goto('/AboutUs');
    await page.waitForLoadState('load');
    const first = await fontView(page);
    expect(first.marked).toBe(false);
    expect(first.fontsBeforeLoad).toEqual([]);
    expect(first.family).toMatch(/^"?Cairo Fallback"?,/);
    expect(first.switchFamily).not.toMatch(/Cairo (Variable|Language Name)/);
    await expect.poll(() => remembered(page)).toEqual(['cairo-language-name', 'cairo-latin-wght-normal']);
    await page.goto('/ContactUs');
    await page.waitForLoadState('load');
    const next = await fontView(page);
    expect(next.marked).toBe(true);
    expect(next.family).toMatch(/^"?Cairo Variable"?,/);
    expect(next.switchFamily).toMatch(/^"?Cairo Language Name"?,/);
    expect(next.nameFace).toBe('loaded');
    expect(next.shifts, next.shifted.join(', ')).toBeLessThan(HAIR_SHIFT);
    expect(await inCairoWithin(page, ['/AboutUs', '/Trainings/OtherTrainings'], 'h1')).toBe(true);
    expect(fonts.filter((font) => /cairo-arabic/.test(font))).toEqual([]);
    expect(fonts.some((font) => /cairo-language-name/.test(font))).toBe(true);
    // The same word on the Arabic page is drawn in Cairo itself.
    await page.goto('/ar/AboutUs');
    const arabicFamily = await page.locator('.site-header__language').evaluate((link) => getComputedStyle(link).fontFamily);
    expect(arabicFamily).not.toContain('Cairo Language Name');
  });
});

/**
 * Known and not yet explained: in a freshly started browser under heavy load, one page view in 25
 * to 50 moved the header's menu items by a hair (layout shifts of 0.0014 to 0.006, the elements
 * named in the message) with no font swapped in. A font swapped in after the first paint moves
 * the page by 0.2 (measured on the home page before font-display: optional): far above this.
 */
const HAIR_SHIFT = 0.01;

/** The fonts the browser drew an element's text with (Chromium's own account, through the DevTools protocol). */
async function drawnIn(page: Page, selector: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((font) => font.familyName);
  } finally {
    await cdp.detach();
  }
}

/**
 * Whether the current page, or failing that one of `paths` opened next (a loaded machine can keep
 * a page from its 100 ms of `optional`), draws `selector` in Cairo.
 */
async function inCairoWithin(page: Page, paths: readonly string[], selector: string): Promise<boolean> {
  for (const path of [undefined, ...paths]) {
    if (path) await page.goto(path);
    const fonts = await drawnIn(page, selector);
    if (fonts.length > 0 && fonts.every((font) => font === 'Cairo')) return true;
  }
  return false;
}

/** The font files the head script remembers having fetched (src/lib/cairo-cache.ts), by name, sorted. */
function remembered(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (localStorage.getItem('globaq-cairo') ?? '')
      .split(' ')
      .filter(Boolean)
      .map((file) => file.replace(/^.*\//, '').replace(/\.[\w-]+\.woff2$/, ''))
      .sort(),
  );
}

/**
 * How a loaded page draws its text, which fonts it asked for and when, and how much moved: read
 * once the fonts its text asked for are in (a face swapped in would move the page as it came)
 * and a frame has been drawn since (a shift is recorded as its frame is drawn).
 */
function fontView(page: Page) {
  return page.evaluate(async () => {
    await document.fonts.ready;
    for (let frame = 0; frame < 2; frame++) await new Promise((resolve) => requestAnimationFrame(resolve));
    const shifted: string[] = [];
    let shifts = 0;
    const observer = new PerformanceObserver(() => {});
    observer.observe({ type: 'layout-shift', buffered: true });
    for (const entry of observer.takeRecords() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
      sources?: { node?: Node | null }[];
    })[]) {
      if (entry.hadRecentInput) continue;
      shifts += entry.value;
      for (const source of entry.sources ?? []) {
        const node = source.node;
        shifted.push(node instanceof Element ? `${node.tagName.toLowerCase()}.${node.className}` : (node?.nodeName ?? '?'));
      }
    }
    observer.disconnect();
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    const fonts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) =>
      entry.name.endsWith('.woff2'),
    );
    const face = (test: (face: FontFace) => boolean) => [...document.fonts].find(test)?.status;
    const link = document.querySelector<HTMLElement>('.site-header__language');
    return {
      marked: document.documentElement.hasAttribute('data-cairo'),
      fontsBeforeLoad: fonts.filter((entry) => entry.startTime < navigation.loadEventStart).map((entry) => entry.name),
      fontsOverNetwork: fonts.filter((entry) => entry.transferSize > 0).map((entry) => entry.name),
      family: getComputedStyle(document.body).fontFamily,
      switchFamily: link ? getComputedStyle(link).fontFamily : '',
      arabicFace: face((candidate) => candidate.family === 'Cairo Variable' && candidate.unicodeRange.includes('U+600-6FF')),
      nameFace: face((candidate) => candidate.family === 'Cairo Language Name'),
      fallbackFace: face((candidate) => candidate.family === 'Cairo Fallback'),
      shifts,
      shifted,
    };
  });
}
