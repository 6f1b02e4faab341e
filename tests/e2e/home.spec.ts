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
 * Each carousel's island (React and embla) starts when the visitor reaches for it, or else once
 * the page has loaded and the browser is idle (client:intent with afterLoad): the server's HTML
 * shows the first slide and every control until then.
 */
import type { Locator, Page } from '@playwright/test';
import { escapeRegExp, expect, test, type SiteLanguage } from './site-locale';
import { LOGO_BREAKPOINTS } from '../../src/lib/carousel';
import { readDataFile } from '../../src/data/data-file';
import { CAROUSELS_FILE, carouselsFileSchema } from '../../src/data/schemas';

const HERO_INTERVAL = 1500;
const CLIENT_INTERVAL = 3000;
const IMAGE_REQUESTS = /\/_astro\/.*\.(avif|webp)$/;
const LOGO_REQUESTS = /\/_astro\/.*\.svg$/;

const hero = (page: Page) => page.locator('.carousel--hero');
const logos = (page: Page) => page.locator('.carousel--logos');
/** The client logos src/data/carousels.yaml lists, however many an editor has left or added. */
const LOGOS = readDataFile(CAROUSELS_FILE, carouselsFileSchema).clients.length;
/** The logo current after `k - 1` steps from the first, round past the last. */
const nth = (k: number) => ((k - 1) % LOGOS) + 1;

/** The fourth hero picture's text alternative (the safety equipment), as src/data/carousels.yaml writes it. */
function safetyPictureAlt(lang: SiteLanguage): string {
  const alt = readDataFile(CAROUSELS_FILE, carouselsFileSchema).hero[3]?.alt;
  if (alt === undefined) throw new Error(`${CAROUSELS_FILE} has no fourth hero picture`);
  return lang.code === 'ar' ? (alt.ar ?? alt.en) : alt.en;
}

async function openHome(page: Page, lang: SiteLanguage) {
  await page.clock.install({ time: new Date('2030-01-01T08:00:00Z') });
  await page.clock.pauseAt(new Date('2030-01-01T08:00:01Z'));
  await page.goto(lang.path('/'));
}

