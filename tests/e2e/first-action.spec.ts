/**
 * The requirements hold from the visitor's very first action, before any island has started
 * (docs/requirements.md §4, §7.2, §8.5, §9): each test acts at once after the page's `load`
 * event, as a visitor on a slow phone does, and waits for no island before acting. An island may
 * start because of what the visitor did (that is the page's business), but what the visitor sees
 * must be what the requirements say, the first time.
 *
 * The tests about an island's own polish (what is kept when it starts, how it rotates) wait for
 * it, elsewhere, with helpers named so (`…AfterIsland`).
 */
import { expect, test, type SiteLanguage } from './site-locale';
import type { Locator, Page } from '@playwright/test';
import { contactField, formEndpoint, interceptEndpoint, partnerField } from './forms-helpers';
import { PARTNER_FIELD_ORDER, partnerField as partnerSpec, partnerLabelKey } from '../../src/forms/partner';

const MB = 1024 * 1024;
const file = (name: string, size: number, mimeType = 'application/pdf') => ({ name, mimeType, buffer: Buffer.alloc(size, 0x41) });

/** Opens `path` and returns once its `load` event has fired: the islands have not started. */
async function openAtLoad(page: Page, path: string): Promise<void> {
  await page.goto(path, { waitUntil: 'load' });
}

/** Whether the island holding `inside` has started (Astro drops `ssr` from an island as it starts it). */
const islandStarted = (inside: Locator) => inside.evaluate((el) => el.closest('astro-island')?.hasAttribute('ssr') === false);

/** The alert text of a refused file: a Latin name in an Arabic sentence is isolated (FSI ... PDI). */
function refusal(lang: SiteLanguage, reason: 'tooLarge' | 'invalidType', name: string): string {
  const shown = lang.dir === 'rtl' ? `\u2068${name}\u2069` : name;
  return lang.t(reason === 'tooLarge' ? 'partner.files.tooLarge' : 'partner.files.invalidType', { file: shown });
}

test.describe('the first press on Send, with every field empty', () => {
  test('contact: the alert "Please fill in all required fields", nothing sent, focus on the first field', async ({
    page,
    lang,
  }) => {
    const capture = await interceptEndpoint(page, formEndpoint('contact', lang), { status: 201 });
    await openAtLoad(page, lang.path('/ContactUs'));
    const send = page.getByRole('button', { name: lang.t('contact.submit') });
    expect(await islandStarted(send)).toBe(false);
    await send.click();
    await expect.poll(() => capture.alerts).toEqual([lang.t('contact.alert.required')]);
    expect(capture.requests).toHaveLength(0);
    await expect(contactField(page, 'firstName', lang)).toBeFocused();
    await expect(contactField(page, 'firstName', lang)).toHaveAttribute('aria-invalid', 'true');
    // The browser's own "Please fill out this field" was never asked for: the island marked the field.
    expect(await contactField(page, 'firstName', lang).evaluate((el: HTMLInputElement) => el.form?.noValidate)).toBe(true);
  });

  test('contact: Enter in a field, before the island has started, is the same first press', async ({ page, lang }) => {
    const capture = await interceptEndpoint(page, formEndpoint('contact', lang), { status: 201 });
    // The island's script is held back until the visitor has pressed Enter, however fast the machine.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_astro/*.js', async (route) => {
      await gate;
      await route.continue();
    });
    await openAtLoad(page, lang.path('/ContactUs'));
    const lastName = contactField(page, 'lastName', lang);
    await lastName.focus();
    await page.keyboard.type('Al-Harbi');
    await page.keyboard.press('Enter');
    expect(await islandStarted(lastName)).toBe(false);
    release();
    await expect.poll(() => capture.alerts).toEqual([lang.t('contact.alert.required')]);
    expect(capture.requests).toHaveLength(0);
    await expect(lastName).toHaveValue('Al-Harbi');
    await expect(contactField(page, 'firstName', lang)).toBeFocused();
  });

  test('partner: the alert "Please fill in all required fields:" naming every required field, nothing sent', async ({
    page,
    lang,
  }) => {
    const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 201 });
    await openAtLoad(page, lang.path('/Partner'));
    const submit = page.getByRole('button', { name: lang.t('partner.submit') });
    expect(await islandStarted(submit)).toBe(false);
    await submit.click();
    const required = PARTNER_FIELD_ORDER.filter((name) => partnerSpec(name).required === true);
    expect(required).toHaveLength(10);
    const names = required.map((name) => lang.t(partnerLabelKey(name))).join(lang.t('form.listSeparator'));
    await expect.poll(() => capture.alerts).toEqual([`${lang.t('partner.alert.required')} ${names}`]);
    expect(capture.requests).toHaveLength(0);
    await expect(partnerField(page, 'name', lang)).toBeFocused();
  });
});

