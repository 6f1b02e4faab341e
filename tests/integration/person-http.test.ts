/**
 * "Person's data" over HTTP (/admin/person), against the built server with a real database:
 * refused without a session, from another origin, with a missing or forged form token; for
 * staff, reached from a lead's page with the person's e-mail filled in (never the phone), it lists
 * their leads, a lead sharing only the full phone with a box to tick, and answers with the file
 * (JSON, or a printable page in the person's language) of those with the e-mail and those ticked,
 * audited by the leads' ids only; nobody found says so, and hands over no file. An attacker's lead
 * with the last digits of someone's phone finds only itself. The person's values reach no log.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { contactBody, partnerBody, postJson, startServer, tempDir, type RunningServer, LIGHT_HASH } from '../helpers/server';

let dir: string;
let server: RunningServer;
const PASSWORD = 'correct horse battery staple';
const STAFF = 'huda@globaq.example';
const ids: string[] = [];
let strangerId: string;
let samePhoneId: string;
let attackerId: string;

interface Browser {
  cookie: string;
  csrf: string;
}

function post(route: string, fields: Record<string, string>, browser?: Browser, headers: Record<string, string> = {}) {
  return fetch(`${server.baseUrl}${route}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: server.origin,
      ...(browser ? { Cookie: browser.cookie } : {}),
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

async function page(route: string, browser: Browser): Promise<string> {
  const response = await fetch(`${server.baseUrl}${route}`, { redirect: 'manual', headers: { Cookie: browser.cookie } });
  expect(response.status, route).toBe(200);
  const html = await response.text();
  browser.csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? browser.csrf;
  return html;
}

async function signIn(): Promise<Browser> {
  const response = await post('/admin/login', { email: STAFF, password: PASSWORD });
  expect(response.status).toBe(303);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('globaq-staff='))!;
  const browser = { cookie: cookie.split(';')[0]!, csrf: '' };
  await page('/admin', browser);
  return browser;
}

function audit(): { actor: string; action: string; leadId: string | null; detail: string }[] {
  const db = new DatabaseSync(server.dbPath);
  try {
    return db.prepare('SELECT actor, action, lead_id AS leadId, detail FROM audit_log ORDER BY seq').all() as {
      actor: string;
      action: string;
      leadId: string | null;
      detail: string;
    }[];
  } finally {
    db.close();
  }
}

async function lead(form: 'contact' | 'partner', fields: Record<string, unknown>, query = ''): Promise<string> {
  const body = form === 'contact' ? contactBody(fields) : partnerBody(fields);
  const response = await postJson(server.baseUrl, `/api/${form}${query}`, body, { Origin: server.origin });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

beforeAll(async () => {
  dir = tempDir('globaq-person-http-');
  server = await startServer({ dbPath: path.join(dir, 'submissions.db') });
  ids.push(await lead('contact', { firstName: 'Noura', email: 'noura@example.com', message: 'Hi <img src=x onerror=alert(1)>' }));
  ids.push(await lead('partner', { name: 'نورة', email: 'Noura@Example.com', phoneNumber: '+966 50 765 4321' }, '?lang=ar'));
  strangerId = await lead('contact', { email: 'someone@example.com' });
  samePhoneId = await lead('partner', { email: 'office@example.com', phoneNumber: '00966507654321' });
  attackerId = await lead('partner', { email: 'attacker@evil.example', phoneNumber: '765 4321' });
  const staff = openStaffStore(server.dbPath);
  await staff.add(STAFF, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
  await staff.close();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the attacker's requests: no session, another origin, no token, a forged token: refused, no file, nothing recorded", async () => {
  const browser = await signIn();
  await page('/admin/person', browser);
  const fields = { email: 'noura@example.com', format: 'json' };
  const attempts = [
    await post('/admin/person', { ...fields, csrf: browser.csrf }),
    await post('/admin/person', { ...fields, csrf: browser.csrf }, browser, { Origin: 'https://evil.example' }),
    await post('/admin/person', fields, browser),
    await post('/admin/person', { ...fields, csrf: 'forged' }, browser),
  ];
  for (const response of attempts) {
    expect(response.status).toBe(403);
    expect(await response.text()).not.toContain('noura');
  }
  // Opened without a session: to sign in, nothing shown.
  const signedOut = await fetch(`${server.baseUrl}/admin/person`, { redirect: 'manual' });
  expect(signedOut.status).toBe(303);
  expect(audit().some((entry) => entry.action === "exported a person's data")).toBe(false);
});

test('from a lead page, filled in with its e-mail only; the file as JSON and as a page in the person’s language; audited by ids', async () => {
  const browser = await signIn();
  const leadPage = await page(`/admin/leads/${ids[1]}`, browser);
  expect(leadPage).toContain(`href="/admin/person?lead=${ids[1]}"`);
  const form = await page(`/admin/person?lead=${ids[1]}`, browser);
  expect(form).toContain('value="Noura@Example.com"');
  expect(form).not.toContain('value="+966 50 765 4321"');
  // The lead sharing only the phone is offered, unticked, with the number it shares.
  expect(form).toContain(`<input type="checkbox" name="lead" value="${samePhoneId}">`);
  expect(form).toContain('+966507654321');
  expect(form).not.toContain(strangerId);
  expect(await page('/admin', browser)).toContain('href="/admin/person"');

  const json = await post('/admin/person', { email: 'NOURA@example.com', format: 'json', csrf: browser.csrf }, browser);
  expect(json.status).toBe(200);
  expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(json.headers.get('content-disposition')).toMatch(/^attachment; filename="globaq-person-\d{4}-\d{2}-\d{2}\.json"$/);
  expect(json.headers.get('cache-control')).toBe('no-store');
  const data = (await json.json()) as { leads: { id: string; status: string }[]; audit: { action: string }[] };
  expect(data.leads.map((entry) => entry.id)).toEqual(ids);
  expect(data.leads.map((entry) => entry.id)).not.toContain(strangerId);
  expect(data.leads.map((entry) => entry.id)).not.toContain(samePhoneId);
  expect(data.audit.some((entry) => entry.action === 'opened lead')).toBe(true);

  const html = await post(
    '/admin/person',
    { phone: '+٩٦٦٥٠٧٦٥٤٣٢١', lead: ids[1]!, format: 'html', csrf: browser.csrf },
    browser,
  );
  expect(html.status).toBe(200);
  expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
  const text = await html.text();
  expect(text).toContain('<html lang="ar" dir="rtl">');
  expect(text).toContain('نورة');
  expect(text).not.toContain(ids[0]);

  const both = await (
    await post('/admin/person', { email: 'noura@example.com', format: 'html', csrf: browser.csrf }, browser)
  ).text();
  expect(both).toContain('Hi &lt;img src=x onerror=alert(1)&gt;');
  expect(both).not.toContain('<img');

  const ticked = await post(
    '/admin/person',
    { email: 'noura@example.com', lead: samePhoneId, format: 'json', csrf: browser.csrf },
    browser,
  );
  expect(((await ticked.json()) as { leads: { id: string }[] }).leads.map((entry) => entry.id)).toEqual([...ids, samePhoneId]);

  const entries = audit().filter((entry) => entry.action === "exported a person's data");
  expect(entries.map((entry) => [entry.actor, entry.leadId, entry.detail])).toEqual([
    [STAFF, null, `2 leads as json: ${ids.join(' ')}`],
    [STAFF, null, `1 lead as html: ${ids[1]}`],
    [STAFF, null, `2 leads as html: ${ids.join(' ')}`],
    [STAFF, null, `3 leads as json: ${[...ids, samePhoneId].join(' ')}`],
  ]);
  expect(server.output()).not.toMatch(/noura|نورة|765 ?4321/i);
});

test('nobody found or nobody named: the form again with why, no file, nothing recorded', async () => {
  const browser = await signIn();
  await page('/admin/person', browser);
  const before = audit().length;
  const none = await post('/admin/person', { email: 'nobody@example.com', csrf: browser.csrf }, browser);
  expect(none.status).toBe(404);
  expect(none.headers.get('content-disposition')).toBeNull();
  expect(await none.text()).toContain('No lead has this e-mail and no lead found by the phone is ticked');
  const empty = await post('/admin/person', { email: ' ', phone: '', csrf: browser.csrf }, browser);
  expect(empty.status).toBe(400);
  expect(await empty.text()).toContain('Type the person');
  expect(audit().length).toBe(before);
});

test("an attacker's lead with the last digits of someone's phone: no other leads, and its person's file holds it alone", async () => {
  const browser = await signIn();
  const leadPage = await page(`/admin/leads/${attackerId}`, browser);
  expect(leadPage).not.toContain('Other leads from this person');
  const form = await page(`/admin/person?lead=${attackerId}`, browser);
  expect(form).not.toContain('name="lead"');
  const before = audit().length;
  const found = await post(
    '/admin/person',
    { email: 'attacker@evil.example', phone: '765 4321', step: 'find', csrf: browser.csrf },
    browser,
  );
  expect(found.status).toBe(200);
  expect(found.headers.get('content-disposition')).toBeNull();
  expect(audit().length).toBe(before);
  const file = await post(
    '/admin/person',
    { email: 'attacker@evil.example', phone: '765 4321', format: 'json', csrf: browser.csrf },
    browser,
  );
  expect(((await file.json()) as { leads: { id: string }[] }).leads.map((entry) => entry.id)).toEqual([attackerId]);
});