/** Waits, moving the page's clock on, until the carousel's island has started. */
async function hydrate(page: Page, carousel: Locator) {
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
  await expect(carousel.locator('.carousel__dot[aria-current="true"]')).toHaveAccessibleName(
    new RegExp(` ${escapeRegExp(slideLabel(lang, index, count))}$`),
  );
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

test.describe('hero carousel', () => {
  test('the server HTML shows the title, the tagline and the first picture at final size: hydrating moves nothing @rtl', async ({
    page,
    lang,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openHome(page, lang);
    await expect(page.locator('h1')).toContainText(lang.t('home.title'));
    await expect(page.locator('h1')).toContainText(lang.t('site.tagline'));
    const first = slide(lang, hero(page), 1, 7).locator('img');
    await expect(first).toBeVisible();
    await expect(first).toHaveAttribute('fetchpriority', 'high');
    await expect.poll(() => first.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(hero(page)).not.toHaveAttribute('data-ready');

    const watched = [
      'h1',
      '.carousel--hero .carousel__frame',
      '.carousel--hero .carousel__controls',
      '#services-title',
      '.carousel--logos .carousel__frame',
      '#commitment-title',
    ];
    const boxes = async () => Promise.all(watched.map((selector) => page.locator(selector).first().boundingBox()));
    const before = await boxes();
    await hydrate(page, hero(page));
    await hydrate(page, logos(page));
    expect(await boxes()).toEqual(before);
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

  test('previous and next buttons and one dot per image select an image, wrapping both ways; they move the reading way @rtl', async ({
    page,
    lang,
  }) => {
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
      expect(await button.locator('svg').evaluate((svg) => new DOMMatrix(getComputedStyle(svg).transform).a)).toBe(
        lang.dir === 'rtl' ? -1 : 1,
      );
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

  test('keyboard: the rotation control is the first tab stop, and focus entering stops rotation until restarted', async ({
    page,
    lang,
  }) => {
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

  test('keyboard focus that entered before the island started stops rotation once it starts, until the visitor restarts it', async ({
    page,
    lang,
  }) => {
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

/**
 * The logos whose cards are on screen in the carousel's viewport, in reading order (right to
 * left in Arabic): each with its text alternative, whether its picture has loaded, whether the
 * whole card is inside the viewport, and where its card starts (its left edge, the right one in
 * Arabic).
 */
async function logosInView(carousel: Locator) {
  return carousel.evaluate((root) => {
    const view = root.querySelector('.carousel__viewport')?.getBoundingClientRect();
    if (!view) throw new Error('no viewport');
    const rtl = getComputedStyle(root).direction === 'rtl';
    return [...root.querySelectorAll('.carousel__slide')]
      .map((slide) => ({ slide, box: slide.querySelector('.carousel__frame')?.getBoundingClientRect() }))
      .filter(({ box }) => box !== undefined && box.right > view.left + 1 && box.left < view.right - 1)
      .sort((a, b) => (rtl ? (b.box?.right ?? 0) - (a.box?.right ?? 0) : (a.box?.left ?? 0) - (b.box?.left ?? 0)))
      .map(({ slide, box }) => {
        const img = slide.querySelector('img');
        return {
          alt: img?.alt ?? '',
          loaded: img !== null && img.complete && img.naturalWidth > 0,
          inside: box !== undefined && box.left >= view.left - 1 && box.right <= view.right + 1,
          start: Math.round((rtl ? box?.right : box?.left) ?? 0),
        };
      });
  });
}

/** The logos' text alternatives in the carousel's order. */
async function logoNames(carousel: Locator): Promise<string[]> {
  return carousel.locator('.carousel__slide img').evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).alt));
}

/**
 * Asserts the logos in view are the `perView` from the current one on (aria-current), every
 * card whole inside the viewport with its picture loaded: no blank card, nothing half in view.
 */
async function expectLogosInView(lang: SiteLanguage, carousel: Locator, perView: number) {
  const names = await logoNames(carousel);
  const current = await carousel
    .locator('.carousel__dot')
    .evaluateAll((dots) => dots.findIndex((dot) => dot.getAttribute('aria-current') === 'true'));
  const expected = Array.from({ length: perView }, (_, k) => ({
    alt: names[(current + k) % names.length],
    loaded: true,
    inside: true,
  }));
  await expect
    .poll(async () => (await logosInView(carousel)).map(({ alt, loaded, inside }) => ({ alt, loaded, inside })), {
      message: `${lang.code}: logos in view from ${current + 1}`,
    })
    .toEqual(expected);
}

test.describe('client logo carousel', () => {
  test(`advances every 3000 ms through every logo and wraps; previous, next and dots select a logo, the reading way @rtl @content`, async ({
    page,
    lang,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openHome(page, lang);
    await parkPointer(page);
    const carousel = logos(page);
    await carousel.scrollIntoViewIfNeeded();
    await hydrate(page, carousel);
    await expect(carousel.getByRole('group')).toHaveCount(LOGOS);
    await expect(carousel.locator('.carousel__dot')).toHaveCount(LOGOS);
    await expectCurrent(lang, carousel, 1, LOGOS);
    const previous = carousel.getByRole('button', { name: lang.t('home.previousLogo') });
    const next = carousel.getByRole('button', { name: lang.t('home.nextLogo') });
    // The reading way (mirrored in Arabic): "next" ends the row, the second logo follows the first.
    await expectAfter(lang, previous, next);
    await expectAfter(lang, slide(lang, carousel, 1, LOGOS), slide(lang, carousel, 2, LOGOS));

    await page.clock.runFor(CLIENT_INTERVAL - 100);
    await expectStill(page, lang, carousel, 1, LOGOS);
    await page.clock.runFor(100);
    await expectCurrent(lang, carousel, 2, LOGOS);
    for (let step = 3; step <= LOGOS + 1; step++) {
      await page.clock.runFor(CLIENT_INTERVAL);
      await expectCurrent(lang, carousel, nth(step), LOGOS);
      // 3 in view at 1440 px, whatever the number of logos: the current logo is the first of them, the reading way.
      await expectLogosInView(lang, carousel, 3);
    }

    await previous.click();
    await expectCurrent(lang, carousel, LOGOS, LOGOS);
    await expect(slide(lang, carousel, LOGOS, LOGOS)).toBeInViewport({ ratio: 0.95 });
    await expectLogosInView(lang, carousel, 3);
    await next.click();
    await expectCurrent(lang, carousel, 1, LOGOS);
    await carousel.getByRole('button', { name: lang.t('home.goToLogo', { index: 3, count: LOGOS }) }).click();
    await expectCurrent(lang, carousel, 3, LOGOS);
    await expect(slide(lang, carousel, 3, LOGOS)).toBeInViewport({ ratio: 0.95 });
    await expectLogosInView(lang, carousel, 3);
  });

  // LOGO_BREAKPOINTS (src/lib/carousel.ts, and carousel.css): 1 logo below 640 px (phones),
  // 2 from 640 px (tablets), 3 from 1024 px (desktops). Checked on both sides of each breakpoint,
  // after a few steps of the rotation.
  const widths = [
    { width: 390, expected: 1 },
    { width: 639, expected: 1 },
    { width: 640, expected: 2 },
    { width: 768, expected: 2 },
    { width: 1023, expected: 2 },
    { width: 1024, expected: 3 },
    { width: 1440, expected: 3 },
    { width: 639, expected: 1 },
  ];
  test('shows 1 logo on a phone, 2 on a tablet and 3 on a desktop', async ({ page, lang }) => {
    expect(LOGO_BREAKPOINTS.map((b) => b.minWidth)).toEqual([1024, 640, 0]);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openHome(page, lang);
    await parkPointer(page);
    const carousel = logos(page);
    await carousel.scrollIntoViewIfNeeded();
    await hydrate(page, carousel);
    await settle(page);
    for (let step = 0; step < 3; step++) await page.clock.runFor(CLIENT_INTERVAL);
    await expectCurrent(lang, carousel, nth(4), LOGOS);
    for (const { width, expected } of widths) {
      await page.setViewportSize({ width, height: 900 });
      await carousel.scrollIntoViewIfNeeded();
      // Whole cards in view, from the current logo on: the strip is in its place at the new width.
      await expect
        .poll(
          async () => {
            // embla follows a resize from an animation frame, which the fake clock holds.
            await page.clock.runFor(20);
            return (await logosInView(carousel)).filter((logo) => logo.inside).length;
          },
          { message: `${width} px` },
        )
        .toBe(expected);
      await expectLogosInView(lang, carousel, expected);
    }
  });

  test('a logo that fails to load is replaced by "Logo not available"', async ({ page, lang }) => {
    await page.route(LOGO_REQUESTS, (route) => route.abort());
    await openHome(page, lang);
    const carousel = logos(page);
    await carousel.scrollIntoViewIfNeeded();
    await hydrate(page, carousel);
    const unavailable = lang.t('home.logoUnavailable');
    const first = slide(lang, carousel, 1, LOGOS);
    await expect(first.getByText(unavailable)).toBeVisible();
    await expect(first.locator('img')).toHaveCount(0);
    // It fills the logo's card (inside the card's 1 px border).
    const card = await first.locator('.carousel__frame').boundingBox();
    const placeholder = await first.locator('.carousel__fallback').boundingBox();
    expect(placeholder?.width).toBeCloseTo((card?.width ?? 0) - 2, 0);
    expect(placeholder?.height).toBeCloseTo((card?.height ?? 0) - 2, 0);
    // The three on screen at 1440 px all say so.
    for (const index of [2, 3]) await expect(slide(lang, carousel, index, LOGOS).getByText(unavailable)).toBeVisible();
  });
});

test('the floating chat button never covers a carousel control, at any width from 320 px, however far the page is scrolled @rtl', async ({
  page,
  lang,
}) => {
  test.setTimeout(150_000); // some sixty widths, each laid out anew: minutes on a loaded machine
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto(lang.path('/'));
  // Every 20 px, and each side of the breakpoint where the controls stop keeping out of its column.
  const widths = [...Array.from({ length: 57 }, (_, i) => 320 + 20 * i), 767, 768];
  for (const width of widths) {
    await page.setViewportSize({ width, height: 800 });
    // The chat button is fixed: as the page scrolls, it passes over whatever shares its column.
    const under = await page.evaluate(() => {
      const chat = document.querySelector('.chat-link')?.getBoundingClientRect();
      if (!chat) return ['no chat button'];
      return [...document.querySelectorAll<HTMLElement>('.carousel__controls button')]
        .filter((button) => button.checkVisibility())
        .filter((button) => {
          const box = button.getBoundingClientRect();
          return box.right > chat.left && box.left < chat.right;
        })
        .map((button) => button.getAttribute('aria-label') ?? '');
    });
    expect(under, `${width} px`).toEqual([]);
  }
  // And at the top of the page, as it opens on a phone, nothing of the page is under it.
  for (const width of [320, 390]) {
    await page.setViewportSize({ width, height: 844 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const covered = await page.evaluate(() => {
      const chat = document.querySelector('.chat-link')?.getBoundingClientRect();
      if (!chat) return ['no chat button'];
      return [...document.querySelectorAll<HTMLElement>('main a, main button')]
        .filter((control) => control.checkVisibility())
        .filter((control) => {
          const box = control.getBoundingClientRect();
          return box.right > chat.left && box.left < chat.right && box.bottom > chat.top && box.top < chat.bottom;
        })
        .map((control) => control.getAttribute('aria-label') ?? control.textContent ?? '');
    });
    expect(covered, `${width} px`).toEqual([]);
  }
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
      const tops = await buttons.evaluateAll((all) =>
        all.map((button) => Math.round(button.getBoundingClientRect().top + button.getBoundingClientRect().height / 2)),
      );
      expect(new Set(tops).size, `${width} px`).toBe(1);
    }
  }
});

test("no script before the load event: the hero's island starts by itself after it, and rotates", async ({ page, lang }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.mouse.move(2, 840);
  await page.goto(lang.path('/'));
  // Started without the visitor: it rotates (docs/requirements.md §4).
  await expect(hero(page)).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  const first = await hero(page).locator('.carousel__dot[aria-current="true"]').getAttribute('aria-label');
  await expect
    .poll(() => hero(page).locator('.carousel__dot[aria-current="true"]').getAttribute('aria-label'), { timeout: 10_000 })
    .not.toBe(first);
  // No script at all is asked for before the load event: the island's come after it.
  const timing = await page.evaluate(() => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    return {
      loaded: navigation?.loadEventStart ?? 0,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\.m?js(?:$|\?)/.test(entry.name))
        .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
    };
  });
  expect(timing.scripts.some((script) => ISLAND_SCRIPTS.test(script.path))).toBe(true);
  expect(timing.scripts.filter((script) => script.start < timing.loaded)).toEqual([]);
});
