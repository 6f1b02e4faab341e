/**
 * The inbox's tabs as office staff use them, in a real browser, with leads sent from the English
 * site (the project `en`); the project `ar` walks leads sent from the Arabic one, Arabic names
 * sorted Z to A, at 390 px. Each flow runs once, at 1440 or 390 px (alternately, so both layouts
 * are clicked in), and each state it reaches is looked at in both widths:
 * - "Mine": what needs work and is assigned to me, with its count; the other tabs everyone's.
 * - Previous and Next after a save: the lead page keeps the list it was opened from through
 *   every save, and deleting returns to that list.
 * - One Spam and the held leads: a "Held for review" tab with its count and reasons; a held lead
 *   opens in full, marked so, with Release and Mark as spam; marked as spam it is in the Spam tab;
 *   released from the list's selection it joins the leads; /admin/held leads to the tab.
 * Screenshots of each state go to test-results/inbox-tabs/ (not kept in git) for a person to look at.
 */
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './site-locale';
import { addStaffAccount, DESKTOP, lookAtBothWidths, PHONE, signInAs, solvedProof } from './staff-helpers';
import { contactBody } from '../helpers/server';

const PASSWORD = 'inbox password for tests';
const SHOTS = path.join(import.meta.dirname, '..', '..', 'test-results', 'inbox-tabs');

/** Visitor names in the project's language. */
const NAMES = {
  en: ['Amal', 'Basim', 'Dana'],
  ar: ['أمل', 'باسم', 'دانة'],
} as const;

