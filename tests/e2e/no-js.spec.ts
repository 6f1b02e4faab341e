/**
 * ARCHITECTURE invariant 3: every page reads fully with JavaScript off, in each language: a page
 * of each kind, the English pages and their Arabic twins under /ar, each project walking its own;
 * every page's heading and footer in its HTML: tests/unit/site-pages.test.ts.
 */
import { escapeRegExp, expect, test, type SiteLanguage } from './site-locale';
import { ARABIC_ROUTES, PAGE_KINDS, PAGE_ROUTES } from './routes';
import { flattenNavigation } from '../../src/data/navigation';
import { fillPartnerRequired } from './forms-helpers';
import { readDataFile } from '../../src/data/data-file';
import { CAROUSELS_FILE, carouselsFileSchema } from '../../src/data/schemas';

test.use({ javaScriptEnabled: false });

/** Every page of the language, with the heading it must show. */
const routesOf = (lang: SiteLanguage) => (lang.code === 'ar' ? ARABIC_ROUTES : PAGE_ROUTES);

/** The heading of the page at `path` (a specification path) in the language: its content file's title. */
function headingOf(lang: SiteLanguage, path: string): string {
  const route = routesOf(lang).find((candidate) => candidate.path === lang.path(path));
  if (!route) throw new Error(`No route ${lang.path(path)}`);
  return route.heading;
}

test('a page of each kind shows its heading, all its sections and the footer without JavaScript', async ({ page, lang }) => {
  // Every page's heading and footer are in its HTML (tests/unit/site-pages.test.ts); what a
  // script could hide is the layout's, the same on every page of a kind.
  const headings = new Map(routesOf(lang).map((route) => [route.path, route.heading]));
  for (const path of PAGE_KINDS.map(lang.path)) {
    const response = await page.goto(path);
    await expect(page.locator('html'), path).toHaveAttribute('dir', lang.dir);
    // /Aboutus shows the About page (docs/requirements.md §1.1).
    const heading = headings.get(path) ?? headings.get(path.replace(/\/Aboutus$/, '/AboutUs'));
    if (heading !== undefined) await expect(page.locator('h1'), path).toContainText(heading);
    else expect(response?.status(), path).toBe(404);
    // Nothing is left hidden for a script to reveal.
    for (const section of await page.locator('[data-reveal]').all()) {
      await expect(section, path).toHaveCSS('opacity', '1');
    }
    await expect(page.locator('footer'), path).toContainText(lang.addressLine);
  }
});

test('the menu works without JavaScript, on a desktop and on a phone', async ({ page, lang }) => {
  await page.goto(lang.path('/'));
  await page.locator('.desktop-nav summary', { hasText: lang.label('Audit Assistance') }).click();
  // The link's words are the menu's (src/data/navigation.yaml), whatever the editors call it.
  const certification = flattenNavigation(lang.navigation).find((link) => link.href === '/AuditAssistance/ISOThirdPartyAudits');
  await page
    .locator('.desktop-nav')
    .getByRole('link', { name: certification?.label ?? 'no such menu entry' })
    .click();
  await expect(page).toHaveURL(lang.url('/AuditAssistance/ISOThirdPartyAudits'));
  await expect(page.locator('h1')).toHaveText(headingOf(lang, '/AuditAssistance/ISOThirdPartyAudits'));

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(lang.path('/'));
  await page.locator('.mobile-nav__toggle').click();
  const panel = page.locator('.mobile-nav__panel');
  await panel.locator('summary', { hasText: new RegExp(`^${escapeRegExp(lang.label('Trainings'))}$`) }).click();
  await panel.locator('summary', { hasText: lang.label('ISO Trainings') }).click();
  await panel.getByRole('link', { name: lang.label('Internal Audit Training') }).click();
  await expect(page).toHaveURL(lang.url('/Trainings/ISOTrainings/InternalAuditTraining'));
  await expect(page.locator('h1')).toHaveText(headingOf(lang, '/Trainings/ISOTrainings/InternalAuditTraining'));
});