test.describe('CV files chosen before the partner form has started', () => {
  test.beforeEach(async ({ page, lang }) => {
    await openAtLoad(page, lang.path('/Partner'));
  });

  const names = (page: Page) => page.locator('.selected-files__name');

  test('several files of every accepted type are listed under "Selected files:"', async ({ page, lang }) => {
    const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 201 });
    const input = page.locator('input[type="file"]');
    expect(await islandStarted(input)).toBe(false);
    const chosen = [
      file('cv.pdf', 1000),
      file('photo.jpeg', 1000, 'image/jpeg'),
      file('scan.JPG', 1000, 'image/jpeg'),
      file('old.doc', 1000, 'application/msword'),
      file('new.docx', 1000, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
    ];
    await input.setInputFiles(chosen);
    await expect(page.locator('.selected-files')).toContainText(lang.t('partner.files.selected'));
    await expect(names(page)).toHaveText(chosen.map((f) => f.name));
    expect(capture.alerts).toEqual([]);
  });

  test('too large and wrong types: one alert for each refused file, 1.9 MB kept beside 2.1 MB refused', async ({
    page,
    lang,
  }) => {
    const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 201 });
    const input = page.locator('input[type="file"]');
    await input.setInputFiles([
      file('big.pdf', Math.round(2.1 * MB)),
      file('fits.pdf', Math.round(1.9 * MB)),
      file('virus.exe', 100, 'application/octet-stream'),
      file('notes.txt', 100, 'text/plain'),
    ]);
    await expect
      .poll(() => capture.alerts)
      .toEqual([
        refusal(lang, 'tooLarge', 'big.pdf'),
        refusal(lang, 'invalidType', 'virus.exe'),
        refusal(lang, 'invalidType', 'notes.txt'),
      ]);
    await expect(names(page)).toHaveText(['fits.pdf']);
    expect(await input.evaluate((el: HTMLInputElement) => Array.from(el.files ?? [], (f) => f.name))).toEqual(['fits.pdf']);
  });

  test('a new choice replaces the old', async ({ page }) => {
    const input = page.locator('input[type="file"]');
    await input.setInputFiles([file('first.pdf', 100), file('second.pdf', 100)]);
    await expect(names(page)).toHaveText(['first.pdf', 'second.pdf']);
    await input.setInputFiles([file('third.docx', 100, 'application/msword')]);
    await expect(names(page)).toHaveText(['third.docx']);
  });

  test('files dropped on the control are listed and checked', async ({ page, lang }) => {
    const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 201 });
    const input = page.locator('input[type="file"]');
    expect(await islandStarted(input)).toBe(false);
    // What the browser does with files dropped on a file input: the drag events, then the files
    // become the input's and it fires input and change (nothing moves the pointer into the page).
    await input.evaluate((el: HTMLInputElement) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['%PDF-1.4'], 'dropped-cv.pdf', { type: 'application/pdf' }));
      transfer.items.add(new File(['MZ'], 'dropped.exe', { type: 'application/octet-stream' }));
      for (const type of ['dragenter', 'dragover', 'drop'])
        el.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
      el.files = transfer.files;
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await expect.poll(() => capture.alerts).toEqual([refusal(lang, 'invalidType', 'dropped.exe')]);
    await expect(names(page)).toHaveText(['dropped-cv.pdf']);
  });
});

