/**
 * Home page carousels (docs/requirements.md §4, §11.3, §12), in each language: the
 * English home page and its Arabic twin at /ar, whose carousels run right to left (the next
 * slide waits on the left, and "next" is the row's left end). Every label is the language's own
 * (lang.t, the dictionaries the page hands the island). The island fills the slide numbers into
 * its templates as they are (fillTemplate), so the labels carry the same digits in both
 * languages, and lang.t fills them the same way.
 *
 * Time is Playwright's fake clock, paused from the start: nothing hydrates or rotates until a
 * test advances it with `runFor`, so the 1500 ms and 3000 ms intervals are checked exactly and
 * a loaded machine cannot make the tests flaky.
 *
 * The hero's island (React and embla) starts only when the visitor reaches for it; until then
 * the page's small script (src/scripts/carousel-rotation.ts) rotates the server's HTML, and the
 * island takes over where it left off.
 */
import type { Locator, Page } from '@playwright/test';
import { escapeRegExp, expect, test, type SiteLanguage } from './site-locale';
import { LOGO_BREAKPOINTS } from '../../src/lib/carousel';
import { heroAlts as arabicHeroAlts } from '../../src/data/ar/carousels';

const HERO_INTERVAL = 1500;
const CLIENT_INTERVAL = 3000;
const IMAGE_REQUESTS = /\/_astro\/.*\.(avif|webp)$/;
const LOGO_REQUESTS = /\/_astro\/.*\.svg$/;

const hero = (page: Page) => page.locator('.carousel--hero');
const logos = (page: Page) => page.locator('.carousel--logos');

/**
 * The fourth hero picture's text alternative (the safety equipment). The Arabic ones are
 * src/data/ar/carousels.ts; the English ones sit beside the pictures' imports in
 * src/data/carousels.ts, which Playwright cannot load, so English is matched by its words.
 */
function safetyPictureAlt(lang: SiteLanguage): string | RegExp {
  if (lang.code !== 'ar') return /safety equipment/;
  const alt = arabicHeroAlts[3];
  if (alt === undefined) throw new Error('src/data/ar/carousels.ts has no fourth hero alternative');
  return alt;
}

async function openHome(page: Page, lang: SiteLanguage) {
  await page.clock.install({ time: new Date('2030-01-01T08:00:00Z') });
  await page.clock.pauseAt(new Date('2030-01-01T08:00:01Z'));
  await page.goto(lang.path('/'));
}

/**
 * Starts the island and lets the fake clock run in small steps until it has hydrated. The hero
 * starts when the visitor reaches for it: a pointer moving over it (sent as the event alone, so
 * the pointer itself stays where the test put it).
 */
async function hydrate(page: Page, carousel: Locator) {
  if ((await carousel.getAttribute('data-interval')) !== null) await carousel.dispatchEvent('pointerover');
  await expect
    .poll(
      async () => {
        await page.clock.runFor(10);
        return carousel.getAttribute('data-ready');
      },
      { timeout: 30_000, intervals: [50] },
    )
    .toBe('true');
}

/** Keeps the pointer away from the carousels (rotation stops while it is over one). */
async function parkPointer(page: Page) {
  await page.mouse.move(2, (page.viewportSize()?.height ?? 800) - 2);
}


/** A slide's name, "{index} of {count}" in the language: each dot's name ends with it. */
const slideLabel = (lang: SiteLanguage, index: number, count: number) => lang.t('carousel.slideLabel', { index, count });

/** The slide the carousel says is current: its dot is aria-current. */
async function expectCurrent(lang: SiteLanguage, carousel: Locator, index: number, count: number) {
  await expect(carousel.locator('.carousel__dot[aria-current="true"]')).toHaveAccessibleName(new RegExp(` ${escapeRegExp(slideLabel(lang, index, count))}$`));
}

/**
 * Asserts nothing changed. A change the timers already asked for would be rendered by now, after
 * two turns of the page's own task queue (a MessageChannel, which the paused fake clock does not
 * hold back, and which is what the island's runtime schedules its rendering on).
 */