/** Posts a contact message from the project's language's site; with a solved proof it reaches the inbox, without one it is held. */
async function postLead(page: Page, lang: 'en' | 'ar', firstName: string, company: string, proof = true): Promise<string> {
  const origin = new URL(page.url()).origin;
  const data: Record<string, unknown> = {
    ...contactBody({ firstName, lastName: lang === 'ar' ? 'الدوسري' : 'Al-Dossary', company }),
    altcha: proof ? await solvedProof(page) : undefined,
  };
  const response = await page.request.post(`/api/contact${lang === 'ar' ? '?lang=ar' : ''}`, {
    headers: { Origin: origin, 'Content-Type': 'application/json' },
    data,
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A state at 1440 and 390 px: no sideways scrolling, axe unless turned off, and a screenshot `name`-language-width. */
const look = (page: Page, lang: string, name: string, check?: { axe?: boolean }): Promise<void> =>
  lookAtBothWidths(page, name, (width) => path.join(SHOTS, `${name}-${lang}-${width}.png`), check);

test.describe("the inbox's tabs at 1440 px", () => {
  test.use({ viewport: DESKTOP });

  test('"Mine": the leads assigned to me not done, answered ones too, with their count; the other tabs are everyone\'s', async ({
    page,
    lang,
  }, testInfo) => {
    test.setTimeout(120_000);
    const marker = `Mine${lang.code}x${testInfo.workerIndex}${Date.now()}`;
    const me = `mine-${lang.code}-${testInfo.workerIndex}-${Date.now()}@globaq.example`;
    const colleague = `colleague-${lang.code}-${testInfo.workerIndex}-${Date.now()}@globaq.example`;
    await addStaffAccount(me, PASSWORD);
    await addStaffAccount(colleague, PASSWORD);
    await page.goto(lang.path('/'));
    const [first, second] = NAMES[lang.code];
    const mine = await postLead(page, lang.code, first, marker);
    const theirs = await postLead(page, lang.code, second, marker);
    await signInAs(page, me, PASSWORD);
    // Assigned on each lead's page: one to me, one to a colleague.
    for (const [id, to] of [
      [mine, `${me} (me)`],
      [theirs, colleague],
    ] as const) {
      await page.goto(`/admin/leads/${id}?q=${marker}`);
      await page.getByLabel('Assigned to').selectOption({ label: to });
      await page.getByRole('button', { name: 'Save assignment' }).click();
      await expect(page.getByRole('status')).toHaveText('The assignment was saved.');
    }
    await page.goto(`/admin?q=${marker}`);
    const tabs = page.getByRole('navigation', { name: 'Lead status' });
    await expect(tabs.getByRole('link', { name: 'Needs work (2)' })).toHaveAttribute('aria-current', 'page');
    await tabs.getByRole('link', { name: 'Mine (1)' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin\\?mine=1&q=${marker}$`));
    await expect(tabs.getByRole('link', { name: 'Mine (1)' })).toHaveAttribute('aria-current', 'page');
    await expect(page.locator('#lead-count')).toHaveText('1 lead found in Mine with this filter.');
    await expect(page.locator('.lead-row')).toHaveCount(1);
    await expect(page.locator('.lead-row').getByRole('link', { name: new RegExp(first) })).toBeVisible();
    await look(page, lang.code, 'mine');
    // The lead page walks Mine.
    await page
      .locator('.lead-row')
      .getByRole('link', { name: new RegExp(first) })
      .click();
    await expect(page.getByRole('navigation', { name: 'Leads' })).toContainText('Lead 1 of 1');
    // Answered it: it stays in Mine (not done: the customer may answer back); the other tabs leave Mine.
    await page.getByRole('button', { name: 'Mark answered', exact: true }).click();
    await expect(page).toHaveURL(/mine=1/);
    await page.getByRole('link', { name: 'Back to the leads' }).click();
    await expect(tabs.getByRole('link', { name: 'Mine (1)' })).toHaveAttribute('aria-current', 'page');
    await tabs.getByRole('link', { name: 'Answered (1)' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin\\?status=answered&q=${marker}$`));
    // The colleague's Mine is theirs.
    await page.context().clearCookies();
    await signInAs(page, colleague, PASSWORD);
    await page.goto(`/admin?mine=1&q=${marker}`);
    await expect(page.locator('.lead-row')).toHaveCount(1);
    await expect(page.locator('.lead-row').getByRole('link', { name: new RegExp(second) })).toBeVisible();
  });

  test('one Spam and the held leads: a tab with count and reasons, each held lead opened in full, marked as spam into Spam, released from the selection', async ({
    page,
    lang,
  }, testInfo) => {
    test.setTimeout(120_000);
    const marker = `Held${lang.code}x${testInfo.workerIndex}${Date.now()}`;
    const email = `held-${lang.code}-${testInfo.workerIndex}-${Date.now()}@globaq.example`;
    await addStaffAccount(email, PASSWORD);
    await page.goto(lang.path('/'));
    const [first, second] = NAMES[lang.code];
    const bot = await postLead(page, lang.code, first, marker, false);
    await postLead(page, lang.code, second, marker, false);
    await signInAs(page, email, PASSWORD);
    await expect(page.getByRole('navigation', { name: 'Inbox' }).getByRole('link', { name: /^Held/ })).toHaveCount(0);
    await page.goto(`/admin?q=${marker}`);
    const tabs = page.getByRole('navigation', { name: 'Lead status' });
    await expect(page.locator('.lead-row')).toHaveCount(0);
    await tabs.getByRole('link', { name: 'Held for review (2)' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin\\?status=held&q=${marker}$`));
    await expect(page.locator('.lead-row')).toHaveCount(2);
    await expect(page.locator('.lead-row').first()).toContainText("The form's spam check did not run");
    await look(page, lang.code, 'held-tab');
    // The held lead in full: marked held, why, and its two actions.
    await page
      .locator('.lead-row')
      .getByRole('link', { name: new RegExp(first) })
      .click();
    await expect(page).toHaveURL(new RegExp(`/admin/leads/${bot}\\?status=held&q=${marker}$`));
    const heldBox = page.getByRole('region', { name: 'Held for review' });
    await expect(heldBox).toContainText("Held because: The form's spam check did not run");
    await expect(page.getByRole('button', { name: 'Save status' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Mark answered', exact: true })).toHaveCount(0);
    await look(page, lang.code, 'held-lead');
    await heldBox.getByRole('button', { name: 'Mark as spam', exact: true }).click();
    await expect(page.getByRole('status')).toContainText('Marked as spam');
    await expect(page.getByRole('region', { name: 'Held for review' })).toHaveCount(0);
    // One Spam: it is in the Spam tab, counted; one is still held.
    await page.goto(`/admin?status=spam&q=${marker}`);
    await expect(tabs.getByRole('link', { name: 'Spam (1)' })).toHaveAttribute('aria-current', 'page');
    await expect(tabs.getByRole('link', { name: 'Held for review (1)' })).toBeVisible();
    await expect(page.locator('.lead-row').getByRole('link', { name: new RegExp(first) })).toBeVisible();
    // Released from the held tab's selection: it joins what needs work.
    await tabs.getByRole('link', { name: 'Held for review (1)' }).click();
    await page.locator('.lead-row input[name="id"]').check();
    await page.getByRole('button', { name: 'Release to the inbox' }).click();
    await expect(page.getByRole('status').first()).toContainText('1 lead released');
    await expect(tabs.getByRole('link', { name: 'Held for review (0)' })).toHaveAttribute('aria-current', 'page');
    await expect(tabs.getByRole('link', { name: 'Needs work (1)' })).toBeVisible();
    // The old address leads to the tab.
    await page.goto('/admin/held');
    await expect(page).toHaveURL(/\/admin\?status=held$/);
  });
});

test.describe("the inbox's tabs at 390 px", () => {
  test.use({ viewport: PHONE });

  // In Arabic too (@rtl): the Arabic names sorted, and the lead page at a phone's width.
  test('Previous and Next after a save walk the list the lead was opened from; deleting returns to it @rtl', async ({
    page,
    lang,
  }, testInfo) => {
    test.setTimeout(120_000);
    const marker = `Walk${lang.code}x${testInfo.workerIndex}${Date.now()}`;
    const email = `walk-${lang.code}-${testInfo.workerIndex}-${Date.now()}@globaq.example`;
    await addStaffAccount(email, PASSWORD);
    await page.goto(lang.path('/'));
    const names = NAMES[lang.code];
    for (const name of names) await postLead(page, lang.code, name, marker);
    await signInAs(page, email, PASSWORD);
    // Every status, sorted by name Z to A: the third name, the second, the first.
    await page.goto(`/admin?status=all&q=${marker}&sort=name&dir=desc`);
    await page.getByRole('link', { name: new RegExp(names[1]) }).click();
    const walk = page.getByRole('navigation', { name: 'Leads' });
    await expect(walk).toContainText('Lead 2 of 3');
    await page.locator('.lead-work select[name="status"]').selectOption({ label: 'In progress' });
    await page.getByRole('button', { name: 'Save status' }).click();
    await expect(page.getByRole('status')).toHaveText('The status was saved.');
    await expect(page).toHaveURL(new RegExp(`\\?status=all&q=${marker}&sort=name&dir=desc&done=status$`));
    await page.getByLabel("Add a note (for staff; a copy of the person's data includes it)").fill('Called, will send the scope.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect(page.getByRole('status')).toHaveText('The note was added to the timeline.');
    await expect(walk).toContainText('Lead 2 of 3');
    await look(page, lang.code, 'walk-after-save', { axe: false });
    await walk.getByRole('link', { name: 'Next →' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(names[0]);
    await walk.getByRole('link', { name: '← Previous' }).click();
    await walk.getByRole('link', { name: '← Previous' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toContainText(names[2]);
    // Deleted from its page: back to the same list, which says so.
    await page.getByRole('button', { name: 'Delete this lead' }).click();
    await page.getByRole('button', { name: 'Yes, delete it', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/admin\\?status=all&q=${marker}&sort=name&dir=desc&done=deleted$`));
    await expect(page.getByRole('status').first()).toContainText('The lead was deleted.');
    await expect(page.locator('.lead-row')).toHaveCount(2);
  });
});
