/**
 * Links where the visitor looks (src/data/service-pages.ts): each catalogue service page lists the
 * content pages that serve it, and the training pages point to the laboratory's ISO/IEC 17025
 * courses, in both languages.
 */
import { expect, test } from './site-locale';
import { pagesServing } from '../../src/data/service-pages';
import { readContentDir } from '../helpers/frontmatter';

const LAB_TRAINING = '/LaboratoryQualityManagementSystemServices/Training';

test.describe('what each service covers @content', () => {
  for (const service of readContentDir('services').map((entry) => entry.id)) {
    const routes = pagesServing(service);
    if (routes.length === 0) continue;
    test(`/services/${service} links each page that serves it`, async ({ page, lang }) => {
      await page.goto(lang.path(`/services/${service}`));
      const section = page.getByRole('region', { name: lang.t('service.pages') });
      const links = section.getByRole('link');
      await expect(links).toHaveCount(routes.length);
      expect(await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))).toEqual(
        routes.map((route) => lang.path(route)),
      );
    });
  }

  test('Schedule Q is one click from the audits service, and the laboratory courses from Trainings', async ({ page, lang }) => {
    await page.goto(lang.path('/services/ms-audits'));
    await page
      .getByRole('region', { name: lang.t('service.pages') })
      .locator(`a[href="${lang.path('/MangementSystemAudits/ScheduleQQualityAssessment')}"]`)
      .click();
    await expect(page).toHaveURL(lang.url('/MangementSystemAudits/ScheduleQQualityAssessment'));
    await page.goto(lang.path('/Trainings/OtherTrainings'));
    await page.locator(`main a[href="${lang.path(LAB_TRAINING)}"]`).click();
    await expect(page).toHaveURL(lang.url(LAB_TRAINING));
  });
});