async function expectStill(page: Page, lang: SiteLanguage, carousel: Locator, index: number, count: number) {
  await settle(page);
  await expectCurrent(lang, carousel, index, count);
}

/**
 * Two turns of the page's task queue: the effects of the last render (the island's runtime
 * schedules them on a MessageChannel, which the paused fake clock does not hold back) have run,
 * so a timer they start exists before the clock is moved on.
 */
async function settle(page: Page) {
  for (let turn = 0; turn < 2; turn++) {
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve();
          channel.port2.postMessage(null);
        }),
    );
  }
}

function slide(lang: SiteLanguage, carousel: Locator, index: number, count: number) {
  return carousel.getByRole('group', { name: slideLabel(lang, index, count), exact: true });
}

/** The left edge of an element on screen. */
async function left(locator: Locator): Promise<number> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box.x;
}

/**
 * Asserts `later` lies after `earlier` the reading way: to its right in English, to its left in
 * Arabic (right to left).
 */
async function expectAfter(lang: SiteLanguage, earlier: Locator, later: Locator) {
  const [from, to] = await Promise.all([left(earlier), left(later)]);
  if (lang.dir === 'rtl') expect(to).toBeLessThan(from);
  else expect(to).toBeGreaterThan(from);
}

const ISLAND_SCRIPTS = /\/_astro\/(Carousel|client)\.[\w-]+\.js$/;

test.describe('hero carousel before its island starts', () => {
  test('rotates every 1500 ms from the load event without the island, wraps, and the island takes over the slide shown', async ({ page, lang }) => {
    const islandRequests: string[] = [];
    page.on('request', (request) => {
      if (ISLAND_SCRIPTS.test(request.url())) islandRequests.push(request.url());
    });
    await openHome(page, lang);
    await parkPointer(page);
    await expectCurrent(lang, hero(page), 1, 7);
    await page.clock.runFor(HERO_INTERVAL - 100);
    await expectCurrent(lang, hero(page), 1, 7);
    await page.clock.runFor(100);
    await expectCurrent(lang, hero(page), 2, 7);
    await page.clock.runFor(600);
    await expect(slide(lang, hero(page), 2, 7)).toBeInViewport({ ratio: 0.95 });
    for (let index = 3; index <= 7; index += 1) {
      await page.clock.runFor(HERO_INTERVAL);
      await expectCurrent(lang, hero(page), index, 7);
    }
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, hero(page), 1, 7);
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, hero(page), 2, 7);
    await page.clock.runFor(700);
    await expect(slide(lang, hero(page), 2, 7)).toBeInViewport({ ratio: 0.95 });
    // The next picture was fetched before it slid in.
    await expect(slide(lang, hero(page), 3, 7).locator('img')).toHaveAttribute('loading', 'eager');
    expect(islandRequests).toEqual([]);
    await expect(hero(page)).not.toHaveAttribute('data-ready');

    await hydrate(page, hero(page));
    expect(islandRequests.length).toBeGreaterThan(0);
    await expectCurrent(lang, hero(page), 2, 7);
    await expect(slide(lang, hero(page), 2, 7)).toBeInViewport({ ratio: 0.95 });
    await settle(page);
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, hero(page), 3, 7);
  });

  test('the rotation control, previous, next and the dots work before the island, and the island starts as the visitor left it', async ({ page, lang }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openHome(page, lang);
    await parkPointer(page);
    const carousel = hero(page);
    // Clicks alone (a tap that lands before the island has loaded), without moving the pointer.
    const rotation = carousel.locator('.carousel__rotation');
    await expect(rotation).toHaveAccessibleName(lang.t('carousel.stopRotation'));
    await rotation.dispatchEvent('click');
    await expect(rotation).toHaveAccessibleName(lang.t('carousel.startRotation'));
    await expect(rotation.locator('.carousel__icon--play')).toBeVisible();
    await expect(rotation.locator('.carousel__icon--pause')).toBeHidden();
    await page.clock.runFor(HERO_INTERVAL * 3);
    await expectCurrent(lang, carousel, 1, 7);

    await carousel.getByRole('button', { name: lang.t('carousel.previousSlide') }).dispatchEvent('click');
    await expectCurrent(lang, carousel, 7, 7);
    await expect(slide(lang, carousel, 7, 7)).toBeInViewport({ ratio: 0.95 });
    await carousel.getByRole('button', { name: lang.t('carousel.nextSlide') }).dispatchEvent('click');
    await expectCurrent(lang, carousel, 1, 7);
    await carousel.getByRole('button', { name: lang.t('carousel.goToSlide', { index: 4, count: 7 }) }).dispatchEvent('click');
    await expectCurrent(lang, carousel, 4, 7);
    await expect(slide(lang, carousel, 4, 7)).toBeInViewport({ ratio: 0.95 });

    await hydrate(page, carousel);
    await expectCurrent(lang, carousel, 4, 7);
    await expect(slide(lang, carousel, 4, 7)).toBeInViewport({ ratio: 0.95 });
    await expect(rotation).toHaveAccessibleName(lang.t('carousel.startRotation'));
    await settle(page);
    await page.clock.runFor(HERO_INTERVAL * 3);
    await expectStill(page, lang, carousel, 4, 7);
    await rotation.click();
    await expect(rotation).toHaveAccessibleName(lang.t('carousel.stopRotation'));
    await expect(rotation.locator('.carousel__icon--pause')).toBeVisible();
    await parkPointer(page);
    await settle(page);
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, carousel, 5, 7);
  });

  test('holds while the pointer is over it', async ({ page, lang }) => {
    await openHome(page, lang);
    const carousel = hero(page);
    // The island is kept from starting, so what holds the carousel still is the script before it.
    await page.route(ISLAND_SCRIPTS, () => {});
    await carousel.locator('.carousel__viewport').hover();
    await page.clock.runFor(HERO_INTERVAL * 3);
    await expectCurrent(lang, carousel, 1, 7);
    await parkPointer(page);
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, carousel, 2, 7);
    await expect(carousel).not.toHaveAttribute('data-ready');
  });
});

