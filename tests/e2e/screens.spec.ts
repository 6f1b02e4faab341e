/**
 * Layout holds from 320 px to 1920 px, in each language: no page scrolls sideways. Screenshots
 * at 390 px and 1440 px are saved under test-results/screenshots for people to look at.
 */
import { expect, test } from './site-locale';

const PAGES = [
  '/',
  '/AboutUs',
  '/services/ms-audits',
  '/Trainings/OtherTrainings',
  '/ISOConsultancy',
  '/ContactUs',
  '/Partner',
  '/services/unknown',
];

for (const width of [320, 390, 768, 1149, 1440, 1920]) {
  test(`no horizontal scrolling at ${width} px`, async ({ page, lang }) => {
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const path of PAGES.map(lang.path)) {
      await page.goto(path);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} at ${width} px`).toBeLessThanOrEqual(0);
      // The fixed header does not widen the page, so check its controls fit on their own.
      for (const control of await page.locator('header.site-header :is(a, summary, button):visible').all()) {
        const box = await control.boundingBox();
        if (!box || box.y > 80) continue;
        expect(box.x, `${path} at ${width} px`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `${path} at ${width} px`).toBeLessThanOrEqual(width);
      }
      // Nothing in a form field sticks out of its box (a file input's own width once did).
      const sticking = await page.evaluate(() =>
        [...document.querySelectorAll('.field')].flatMap((field) => {
          const box = field.getBoundingClientRect();
          return [...field.querySelectorAll(':scope > *, :scope label, :scope input, :scope p, :scope ul')]
            .filter(
              (child) =>
                child.getBoundingClientRect().right > box.right + 0.5 || child.getBoundingClientRect().left < box.left - 0.5,
            )
            .map((child) => `${field.querySelector('label, legend')?.textContent}: ${child.tagName}`);
        }),
      );
      expect(sticking, `${path} at ${width} px`).toEqual([]);
      if (width === 390 || width === 1440) {
        const name = `${lang.code}-${path === lang.path('/') ? 'home' : path.replace(/^\/(ar\/)?/, '').replaceAll('/', '_')}`;
        await page.screenshot({ path: `test-results/screenshots/${name}-${width}.png`, fullPage: true });
      }
    }
  });
}
