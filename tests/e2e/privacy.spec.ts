/**
 * The privacy notice (src/content/pages/privacy.mdx and its Arabic twin): linked from the footer
 * and from a line beside each form's submit button, in both languages, with JavaScript off as on;
 * the partner form's CV field asks for the trainers' consent. That it names the controller and the
 * day it last changed, in each language, is read from the built HTML: tests/unit/site-pages.test.ts.
 */
import { expect, test } from './site-locale';
import { partnerField } from './forms-helpers';
import { readContentDir } from '../helpers/frontmatter';

/** A front-matter field of the notice in the language `code`. */
const notice = (code: string, field: string) =>
  String(
    readContentDir(code === 'ar' ? 'ar/pages' : 'pages').find((page) => page.frontmatter['route'] === 'Privacy')?.frontmatter[
      field
    ],
  );

test.describe('the privacy notice', () => {
  test('the footer links it, and the notice says what is kept and for how long, with no sales box', async ({ page, lang }) => {
    await page.goto(lang.path('/'), { waitUntil: 'load' });
    const link = page.locator('footer').getByRole('link', { name: lang.t('footer.privacy'), exact: true });
    await expect(link).toHaveAttribute('href', lang.path('/Privacy'));
    await link.click();
    await expect(page).toHaveURL(lang.url('/Privacy'));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(notice(lang.code, 'title'));
    // The retention periods the receiver keeps to (HELD_PURGE_DAYS' default) and the staff's purge.
    await expect(page.locator('main')).toContainText(lang.code === 'ar' ? '30 يومًا' : '30 days');
    await expect(page.locator('main')).toContainText(lang.code === 'ar' ? '24 شهرًا' : '24 months');
    // It informs; it sells nothing.
    await expect(page.locator('main').getByRole('link', { name: lang.t('service.freeConsultation') })).toHaveCount(0);
  });

  for (const form of [
    { path: '/ContactUs', submit: 'contact.submit' },
    { path: '/Partner', submit: 'partner.submit' },
  ] as const) {
    test(`${form.path}: a line beside Send links the notice, before any script has run`, async ({ browser, lang }) => {
      const context = await browser.newContext({ javaScriptEnabled: false });
      const page = await context.newPage();
      try {
        await page.goto(lang.path(form.path));
        const send = page.getByRole('button', { name: lang.t(form.submit) });
        const note = page.locator('.form-privacy');
        await expect(note).toContainText(lang.t('form.privacy.note'));
        const link = note.getByRole('link', { name: lang.t('form.privacy.link') });
        await expect(link).toHaveAttribute('href', lang.path('/Privacy'));
        // Beside the button: the line comes right before it, inside the same form.
        expect(await note.evaluate((el) => el.nextElementSibling?.getAttribute('type'))).toBe('submit');
        await expect(send).toBeVisible();
        await link.click();
        await expect(page).toHaveURL(lang.url('/Privacy'));
      } finally {
        await context.close();
      }
    });
  }

  test("the CV field asks for the trainers' consent, and a screen reader hears it", async ({ page, lang }) => {
    await page.goto(lang.path('/Partner'), { waitUntil: 'load' });
    const consent = page.locator('#partner-files-consent');
    await expect(consent).toHaveText(lang.t('partner.files.consent'));
    const files = partnerField(page, 'uploadedFiles', lang);
    await expect(files).toHaveAttribute('aria-describedby', /(^| )partner-files-consent( |$)/);
  });
});