test.describe('hero carousel', () => {
  test('the server HTML shows the title, the tagline and the first picture at final size: hydrating moves nothing', async ({ page, lang }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openHome(page, lang);
    await expect(page.locator('h1')).toContainText(lang.t('home.title'));
    await expect(page.locator('h1')).toContainText(lang.t('site.tagline'));
    const first = slide(lang, hero(page), 1, 7).locator('img');
    await expect(first).toBeVisible();
    await expect(first).toHaveAttribute('fetchpriority', 'high');
    await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(hero(page)).not.toHaveAttribute('data-ready');

    const watched = ['h1', '.carousel--hero .carousel__frame', '.carousel--hero .carousel__controls', '#services-title', '.carousel--logos .carousel__frame', '#commitment-title'];
    const boxes = async () => Promise.all(watched.map((selector) => page.locator(selector).first().boundingBox()));
    const before = await boxes();
    await hydrate(page, hero(page));
    expect(await boxes()).toEqual(before);

    // The logos hydrate when they scroll into view: measure them relative to the document.
    const logoFrame = page.locator('.carousel--logos .carousel__frame').first();
    const documentBox = async () => {
      const box = await logoFrame.boundingBox();
      const scrollY = await page.evaluate(() => window.scrollY);
      return box && { ...box, y: box.y + scrollY };
    };
    const logoBefore = await documentBox();
    await expect(logos(page)).not.toHaveAttribute('data-ready');
    await logos(page).scrollIntoViewIfNeeded();
    await expect(logos(page)).toHaveAttribute('data-ready', 'true');
    expect(await documentBox()).toEqual(logoBefore);
  });

  test('advances on its own every 1500 ms and wraps from the last image to the first', async ({ page, lang }) => {
    await openHome(page, lang);
    await parkPointer(page);
    await hydrate(page, hero(page));
    await expectCurrent(lang, hero(page), 1, 7);
    await page.clock.runFor(HERO_INTERVAL - 100);
    await expectStill(page, lang, hero(page), 1, 7);
    await page.clock.runFor(100);
    await expectCurrent(lang, hero(page), 2, 7);
    for (let index = 3; index <= 7; index += 1) {
      await page.clock.runFor(HERO_INTERVAL);
      await expectCurrent(lang, hero(page), index, 7);
    }
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, hero(page), 1, 7);
    // And the picture on screen is the current one once the slide has moved in.
    await page.clock.runFor(700);
    await expect(slide(lang, hero(page), 1, 7)).toBeInViewport({ ratio: 0.95 });
  });

  test('previous and next buttons and one dot per image select an image, wrapping both ways; they move the reading way', async ({ page, lang }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openHome(page, lang);
    await hydrate(page, hero(page));
    const carousel = hero(page);
    await expect(carousel.locator('.carousel__dot')).toHaveCount(7);
    await expect(carousel.getByRole('group')).toHaveCount(7);
    const previous = carousel.getByRole('button', { name: lang.t('carousel.previousSlide') });
    const next = carousel.getByRole('button', { name: lang.t('carousel.nextSlide') });

    // The reading way (mirrored in Arabic): "next" ends the row, the next slide waits beyond the
    // current one, and the arrows, drawn left to right, are turned round right to left.
    await expectAfter(lang, previous, next);
    await expectAfter(lang, slide(lang, carousel, 1, 7), slide(lang, carousel, 2, 7));
    for (const button of [previous, next]) {
      expect(await button.locator('svg').evaluate((svg) => new DOMMatrix(getComputedStyle(svg).transform).a)).toBe(lang.dir === 'rtl' ? -1 : 1);
    }

    await next.click();
    await expectCurrent(lang, carousel, 2, 7);
    await expect(slide(lang, carousel, 2, 7)).toBeInViewport({ ratio: 0.95 });
    await previous.click();
    await expectCurrent(lang, carousel, 1, 7);
    await previous.click();
    await expectCurrent(lang, carousel, 7, 7);
    await expect(slide(lang, carousel, 7, 7)).toBeInViewport({ ratio: 0.95 });
    await next.click();
    await expectCurrent(lang, carousel, 1, 7);
    await carousel.getByRole('button', { name: lang.t('carousel.goToSlide', { index: 4, count: 7 }) }).click();
    await expectCurrent(lang, carousel, 4, 7);
    await expect(slide(lang, carousel, 4, 7)).toBeInViewport({ ratio: 0.95 });
    await expect(slide(lang, carousel, 4, 7).locator('img')).toHaveAttribute('alt', safetyPictureAlt(lang));
  });

  test('the rotation control stops and restarts rotation', async ({ page, lang }) => {
    await openHome(page, lang);
    await hydrate(page, hero(page));
    const carousel = hero(page);
    await carousel.getByRole('button', { name: lang.t('carousel.stopRotation') }).click();
    await expect(carousel.locator('.carousel__rotation')).toHaveAccessibleName(lang.t('carousel.startRotation'));
    await parkPointer(page);
    await page.clock.runFor(HERO_INTERVAL * 3);
    await expectStill(page, lang, carousel, 1, 7);

    await carousel.getByRole('button', { name: lang.t('carousel.startRotation') }).click();
    await parkPointer(page);
    await settle(page);
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, carousel, 2, 7);
  });

  test('rotation stops while the pointer is over the carousel and resumes when it leaves', async ({ page, lang }) => {
    await openHome(page, lang);
    await hydrate(page, hero(page));
    const carousel = hero(page);
    await carousel.locator('.carousel__viewport').hover();
    await page.clock.runFor(HERO_INTERVAL * 3);
    await expectStill(page, lang, carousel, 1, 7);
    // The control still offers to stop: the visitor did not stop it, the pointer only pauses it.
    await expect(carousel.locator('.carousel__rotation')).toHaveAccessibleName(lang.t('carousel.stopRotation'));
    await parkPointer(page);
    await settle(page);
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, carousel, 2, 7);
  });

  test('keyboard: the rotation control is the first tab stop, and focus entering stops rotation until restarted', async ({ page, lang }) => {
    await openHome(page, lang);
    await parkPointer(page);
    await hydrate(page, hero(page));
    const carousel = hero(page);
    await page.locator('.hero__actions a').last().focus();
    await page.keyboard.press('Tab');
    const rotation = carousel.locator('.carousel__rotation');
    await expect(rotation).toBeFocused();
    await expect(rotation).toHaveAccessibleName(lang.t('carousel.startRotation'));
    await page.clock.runFor(HERO_INTERVAL * 3);
    await expectStill(page, lang, carousel, 1, 7);

    // Moving on through the controls: previous, the dots, next (the document's order, in Arabic too).
    await page.keyboard.press('Tab');
    await expect(carousel.getByRole('button', { name: lang.t('carousel.previousSlide') })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(carousel.getByRole('button', { name: lang.t('carousel.goToSlide', { index: 1, count: 7 }) })).toBeFocused();
    await page.keyboard.press('Enter');

    // Leaving the carousel does not restart it; only the rotation control does.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(rotation).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(rotation).toHaveAccessibleName(lang.t('carousel.stopRotation'));
    // The rotation's timer starts in an effect of that render: let it run before the clock moves.
    await settle(page);
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, carousel, 2, 7);
  });

  test('keyboard focus that entered before the island started stops rotation once it starts, until the visitor restarts it', async ({ page, lang }) => {
    await openHome(page, lang);
    await parkPointer(page);
    const carousel = hero(page);
    // The visitor tabs into the carousel while the page is still loading its script.
    await page.locator('.hero__actions a').last().focus();
    await page.keyboard.press('Tab');
    await expect(carousel.locator('.carousel__rotation')).toBeFocused();
    await hydrate(page, carousel);
    await expect(carousel.locator('.carousel__rotation')).toHaveAccessibleName(lang.t('carousel.startRotation'));
    await settle(page);
    await page.clock.runFor(HERO_INTERVAL * 3);
    await expectStill(page, lang, carousel, 1, 7);
  });

  test('a pointer resting on the carousel before the island started holds it still once it starts', async ({ page, lang }) => {
    await openHome(page, lang);
    const carousel = hero(page);
    await carousel.locator('.carousel__viewport').hover();
    await hydrate(page, carousel);
    await settle(page);
    await page.clock.runFor(HERO_INTERVAL * 3);
    await expectStill(page, lang, carousel, 1, 7);
    await parkPointer(page);
    await settle(page);
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, carousel, 2, 7);
  });

  test('with prefers-reduced-motion, slides change without animation', async ({ page, lang }) => {
    await openHome(page, lang);
    await hydrate(page, hero(page));
    const carousel = hero(page);
    const next = carousel.getByRole('button', { name: lang.t('carousel.nextSlide') });
    // With motion: the next slide glides in over animation frames (paused with the clock).
    await next.click();
    await expectCurrent(lang, carousel, 2, 7);
    await expect(slide(lang, carousel, 1, 7)).toBeInViewport({ ratio: 0.9 });
    await page.clock.runFor(1000);
    await expect(slide(lang, carousel, 2, 7)).toBeInViewport({ ratio: 0.95 });

    // Reduced motion: the slide is in place at once, with no frame run.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await next.click();
    await expectCurrent(lang, carousel, 3, 7);
    await expect(slide(lang, carousel, 3, 7)).toBeInViewport({ ratio: 0.95 });
  });

  test('a picture that fails to load is replaced by "Image not available", in its place and size', async ({ page, lang }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.route(IMAGE_REQUESTS, (route) => route.abort());
    await openHome(page, lang);
    await hydrate(page, hero(page));
    const carousel = hero(page);
    const unavailable = lang.t('home.imageUnavailable');
    const first = slide(lang, carousel, 1, 7);
    await expect(first.getByText(unavailable)).toBeVisible();
    await expect(first.locator('img')).toHaveCount(0);
    const frame = await first.locator('.carousel__frame').boundingBox();
    const placeholder = await first.locator('.carousel__fallback').boundingBox();
    expect(placeholder).toEqual(frame);
    // 3:2, the pictures' own shape.
    expect(Math.abs((frame?.width ?? 0) / (frame?.height ?? 1) - 1.5)).toBeLessThan(0.01);

    // A later picture fails when it is fetched, and gets the same placeholder.
    await carousel.getByRole('button', { name: lang.t('carousel.goToSlide', { index: 5, count: 7 }) }).click();
    await expect(slide(lang, carousel, 5, 7).getByText(unavailable)).toBeVisible();
  });
});

