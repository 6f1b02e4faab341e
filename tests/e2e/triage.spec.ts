/**
 * Triage in a real browser, as office staff work the inbox every day: the status tabs with their
 * counts, a new lead marked in words, a selection worked at once (with JavaScript: "select all";
 * without: ticked by hand, the deletion asked on a page of its own), sorting and Previous/Next,
 * search by phone in Arabic-Indic digits, a reversed date range, an empty result, the list as
 * cards on a phone. Each flow runs once, the one with JavaScript at 390 px (where the list is
 * cards), the one without at 1440; each state it reaches is looked at in both widths, with a
 * screenshot in test-results/triage/ (not kept in git) for a person to look at.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { addStaffAccount, DESKTOP, lookAtBothWidths, PHONE, signInAs, solvedProof } from './staff-helpers';
import { contactBody, partnerBody } from '../helpers/server';

const PASSWORD = 'inbox password for tests';
const SHOTS = path.join(import.meta.dirname, '..', '..', 'test-results', 'triage');

const addStaff = (email: string): Promise<void> => addStaffAccount(email, PASSWORD);

const signIn = (page: Page, email: string): Promise<void> => signInAs(page, email, PASSWORD);

/** Three leads with a marker of their own: two contact messages and a partner application (a Bahraini phone). */
async function postLeads(page: Page, marker: string): Promise<{ noura: string; bader: string; partner: string }> {
  const origin = new URL(page.url() === 'about:blank' ? 'http://127.0.0.1' : page.url()).origin;
  const post = async (form: string, data: Record<string, unknown>) => {
    // With a solved proof of work, so the lead is in the inbox, not held for review.
    const altcha = await solvedProof(page);
    const response = await page.request.post(`/api/${form}`, {
      headers: { Origin: origin, 'Content-Type': 'application/json' },
      data: { altcha, ...data },
    });
    expect(response.status()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const contact = (firstName: string) =>
    contactBody({
      firstName,
      lastName: 'Al-Dossary',
      email: `${firstName.toLowerCase()}.al-dossary.procurement-department@eastern-fabrication-company.example`,
      country: 'السعودية',
      company: `${marker} Fabrication`,
    });
  const noura = await post('contact', contact('Noura'));
  const bader = await post('contact', contact('Bader'));
  const partner = await post(
    'partner',
    partnerBody({
      name: 'Yousef Al-Mannai',
      phoneNumber: '+973 3312 3456',
      country: 'Bahrain',
      cityName: 'Manama',
      organization: `${marker} Pearl Audits`,
    }),
  );
  return { noura, bader, partner };
}

/** A state at 1440 and 390 px: no sideways scrolling and axe where asked, and a screenshot `name`-width. */
const look = (page: Page, name: string, check?: { axe?: boolean; scroll?: boolean }): Promise<void> =>
  lookAtBothWidths(page, name, (width) => path.join(SHOTS, `${name}-${width}.png`), check);

test.describe('triage at 390 px', () => {
  test.use({ viewport: PHONE });

  test('tabs with counts, a new lead marked, a selection set answered with "select all", sorting and Previous/Next, search by phone', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const marker = `Triage${testInfo.workerIndex}x${Date.now()}`;
    const email = `triage-${testInfo.workerIndex}-${Date.now()}@globaq.example`;
    await addStaff(email);
    await page.goto('/');
    const { noura, bader, partner } = await postLeads(page, marker);
    await signIn(page, email);
    await page.goto(`/admin?q=${marker}`);
    const tabs = page.getByRole('navigation', { name: 'Lead status' });
    await expect(tabs.getByRole('link', { name: 'Needs work (3)' })).toHaveAttribute('aria-current', 'page');
    await expect(tabs.getByRole('link', { name: 'Answered (0)' })).toBeVisible();
    await expect(tabs.getByRole('link', { name: 'Closed (0)' })).toBeVisible();
    await expect(tabs.getByRole('link', { name: 'Spam (0)' })).toBeVisible();
    // A new lead says so in words, not only in colour.
    await expect(page.locator('.lead-row', { hasText: 'Noura Al-Dossary' }).locator('.lead-badge')).toHaveText('New');
    // At 390 px, one card per lead: name, form, status, received; nothing else of the table.
    const card = page.locator('.lead-row', { hasText: 'Noura Al-Dossary' });
    await expect(card).toBeVisible();
    await expect(card.locator('.lead-list__form')).toBeVisible();
    await expect(card.locator('.lead-list__status')).toBeVisible();
    await expect(card.locator('.lead-list__received')).toBeVisible();
    await expect(card.locator('.lead-list__org')).toBeHidden();
    const box = await card.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    // The long e-mail wraps inside the card, at its break points.
    const mail = card.locator('.lead-list__email');
    expect((await mail.boundingBox())!.width).toBeLessThanOrEqual(box!.width);
    // The filters are folded away until asked for.
    await expect(page.getByLabel('Form')).toBeHidden();
    await look(page, 'list-tabs');

    // Select all on the page (JavaScript), then leave one out: two set answered at once.
    await page.getByRole('checkbox', { name: 'Select all on this page' }).check();
    await page.getByRole('checkbox', { name: 'Yousef Al-Mannai' }).uncheck();
    await expect(page.locator('#bulk-selected')).toHaveText('2 leads selected.');
    await look(page, 'selection', { axe: false, scroll: false });
    await page.getByRole('group', { name: 'With the selected leads' }).getByLabel('Status').selectOption('answered');
    await page.getByRole('button', { name: 'Set status' }).click();
    await page.getByRole('button', { name: 'Yes, set 2 leads to Answered' }).click();
    await expect(page.getByRole('status').first()).toHaveText('2 leads set to Answered.');
    await expect(tabs.getByRole('link', { name: 'Needs work (1)' })).toBeVisible();
    await expect(tabs.getByRole('link', { name: 'Answered (2)' })).toBeVisible();

    // Sorted by name in the Answered tab: Bader, then Noura; the lead page walks that order.
    await tabs.getByRole('link', { name: 'Answered (2)' }).click();
    await page.getByText('Filters and order').click();
    await page.getByLabel('Order').selectOption('name');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByLabel('Order')).toHaveValue('name');
    await look(page, 'filters-open');
    await page.getByRole('link', { name: 'Bader Al-Dossary' }).click();
    const walk = page.getByRole('navigation', { name: 'Leads' });
    await expect(walk).toContainText('Lead 1 of 2');
    await walk.getByRole('link', { name: 'Next →' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/leads/${noura}\\?`));
    await expect(walk).toContainText('Lead 2 of 2');
    await walk.getByRole('link', { name: '← Previous' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/leads/${bader}\\?`));
    await walk.getByRole('link', { name: 'Back to the leads' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin\\?status=answered&q=${marker}&sort=name`));

    // The phone number, typed in Arabic-Indic digits with spaces.
    await page.goto(`/admin?status=all&q=${encodeURIComponent('+٩٧٣ ٣٣١٢ ٣٤٥٦')}`);
    await expect(page.locator(`a[href^="/admin/leads/${partner}"]`)).toBeVisible();
  });
});

test.describe('triage at 1440 px', () => {
  test('a reversed date range says so; an empty result offers no export; deleting a selection without JavaScript asks once', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const marker = `Empty${testInfo.workerIndex}x${Date.now()}`;
    const email = `empty-${testInfo.workerIndex}-${Date.now()}@globaq.example`;
    await addStaff(email);
    const page = await browser.newPage({ viewport: DESKTOP, javaScriptEnabled: false });
    await page.goto('/');
    const { noura, bader } = await postLeads(page, marker);
    await signIn(page, email);
    await page.goto('/admin?from=2026-11-20&to=2026-11-10');
    await expect(page.getByRole('alert')).toContainText(
      'The “From” date (2026-11-20) is after the “To” date (2026-11-10), so no lead can match.',
    );
    await expect(page.getByRole('button', { name: /^Export/ })).toHaveCount(0);
    await look(page, 'reversed-range', { axe: false });
    await page.getByRole('link', { name: 'Swap the dates' }).click();
    await expect(page).toHaveURL(/from=2026-11-10&to=2026-11-20/);

    await page.goto(`/admin?q=${marker}+nothing+like+this`);
    await expect(page.locator('#lead-count')).toHaveText('0 leads found in Needs work with this filter.');
    await expect(page.getByRole('button', { name: /^Export/ })).toHaveCount(0);
    await expect(page.getByRole('group', { name: 'With the selected leads' })).toHaveCount(0);
    await look(page, 'empty', { axe: false, scroll: false });

    // Without JavaScript: no "select all"; two boxes ticked by hand, then Delete asks once.
    await page.goto(`/admin?q=${marker}`);
    await expect(page.getByRole('checkbox', { name: 'Select all on this page' })).toBeHidden();
    await page.getByRole('checkbox', { name: 'Noura Al-Dossary' }).check();
    await page.getByRole('checkbox', { name: 'Bader Al-Dossary' }).check();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await expect(page.getByRole('heading', { name: 'Delete 2 leads for good?' })).toBeVisible();
    await look(page, 'delete-confirm', { axe: false });
    await page.getByRole('button', { name: 'Yes, delete 2 leads' }).click();
    await expect(page.getByRole('status').first()).toHaveText('2 leads deleted.');
    await expect(page.locator(`a[href^="/admin/leads/${noura}"], a[href^="/admin/leads/${bader}"]`)).toHaveCount(0);
    await expect(
      page.getByRole('navigation', { name: 'Lead status' }).getByRole('link', { name: 'Needs work (1)' }),
    ).toBeVisible();
    await page.close();
  });
});
