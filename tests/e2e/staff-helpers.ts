/**
 * What the inbox's end-to-end tests share: a staff account made by the staff command (as an
 * administrator would), signing in, and a lead posted as the forms post it, with a solved proof of
 * work so it reaches the inbox rather than the held view.
 */
import { spawnSync } from 'node:child_process';
import { expect, type Page } from '@playwright/test';
import { solve } from '../helpers/proof';

/** The database the test server writes (playwright.config.ts). */
const DB = process.env['E2E_SUBMISSIONS_DB'] ?? '';

/** A staff account of the test's own, made by `npm run submissions -- staff add` (in the test server's database, or `db`). */
export function addStaffAccount(email: string, password: string, db = DB): void {
  const result = spawnSync('npm', ['run', '--silent', 'submissions', '--', 'staff', 'add', email], {
    env: { ...process.env, SUBMISSIONS_DB: db },
    input: `${password}\n`,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(result.status, result.stderr).toBe(0);
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