test.describe('client logo carousel', () => {
  test('advances every 3000 ms and wraps; previous, next and dots select a logo, the reading way', async ({ page, lang }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openHome(page, lang);
    await parkPointer(page);
    const carousel = logos(page);
    await carousel.scrollIntoViewIfNeeded();
    await expect(carousel).toHaveAttribute('data-ready', 'true');
    await expect(carousel.getByRole('group')).toHaveCount(5);
    await expect(carousel.locator('.carousel__dot')).toHaveCount(5);
    await expectCurrent(lang, carousel, 1, 5);
    const previous = carousel.getByRole('button', { name: lang.t('home.previousLogo') });
    const next = carousel.getByRole('button', { name: lang.t('home.nextLogo') });
    // The reading way (mirrored in Arabic): "next" ends the row, the second logo follows the first.
    await expectAfter(lang, previous, next);
    await expectAfter(lang, slide(lang, carousel, 1, 5), slide(lang, carousel, 2, 5));

    await page.clock.runFor(CLIENT_INTERVAL - 100);
    await expectStill(page, lang, carousel, 1, 5);
    await page.clock.runFor(100);
    await expectCurrent(lang, carousel, 2, 5);
    for (const index of [3, 4, 5, 1]) {
      await page.clock.runFor(CLIENT_INTERVAL);
      await expectCurrent(lang, carousel, index, 5);
    }

    await previous.click();
    await expectCurrent(lang, carousel, 5, 5);
    await expect(slide(lang, carousel, 5, 5)).toBeInViewport({ ratio: 0.95 });
    await next.click();
    await expectCurrent(lang, carousel, 1, 5);
    await carousel.getByRole('button', { name: lang.t('home.goToLogo', { index: 3, count: 5 }) }).click();
    await expectCurrent(lang, carousel, 3, 5);
    await expect(slide(lang, carousel, 3, 5)).toBeInViewport({ ratio: 0.95 });
  });

  // LOGO_BREAKPOINTS (src/lib/carousel.ts, and carousel.css): 1 logo below 640 px (phones),
  // 2 from 640 px (tablets), 3 from 1024 px (desktops). Checked on both sides of each breakpoint.
  const widths = [
    { width: 390, expected: 1 },
    { width: 639, expected: 1 },
    { width: 640, expected: 2 },
    { width: 768, expected: 2 },
    { width: 1023, expected: 2 },
    { width: 1024, expected: 3 },
    { width: 1440, expected: 3 },
  ];
  test('shows 1 logo on a phone, 2 on a tablet and 3 on a desktop', async ({ page, lang }) => {
    expect(LOGO_BREAKPOINTS.map((b) => b.minWidth)).toEqual([1024, 640, 0]);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openHome(page, lang);
    const carousel = logos(page);
    await carousel.scrollIntoViewIfNeeded();
    await expect(carousel).toHaveAttribute('data-ready', 'true');
    for (const { width, expected } of widths) {
      await page.setViewportSize({ width, height: 900 });
      await carousel.scrollIntoViewIfNeeded();
      await expect
        .poll(
          () =>
            carousel.evaluate((root) => {
              const view = root.querySelector('.carousel__viewport')?.getBoundingClientRect();
              if (!view) return -1;
              return [...root.querySelectorAll('.carousel__frame')].filter((el) => {
                const box = el.getBoundingClientRect();
                return box.width > 0 && box.left >= view.left - 1 && box.right <= view.right + 1;
              }).length;
            }),
          { message: `${width} px` },
        )
        .toBe(expected);
    }
  });

  test('a logo that fails to load is replaced by "Logo not available"', async ({ page, lang }) => {
    await page.route(LOGO_REQUESTS, (route) => route.abort());
    await openHome(page, lang);
    const carousel = logos(page);
    await carousel.scrollIntoViewIfNeeded();
    await expect(carousel).toHaveAttribute('data-ready', 'true');
    const unavailable = lang.t('home.logoUnavailable');
    const first = slide(lang, carousel, 1, 5);
    await expect(first.getByText(unavailable)).toBeVisible();
    await expect(first.locator('img')).toHaveCount(0);
    // It fills the logo's card (inside the card's 1 px border).
    const card = await first.locator('.carousel__frame').boundingBox();
    const placeholder = await first.locator('.carousel__fallback').boundingBox();
    expect(placeholder?.width).toBeCloseTo((card?.width ?? 0) - 2, 0);
    expect(placeholder?.height).toBeCloseTo((card?.height ?? 0) - 2, 0);
    // The three on screen at 1440 px all say so.
    for (const index of [2, 3]) await expect(slide(lang, carousel, index, 5).getByText(unavailable)).toBeVisible();
  });
});

