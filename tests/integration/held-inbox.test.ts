/**
 * The held view over HTTP (/admin/held): the built server with lead notifications on (a real SMTP
 * server on loopback). Staff see the held leads with their count and reasons (the inbox's
 * navigation shows the count), release one (exactly one mail, audited) or mark one as spam
 * (audited, never mailed); the same origin and form-token checks as every inbox change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { asForm, contactBody, partnerBody, postForm, postJson, startServer, tempDir, type RunningServer } from '../helpers/server';
import { startSmtp, type MailSink } from '../helpers/smtp';

const PASSWORD = 'correct horse battery staple';
const STAFF = 'huda@globaq.example';
let dir: string;
let server: RunningServer;
let smtp: MailSink;
let noProof: string;
let honeypot: string;
let verified: string;

interface Browser {
  cookie: string;
  csrf: string;
}

const get = (route: string, browser: Browser) => fetch(`${server.baseUrl}${route}`, { redirect: 'manual', headers: { Cookie: browser.cookie } });

function post(route: string, fields: Record<string, string>, browser: Browser, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.baseUrl}${route}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin, Cookie: browser.cookie, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

async function page(route: string, browser: Browser): Promise<string> {
  const response = await get(route, browser);
  expect(response.status, route).toBe(200);
  const html = await response.text();
  browser.csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? browser.csrf;
  return html;
}

async function signIn(): Promise<Browser> {
  const response = await fetch(`${server.baseUrl}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin },
    body: new URLSearchParams({ email: STAFF, password: PASSWORD }).toString(),
  });
  expect(response.status).toBe(303);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('globaq-staff='))!;
  const browser = { cookie: cookie.split(';')[0]!, csrf: '' };
  await page('/admin', browser);
  return browser;
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const idOf = async (response: Response) => ((await response.json()) as { id: string }).id;

beforeAll(async () => {
  dir = tempDir('globaq-held-inbox-');
  smtp = await startSmtp();
  server = await startServer({
    dbPath: path.join(dir, 'submissions.db'),
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, LEADS_NOTIFY_TO: 'leads@globaq.example', LEADS_NOTIFY_FROM: 'website@globaq.example', LEADS_NOTIFY_RETRY_SECONDS: '1' },
  });
  noProof = await idOf(await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: 'Noura', lastName: '<b>Held</b>', altcha: undefined })));
  honeypot = await idOf(await postJson(server.baseUrl, '/api/partner', partnerBody({ name: 'Spambot', homepage: 'http://spam.example' })));
  await postForm(server.baseUrl, '/api/contact', asForm(contactBody({ firstName: 'Khalid', altcha: undefined })));
  verified = await idOf(await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: 'Verified' })));
  const staff = openStaffStore(server.dbPath);
  await staff.add(STAFF, await hashPassword(PASSWORD), new Date());
  await staff.close();
  await smtp.waitFor(1);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the held view lists each held lead with its reason and count; the navigation shows the count; the inbox list shows none of them', async () => {
  const browser = await signIn();
  const inbox = await page('/admin', browser);
  expect(inbox).toContain('href="/admin/held"');
  expect(inbox).toMatch(/Held \(3\)/);
  expect(inbox).toContain(verified);
  expect(inbox).not.toContain(noProof);
  const held = await page('/admin/held', browser);
  expect(held).toMatch(/Held for review <span class="admin-count"[^>]*>\(3\)<\/span>/);
  expect(held).toContain(noProof);
  expect(held).toContain('No proof of work (another client, or a page cached from before)');
  expect(held).toContain('Filled the hidden field only bots see');
  expect(held).toContain('Sent without JavaScript (no proof of work possible)');
  // What the visitor typed is shown as text.
  expect(held).toContain('&lt;b&gt;Held&lt;/b&gt;');
  expect(held).not.toContain('<b>Held</b>');
});

test('release sends exactly one mail and is audited; a second release changes nothing; mark as spam is audited and never mailed', async () => {
  const browser = await signIn();
  await page('/admin/held', browser);
  // Refused like every inbox change: another origin, a forged token.
  expect((await post('/admin/held', { action: 'release', id: noProof, csrf: browser.csrf }, browser, { Origin: 'https://evil.example' })).status).toBe(403);
  expect((await post('/admin/held', { action: 'release', id: noProof, csrf: `${browser.csrf}x` }, browser)).status).toBe(403);

  const before = smtp.mails.length;
  const released = await post('/admin/held', { action: 'release', id: noProof, csrf: browser.csrf }, browser);
  expect(released.status).toBe(303);
  expect(released.headers.get('location')).toBe('/admin/held?done=released');
  expect((await post('/admin/held', { action: 'release', id: noProof, csrf: browser.csrf }, browser)).status).toBe(400);
  await smtp.waitFor(before + 1);
  await settle(2500);
  expect(smtp.mails.length).toBe(before + 1);
  expect(smtp.mails.at(-1)!.parsed.text).toContain(`Lead ${noProof}`);
  expect(await page('/admin', browser)).toContain(noProof);

  const spam = await post('/admin/held', { action: 'spam', id: honeypot, csrf: browser.csrf }, browser);
  expect(spam.status).toBe(303);
  const held = await page('/admin/held', browser);
  expect(held).not.toContain(honeypot);
  expect(held).toMatch(/\(1\)<\/span>/);
  await settle(1500);
  expect(smtp.mails.length).toBe(before + 1);

  const audit = await page('/admin/audit', browser);
  expect(audit).toContain('released held lead');
  expect(audit).toContain('marked held lead as spam');
});
