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
 * Each carousel's island (React and embla) starts only when the visitor reaches for it; until
 * then the page's small script (src/scripts/carousel-rotation.ts) rotates the server's HTML, and
 * the island takes over where it left off.
 */
import type { Locator, Page } from '@playwright/test';
import { escapeRegExp, expect, test, type SiteLanguage } from './site-locale';
import { LOGO_BREAKPOINTS } from '../../src/lib/carousel';
import { readDataFile } from '../../src/data/data-file';
import { CAROUSELS_FILE, carouselsFileSchema } from '../../src/data/schemas';
import { requestsSeen } from './requests-seen';

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

async function openHome(page: Page, lang: SiteLanguage, { rotating = true } = {}) {
  await page.clock.install({ time: new Date('2030-01-01T08:00:00Z') });
  await page.clock.pauseAt(new Date('2030-01-01T08:00:01Z'));
  await page.goto(lang.path('/'));
  // The rotation's script is asked for once the hero's first picture is drawn (the browser's
  // largest-paint entry, which the paused clock does not hold back): it has run when it marks
  // the carousels. A page whose first picture fails is never drawn so: `rotating: false`.
  if (rotating) await expect(hero(page)).toHaveAttribute('data-rotating', '', { timeout: 15_000 });
}

/** The home page's own script (the rotation before the islands), as built. */
const ROTATION_SCRIPT = /\/_astro\/HomePage\.astro_astro_type_script[\w.-]*\.js$/;

/**
 * Starts the island and lets the fake clock run in small steps until it has hydrated. A carousel
 * starts when the visitor reaches for it: a pointer moving over it (sent as the event alone, so
 * the pointer itself stays where the test put it).
 */
async function hydrate(page: Page, carousel: Locator) {
  if ((await carousel.getAttribute('data-interval')) !== null) await carousel.dispatchEvent('pointerover');
  await islandStarted(page, carousel);
}

