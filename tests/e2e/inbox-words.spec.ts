/**
 * The words staff read in the inbox, at 1440 px in the project `en` (the inbox in English, a lead
 * from the English site) and at 390 px in `ar` (the inbox in Arabic, a lead from the Arabic site,
 * its phone number typed in Arabic-Indic digits): the words and digits are the same at both
 * widths, so each project drives the flow at one of them.
 * - the search finds a phone number however it is typed and a city in the other language;
 * - a partner application's chosen answers and country in the inbox's language (its page);
 * - the audit log: leads as links, lead views hidden until asked for, an Arabic search readable.
 * With SHOTS_DIR set, each page's screenshot at 1440 and 390 px goes there to be looked at (never
 * committed).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './site-locale';
import { addStaffAccount, signInAs, solvedProof } from './staff-helpers';
import { atBothWidths, DESKTOP, PHONE } from './look';
import { partnerBody } from '../helpers/server';

const PASSWORD = 'inbox words password for tests';

/** With SHOTS_DIR set, the page's screenshot there at both widths (named with the language and width). */
async function shot(page: Page, name: string, code: string): Promise<void> {
  const dir = process.env['SHOTS_DIR'];
  if (!dir) return;
  await atBothWidths(page, async (width) => {
    await page.screenshot({ path: `${dir}/${name}-${code}-${width}.png`, fullPage: true });
  });
}

test.describe("the inbox's words (en at 1440 px, ar at 390 px)", () => {
  test.use({ viewport: ({ siteLocale }, use) => use(siteLocale === 'ar' ? PHONE : DESKTOP) });

  test("search across spellings and digits, chosen answers in the inbox's language, a readable audit log @rtl", async ({
    page,
    lang,
  }, testInfo) => {
    test.setTimeout(300_000);
    const stamp = `${Date.now()}${testInfo.workerIndex}`;
    const marker = `Words${lang.code}x${stamp}`;
    const me = `words-${lang.code}-${stamp}@globaq.example`;
    await addStaffAccount(me, PASSWORD);
    // A Saudi mobile of this test's own, typed by the visitor in their site's digits.
    const national = `5${stamp.slice(-8)}`;
    const typed =
      lang.code === 'ar' ? `0${national}`.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d))) : `0${national}`;
    await page.goto(lang.path('/'));
    const response = await page.request.post(`/api/partner${lang.code === 'ar' ? '?lang=ar' : ''}`, {
      headers: { Origin: new URL(page.url()).origin, 'Content-Type': 'application/json' },
      data: {
        ...partnerBody({
          organization: marker,
          phoneNumber: typed,
          cityName: lang.code === 'ar' ? 'الطائف' : 'Taif',
          country: 'Saudi Arabia',
          formOfOwnership: 'Privately held company',
          classroomAvailable: 'Yes',
        }),
        altcha: await solvedProof(page),
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    const id = ((await response.json()) as { id: string }).id;
    await signInAs(page, me, PASSWORD);
    // The inbox in the project's language from here on (its language switch).
    await page.goto('/admin?status=all');
    if (lang.code === 'ar') {
      await page.getByRole('navigation', { name: 'Language' }).getByRole('button', { name: 'العربية' }).click();
      await page.goto('/admin?status=all');
    }
    await expect(page.locator('html')).toHaveAttribute('lang', lang.code);
    const search = async (text: string) => {
      await page.getByRole('searchbox', { name: lang.t('admin.list.search') }).fill(text);
      await page.getByRole('searchbox', { name: lang.t('admin.list.search') }).press('Enter');
      await expect(page).toHaveURL(/\/admin\?/);
    };
    // The city in the other language than it was typed in, with the marker: the lead.
    await search(`${lang.code === 'ar' ? 'Taif' : 'الطائف'} ${marker}`);
    await expect(page.locator(`a[href^="/admin/leads/${id}"]`).first()).toBeVisible();
    // The number as +966, as 00966 with spaces, as a local 0...: the lead each time.
    for (const asTyped of [
      `+966${national}`,
      `00966 ${national.slice(0, 2)} ${national.slice(2, 5)} ${national.slice(5)}`,
      `0${national}`,
    ]) {
      await page.goto('/admin?status=all');
      await search(asTyped);
      await expect(page.locator(`a[href^="/admin/leads/${id}"]`).first(), asTyped).toBeVisible();
    }
    // The lead page's chosen answers and country in the inbox's language.
    await page.goto(`/admin/leads/${id}`);
    const main = page.locator('main');
    await expect(main).toContainText(lang.t('partner.option.privatelyHeld'));
    await expect(main).toContainText(lang.t('partner.option.yes'));
    await expect(main).toContainText(lang.code === 'ar' ? 'المملكة العربية السعودية' : 'Saudi Arabia');
    if (lang.code === 'ar') await expect(main).not.toContainText('Privately held company');
    await shot(page, 'inbox-words-lead', lang.code);

    // The audit log: an Arabic search readable, the lead a link to its page by name, views hidden until asked for.
    await page.goto('/admin?status=all');
    await search('الطائف');
    await page.goto(`/admin/audit?actor=${encodeURIComponent(me)}`);
    const table = page.getByRole('region', { name: lang.t('admin.audit.entries') });
    await expect(table).toContainText('q=\u2068الطائف\u2069');
    await expect(table).not.toContainText('%D8');
    await expect(table).not.toContainText(lang.t('admin.audit.action.opened lead'));
    await shot(page, 'inbox-words-audit', lang.code);
    await page.getByLabel(lang.t('admin.audit.showViews')).check();
    await page.getByRole('button', { name: lang.t('admin.audit.submit') }).click();
    await expect(page).toHaveURL(/views=1/);
    await expect(table).toContainText(lang.t('admin.audit.action.opened lead'));
    // Named by the person and the company, in the inbox's language's list, not by the lead's id.
    const named = table.locator(`a[href="/admin/leads/${id}"]`).first();
    await expect(named).toHaveText(`\u2068Aisha Al-Qahtani\u2069${lang.t('form.listSeparator')}\u2068${marker}\u2069`);
    await named.click();
    await expect(page).toHaveURL(new RegExp(`/admin/leads/${id}$`));
  });
});