test('without JavaScript the home carousels show their first picture and logos, and no dead buttons', async ({ page, lang }) => {
  // As many pictures and logos as src/data/carousels.yaml lists, however many an editor has left or added.
  const carousels = readDataFile(CAROUSELS_FILE, carouselsFileSchema);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(lang.path('/'));
  const hero = page.locator('.carousel--hero');
  await expect(
    hero
      .getByRole('group', { name: lang.t('carousel.slideLabel', { index: 1, count: carousels.hero.length }), exact: true })
      .locator('img'),
  ).toBeVisible();
  await expect(hero.locator('.carousel__controls')).toBeHidden();
  const logos = page.locator('.carousel--logos');
  await logos.scrollIntoViewIfNeeded();
  await expect(
    logos
      .getByRole('group', { name: lang.t('carousel.slideLabel', { index: 1, count: carousels.clients.length }), exact: true })
      .locator('img'),
  ).toBeVisible();
  await expect(logos.locator('.carousel__controls')).toBeHidden();
  // The other pictures are a swipe away: the strip scrolls sideways.
  const scrollable = await hero
    .locator('.carousel__viewport')
    .evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto');
  expect(scrollable).toBe(true);
});

test("without JavaScript a hero picture that fails shows the carousel's words in its box, not a broken picture @rtl", async ({
  page,
  lang,
}) => {
  await page.route(/\/_astro\/.*\.(avif|webp|jpe?g|png)$/, (route) => route.abort());
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(lang.path('/'));
  const image = page.locator('.carousel--hero img').first();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 0)).toBe(true);
  // The words are drawn over the picture's box (its ::after, which only a broken picture draws).
  const after = await image.evaluate((img) => {
    const style = getComputedStyle(img, '::after');
    return { content: style.content, position: style.position, background: style.backgroundColor };
  });
  expect(after).toEqual({
    content: `"${lang.t('home.imageUnavailable')}"`,
    position: 'absolute',
    background: expect.stringMatching(/^rgb\(/),
  });
  await page.locator('.carousel--hero').screenshot({ path: `test-results/screenshots/${lang.code}-hero-failed-nojs-390.png` });
});

test("a CV chosen without JavaScript is named by the browser's own control; the problem page counts the refused files, in plain Arabic", async ({
  page,
  lang,
}) => {
  test.setTimeout(120_000);
  const MB = 1024 * 1024;
  const cv = (name: string, size: number, mimeType = 'application/pdf') => ({ name, mimeType, buffer: Buffer.alloc(size, 0x41) });
  const partnerForm = lang.t('problem.form.partner');
  for (const [chosen, lead] of [
    [
      [cv('big-cv.pdf', Math.round(2.1 * MB)), cv('tool.exe', 100, 'application/octet-stream')],
      lang.t('problem.filesMany', { form: partnerForm }),
    ],
    [[cv('tool.exe', 100, 'application/octet-stream')], lang.t('problem.files', { form: partnerForm })],
  ] as const) {
    await page.goto(lang.path('/Partner'));
    const input = page.locator('input[type="file"]');
    await input.setInputFiles([...chosen]);
    // The page's own face of the control says nothing of the files without its script: the
    // browser's own control is drawn too ("2 files", or the file's name), beside the face that
    // still reads in the page's language; not a transparent layer under it.
    expect(await input.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
    const face = page.locator('.file-picker__face');
    await expect(face).toHaveText(lang.t('partner.files.choose'));
    const [faceBox, inputBox] = [await face.boundingBox(), await input.boundingBox()];
    // The input reaches past the face: its words are beside it.
    expect((inputBox?.width ?? 0) - (faceBox?.width ?? 0)).toBeGreaterThan(60);
    if (lang.dir === 'rtl') {
      // The browser's words are in the browser's language, not the page's: set left to right,
      // an English browser's "2 files" never reads "files 2", nor an Arabic one's count its words.
      expect(await input.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
      // Its unseen button is still under the face, at the page's start.
      const end = (box: typeof faceBox) => (box?.x ?? 0) + (box?.width ?? 0);
      expect(Math.abs(end(inputBox) - end(faceBox))).toBeLessThan(2);
    }
    expect(await input.evaluate((el: HTMLInputElement) => el.files?.length)).toBe(chosen.length);

    await fillPartnerRequired(page, undefined, lang);
    await page.getByRole('button', { name: lang.t('partner.submit') }).click();
    // The receiver answers the post with its problem page (docs/requirements.md §10.5).
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(lang.t('problem.title'));
    await expect(page.locator('main')).toContainText(lead);
    for (const file of chosen) await expect(page.locator('main')).toContainText(file.name);
    // No stretched letter (tatweel, U+0640) in the page's own words.
    expect(await page.locator('main').innerText()).not.toContain('\u0640');
  }
});