test('every carousel control is at least 24 x 24 px, and the rotation control comes first', async ({ page, lang }) => {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(lang.path('/'));
    for (const carousel of [hero(page), logos(page)]) {
      const buttons = carousel.getByRole('button');
      await expect(buttons.first()).toHaveClass(/carousel__rotation/);
      for (const button of await buttons.all()) {
        const box = await button.boundingBox();
        expect(box?.width, `${width} px`).toBeGreaterThanOrEqual(24);
        expect(box?.height, `${width} px`).toBeGreaterThanOrEqual(24);
      }
      // All the controls share one row, from a 390 px phone up.
      const tops = await buttons.evaluateAll((all) => all.map((button) => Math.round(button.getBoundingClientRect().top + button.getBoundingClientRect().height / 2)));
      expect(new Set(tops).size, `${width} px`).toBe(1);
    }
  }
});

test('before interaction the page runs no island: the hero rotates by itself without React, and no island script is asked for until the visitor reaches for it', async ({ page, lang }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.mouse.move(2, 840);
  const islandRequests: string[] = [];
  page.on('request', (request) => {
    if (ISLAND_SCRIPTS.test(request.url())) islandRequests.push(request.url());
  });
  await page.goto(lang.path('/'));
  // Started without the visitor: it rotates (docs/requirements.md §4).
  const first = await hero(page).locator('.carousel__dot[aria-current="true"]').getAttribute('aria-label');
  await expect.poll(() => hero(page).locator('.carousel__dot[aria-current="true"]').getAttribute('aria-label'), { timeout: 10_000 }).not.toBe(first);
  expect(islandRequests).toEqual([]);
  await expect(hero(page)).not.toHaveAttribute('data-ready');
  // The scripts asked for before the load event are the page's own small ones: no island among them.
  const early = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const loaded = navigation?.loadEventEnd ?? 0;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => /\.m?js(?:$|\?)/.test(entry.name) && entry.startTime < loaded)
      .map((entry) => new URL(entry.name).pathname);
  });
  expect(early.filter((file) => ISLAND_SCRIPTS.test(file))).toEqual([]);
  // Reaching for it starts the island.
  await hero(page).locator('.carousel__viewport').hover();
  await expect(hero(page)).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  expect(islandRequests.length).toBeGreaterThan(0);
});
