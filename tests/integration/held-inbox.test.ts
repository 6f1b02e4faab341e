/**
 * The held leads over HTTP (the list's "Held for review" tab, each lead's page): the built server
 * with lead notifications on (a real SMTP server on loopback). Staff see the held leads with their
 * count and reasons, open one in full, release one (exactly one mail, audited) or mark one as spam
 * (audited, never mailed, then in the one Spam tab), one at a time or selected together; the same
 * origin and form-token checks as every inbox change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { en } from '../../src/i18n/en';
import {
  asForm,
  contactBody,
  partnerBody,
  postForm,
  postJson,
  startServer,
  tempDir,
  type RunningServer,
  LIGHT_HASH,
} from '../helpers/server';
import { startSmtp, type MailSink } from '../helpers/smtp';
import { outboxDelivered } from '../helpers/wait';

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

const get = (route: string, browser: Browser) =>
  fetch(`${server.baseUrl}${route}`, { redirect: 'manual', headers: { Cookie: browser.cookie } });

function post(
  route: string,
  fields: Record<string, string>,
  browser: Browser,
  headers: Record<string, string> = {},
): Promise<Response> {
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

/** Every mail queued so far was sent: the outbox sends nothing more by itself. */
const delivered = () => outboxDelivered(server.dbPath);
const idOf = async (response: Response) => ((await response.json()) as { id: string }).id;