test.describe('pictures that fail to load', () => {
  const hero = (page: Page) => page.locator('.carousel--hero');
  const logos = (page: Page) => page.locator('.carousel--logos');

  test('a hero picture shows "Image not available" before the carousel\'s island starts, and after', async ({ page, lang }) => {
    await page.route(/\/_astro\/.*\.(avif|webp)$/, (route) => route.abort());
    // The islands' scripts are held back until the visitor reaches for the carousel, however fast the machine.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_astro/*.js', async (route) => {
      await gate;
      await route.continue();
    });
    await openAtLoad(page, lang.path('/'));
    const first = hero(page).locator('.carousel__slide').first();
    const unavailable = lang.t('home.imageUnavailable');
    await expect(first.getByText(unavailable)).toBeVisible();
    await expect(first.locator('img')).toBeHidden();
    expect(await islandStarted(hero(page))).toBe(false);
    // In the picture's own place and size.
    const [frame, placeholder] = await first.evaluate((slide) =>
      ['.carousel__frame', '.carousel__fallback'].map((selector) => {
        const box = slide.querySelector(selector)?.getBoundingClientRect();
        return box ? { x: box.x, y: box.y, width: box.width, height: box.height } : null;
      }),
    );
    expect(placeholder).toEqual(frame);
    expect(Math.abs((frame?.width ?? 0) / (frame?.height ?? 1) - 1.5)).toBeLessThan(0.01);

    // The visitor reaches for the carousel: its island starts and keeps the placeholder.
    await hero(page).locator('.carousel__viewport').hover();
    release();
    await expect(hero(page)).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
    await expect(first.getByText(unavailable)).toBeVisible();
    await expect(first.locator('img')).toHaveCount(0);
  });

  test('a client logo shows "Logo not available" before the carousel\'s island starts, and after', async ({ page, lang }) => {
    await page.route(/\/_astro\/.*\.svg$/, (route) => route.abort());
    // The islands' scripts are held back until the visitor reaches for the carousel, however fast the machine.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/_astro/*.js', async (route) => {
      await gate;
      await route.continue();
    });
    await openAtLoad(page, lang.path('/'));
    const carousel = logos(page);
    // Scrolled to as a visitor scrolls (the wheel moves no pointer over the carousel).
    await page.evaluate(() => document.querySelector('.carousel--logos')?.scrollIntoView({ block: 'center' }));
    const first = carousel.locator('.carousel__slide').first();
    const unavailable = lang.t('home.logoUnavailable');
    await expect(first.getByText(unavailable)).toBeVisible();
    await expect(first.locator('img')).toBeHidden();
    expect(await islandStarted(carousel)).toBe(false);

    await carousel.locator('.carousel__viewport').hover();
    release();
    await expect(carousel).toHaveAttribute('data-ready', 'true', { timeout: 15_000 });
    await expect(first.getByText(unavailable)).toBeVisible();
    await expect(first.locator('img')).toHaveCount(0);
  });
});

test.describe('the menus, at once after the load event', () => {
  test('desktop: hovering a group opens its dropdown; it closes once the pointer has left', async ({ page, lang }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await openAtLoad(page, lang.path('/AboutUs'));
    const nav = page.locator('.desktop-nav');
    const group = nav.locator('.nav-list--depth-0 > li', {
      has: page.locator('.nav-toggle', { hasText: lang.label('Audit Assistance') }),
    });
    await group.locator('.nav-toggle').hover();
    const destination = group.getByRole('link', { name: lang.label('ISO Internal Audits'), exact: true });
    await expect(destination).toBeVisible({ timeout: 15_000 });
    await page.mouse.move(40, 700);
    await expect(destination).toBeHidden();
  });

  test('phone: a tap on "Menu" opens the menu, the first time', async ({ page, lang }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openAtLoad(page, lang.path('/AboutUs'));
    await page.locator('.mobile-nav__toggle, .mobile-nav button').first().click();
    await expect(page.locator('.mobile-nav').getByRole('link', { name: lang.label('Contact Us'), exact: true })).toBeVisible();
  });
});
