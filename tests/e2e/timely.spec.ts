/**
 * Timely, measured, as staff see it in a real browser, at 1440 px in the project `en` (a lead from
 * the English site, the inbox in English) and at 390 px in `ar` (a lead from the Arabic site, the
 * inbox in Arabic, its plural forms): each lead's wait for a first answer on the list and on its
 * page, the week's line over the list, and a follow-up date set on an answered lead assigned to me,
 * shown on its page, in its timeline and in the list, which keeps it in my Mine tab. Each state is
 * looked at in both widths, its screenshots in I44TIME_SHOTS (default test-results/timely/, not
 * kept in git) for a person to look at.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './site-locale';
import { addStaffAccount, DESKTOP, lookAtBothWidths, PHONE, signInAs, solvedProof } from './staff-helpers';
import { contactBody } from '../helpers/server';
import { en } from '../../src/i18n/en';
import { ar } from '../../src/i18n/ar';

const PASSWORD = 'inbox password for tests';
const SHOTS = process.env['I44TIME_SHOTS'] ?? path.join(import.meta.dirname, '..', '..', 'test-results', 'timely');
const FOLLOW_UP = '2030-01-06';

async function postLead(page: Page, lang: 'en' | 'ar', firstName: string, company: string): Promise<string> {
  const response = await page.request.post(`/api/contact${lang === 'ar' ? '?lang=ar' : ''}`, {
    headers: { Origin: new URL(page.url()).origin, 'Content-Type': 'application/json' },
    data: { ...contactBody({ firstName, company }), altcha: await solvedProof(page) },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

test.describe('waiting times and follow-ups', () => {
  test("the wait on the list and the lead, the week's line, a follow-up date that keeps a closed lead in Mine @rtl", async ({
    page,
    context,
    lang,
  }, testInfo) => {
    test.setTimeout(120_000);
    // English at 1440 px, Arabic at 390 (its words and plurals the harder to fit, the narrower the
    // page): both layouts are clicked in, and each state is looked at in both.
    await page.setViewportSize(lang.code === 'ar' ? PHONE : DESKTOP);
    const words = lang.code === 'ar' ? ar : en;
    const look = (name: string, check: { scroll?: boolean }) =>
      lookAtBothWidths(page, name, (width) => path.join(SHOTS, `${name}-${lang.code}-${width}.png`), { axe: false, ...check });
    const marker = `Timely${lang.code}x${testInfo.workerIndex}${Date.now()}`;
    const me = `timely-${lang.code}-${testInfo.workerIndex}-${Date.now()}@globaq.example`;
    await addStaffAccount(me, PASSWORD);
    await page.goto(lang.path('/'));
    const id = await postLead(page, lang.code, lang.code === 'ar' ? 'سارة' : 'Sara', marker);
    await signInAs(page, me, PASSWORD);
    // The inbox in the project's language.
    await context.addCookies([{ name: 'globaq-inbox-language', value: lang.code, domain: '127.0.0.1', path: '/admin' }]);

    await page.goto(`/admin?q=${marker}`);
    const waiting =
      lang.code === 'ar' ? /^في الانتظار منذ (أقل من )?/ : /^Waiting (under a working minute|\d+ working (minute|hour|day)s?)$/;
    await expect(page.locator('.lead-row .lead-list__wait')).toHaveText(waiting);
    await expect(page.locator('#lead-week')).toHaveText(
      lang.code === 'ar'
        ? /^آخر 7 أيام: وصل \d+ من الطلبات، أُجيب عن \d+ منها خلال يوم عمل واحد؛/
        : /^Last 7 days: \d+ leads in, \d+ answered within one working day; median time to first answer: /,
    );
    await look('list-waiting', { scroll: false });

    await page.goto(`/admin/leads/${id}?q=${marker}`);
    await expect(page.locator('#lead-wait')).toContainText(
      lang.code === 'ar' ? 'ينتظر أول رد منذ' : 'Waiting for a first answer since',
    );
    await expect(page.locator('#lead-follow-up')).toHaveText(words['admin.followUp.none']);
    // Assigned to me, answered: it stays in Mine (not done); closed, it leaves Mine...
    await page.locator('select[name="assignee"]').selectOption(me);
    await page.getByRole('button', { name: words['admin.lead.saveAssignment'], exact: true }).click();
    await expect(page.getByRole('status')).toHaveText(words['admin.lead.done.assigned']);
    await page.getByRole('button', { name: words['admin.lead.markAnswered'], exact: true }).click();
    await expect(page.getByRole('status')).toHaveText(words['admin.lead.done.answered']);
    await expect(page.locator('#lead-wait')).toContainText(lang.code === 'ar' ? 'أُجيب أول مرة في' : 'First answered');
    await page.goto(`/admin?mine=1&q=${marker}`);
    await expect(page.locator('.lead-row')).toHaveCount(1);
    await page.goto(`/admin/leads/${id}?q=${marker}`);
    await page.locator('.lead-work select[name="status"]').selectOption('closed');
    await page.getByRole('button', { name: words['admin.lead.saveStatus'], exact: true }).click();
    await expect(page.getByRole('status')).toHaveText(words['admin.lead.done.status']);
    await page.goto(`/admin?mine=1&q=${marker}`);
    await expect(page.locator('.lead-row')).toHaveCount(0);
    // ...until a follow-up date is set on it ("please follow up Sunday").
    await page.goto(`/admin/leads/${id}?mine=1&q=${marker}`);
    await page.locator('input[name="followUp"]').fill(FOLLOW_UP);
    await page.locator('button[value="follow-up"]').click();
    await expect(page.getByRole('status')).toHaveText(words['admin.lead.done.followUp']);
    const followUp = page.locator('#lead-follow-up');
    await expect(followUp).toContainText(lang.code === 'ar' ? 'المتابعة في' : 'Follow up on');
    await expect(followUp).toContainText(lang.code === 'ar' ? '2030' : 'Jan 6, 2030');
    await expect(page.locator('#timeline')).toContainText(lang.code === 'ar' ? 'حُدّد موعد المتابعة في' : 'Follow-up set for');
    await look('lead-follow-up', { scroll: false });

    await page.goto(`/admin?mine=1&q=${marker}`);
    const tabs = page.getByRole('navigation', { name: words['admin.list.tabs'] });
    await expect(tabs.getByRole('link', { name: `${words['admin.list.mine']} (1)` })).toHaveAttribute('aria-current', 'page');
    const row = page.locator('.lead-row');
    await expect(row).toHaveCount(1);
    await expect(row.locator('.lead-list__wait')).toContainText(lang.code === 'ar' ? 'أُجيب بعد' : 'Answered after');
    await expect(row.locator('.lead-list__follow-up')).toContainText(lang.code === 'ar' ? 'المتابعة في' : 'Follow up on');
    await look('mine-follow-up', {});

    // Cleared, it leaves Mine again.
    await page.goto(`/admin/leads/${id}?mine=1&q=${marker}`);
    await page.locator('button[value="follow-up-clear"]').click();
    await expect(page.getByRole('status')).toHaveText(words['admin.lead.done.followUpCleared']);
    await page.goto(`/admin?mine=1&q=${marker}`);
    await expect(page.locator('.lead-row')).toHaveCount(0);
  });
});
