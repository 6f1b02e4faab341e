/**
 * What the inbox's end-to-end tests share: a staff account, signing in, a lead posted as the
 * forms post it, with a solved proof of work so it reaches the inbox rather than the held view, and
 * a state looked at in both the desktop and the phone layout.
 */
import { expect, type Page } from '@playwright/test';
import { violations } from './axe';
import { atBothWidths } from './look';
import { hashPassword } from '../../src/server/inbox/staff';
import { openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { solve } from '../helpers/proof';
import { LIGHT_HASH } from '../helpers/server';

/** The database the test server writes (playwright.config.ts). */
const DB = process.env['E2E_SUBMISSIONS_DB'] ?? '';

/**
 * A staff account of the test's own, in the test server's database (or `db`), stored at the light
 * scrypt cost: the specs sign in often. `npm run submissions -- staff add`, the administrator's
 * way, is proved by tests/integration/staff.test.ts.
 */
export async function addStaffAccount(email: string, password: string, db = DB): Promise<void> {
  const staff = openStaffStore(db);
  try {
    await staff.add(email, await hashPassword(password, LIGHT_HASH), new Date());
  } finally {
    await staff.close();
  }
}

export { DESKTOP, PHONE } from './look';

/**
 * Looks at the page's state at 1440 and at 390 px (./look.ts: at its own width, then resized to
 * the other, and back). At each: no sideways scrolling and no axe violations (unless turned off,
 * where the spec checks neither), and a full-page screenshot at `shot(width)`. What a script set
 * at load for the first width stays (the list's bulk actions, folded on a phone until a lead is
 * ticked, open at 1440).
 */
export async function lookAtBothWidths(
  page: Page,
  state: string,
  shot: (width: number) => string,
  { axe = true, scroll = true } = {},
): Promise<void> {
  await atBothWidths(page, async (width) => {
    const at = `${state} at ${width} px`;
    if (scroll) {
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${at}: no sideways scrolling`).toBeLessThanOrEqual(0);
    }
    if (axe) expect(await violations(page), at).toEqual([]);
    await page.screenshot({ path: shot(width), fullPage: true });
  });
}

/** Signs in from the sign-in page and lands on the list. */
export async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL(/\/admin$/);
}

/** A solved proof of work for the next post, from the server's own challenge. */
export async function solvedProof(page: Page): Promise<string> {
  return solve(await (await page.request.get('/api/challenge')).json());
}

/**
 * Presses "Reply by e-mail" on a lead page: its form records the reply and answers with a redirect
 * to the mail program's address, which is returned. No mail program opens in the test browser, and
 * the page's content security policy lets the redirect through (no violation reported): the
 * browser follows it to the address.
 */
export async function openReply(page: Page): Promise<string> {
  const refused: string[] = [];
  const listen = (message: { text(): string }) => {
    if (/Content Security Policy|form-action/i.test(message.text())) refused.push(message.text());
  };
  page.on('console', listen);
  const answer = page.waitForResponse(
    (response) => response.request().method() === 'POST' && /^\/admin\/leads\/[^/]+$/.test(new URL(response.url()).pathname),
    { timeout: 10_000 },
  );
  // The redirect followed: the browser asks for the mail program's address (a policy refusing
  // the redirect stops before that).
  const handedOn = page.waitForRequest((request) => request.url().startsWith('mailto:'), { timeout: 10_000 });
  await page.getByRole('button', { name: 'Reply by e-mail' }).click();
  // A policy that refuses the redirect aborts the request: no answer, and the console says why.
  const fail = (error: Error) => {
    throw new Error(`${error.message} ${refused.join(' ')}`);
  };
  const response = await answer.catch(fail);
  expect(response.status()).toBe(303);
  const location = response.headers()['location'] ?? '';
  expect(location).toMatch(/^mailto:/);
  const mailto = await handedOn.catch(fail);
  expect(mailto.url()).toBe(location);
  // The browser hands the address on (here, with no mail program, drops it: the request ends
  // failed) and the page itself stays.
  await mailto.response();
  page.off('console', listen);
  expect(refused).toEqual([]);
  return location;
}