/** Waits, moving the page's clock on, until the carousel's island has started. */
async function islandStarted(page: Page, carousel: Locator) {
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

test.describe('hero carousel before its island starts', () => {
  test('rotates every 1500 ms from the load event without the island, wraps, and the island takes over the slide shown @rtl', async ({
    page,
    lang,
  }) => {
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

  test('the rotation control, previous, next and the dots work before the island, and the island starts as the visitor left it', async ({
    page,
    lang,
  }) => {
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

  test("a press on a control before the rotation's script has arrived is not lost: it takes effect when the script runs", async ({
    page,
    lang,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.clock.install({ time: new Date('2030-01-01T08:00:00Z') });
    await page.clock.pauseAt(new Date('2030-01-01T08:00:01Z'));
    // The rotation's script and the island are held back: a slow connection in the first moments.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const asked: string[] = [];
    await page.route(ROTATION_SCRIPT, async (route) => {
      asked.push(route.request().url());
      await held;
      await route.continue();
    });
    await page.route(ISLAND_SCRIPTS, () => {});
    await page.goto(lang.path('/'));
    await parkPointer(page);
    const carousel = hero(page);
    const rotation = carousel.locator('.carousel__rotation');
    await rotation.dispatchEvent('click');
    await expect.poll(() => asked.length).toBe(1);
    await expect(rotation).toHaveAccessibleName(lang.t('carousel.stopRotation'));
    await expect(carousel).not.toHaveAttribute('data-rotating');

    release();
    await expect(rotation).toHaveAccessibleName(lang.t('carousel.startRotation'));
    await expect(carousel).toHaveAttribute('data-stopped', 'true');
    await page.clock.runFor(HERO_INTERVAL * 3);
    await expectStill(page, lang, carousel, 1, 7);
    expect(asked).toHaveLength(1);
  });

  test("an island started before the rotation's script arrives is left to itself by the script", async ({ page, lang }) => {
    await page.clock.install({ time: new Date('2030-01-01T08:00:00Z') });
    await page.clock.pauseAt(new Date('2030-01-01T08:00:01Z'));
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived = false;
    await page.route(ROTATION_SCRIPT, async (route) => {
      await held;
      await route.continue();
      arrived = true;
    });
    await page.goto(lang.path('/'));
    await parkPointer(page);
    const carousel = hero(page);
    await hydrate(page, carousel);
    release();
    await expect.poll(() => arrived).toBe(true);
    await settle(page);
    await expect(carousel).not.toHaveAttribute('data-rotating');
    // One step an interval: embla's, and nothing of the script's on top.
    await expectCurrent(lang, carousel, 1, 7);
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, carousel, 2, 7);
    await page.clock.runFor(HERO_INTERVAL);
    await expectCurrent(lang, carousel, 3, 7);
    await expect(carousel).not.toHaveAttribute('data-rotating');
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
    expect(await boxes()).toEqual(before);

    // The logos hydrate when the visitor reaches for them, not when they scroll into view:
    // measure them relative to the document.
    const logoFrame = page.locator('.carousel--logos .carousel__frame').first();
    const documentBox = async () => {
      const box = await logoFrame.boundingBox();
      const scrollY = await page.evaluate(() => window.scrollY);
      return box && { ...box, y: box.y + scrollY };
    };
    const logoBefore = await documentBox();
    await logos(page).scrollIntoViewIfNeeded();
    await settle(page);
    await expect(logos(page)).not.toHaveAttribute('data-ready');
    expect(await documentBox()).toEqual(logoBefore);
    await hydrate(page, logos(page));
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
    await openHome(page, lang, { rotating: false });
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

/** The strip has stopped gliding (the rotation before the island animates it with CSS, in real time). */
async function glided(carousel: Locator) {
  await expect.poll(() => carousel.locator('.carousel__slides').evaluate((strip) => strip.getAnimations().length)).toBe(0);
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
  for (const mode of ['before its island', 'island'] as const) {
    test(`${mode}: advances every 3000 ms through every logo and wraps; previous, next and dots select a logo, the reading way @rtl @content`, async ({
      page,
      lang,
    }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      // Before its island: the island's scripts never arrive, whatever the pointer does.
      if (mode === 'before its island') await page.route(ISLAND_SCRIPTS, () => {});
      await openHome(page, lang);
      await parkPointer(page);
      const carousel = logos(page);
      await carousel.scrollIntoViewIfNeeded();
      if (mode === 'island') await hydrate(page, carousel);
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
      if (mode === 'before its island') await expect(carousel).not.toHaveAttribute('data-ready');
    });
  }

  test('scrolling down to the logos asks for no island script: they rotate without React, and no logo is fetched while they are far below the fold', async ({
    page,
    lang,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await openHome(page, lang);
    await parkPointer(page);
    const carousel = logos(page);
    // The island's own scripts: its component and its renderer (React DOM's client), and the
    // chunks of the carousel and React they import.
    const islandUrls = await carousel.evaluate((root) => {
      const island = root.closest('astro-island');
      return [island?.getAttribute('component-url'), island?.getAttribute('renderer-url')];
    });
    expect(islandUrls.every((url) => typeof url === 'string' && url.startsWith('/_astro/'))).toBe(true);
    const logoUrls = await carousel
      .locator('img')
      .evaluateAll((imgs) =>
        imgs.map((img) => new URL((img as HTMLImageElement).getAttribute('src') ?? '', document.baseURI).pathname),
      );
    expect(new Set(logoUrls).size).toBe(LOGOS);
    const islandScripts = () => requests.filter((path) => islandUrls.includes(path) || ISLAND_SCRIPTS.test(path));
    const logoPictures = () => requests.filter((path) => logoUrls.includes(path));

    // Loaded, and rotating for a while, far above the logos: none of their pictures is fetched.
    await page.clock.runFor(CLIENT_INTERVAL * 2);
    expect(logoPictures()).toEqual([]);
    await expectCurrent(lang, carousel, nth(3), LOGOS);

    await carousel.scrollIntoViewIfNeeded();
    const firstInView = (await logosInView(carousel))[0]?.alt;
    await page.clock.runFor(4000);
    await expectCurrent(lang, carousel, nth(4), LOGOS);
    await glided(carousel);
    await expect.poll(async () => (await logosInView(carousel))[0]?.alt).not.toBe(firstInView);
    await expectLogosInView(lang, carousel, 1);
    // Not on the page's clock either: an island started by the logos coming into view (an
    // observer of their visibility, told in the frame they came into view, before an observer
    // the test starts now is told they are in view) would have asked for its script by now.
    await carousel.evaluate(
      (root) =>
        new Promise<void>((resolve) => {
          const observer = new IntersectionObserver((entries) => {
            if (!entries.some((entry) => entry.isIntersecting)) return;
            observer.disconnect();
            resolve();
          });
          observer.observe(root);
        }),
    );
    await requestsSeen(page);
    expect(islandScripts()).toEqual([]);
    await expect(carousel).not.toHaveAttribute('data-ready');
    // Near the screen, the next logo is fetched before it slides in: the strip's fifth (a copy, with fewer logos).
    await expect(carousel.locator('.carousel__slide').nth(4).locator('img')).toHaveAttribute('loading', 'eager');
  });

  test('before its island, with 3 in view: every step, by itself or by "next", past the last logo and round again, shows 3 whole logos and no blank card', async ({
    page,
    lang,
  }) => {
    await page.route(ISLAND_SCRIPTS, () => {});
    await openHome(page, lang);
    await parkPointer(page);
    const carousel = logos(page);
    await carousel.scrollIntoViewIfNeeded();
    await expectLogosInView(lang, carousel, 3);
    const next = carousel.getByRole('button', { name: lang.t('home.nextLogo') });
    for (let step = 1; step <= 8; step++) {
      // Alternately the rotation's own step and a press on "next" (sent without the pointer).
      if (step % 2) await page.clock.runFor(CLIENT_INTERVAL);
      else await next.dispatchEvent('click');
      await expectCurrent(lang, carousel, nth(step + 1), LOGOS);
      await glided(carousel);
      await expectLogosInView(lang, carousel, 3);
      await page.clock.runFor(700);
    }
    // Back past the first logo too.
    const previous = carousel.getByRole('button', { name: lang.t('home.previousLogo') });
    for (let step = 1; step <= 4; step++) {
      await previous.dispatchEvent('click');
      await glided(carousel);
      await expectLogosInView(lang, carousel, 3);
      await page.clock.runFor(700);
    }
    await expectCurrent(lang, carousel, nth(5), LOGOS);
    await expect(carousel).not.toHaveAttribute('data-ready');
  });

  test('reaching for the logos after some steps: the island takes over the same logos in the same places, and rotation goes on @rtl', async ({
    page,
    lang,
  }) => {
    await openHome(page, lang);
    await parkPointer(page);
    const carousel = logos(page);
    await carousel.scrollIntoViewIfNeeded();
    for (let step = 0; step < 3; step++) await page.clock.runFor(CLIENT_INTERVAL);
    await expectCurrent(lang, carousel, nth(4), LOGOS);
    await glided(carousel);
    await expectLogosInView(lang, carousel, 3);
    const before = await logosInView(carousel);
    await expect(carousel).not.toHaveAttribute('data-ready');

    // The pointer comes over the logos: the island starts (and rotation holds while it stays).
    await carousel.locator('.carousel__viewport').hover();
    await islandStarted(page, carousel);
    await expectCurrent(lang, carousel, nth(4), LOGOS);
    const after = await logosInView(carousel);
    expect(after.map((logo) => logo.alt)).toEqual(before.map((logo) => logo.alt));
    for (const [k, logo] of after.entries())
      expect(Math.abs(logo.start - (before[k]?.start ?? NaN)), logo.alt).toBeLessThanOrEqual(1);
    // Only embla moves the strip and the slides now: what the script set is gone.
    expect(
      await carousel.evaluate((root) =>
        [
          root.hasAttribute('data-rotating'),
          ...[...root.querySelectorAll<HTMLElement>('.carousel__slides, .carousel__slide')].map(
            (el) => el.style.getPropertyValue('--carousel-step') + el.style.getPropertyValue('--carousel-shift'),
          ),
        ].join(''),
      ),
    ).toBe('false');

    await parkPointer(page);
    await settle(page);
    await page.clock.runFor(CLIENT_INTERVAL);
    await expectCurrent(lang, carousel, nth(5), LOGOS);
    await page.clock.runFor(CLIENT_INTERVAL);
    await expectCurrent(lang, carousel, nth(6), LOGOS);
    // embla's glide runs on animation frames, which the fake clock holds: let it end.
    await page.clock.runFor(2000);
    await expectLogosInView(lang, carousel, 3);
  });

  // LOGO_BREAKPOINTS (src/lib/carousel.ts, and carousel.css): 1 logo below 640 px (phones),
  // 2 from 640 px (tablets), 3 from 1024 px (desktops). Checked on both sides of each breakpoint,
  // before the island (after a few steps of its rotation) and with it.
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
  test('shows 1 logo on a phone, 2 on a tablet and 3 on a desktop, before the island and with it', async ({ page, lang }) => {
    expect(LOGO_BREAKPOINTS.map((b) => b.minWidth)).toEqual([1024, 640, 0]);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openHome(page, lang);
    await parkPointer(page);
    const carousel = logos(page);
    await carousel.scrollIntoViewIfNeeded();
    for (let step = 0; step < 3; step++) await page.clock.runFor(CLIENT_INTERVAL);
    await expectCurrent(lang, carousel, nth(4), LOGOS);
    for (const stage of ['before the island', 'island'] as const) {
      if (stage === 'island') await hydrate(page, carousel);
      for (const { width, expected } of widths) {
        await page.setViewportSize({ width, height: 900 });
        await carousel.scrollIntoViewIfNeeded();
        // Whole cards in view, from the current logo on: the strip is in its place at the new width.
        await expect
          .poll(
            async () => {
              // embla follows a resize from an animation frame, which the fake clock holds.
              if (stage === 'island') await page.clock.runFor(20);
              return (await logosInView(carousel)).filter((logo) => logo.inside).length;
            },
            { message: `${stage}, ${width} px` },
          )
          .toBe(expected);
        await expectLogosInView(lang, carousel, expected);
      }
      if (stage === 'island') await expect(carousel).toHaveAttribute('data-ready', 'true');
      else await expect(carousel).not.toHaveAttribute('data-ready');
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

test('before interaction the page runs no island: the hero rotates by itself without React, and no island script is asked for until the visitor reaches for it', async ({
  page,
  lang,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.mouse.move(2, 840);
  const islandRequests: string[] = [];
  page.on('request', (request) => {
    if (ISLAND_SCRIPTS.test(request.url())) islandRequests.push(request.url());
  });
  await page.goto(lang.path('/'));
  // Started without the visitor: it rotates (docs/requirements.md §4).
  const first = await hero(page).locator('.carousel__dot[aria-current="true"]').getAttribute('aria-label');
  await expect
    .poll(() => hero(page).locator('.carousel__dot[aria-current="true"]').getAttribute('aria-label'), { timeout: 10_000 })
    .not.toBe(first);
  expect(islandRequests).toEqual([]);
  await expect(hero(page)).not.toHaveAttribute('data-ready');
  // No script at all is asked for before the load event, nor before the hero's first picture is
  // drawn: the rotation's own comes after both (src/lib/after-first-view.ts).
  const timing = await page.evaluate(async () => {
    const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
    const paints = await new Promise<PerformanceEntryList>((resolve) =>
      new PerformanceObserver((list, observer) => {
        observer.disconnect();
        resolve(list.getEntries());
      }).observe({ type: 'largest-contentful-paint', buffered: true }),
    );
    const largest = paints.at(-1) as (PerformanceEntry & { element?: Element | null }) | undefined;
    return {
      loaded: navigation?.loadEventStart ?? 0,
      largestPaint: largest?.startTime ?? Infinity,
      largestIsHeroPicture: largest?.element?.matches('.carousel--hero img') ?? false,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\.m?js(?:$|\?)/.test(entry.name))
        .map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
    };
  });
  expect(timing.largestIsHeroPicture).toBe(true);
  expect(timing.scripts.map((script) => script.path).some((path) => ROTATION_SCRIPT.test(path))).toBe(true);
  expect(timing.scripts.filter((script) => script.start < timing.loaded || script.start < timing.largestPaint)).toEqual([]);
  // Reaching for it starts the island.
  await hero(page).locator('.carousel__viewport').hover();
  await expect(hero(page)).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  expect(islandRequests.length).toBeGreaterThan(0);
});