beforeAll(async () => {
  dir = tempDir('globaq-held-inbox-');
  smtp = await startSmtp();
  server = await startServer({
    dbPath: path.join(dir, 'submissions.db'),
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      LEADS_NOTIFY_TO: 'leads@globaq.example',
      LEADS_NOTIFY_FROM: 'website@globaq.example',
      LEADS_NOTIFY_RETRY_SECONDS: '1',
    },
  });
  noProof = await idOf(
    await postJson(
      server.baseUrl,
      '/api/contact',
      contactBody({ firstName: 'Noura', lastName: '<b>Held</b>', altcha: undefined }),
    ),
  );
  honeypot = await idOf(
    await postJson(server.baseUrl, '/api/partner', partnerBody({ name: 'Spambot', homepage: 'http://spam.example' })),
  );
  await postForm(server.baseUrl, '/api/contact', asForm(contactBody({ firstName: 'Khalid', altcha: undefined })));
  verified = await idOf(await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: 'Verified' })));
  const staff = openStaffStore(server.dbPath);
  await staff.add(STAFF, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
  await staff.close();
  await smtp.waitFor(1);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('the held leads are a tab of the list, with their reasons and count; the other tabs show none of them; /admin/held leads there', async () => {
  const browser = await signIn();
  const inbox = await page('/admin', browser);
  expect(inbox).toMatch(/<a href="\/admin\?status=held"[^>]*>Held for review <span[^>]*>\(3\)<\/span>/);
  expect(inbox).not.toContain('href="/admin/held"');
  expect(inbox).toContain(verified);
  expect(inbox).not.toContain(noProof);
  expect(await page('/admin?status=all', browser)).not.toContain(noProof);
  const held = await page('/admin?status=held', browser);
  expect(held).toMatch(/<a href="\/admin\?status=held" aria-current="page"[^>]*>Held for review <span[^>]*>\(3\)<\/span>/);
  expect(held).toContain('3 leads in Held for review.');
  expect(held).toContain(`/admin/leads/${noProof}?status=held`);
  expect(held).not.toContain(verified);
  // The reasons in staff words (the page escapes the apostrophe in "form's").
  for (const reason of ['noProof', 'honeypot', 'noScript'] as const)
    expect(held).toContain(en[`admin.held.reason.${reason}`].replace(/'/g, '&#39;'));
  // What the visitor typed is shown as text; a held lead offers release and spam, no export.
  expect(held).toContain('&lt;b&gt;Held&lt;/b&gt;');
  expect(held).not.toContain('<b>Held</b>');
  expect(held).toContain('value="release"');
  expect(held).not.toContain('/admin/export');
  expect((await post('/admin/export?status=held', { csrf: browser.csrf }, browser)).status).toBe(400);
  const old = await get('/admin/held', browser);
  expect(old.status).toBe(303);
  expect(old.headers.get('location')).toBe('/admin?status=held');
});

test('a held lead opens in full, marked held with why, offering only release and spam; it is not worked, mailed or counted as a lead', async () => {
  const browser = await signIn();
  const html = await page(`/admin/leads/${noProof}?status=held`, browser);
  expect(html).toMatch(/<h2 id="held-heading"[^>]*>Held for review<\/h2>/);
  expect(html).toContain(en['admin.held.reason.noProof'].replace(/'/g, '&#39;'));
  expect(html).toContain('value="release"');
  expect(html).toContain('value="held-spam"');
  expect(html).not.toContain('value="assign"');
  expect(html).not.toContain('value="answered"');
  expect(html).not.toContain('name="note"');
  expect(html).toContain('Lead 3 of 3');
  // Its status, a note and its assignment wait for release.
  for (const fields of [
    { action: 'status', status: 'answered' },
    { action: 'note', note: 'x' },
    { action: 'assign', assignee: STAFF },
    { action: 'answered' },
  ]) {
    const refused = await post(`/admin/leads/${noProof}?status=held`, { ...fields, csrf: browser.csrf }, browser);
    expect(refused.status, fields.action).toBe(400);
    expect(await refused.text()).toContain('release it first');
  }
  expect(await page('/admin?status=all', browser)).not.toContain(noProof);
  // Refused like every inbox change: no session, another origin, a forged token; a forged or unknown id is not found.
  expect(
    (await post(`/admin/leads/${noProof}`, { action: 'release', csrf: browser.csrf }, { cookie: '', csrf: '' })).status,
  ).toBe(403);
  expect((await get(`/admin/leads/${noProof}`, { cookie: '', csrf: '' })).status).toBe(303);
  expect(
    (
      await post(`/admin/leads/${noProof}`, { action: 'release', csrf: browser.csrf }, browser, {
        Origin: 'https://evil.example',
      })
    ).status,
  ).toBe(403);
  expect((await post(`/admin/leads/${noProof}`, { action: 'release', csrf: `${browser.csrf}x` }, browser)).status).toBe(403);
  expect(
    (await post('/admin/leads/00000000-0000-4000-8000-000000000000', { action: 'release', csrf: browser.csrf }, browser)).status,
  ).toBe(404);
  expect((await post('/admin/leads/not-a-lead', { action: 'release', csrf: browser.csrf }, browser)).status).toBe(404);
  await delivered();
  expect(smtp.mails.length).toBe(1);
});

test('release sends exactly one mail and is audited and on the timeline; a second release changes nothing; mark as spam is audited and on the timeline, never mailed, and in the one Spam tab', async () => {
  const browser = await signIn();
  await page(`/admin/leads/${noProof}?status=held`, browser);
  const before = smtp.mails.length;
  const released = await post(`/admin/leads/${noProof}?status=held`, { action: 'release', csrf: browser.csrf }, browser);
  expect(released.status).toBe(303);
  expect(released.headers.get('location')).toBe(`/admin/leads/${noProof}?status=held&done=released`);
  const second = await post(`/admin/leads/${noProof}?status=held`, { action: 'release', csrf: browser.csrf }, browser);
  expect(second.status).toBe(400);
  await smtp.waitFor(before + 1);
  await delivered();
  expect(smtp.mails.length).toBe(before + 1);
  expect(smtp.mails.at(-1)!.parsed.text).toContain(`Lead ${noProof}`);
  expect(await page('/admin', browser)).toContain(noProof);
  const releasedPage = await page(`/admin/leads/${noProof}`, browser);
  expect(releasedPage).not.toContain('id="held-heading"');
  expect(releasedPage).toContain('value="assign"');
  // The timeline tells who released it.
  expect(releasedPage).toMatch(
    /Released from review to the inbox[\s\S]{0,400}huda@globaq\.example|huda@globaq\.example[\s\S]{0,400}Released from review/,
  );

  const spam = await post(`/admin/leads/${honeypot}`, { action: 'held-spam', csrf: browser.csrf }, browser);
  expect(spam.status).toBe(303);
  expect(spam.headers.get('location')).toBe(`/admin/leads/${honeypot}?done=held-spam`);
  expect(await page(`/admin/leads/${honeypot}`, browser)).toContain('Status set to Spam');
  const held = await page('/admin?status=held', browser);
  expect(held).not.toContain(honeypot);
  expect(held).toMatch(/Held for review <span[^>]*>\(1\)<\/span>/);
  // One Spam: the held lead marked as spam is in the Spam tab with the others, and counted there.
  const spamTab = await page('/admin?status=spam', browser);
  expect(spamTab).toContain(`/admin/leads/${honeypot}`);
  expect(spamTab).toMatch(/aria-current="page"[^>]*>Spam <span[^>]*>\(1\)<\/span>/);
  expect(spamTab).toContain('1 lead in Spam.');
  await delivered();
  expect(smtp.mails.length).toBe(before + 1);

  const audit = await page('/admin/audit', browser);
  expect(audit).toContain('released held lead');
  expect(audit).toContain('marked held lead as spam');
});

test("the held tab's selection: release or mark several at once, each audited; a lead no longer held is left as it was and counted", async () => {
  const browser = await signIn();
  const more = await idOf(
    await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: 'Bulk', lastName: 'Held', altcha: undefined })),
  );
  const held = await page('/admin?status=held', browser);
  const khalid = /\/admin\/leads\/([0-9a-f-]{36})\?status=held/g;
  const ids = [...held.matchAll(khalid)].map((match) => match[1]!);
  expect(ids).toContain(more);
  expect(ids).toHaveLength(2);
  const before = smtp.mails.length;
  const body = new URLSearchParams([
    ['csrf', browser.csrf],
    ['list', 'status=held'],
    ['action', 'release'],
    ...ids.map((id) => ['id', id]),
    ['id', noProof],
  ]);
  const response = await fetch(`${server.baseUrl}/admin/bulk`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin, Cookie: browser.cookie },
    body: body.toString(),
  });
  expect(response.status).toBe(303);
  expect(response.headers.get('location')).toBe('/admin?status=held&done=released&n=2&missing=1');
  const after = await page('/admin?status=held&done=released&n=2&missing=1', browser);
  expect(after).toContain('2 leads released');
  expect(after).toContain('1 of the selected leads was no longer held');
  expect(after).toMatch(/Held for review <span[^>]*>\(0\)<\/span>/);
  await smtp.waitFor(before + 2);
  await delivered();
  expect(smtp.mails.length).toBe(before + 2);
});
