/**
 * The staff inbox over HTTP, as an outsider and as staff: the built server on a free
 * loopback port with a real database. No session, a dead session, another origin, a missing or
 * forged form token, forged ids, script in fields, guessed passwords.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { openSqliteStore, openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { safeReturnPath } from '../../src/server/inbox/return-path';
import yauzl from 'yauzl';
import { riyadhDay } from '../../src/server/inbox/export-format';
import { main as staffCommand } from '../../src/server/cli';
import { contactBody, partnerBody, postJson, startServer, tempDir, type RunningServer, LIGHT_HASH } from '../helpers/server';
import { until } from '../helpers/wait';

let dir: string;
let server: RunningServer;
const PASSWORD = 'correct horse battery staple';
const STAFF = 'huda@globaq.example';
const OTHER = 'omar@globaq.example';
let contactId: string;
let partnerId: string;
/** A partner application sent from an Arabic page (?lang=ar). */
let arabicId: string;
const SCRIPT = '<img src=x onerror=alert(1)>';

/** A browser's session: its cookie and the form token of the last page read. */
interface Browser {
  cookie: string;
  csrf: string;
}

function get(route: string, browser?: Browser, method = 'GET'): Promise<Response> {
  return fetch(`${server.baseUrl}${route}`, { method, redirect: 'manual', headers: browser ? { Cookie: browser.cookie } : {} });
}

function post(
  route: string,
  fields: Record<string, string>,
  browser?: Browser,
  headers: Record<string, string> = {},
): Promise<Response> {
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

/** Reads a page and remembers its form token. */
async function page(route: string, browser: Browser): Promise<string> {
  const response = await get(route, browser);
  expect(response.status, route).toBe(200);
  const html = await response.text();
  browser.csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? browser.csrf;
  return html;
}

/** A ZIP download's entries, by name, as text. */
async function unzip(response: Response): Promise<Map<string, string>> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/zip');
  const bytes = Buffer.from(await response.arrayBuffer());
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const entries = new Map<string, string>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
          zip.readEntry();
        });
      });
    });
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.readEntry();
  });
  return entries;
}

/** The audit log's rows, newest first. */
function auditLog(): { seq: number; actor: string; action: string; leadId: string | null; detail: string }[] {
  const db = new DatabaseSync(server.dbPath);
  try {
    return db.prepare('SELECT seq, actor, action, lead_id AS leadId, detail FROM audit_log ORDER BY seq DESC').all() as {
      seq: number;
      actor: string;
      action: string;
      leadId: string | null;
      detail: string;
    }[];
  } finally {
    db.close();
  }
}

/** The status of leads, straight from the database. */
function statusOf(ids: readonly string[]): (string | undefined)[] {
  const db = new DatabaseSync(server.dbPath);
  try {
    return ids.map(
      (id) => (db.prepare('SELECT status FROM submissions WHERE id = ?').get(id) as { status: string } | undefined)?.status,
    );
  } finally {
    db.close();
  }
}

/** A lead sent through the receiver, as a visitor sends it; its id. */
async function lead(form: 'contact' | 'partner', fields: Record<string, unknown>): Promise<string> {
  const response = await postJson(
    server.baseUrl,
    `/api/${form}`,
    form === 'contact' ? contactBody(fields) : partnerBody(fields),
    { Origin: server.origin },
  );
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A form's body with several values under one name (the selection's ids). */
function postMany(
  route: string,
  fields: [string, string][],
  browser?: Browser,
  headers: Record<string, string> = {},
): Promise<Response> {
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

/** A Set-Cookie line's attributes as a browser reads them (RFC 6265bis), and whether it expires the cookie. */
function cookieAttributes(line: string): {
  secure: boolean;
  httponly: boolean;
  path: string | undefined;
  domain: string | undefined;
  samesite: string | undefined;
  expired: boolean;
} {
  const attributes = new Map<string, string>();
  for (const part of line.split(';').slice(1)) {
    const [name = '', ...value] = part.split('=');
    attributes.set(name.trim().toLowerCase(), value.join('=').trim());
  }
  const maxAge = attributes.get('max-age');
  const expires = attributes.get('expires');
  return {
    secure: attributes.has('secure'),
    httponly: attributes.has('httponly'),
    path: attributes.get('path'),
    domain: attributes.get('domain'),
    samesite: attributes.get('samesite')?.toLowerCase(),
    expired: (maxAge !== undefined && Number(maxAge) <= 0) || (expires !== undefined && Date.parse(expires) < Date.now()),
  };
}

async function signIn(email = STAFF, password = PASSWORD): Promise<Browser> {
  const response = await post('/admin/login', { email, password });
  expect(response.status, await response.clone().text()).toBe(303);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('globaq-staff='));
  expect(cookie).toBeDefined();
  const browser = { cookie: cookie!.split(';')[0]!, csrf: '' };
  await page('/admin', browser);
  return browser;
}

beforeAll(async () => {
  dir = tempDir('globaq-inbox-');
  // Its clock in the test's hand: the guessing test holds it (no wait passes while it runs).
  server = await startServer({ dbPath: path.join(dir, 'submissions.db'), clock: true });
  const contact = await postJson(
    server.baseUrl,
    '/api/contact',
    contactBody({
      firstName: 'Sara',
      lastName: SCRIPT,
      company: '=HYPERLINK("https://evil.example")',
      message: 'Visit https://evil.example now\nThanks',
    }),
    { Origin: server.origin },
  );
  contactId = ((await contact.json()) as { id: string }).id;
  const partner = await postJson(server.baseUrl, '/api/partner', partnerBody({ organization: 'Gulf Labs' }), {
    Origin: server.origin,
  });
  partnerId = ((await partner.json()) as { id: string }).id;
  const arabic = await postJson(
    server.baseUrl,
    '/api/partner?lang=ar',
    partnerBody({ name: 'عائشة القحطاني', organization: 'أكاديمية الخليج' }),
    { Origin: server.origin },
  );
  arabicId = ((await arabic.json()) as { id: string }).id;
  const staff = openStaffStore(server.dbPath);
  await staff.add(STAFF, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
  await staff.add(OTHER, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
  await staff.close();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('without a session', () => {
  test('every inbox page sends a GET to the sign-in form and shows no data; every POST is refused', async () => {
    for (const route of [
      '/admin',
      '/admin/audit',
      `/admin/leads/${contactId}`,
      '/admin/leads/..%2F..%2Fetc%2Fpasswd',
      '/admin/nothing-here',
      '/admin?q=Sara',
    ]) {
      for (const method of ['GET', 'HEAD']) {
        const response = await get(route, undefined, method);
        expect(response.status, `${method} ${route}`).toBe(303);
        // To sign in, then back to the page asked for (the list needs no `next`).
        const back = safeReturnPath(route);
        expect(response.headers.get('location')).toBe(
          back === '/admin' ? '/admin/login' : `/admin/login?next=${encodeURIComponent(back)}`,
        );
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(await response.text()).not.toContain('Sara');
      }
    }
    for (const route of ['/admin/export', `/admin/leads/${contactId}`, '/admin/logout', '/admin']) {
      const response = await post(route, { action: 'delete-confirmed', status: 'spam', csrf: 'guess' });
      expect(response.status, route).toBe(403);
      expect(await response.text()).not.toContain('Sara');
    }
    // Nothing changed: the lead is still there, new.
    const browser = await signIn();
    expect(await page(`/admin/leads/${contactId}`, browser)).toMatch(/lead-status--new"[^>]*>New</);
  });

  test('an oversized sign-in post is refused before it is read whole, announced or not', async () => {
    const big = `email=a%40b.example&password=${'x'.repeat(200 * 1024)}`;
    const announced = await post('/admin/login', { email: 'a@b.example', password: 'x'.repeat(200 * 1024) });
    expect(announced.status).toBe(413);
    const chunked = await fetch(`${server.baseUrl}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(chunked.headers.getSetCookie()).toEqual([]);
  });

  test('the sign-in form is served private and never indexed', async () => {
    const response = await get('/admin/login');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-robots-tag')).toContain('noindex');
    expect(await response.text()).toContain('<meta name="robots" content="noindex, nofollow">');
  });
});

describe('signing in', () => {
  test('a wrong password and an unknown account get the same answer; the right one a session cookie', async () => {
    const wrong = await post('/admin/login', { email: OTHER, password: 'not the password at all' });
    const unknown = await post('/admin/login', { email: 'nobody@globaq.example', password: 'not the password at all' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const message = (html: string) => /role="alert"[^>]*>([^<]*)</.exec(html)?.[1];
    expect(message(await wrong.text())).toBe('The e-mail address or the password is wrong.');
    expect(message(await unknown.text())).toBe('The e-mail address or the password is wrong.');
    expect(wrong.headers.getSetCookie()).toEqual([]);

    const right = await post('/admin/login', { email: OTHER.toUpperCase(), password: PASSWORD });
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/admin');
    const cookie = right.headers.getSetCookie().join('\n');
    expect(cookie).toMatch(/^globaq-staff=[\w-]{40,};/);
    expect(cookie).toContain('HttpOnly');
    // Lax: a link to a lead followed from webmail carries the session (POSTs keep their Origin check and token).
    expect(cookie).toContain('SameSite=Lax');
  });

  test('behind HTTPS the cookie is __Host- and Secure', async () => {
    const response = await post('/admin/login', { email: OTHER, password: PASSWORD }, undefined, {
      'X-Forwarded-Proto': 'https',
    });
    // The server trusts no proxy here, so it drops the header: a plain-http cookie, still HttpOnly.
    expect(response.headers.getSetCookie().join('\n')).toMatch(/^globaq-staff=/);
    const secure = await startServer({ dbPath: server.dbPath, env: { BEHIND_HTTPS: 'true' } });
    try {
      const answer = await fetch(`${secure.baseUrl}/admin/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: secure.origin },
        body: new URLSearchParams({ email: OTHER, password: PASSWORD }).toString(),
      });
      expect(answer.status).toBe(303);
      const cookie = answer.headers.getSetCookie().join('\n');
      expect(cookie).toMatch(/^__Host-globaq-staff=/);
      expect(cookie).toContain('Secure');
      expect(cookie).toContain('Path=/');
      expect(cookie).not.toContain('Domain=');
    } finally {
      await secure.stop();
    }
  });

  test('behind HTTPS, signing out deletes the __Host- cookie: the deletion carries Secure and Path=/, as the prefix rules require', async () => {
    const secure = await startServer({ dbPath: server.dbPath, env: { BEHIND_HTTPS: 'true' } });
    try {
      const send = (route: string, fields: Record<string, string>, cookie = '') =>
        fetch(`${secure.baseUrl}${route}`, {
          method: 'POST',
          redirect: 'manual',
          headers: {
            'Content-Type': 'application/x-www-form-urlencoded',
            Origin: secure.origin,
            ...(cookie ? { Cookie: cookie } : {}),
          },
          body: new URLSearchParams(fields).toString(),
        });
      const signedIn = await send('/admin/login', { email: OTHER, password: PASSWORD });
      const set = signedIn.headers.getSetCookie().find((line) => line.startsWith('__Host-globaq-staff='));
      expect(set).toBeDefined();
      const cookie = set!.split(';')[0]!;
      const inbox = await fetch(`${secure.baseUrl}/admin`, { headers: { Cookie: cookie } });
      const csrf = /name="csrf" value="([^"]+)"/.exec(await inbox.text())?.[1] ?? '';
      const out = await send('/admin/logout', { csrf }, cookie);
      expect(out.status).toBe(303);
      const deletion = out.headers.getSetCookie().find((line) => line.startsWith('__Host-globaq-staff='));
      expect(deletion, out.headers.getSetCookie().join('\n')).toBeDefined();
      // A browser drops a __Host- cookie line (a deletion too) unless it says Secure and Path=/ and no Domain.
      expect(cookieAttributes(deletion!)).toMatchObject({ secure: true, path: '/', domain: undefined });
      expect(cookieAttributes(deletion!).expired).toBe(true);
      // The same attributes as when it was set, so the deletion replaces that very cookie.
      expect(cookieAttributes(deletion!)).toMatchObject({ httponly: true, samesite: 'lax' });
    } finally {
      await secure.stop();
    }
  });

  test('a cross-origin sign-in post is refused', async () => {
    const response = await post('/admin/login', { email: OTHER, password: PASSWORD }, undefined, {
      Origin: 'https://evil.example',
    });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie()).toEqual([]);
  });
});

describe('signed in', () => {
  test('the list shows both leads, newest first, with visitor text as text', async () => {
    const browser = await signIn();
    const html = await page('/admin', browser);
    expect(html.indexOf(`/admin/leads/${partnerId}`)).toBeGreaterThan(-1);
    expect(html.indexOf(`/admin/leads/${partnerId}`)).toBeLessThan(html.indexOf(`/admin/leads/${contactId}`));
    expect(html).not.toContain(SCRIPT);
    expect(html).toContain('Sara &lt;img src=x onerror=alert(1)&gt;');
  });

  test('filters by form and searches the fields', async () => {
    const browser = await signIn();
    const partners = await page('/admin?form=partner', browser);
    expect(partners).toContain(`/admin/leads/${partnerId}`);
    expect(partners).not.toContain(`/admin/leads/${contactId}`);
    const found = await page('/admin?q=evil.example', browser);
    expect(found).toContain(`/admin/leads/${contactId}`);
    expect(found).not.toContain(`/admin/leads/${partnerId}`);
    const none = await page(`/admin?q=${encodeURIComponent('%')}`, browser);
    expect(none).toContain('0 leads found in');
    expect(await page('/admin?status=spam', browser)).toContain('0 leads in Spam');
  });

  test('a lead in full: labels in the form order, script and links as plain text', async () => {
    const browser = await signIn();
    const html = await page(`/admin/leads/${contactId}`, browser);
    const labels = [...html.matchAll(/<dt[^>]*>([^<]+)<\/dt>/g)].map((match) => match[1]);
    expect(labels.slice(0, 3)).toEqual(['Name', 'Email', 'Company']);
    expect(html).not.toContain(SCRIPT);
    expect(html).not.toContain('href="https://evil.example');
    expect(html).toContain('href="mailto:');
    const unknown = await get('/admin/leads/00000000-0000-0000-0000-000000000000', browser);
    expect(unknown.status).toBe(404);
  });

  test('the language each lead was sent in: on its page, in the list, as a filter and in the CSV', async () => {
    const browser = await signIn();
    expect(await page(`/admin/leads/${arabicId}`, browser)).toMatch(/<span[^>]*>Sent in Arabic<\/span>/);
    expect(await page(`/admin/leads/${contactId}`, browser)).toMatch(/<span[^>]*>Sent in English<\/span>/);
    // The list: a Language column, in words.
    const list = await page('/admin', browser);
    expect(list).toMatch(/<th scope="col"[^>]*>Language<\/th>/);
    const rowOf = (html: string, id: string) =>
      html.slice(html.indexOf(`/admin/leads/${id}`), html.indexOf('</tr>', html.indexOf(`/admin/leads/${id}`)));
    expect(rowOf(list, arabicId)).toMatch(/<td[^>]*>Arabic<\/td>/);
    expect(rowOf(list, partnerId)).toMatch(/<td[^>]*>English<\/td>/);
    // The filter: a labelled select; an unknown code is no filter.
    expect(list).toMatch(/<label[^>]*>\s*Language\s*<select name="language"/);
    const arabicOnly = await page('/admin?language=ar', browser);
    expect(arabicOnly).toContain(`/admin/leads/${arabicId}`);
    expect(arabicOnly).not.toContain(`/admin/leads/${partnerId}`);
    expect(arabicOnly).toContain('1 lead found in');
    expect(arabicOnly).toMatch(/<option value="ar" selected[^>]*>Arabic<\/option>/);
    const englishOnly = await page('/admin?language=en', browser);
    expect(englishOnly).not.toContain(`/admin/leads/${arabicId}`);
    expect(englishOnly).toContain(`/admin/leads/${partnerId}`);
    expect(await page('/admin?language=xx', browser)).toContain(`/admin/leads/${arabicId}`);
    // The CSV: a language column, and the filter applies.
    const csv = await (await post('/admin/export?language=ar', { csrf: browser.csrf }, browser)).text();
    const [header, row, ...rest] = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(header?.startsWith('"Lead ID","Received (Riyadh time)","Form","Language","Status",')).toBe(true);
    expect(row?.startsWith(`"${arabicId}","`)).toBe(true);
    expect(row).toContain('"Partner application","Arabic","New"');
    expect(row).toContain('"عائشة القحطاني"');
    expect(rest).toEqual([]);
    const all = await unzip(await post('/admin/export?status=all', { csrf: browser.csrf }, browser));
    expect(all.get(`globaq-partner-applications-${riyadhDay(new Date()).day}.csv`)).toMatch(
      new RegExp(`"${partnerId}","[^"]+ \\+03:00","Partner application","English",`),
    );
  });

  test('a POST with another origin, no token or a forged token changes nothing', async () => {
    const browser = await signIn();
    await page(`/admin/leads/${contactId}`, browser);
    const attempts = [
      post(`/admin/leads/${contactId}`, { action: 'status', status: 'spam', csrf: browser.csrf }, browser, {
        Origin: 'https://evil.example',
      }),
      post(`/admin/leads/${contactId}`, { action: 'status', status: 'spam' }, browser),
      post(`/admin/leads/${contactId}`, { action: 'status', status: 'spam', csrf: `${browser.csrf}x` }, browser),
      post(`/admin/leads/${contactId}`, { action: 'status', status: 'spam', csrf: browser.csrf }, browser, { Origin: '' }),
    ];
    for (const response of await Promise.all(attempts)) expect(response.status).toBe(403);
    // Another staff member's token does not fit this session.
    const other = await signIn(OTHER);
    expect(
      (await post(`/admin/leads/${contactId}`, { action: 'status', status: 'spam', csrf: other.csrf }, browser)).status,
    ).toBe(403);
    expect(await page(`/admin/leads/${contactId}`, browser)).toMatch(/lead-status--new"[^>]*>New</);
  });

  test("status and note go into the timeline with who and when, and the audit log shows them by the lead's name", async () => {
    const browser = await signIn();
    await page(`/admin/leads/${partnerId}`, browser);
    const status = await post(
      `/admin/leads/${partnerId}`,
      { action: 'status', status: 'in_progress', csrf: browser.csrf },
      browser,
    );
    expect(status.status).toBe(303);
    expect(status.headers.get('location')).toBe(`/admin/leads/${partnerId}?done=status`);
    const note = await post(
      `/admin/leads/${partnerId}`,
      { action: 'note', note: `Call back Sunday ${SCRIPT}`, csrf: browser.csrf },
      browser,
    );
    expect(note.status).toBe(303);
    expect(note.headers.get('location')).toBe(`/admin/leads/${partnerId}?done=note#timeline`);
    const html = await page(`/admin/leads/${partnerId}`, browser);
    const timeline = html.slice(html.indexOf('class="lead-timeline"'));
    expect(timeline).toMatch(
      new RegExp(
        `<strong[^>]*>Status set to In progress</strong><span class="admin-meta"[^>]*><time datetime="[^"]+"[^>]*>\\d{1,2} \\w{3} \\d{4}, \\d{2}:\\d{2}</time> · <span dir="ltr"[^>]*>${STAFF}</span></span>`,
      ),
    );
    expect(timeline).toContain('Call back Sunday &lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain(SCRIPT);
    expect(await page('/admin?status=in_progress', browser)).toContain(`/admin/leads/${partnerId}`);
    const audit = await page('/admin/audit', browser);
    expect(audit).toContain('set status');
    expect(audit).toContain('added note');
    expect(audit).toContain('signed in');
    // The lead named by its person and company, a link to its page, in both languages; not its id.
    expect(audit).toContain(
      `<a href="/admin/leads/${partnerId}" dir="auto">\u2068Aisha Al-Qahtani\u2069, \u2068Gulf Labs\u2069</a>`,
    );
    expect(audit).not.toContain(`<code>${partnerId}</code>`);
    const arabic = await fetch(`${server.baseUrl}/admin/audit`, {
      headers: { Cookie: `${browser.cookie}; globaq-inbox-language=ar` },
    });
    expect(await arabic.text()).toContain(
      `"/admin/leads/${partnerId}" dir="auto">\u2068Aisha Al-Qahtani\u2069، \u2068Gulf Labs\u2069</a>`,
    );
  });

  test('the export is the filter as formula-safe CSV, and it is recorded', async () => {
    const browser = await signIn();
    const response = await post('/admin/export?form=contact', { csrf: browser.csrf }, browser);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="globaq-contact-messages-${riyadhDay(new Date()).day}.csv"`,
    );
    const csv = await response.text();
    const lines = csv.trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('"First Name"');
    expect(csv).toContain(contactId);
    expect(csv).not.toContain(partnerId);
    expect(csv).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
    expect(csv).toContain('"Visit https://evil.example now\nThanks"');
    expect(
      (await page('/admin/audit', browser)).match(/exported leads<\/td><td[^>]*><\/td><td[^>]*>1 lead \(filter: form=contact\)/),
    ).not.toBeNull();
    // Without the token, no export.
    expect((await post('/admin/export', {}, browser)).status).toBe(403);
  });

  test('signing out kills the session: its cookie opens nothing any more', async () => {
    const browser = await signIn();
    const out = await post('/admin/logout', { csrf: browser.csrf }, browser);
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/admin/login');
    const after = await get('/admin', browser);
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/admin/login');
    expect(
      (await post(`/admin/leads/${contactId}`, { action: 'status', status: 'spam', csrf: browser.csrf }, browser)).status,
    ).toBe(403);
  });

  test('deleting asks first, then erases the lead and records who did it', async () => {
    const browser = await signIn();
    await page(`/admin/leads/${contactId}`, browser);
    const ask = await post(`/admin/leads/${contactId}`, { action: 'delete', csrf: browser.csrf }, browser);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain('Delete this lead for good?');
    expect((await get(`/admin/leads/${contactId}`, browser)).status).toBe(200);
    const confirmed = await post(`/admin/leads/${contactId}`, { action: 'delete-confirmed', csrf: browser.csrf }, browser);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe('/admin?done=deleted');
    expect((await get(`/admin/leads/${contactId}`, browser)).status).toBe(404);
    const audit = await page('/admin/audit', browser);
    expect(audit).toContain(`deleted lead</td><td><code>${contactId}</code>`);
  });
});

describe('the timeline and the lead page', () => {
  /** The lead's timeline rows, read straight from the database (newest first). */
  const events = (leadId: string) => {
    const db = new DatabaseSync(server.dbPath);
    try {
      return db
        .prepare('SELECT seq, actor, kind, detail, corrects FROM lead_events WHERE lead_id = ? ORDER BY seq DESC')
        .all(leadId) as { seq: number; actor: string | null; kind: string; detail: string; corrects: number | null }[];
    } finally {
      db.close();
    }
  };
  const allEvents = () => {
    const db = new DatabaseSync(server.dbPath);
    try {
      return (db.prepare('SELECT count(*) AS n FROM lead_events').get() as { n: number }).n;
    } finally {
      db.close();
    }
  };

  test('two staff adding a note at the same moment: both notes are kept, each with its author', async () => {
    const huda = await signIn();
    const omar = await signIn(OTHER);
    await page(`/admin/leads/${arabicId}`, huda);
    await page(`/admin/leads/${arabicId}`, omar);
    const answers = await Promise.all([
      post(`/admin/leads/${arabicId}`, { action: 'note', note: 'Huda: called, no answer.', csrf: huda.csrf }, huda),
      post(`/admin/leads/${arabicId}`, { action: 'note', note: 'Omar: sent the brochure.', csrf: omar.csrf }, omar),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([303, 303]);
    const notes = events(arabicId).filter((event) => event.kind === 'note');
    expect(notes.map((note) => [note.actor, note.detail]).sort()).toEqual([
      [STAFF, 'Huda: called, no answer.'],
      [OTHER, 'Omar: sent the brochure.'],
    ]);
    const html = await page(`/admin/leads/${arabicId}`, huda);
    expect(html).toContain('Huda: called, no answer.');
    expect(html).toContain('Omar: sent the brochure.');
    // Each note in its own direction.
    expect(html).toMatch(/<p class="lead-note" dir="auto"[^>]*>Omar: sent the brochure\.<\/p>/);
  });

  test("a note is corrected by a new one: the old one stays, marked; a correction of another lead's note is refused", async () => {
    const browser = await signIn();
    await page(`/admin/leads/${partnerId}`, browser);
    await post(`/admin/leads/${partnerId}`, { action: 'note', note: 'Meeting on Sunday.', csrf: browser.csrf }, browser);
    const original = events(partnerId).find((event) => event.kind === 'note' && event.detail === 'Meeting on Sunday.')!;
    const fix = await post(
      `/admin/leads/${partnerId}`,
      { action: 'note', note: 'Meeting on Monday.', corrects: String(original.seq), csrf: browser.csrf },
      browser,
    );
    expect(fix.status).toBe(303);
    expect(events(partnerId)[0]).toMatchObject({ kind: 'note', detail: 'Meeting on Monday.', corrects: original.seq });
    expect(events(partnerId).find((event) => event.seq === original.seq)?.detail).toBe('Meeting on Sunday.');
    const html = await page(`/admin/leads/${partnerId}`, browser);
    expect(html).toContain(`Corrected by <a href="#event-${events(partnerId)[0]!.seq}"`);
    const before = allEvents();
    const elsewhere = await post(
      `/admin/leads/${arabicId}`,
      { action: 'note', note: 'x', corrects: String(original.seq), csrf: browser.csrf },
      browser,
    );
    expect(elsewhere.status).toBe(400);
    const empty = await post(`/admin/leads/${arabicId}`, { action: 'note', note: '   ', csrf: browser.csrf }, browser);
    expect(empty.status).toBe(400);
    expect(allEvents()).toBe(before);
    const audit = await page('/admin/audit', browser);
    expect(audit).toContain('corrected note');
  });

  test('a note posted without a session, from another origin, without the token or to a forged id adds nothing', async () => {
    const browser = await signIn();
    await page(`/admin/leads/${partnerId}`, browser);
    const before = allEvents();
    const note = { action: 'note', note: 'Forged note' };
    const refused = await Promise.all([
      post(`/admin/leads/${partnerId}`, { ...note, csrf: browser.csrf }),
      post(`/admin/leads/${partnerId}`, { ...note, csrf: browser.csrf }, browser, { Origin: 'https://evil.example' }),
      post(`/admin/leads/${partnerId}`, { ...note, csrf: browser.csrf }, browser, { Origin: 'null' }),
      post(`/admin/leads/${partnerId}`, note, browser),
    ]);
    expect(refused.map((response) => response.status)).toEqual([403, 403, 403, 403]);
    for (const id of ['00000000-0000-4000-8000-000000000000', partnerId.toUpperCase(), `${partnerId}'--`, '..%2Faudit']) {
      const response = await post(`/admin/leads/${id}`, { ...note, csrf: browser.csrf }, browser);
      expect(response.status, id).toBe(404);
    }
    expect(allEvents()).toBe(before);
    expect(await page(`/admin/leads/${partnerId}`, browser)).not.toContain('Forged note');
  });

  test('assignment: to a staff member or nobody, in the timeline and the audit log; an address with no account is refused', async () => {
    const browser = await signIn();
    const html = await page(`/admin/leads/${partnerId}`, browser);
    expect(html).toMatch(new RegExp(`<option value="${OTHER}"[^>]*>${OTHER}</option>`));
    const assigned = await post(`/admin/leads/${partnerId}`, { action: 'assign', assignee: OTHER, csrf: browser.csrf }, browser);
    expect(assigned.status).toBe(303);
    expect(events(partnerId)[0]).toMatchObject({ kind: 'assigned', detail: OTHER, actor: STAFF });
    expect(await page(`/admin/leads/${partnerId}`, browser)).toContain(`Assigned to ${OTHER}`);
    const before = allEvents();
    const unknown = await post(
      `/admin/leads/${partnerId}`,
      { action: 'assign', assignee: 'stranger@evil.example', csrf: browser.csrf },
      browser,
    );
    expect(unknown.status).toBe(400);
    expect(allEvents()).toBe(before);
    await post(`/admin/leads/${partnerId}`, { action: 'assign', assignee: '', csrf: browser.csrf }, browser);
    expect(events(partnerId)[0]).toMatchObject({ kind: 'assigned', detail: '' });
    const audit = await page('/admin/audit', browser);
    expect(audit).toContain('assigned lead');
  });

  test('"Reply by e-mail" quotes the message with a subject in the lead\'s language; opening it and "Mark answered" go into the timeline', async () => {
    const browser = await signIn();
    const html = await page(`/admin/leads/${arabicId}`, browser);
    // "Reply by e-mail" is a button of a form (it works without JavaScript): pressed, it is
    // recorded, and the answer sends the browser on to the mail program.
    expect(html).toContain('name="action" value="reply"');
    // The page's policy lets that form's redirect reach the mail program (form-action mailto:),
    // and only this page's: the list's forms still go to the site alone.
    const formAction = async (route: string) =>
      /form-action ([^;]+)/.exec((await get(route, browser)).headers.get('content-security-policy') ?? '')?.[1]?.trim();
    expect(await formAction(`/admin/leads/${arabicId}`)).toBe("'self' mailto:");
    expect(await formAction('/admin')).toBe("'self'");
    const reply = await post(`/admin/leads/${arabicId}`, { action: 'reply', csrf: browser.csrf }, browser);
    expect(reply.status).toBe(303);
    const href = reply.headers.get('location') ?? '';
    expect(href).toMatch(/^mailto:/);
    expect(new URLSearchParams(href.slice(href.indexOf('?') + 1)).get('subject')).toBe('ردّ على طلب الشراكة المقدَّم إلى Globaq');
    expect(events(arabicId)[0]).toMatchObject({ kind: 'reply', actor: STAFF });
    // Without the session's token, from another site, or for a lead that does not exist: nothing is recorded.
    const before = events(arabicId).length;
    expect((await post(`/admin/leads/${arabicId}`, { action: 'reply', csrf: 'forged' }, browser)).status).toBe(403);
    expect(
      (await post(`/admin/leads/00000000-0000-4000-8000-000000000000`, { action: 'reply', csrf: browser.csrf }, browser)).status,
    ).toBe(404);
    expect(events(arabicId).length).toBe(before);
    expect(html).toContain('name="action" value="answered"');
    const answered = await post(`/admin/leads/${arabicId}`, { action: 'answered', csrf: browser.csrf }, browser);
    expect(answered.status).toBe(303);
    expect(events(arabicId)[0]).toMatchObject({ kind: 'status', detail: 'answered', actor: STAFF });
    const after = await page(`/admin/leads/${arabicId}`, browser);
    expect(after).toContain('Reply by e-mail opened');
    expect(after).toContain('Status set to Answered');
    // Answered: no "Mark answered" any more.
    expect(after).not.toContain('name="action" value="answered"');
    const audit = await page('/admin/audit', browser);
    expect(audit).toContain('opened reply');
  });

  test("a CV download goes into the timeline with the file's name (shown as text); phone, e-mail and website are links, the website never trusted", async () => {
    const store = openSqliteStore(server.dbPath);
    const { id } = await store.save({
      form: 'partner',
      fields: partnerBody({
        name: 'Long Application',
        companyWebsite: 'https://gulf-labs.example/about',
        uploadedFiles: 'cv.pdf',
      }),
      attachments: [{ name: `cv ${SCRIPT}.pdf`, type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.7\n%%EOF\n') }],
    });
    await store.close();
    const browser = await signIn();
    const html = await page(`/admin/leads/${id}`, browser);
    const fileId = /href="\/admin\/files\/([0-9a-f-]{36})"/.exec(html)?.[1];
    expect(fileId).toBeDefined();
    expect((await get(`/admin/files/${fileId}`, browser)).status).toBe(200);
    expect(events(id)[0]).toMatchObject({ kind: 'download', detail: `cv ${SCRIPT}.pdf`, actor: STAFF });
    const after = await page(`/admin/leads/${id}`, browser);
    // The file's name is text wherever it is shown (inside a quoted attribute it is inert).
    expect(after.replace(/"[^"]*"/g, '""')).not.toContain('<img');
    expect(after).toMatch(
      /<strong[^>]*>File downloaded<\/strong>.*<bdi[^>]*>cv &lt;img src=x onerror=alert\(1\)&gt;\.pdf<\/bdi>/s,
    );
    expect(after).toMatch(/href="tel:\+966501234567"/);
    expect(after).toMatch(/href="mailto:aisha@example\.com"/);
    expect(after).toMatch(/<a href="https:\/\/gulf-labs\.example\/about" rel="noopener noreferrer nofollow" target="_blank"/);
    // The visitor's clock is behind "Details"; the unanswered in one line.
    expect(after).toMatch(/<details class="lead-details"[^>]*><summary[^>]*>Details<\/summary>/);
    expect(after).toMatch(/<strong[^>]*>Not answered:<\/strong>/);
  });
});

describe('what staff read is recorded', () => {
  test('opening a lead and searching are recorded; an export is recorded before its first byte, so a dropped one leaves a trace', async () => {
    const browser = await signIn();
    await page(`/admin/leads/${partnerId}`, browser);
    const searched = await post('/admin', { csrf: browser.csrf, q: 'gulf' }, browser);
    expect(searched.status).toBe(303);
    expect(searched.headers.get('location')).toBe('/admin?q=gulf');
    // Enough leads that the export is still running when the download is dropped.
    const store = openSqliteStore(server.dbPath);
    await Promise.all(
      Array.from({ length: 3000 }, (_, i) =>
        store.save({ form: 'partner', fields: partnerBody({ organization: `Bulk ${i} ${'x'.repeat(400)}` }) }),
      ),
    );
    await store.close();
    /** The audit log's rows, read straight from the database (newest first). */
    const auditRows = () => {
      const db = new DatabaseSync(server.dbPath);
      try {
        return db.prepare('SELECT seq, actor, action, lead_id AS leadId, detail FROM audit_log ORDER BY seq DESC').all() as {
          seq: number;
          actor: string;
          action: string;
          leadId: string | null;
          detail: string;
        }[];
      } finally {
        db.close();
      }
    };
    const before = auditRows()[0]?.seq ?? 0;
    // A connection of its own (the saves above hold this process for seconds, long enough for the
    // server to close an idle pooled connection just as the next request goes out on it).
    const request = http.request(`${server.baseUrl}/admin/export?form=partner`, {
      method: 'POST',
      agent: false,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin, Cookie: browser.cookie },
    });
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', resolve).once('error', reject);
      request.end(new URLSearchParams({ csrf: browser.csrf }).toString());
    });
    expect(response.statusCode).toBe(200);
    // Before a byte of the body is read, the entry is there.
    const started = auditRows().find((row) => row.seq > before && row.action === 'exported leads');
    expect(started).toMatchObject({ actor: STAFF, action: 'exported leads' });
    await new Promise((resolve) => response.once('data', resolve));
    request.destroy();
    // Once the server has seen the download end (dropped, or sent whole before the abort), the
    // entry says how far it got.
    const rows = await until(() => {
      const mine = auditRows().filter((row) => row.actor === STAFF);
      expect(mine.find((row) => row.seq === started!.seq)?.detail).toMatch(
        /^(stopped after \d+ leads?|\d+ leads?) \(filter: form=partner\)$/,
      );
      return mine;
    });
    expect(rows.find((row) => row.action === 'opened lead')).toMatchObject({ leadId: partnerId });
    expect(rows.find((row) => row.action === 'searched leads')?.detail).toMatch(/q=gulf/);
  }, 60_000);
});

describe('state changes are posts with the form token', () => {
  const searches = () => auditLog().filter((row) => row.action === 'searched leads');

  test('a search is recorded when staff submit it or open its address on this site, once: never for a link from another site, a reload, the redirect after an action, or a post without the token', async () => {
    const browser = await signIn();
    const before = searches().length;
    // A link from another site: not recorded. The list opened by its address: recorded once, not on a reload or the redirect after an action.
    const linked = await fetch(`${server.baseUrl}/admin?q=Linked+Name+Zq`, {
      redirect: 'manual',
      headers: { Cookie: browser.cookie, 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'navigate' },
    });
    expect(linked.status).toBe(200);
    await page('/admin?status=all&q=Linked+Name+Zq', browser);
    await page('/admin?status=all&q=Linked+Name+Zq&done=deleted', browser);
    // Posts an attacker can make: another origin, no session, no token, a forged one.
    const refused = [
      await post('/admin', { csrf: browser.csrf, q: 'Forged Zq' }, browser, { Origin: 'https://evil.example' }),
      await post('/admin', { csrf: browser.csrf, q: 'Forged Zq' }),
      await post('/admin', { q: 'Forged Zq' }, browser),
      await post('/admin', { csrf: 'forged', q: 'Forged Zq' }, browser),
    ];
    expect(refused.map((response) => response.status)).toEqual([403, 403, 403, 403]);
    expect(searches()).toHaveLength(before + 1);
    // Submitted: recorded once, then the list it asked for, whose reload records nothing more.
    const submitted = await post('/admin', { csrf: browser.csrf, status: 'all', q: 'Submitted Zq' }, browser);
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get('location')).toBe('/admin?status=all&q=Submitted+Zq');
    await page(submitted.headers.get('location')!, browser);
    await page(submitted.headers.get('location')!, browser);
    expect(searches().slice(0, searches().length - before)).toMatchObject([
      { actor: STAFF, detail: '0 found (filter: status=all&q=Submitted+Zq)' },
      { actor: STAFF, detail: '0 found (filter: status=all&q=Linked+Name+Zq)' },
    ]);
    expect(JSON.stringify(auditLog())).not.toMatch(/Forged/);
    // The search form posts, with the token.
    const list = await page('/admin', browser);
    expect(list).toMatch(
      /<form method="post" action="\/admin" class="admin-card lead-filters"[^>]*>\s*<input type="hidden" name="csrf"/,
    );
  });

  test('the language switch is a post with the token; its address opened changes nothing', async () => {
    const browser = await signIn();
    const languageCookie = (response: Response) =>
      response.headers.getSetCookie().find((line) => line.startsWith('globaq-inbox-language='));
    const opened = await get('/admin/language?to=ar&next=%2Fadmin', browser);
    expect(opened.status).toBe(303);
    expect(languageCookie(opened)).toBeUndefined();
    const refused = [
      await post('/admin/language', { csrf: browser.csrf, to: 'ar', next: '/admin' }, browser, {
        Origin: 'https://evil.example',
      }),
      await post('/admin/language', { to: 'ar', next: '/admin' }, browser),
      await post('/admin/language', { csrf: 'forged', to: 'ar', next: '/admin' }, browser),
    ];
    expect(refused.map((response) => response.status)).toEqual([403, 403, 403]);
    expect(refused.map(languageCookie)).toEqual([undefined, undefined, undefined]);
    // The switch as the page has it: to Arabic and back to the page it was on.
    const html = await page('/admin/audit', browser);
    expect(html).toMatch(
      /<form method="post" action="\/admin\/language">\s*<input type="hidden" name="to" value="ar">\s*<input type="hidden" name="next" value="\/admin\/audit">\s*<input type="hidden" name="csrf"/,
    );
    const switched = await post('/admin/language', { csrf: browser.csrf, to: 'ar', next: '/admin/audit' }, browser);
    expect(switched.status).toBe(303);
    expect(switched.headers.get('location')).toBe('/admin/audit');
    expect(languageCookie(switched)).toMatch(/^globaq-inbox-language=ar;/);
    const arabic = await fetch(`${server.baseUrl}/admin/audit`, {
      headers: { Cookie: `${browser.cookie}; globaq-inbox-language=ar` },
    });
    const arabicHtml = await arabic.text();
    expect(arabicHtml).toMatch(/<html lang="ar" dir="rtl"/);
    expect(arabicHtml).toMatch(/<input type="hidden" name="to" value="en">/);
    // Signed out, the sign-in page's switch works from the site itself, never from another.
    const signedOut = await post('/admin/language', { to: 'ar', next: '/admin/login' });
    expect(signedOut.status).toBe(303);
    expect(languageCookie(signedOut)).toMatch(/^globaq-inbox-language=ar;/);
    const elsewhere = await post('/admin/language', { to: 'ar', next: '/admin/login' }, undefined, {
      Origin: 'https://evil.example',
    });
    expect(elsewhere.status).toBe(403);
    expect(languageCookie(elsewhere)).toBeUndefined();
  });
});

describe('triage', () => {
  test('tabs with counts, the default what needs work; a new lead stands out; sorting; Previous and Next walk the list as filtered and sorted', async () => {
    const browser = await signIn();
    const ids = [
      await lead('contact', { firstName: 'Cyrus', company: 'Tabs Triage' }),
      await lead('contact', { firstName: 'Adel', company: 'Tabs Triage' }),
      await lead('contact', { firstName: 'Basma', company: 'Tabs Triage' }),
    ];
    const [cyrus, adel, basma] = ids as [string, string, string];
    await page(`/admin/leads/${basma}`, browser);
    expect(
      (await post(`/admin/leads/${basma}`, { action: 'status', status: 'closed', csrf: browser.csrf }, browser)).status,
    ).toBe(303);
    const list = await page('/admin?q=tabs+triage', browser);
    expect(list).toMatch(/<a href="\/admin\?q=tabs\+triage" aria-current="page"[^>]*>Needs work <span[^>]*>\(2\)<\/span>/);
    expect(list).toMatch(/>Closed <span[^>]*>\(1\)<\/span>/);
    expect(list).toMatch(/>All <span[^>]*>\(3\)<\/span>/);
    expect(list).toContain(`/admin/leads/${cyrus}`);
    expect(list).not.toContain(`/admin/leads/${basma}`);
    // A new lead carries the word, not only a colour.
    expect(list).toMatch(/<span class="lead-badge"[^>]*>New<\/span>/);
    const closed = await page('/admin?q=tabs+triage&status=closed', browser);
    expect(closed).toContain(`/admin/leads/${basma}`);
    expect(closed).not.toContain(`/admin/leads/${cyrus}`);
    // Sorted by name, A to Z, over every status: Adel, Basma, Cyrus; the links carry the list.
    const byName = await page('/admin?q=tabs+triage&status=all&sort=name', browser);
    const order = [adel, basma, cyrus].map((id) =>
      byName.indexOf(`/admin/leads/${id}?status=all&amp;q=tabs+triage&amp;sort=name`),
    );
    expect(order.every((at) => at > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(byName).toMatch(
      /<th scope="col" aria-sort="ascending"[^>]*><a href="\/admin\?status=all&amp;q=tabs\+triage&amp;sort=name&amp;dir=desc"/,
    );
    // The lead page walks that list: Basma sits between Adel and Cyrus.
    const middle = await page(`/admin/leads/${basma}?q=tabs+triage&status=all&sort=name`, browser);
    expect(middle).toContain(`href="/admin/leads/${adel}?status=all&amp;q=tabs+triage&amp;sort=name" rel="prev"`);
    expect(middle).toContain(`href="/admin/leads/${cyrus}?status=all&amp;q=tabs+triage&amp;sort=name" rel="next"`);
    expect(middle).toContain('Lead 2 of 3');
    expect(middle).toMatch(/href="\/admin\?status=all&amp;q=tabs\+triage&amp;sort=name"[^>]*>Back to the leads/);
    // Newest first, the same leads: Basma, Adel, Cyrus.
    const first = await page(`/admin/leads/${basma}?q=tabs+triage&status=all`, browser);
    expect(first).toContain(`href="/admin/leads/${adel}?status=all&amp;q=tabs+triage" rel="next"`);
    expect(first).not.toContain('rel="prev"');
  });

  test('"Mine": what needs work and is assigned to me, with its count; the other tabs everyone\'s; another\'s address in the query names nothing', async () => {
    const browser = await signIn();
    const [mineNew, mineClosed, theirs] = [
      await lead('contact', { firstName: 'Mina', company: 'Mine Tab' }),
      await lead('contact', { firstName: 'Mona', company: 'Mine Tab' }),
      await lead('contact', { firstName: 'Maha', company: 'Mine Tab' }),
    ];
    await page(`/admin/leads/${mineNew}`, browser);
    for (const id of [mineNew, mineClosed])
      expect((await post(`/admin/leads/${id}`, { action: 'assign', assignee: STAFF, csrf: browser.csrf }, browser)).status).toBe(
        303,
      );
    expect(
      (await post(`/admin/leads/${theirs}`, { action: 'assign', assignee: OTHER, csrf: browser.csrf }, browser)).status,
    ).toBe(303);
    expect(
      (await post(`/admin/leads/${mineClosed}`, { action: 'status', status: 'closed', csrf: browser.csrf }, browser)).status,
    ).toBe(303);
    const list = await page('/admin?q=mine+tab', browser);
    expect(list).toMatch(/<a href="\/admin\?mine=1&amp;q=mine\+tab"[^>]*>Mine <span[^>]*>\(1\)<\/span>/);
    expect(list).toMatch(/>Needs work <span[^>]*>\(2\)<\/span>/);
    const mine = await page('/admin?mine=1&q=mine+tab', browser);
    expect(mine).toMatch(/<a href="\/admin\?mine=1&amp;q=mine\+tab" aria-current="page"[^>]*>Mine/);
    expect(mine).toContain(`/admin/leads/${mineNew}?mine=1&amp;q=mine+tab`);
    expect(mine).not.toContain(`/admin/leads/${mineClosed}`);
    expect(mine).not.toContain(`/admin/leads/${theirs}`);
    // The search keeps Mine; the other tabs leave it.
    expect(mine).toContain('<input type="hidden" name="mine" value="1"');
    expect(mine).toMatch(/<a href="\/admin\?status=closed&amp;q=mine\+tab"[^>]*>Closed <span[^>]*>\(1\)<\/span>/);
    // Mine is the session's: the other staff member sees theirs under the same address.
    const other = await signIn(OTHER);
    const theirMine = await page('/admin?mine=1&q=mine+tab&assignedTo=huda%40globaq.example', other);
    expect(theirMine).toContain(`/admin/leads/${theirs}`);
    expect(theirMine).not.toContain(`/admin/leads/${mineNew}`);
    // Previous and Next walk Mine; the export is Mine.
    expect(await page(`/admin/leads/${mineNew}?mine=1&q=mine+tab`, browser)).toContain('Lead 1 of 1');
    const csv = await (await post('/admin/export?mine=1&q=mine+tab', { csrf: browser.csrf }, browser)).text();
    expect(csv).toContain(mineNew);
    expect(csv).not.toContain(theirs);
  });

  test('every save on a lead page keeps the list it was opened from (Previous and Next still walk it); deleting returns to that list', async () => {
    const browser = await signIn();
    const [first, second, third] = [
      await lead('contact', { firstName: 'Kept A', company: 'Kept List' }),
      await lead('contact', { firstName: 'Kept B', company: 'Kept List' }),
      await lead('contact', { firstName: 'Kept C', company: 'Kept List' }),
    ];
    const list = 'status=all&q=kept+list&sort=name&dir=desc';
    const at = `/admin/leads/${second}?${list}`;
    await page(at, browser);
    const saves: [Record<string, string>, string][] = [
      [{ action: 'status', status: 'in_progress' }, 'status'],
      [{ action: 'answered' }, 'answered'],
      [{ action: 'note', note: 'Called' }, 'note#timeline'],
      [{ action: 'assign', assignee: STAFF }, 'assigned'],
    ];
    for (const [fields, done] of saves) {
      const saved = await post(at, { ...fields, csrf: browser.csrf }, browser);
      expect(saved.status, done).toBe(303);
      expect(saved.headers.get('location'), done).toBe(`${at}&done=${done}`);
    }
    const after = await page(`${at}&done=assigned`, browser);
    expect(after).toContain('The assignment was saved.');
    // Z to A: C, B, A.
    expect(after).toContain(`href="/admin/leads/${third}?${list.replaceAll('&', '&amp;')}" rel="prev"`);
    expect(after).toContain(`href="/admin/leads/${first}?${list.replaceAll('&', '&amp;')}" rel="next"`);
    expect(after).toContain('Lead 2 of 3');
    // Only the list's own parameters travel: a forged one is dropped.
    const odd = await post(
      `/admin/leads/${second}?${list}&next=https://evil.example`,
      { action: 'status', status: 'new', csrf: browser.csrf },
      browser,
    );
    expect(odd.headers.get('location')).toBe(`${at}&done=status`);
    await post(at, { action: 'delete', csrf: browser.csrf }, browser);
    const deleted = await post(at, { action: 'delete-confirmed', csrf: browser.csrf }, browser);
    expect(deleted.headers.get('location')).toBe(`/admin?${list}&done=deleted`);
    expect(await page(`/admin?${list}&done=deleted`, browser)).toContain('The lead was deleted.');
  });

  test('a reversed date range says so; an empty result offers no export and no selection', async () => {
    const browser = await signIn();
    const reversed = await page('/admin?status=all&from=2026-11-20&to=2026-11-10', browser);
    expect(reversed).toMatch(/role="alert"[^>]*>\s*The “From” date \(2026-11-20\) is after the “To” date \(2026-11-10\)/);
    expect(reversed).toMatch(/href="\/admin\?status=all&amp;from=2026-11-10&amp;to=2026-11-20"[^>]*>Swap the dates/);
    expect(reversed).not.toContain('action="/admin/export');
    expect(reversed).not.toContain('action="/admin/bulk"');
    const empty = await page('/admin?status=all&q=nothing+matches+this', browser);
    expect(empty).toContain('0 leads found in');
    expect(empty).not.toContain('action="/admin/export');
    expect(empty).not.toContain('role="alert"');
    const some = await page('/admin?status=all', browser);
    expect(some).toContain('action="/admin/export?status=all"');
  });

  test('several leads at once: a status set, marked as spam, each lead recorded on its own; forged and malformed ids are left out', async () => {
    const browser = await signIn();
    const a = await lead('contact', { firstName: 'Bulk', company: 'Bulk Status Co' });
    const b = await lead('partner', { organization: 'Bulk Status Co' });
    const before = auditLog()[0]?.seq ?? 0;
    const forged = '00000000-0000-4000-8000-000000000000';
    const answer = await postMany(
      '/admin/bulk',
      [
        ['csrf', browser.csrf],
        ['list', 'q=bulk+status&sort=name&evil=1'],
        // The status as confirmed on the selection's question page.
        ['action', 'status-confirmed'],
        ['status', 'answered'],
        ['id', a],
        ['id', forged],
        ['id', 'not-an-id'],
        ['id', b],
      ],
      browser,
    );
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/admin?q=bulk+status&sort=name&done=status&set=answered&n=2&missing=2');
    expect(statusOf([a, b])).toEqual(['answered', 'answered']);
    const entries = auditLog().filter((row) => row.seq > before);
    expect(entries.map((row) => [row.action, row.leadId, row.detail]).sort()).toEqual(
      [
        ['set status', a, 'Answered'],
        ['set status', b, 'Answered'],
      ].sort(),
    );
    expect(await page('/admin?q=bulk+status&sort=name&done=status&set=answered&n=2&missing=2', browser)).toContain(
      '2 leads set to Answered. 2 of the selected leads were not found',
    );
    // Mark as spam: the status, whatever the status field says.
    expect(
      (
        await postMany(
          '/admin/bulk',
          [
            ['csrf', browser.csrf],
            ['action', 'spam'],
            ['status', 'new'],
            ['id', a],
          ],
          browser,
        )
      ).status,
    ).toBe(303);
    expect(statusOf([a, b])).toEqual(['spam', 'answered']);
    // Only forged ids: nothing changes, nothing is recorded.
    const seq = auditLog()[0]!.seq;
    const none = await postMany(
      '/admin/bulk',
      [
        ['csrf', browser.csrf],
        ['action', 'status'],
        ['status', 'new'],
        ['id', forged],
        ['id', "' OR 1=1 --"],
      ],
      browser,
    );
    expect(none.headers.get('location')).toBe('/admin?done=none-found&missing=2');
    expect(auditLog()[0]!.seq).toBe(seq);
    expect(statusOf([a, b])).toEqual(['spam', 'answered']);
    // Nothing selected, or an unknown action: nothing done.
    expect(
      (
        await postMany(
          '/admin/bulk',
          [
            ['csrf', browser.csrf],
            ['action', 'status'],
            ['status', 'new'],
          ],
          browser,
        )
      ).headers.get('location'),
    ).toBe('/admin?done=none-selected');
    expect(
      (
        await postMany(
          '/admin/bulk',
          [
            ['csrf', browser.csrf],
            ['action', 'drop-table'],
            ['id', a],
          ],
          browser,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await postMany(
          '/admin/bulk',
          [
            ['csrf', browser.csrf],
            ['action', 'status'],
            ['status', 'archived'],
            ['id', a],
          ],
          browser,
        )
      ).status,
    ).toBe(400);
    expect(statusOf([a, b])).toEqual(['spam', 'answered']);
    // Too many at once: refused whole.
    const many = Array.from({ length: 201 }, () => ['id', a] as [string, string]).map(
      ([name], i) => [name, `${a.slice(0, -3)}${String(i).padStart(3, '0')}`] as [string, string],
    );
    expect((await postMany('/admin/bulk', [['csrf', browser.csrf], ['action', 'spam'], ...many], browser)).status).toBe(413);
  });

  test("the selection POST is refused without a session, from another origin, and without or with another session's token", async () => {
    const browser = await signIn();
    const a = await lead('contact', { firstName: 'Guarded', company: 'Bulk Guard Co' });
    const other = await signIn(OTHER);
    const fields = (csrf?: string): [string, string][] => [
      ...(csrf ? [['csrf', csrf] as [string, string]] : []),
      ['action', 'delete-confirmed'],
      ['id', a],
    ];
    const attempts = [
      postMany('/admin/bulk', fields(browser.csrf)),
      postMany('/admin/bulk', fields(browser.csrf), browser, { Origin: 'https://evil.example' }),
      postMany('/admin/bulk', fields(browser.csrf), browser, { Origin: '' }),
      postMany('/admin/bulk', fields(), browser),
      postMany('/admin/bulk', fields(`${browser.csrf}x`), browser),
      postMany('/admin/bulk', fields(other.csrf), browser),
    ];
    for (const response of await Promise.all(attempts)) expect(response.status).toBe(403);
    expect(statusOf([a])).toEqual(['new']);
    // A GET does nothing.
    expect((await get(`/admin/bulk?action=delete-confirmed&id=${a}`, browser)).status).toBe(303);
    expect(statusOf([a])).toEqual(['new']);
  });

  test('deleting a selection asks once (a page: no JavaScript needed), then deletes each lead and records each', async () => {
    const browser = await signIn();
    const a = await lead('contact', { firstName: 'Doomed', lastName: SCRIPT, company: 'Bulk Delete Co' });
    const b = await lead('partner', { organization: 'Bulk Delete Co' });
    const keep = await lead('contact', { firstName: 'Kept', company: 'Bulk Delete Co' });
    const forged = '00000000-0000-4000-8000-000000000001';
    const ask = await postMany(
      '/admin/bulk',
      [
        ['csrf', browser.csrf],
        ['list', 'q=bulk+delete'],
        ['action', 'delete'],
        ['id', a],
        ['id', b],
        ['id', forged],
      ],
      browser,
    );
    expect(ask.status).toBe(200);
    const confirm = await ask.text();
    expect(confirm).toContain('Delete 2 leads for good?');
    expect(confirm).toContain('1 of the selected leads no longer exists');
    expect(confirm).not.toContain(SCRIPT);
    expect(confirm).toMatch(new RegExp(`<input type="hidden" name="id" value="${a}"`));
    expect(confirm).not.toContain(`value="${forged}"`);
    expect(confirm).toMatch(/href="\/admin\?q=bulk\+delete"[^>]*>No, keep them/);
    expect(statusOf([a, b])).toEqual(['new', 'new']);
    const before = auditLog()[0]!.seq;
    const done = await postMany(
      '/admin/bulk',
      [
        ['csrf', browser.csrf],
        ['list', 'q=bulk+delete'],
        ['action', 'delete-confirmed'],
        ['id', a],
        ['id', b],
        ['id', forged],
      ],
      browser,
    );
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe('/admin?q=bulk+delete&done=deleted&n=2&missing=1');
    expect(statusOf([a, b, keep])).toEqual([undefined, undefined, 'new']);
    const entries = auditLog().filter((row) => row.seq > before);
    expect(entries.map((row) => [row.action, row.leadId, row.detail]).sort()).toEqual(
      [
        ['deleted lead', a, 'Contact message'],
        ['deleted lead', b, 'Partner application'],
      ].sort(),
    );
    expect(await page('/admin?q=bulk+delete&done=deleted&n=2&missing=1', browser)).toContain('2 leads deleted.');
  });

  test("the All tab's export button counts what it gives: spam left out, and said so", async () => {
    const browser = await signIn();
    const ids = [
      await lead('contact', { firstName: 'Countedexport' }),
      await lead('contact', { firstName: 'Countedexport' }),
      await lead('contact', { firstName: 'Countedexport' }),
    ];
    await page(`/admin/leads/${ids[2]}`, browser);
    expect((await post(`/admin/leads/${ids[2]}`, { csrf: browser.csrf, action: 'status', status: 'spam' }, browser)).status).toBe(
      303,
    );
    const all = await page('/admin?status=all&q=Countedexport', browser);
    expect(all).toContain('3 leads');
    expect(all).toContain('Export these 2 leads');
    expect(all).toContain('Spam is left out: export the Spam tab for it.');
    const needsWork = await page('/admin?q=Countedexport', browser);
    expect(needsWork).toContain('Export these 2 leads');
    expect(needsWork).not.toContain('Spam is left out');
  });

  test('exports: a selection of both forms and "export all" are one CSV per form in a ZIP, in the staff command\'s columns', async () => {
    const browser = await signIn();
    const a = await lead('contact', { firstName: 'Zipped', company: 'Bulk Export Co' });
    const b = await lead('partner', { organization: 'Bulk Export Co', phoneNumber: '+973 3312 3456' });
    const { day } = riyadhDay(new Date());
    const selection = await postMany(
      '/admin/bulk',
      [
        ['csrf', browser.csrf],
        ['action', 'export'],
        ['id', a],
        ['id', b],
        ['id', '00000000-0000-4000-8000-000000000002'],
      ],
      browser,
    );
    expect(selection.headers.get('content-disposition')).toBe(`attachment; filename="globaq-leads-${day}.zip"`);
    const files = await unzip(selection);
    expect([...files.keys()]).toEqual([`globaq-contact-messages-${day}.csv`, `globaq-partner-applications-${day}.csv`]);
    const contact = files.get(`globaq-contact-messages-${day}.csv`)!;
    const partner = files.get(`globaq-partner-applications-${day}.csv`)!;
    expect(contact.split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(contact).toContain(`"${a}","${day}`);
    expect(partner).toContain(`"${b}"`);
    // A phone number as text in E.164: no formula guard's apostrophe before its "+".
    expect(partner).toContain('"=""+97333123456"""');
    expect(partner).not.toContain('"First Name"');
    // The same header row as the staff command's export of that form.
    for (const [form, csv] of [
      ['contact', contact],
      ['partner', partner],
    ] as const) {
      let out = '';
      expect(
        await staffCommand(['export', '--form', form, '--format', 'csv'], {
          stdout: (text) => (out += text),
          stderr: () => undefined,
          env: { SUBMISSIONS_DB: server.dbPath },
          root: dir,
          cwd: dir,
        }),
      ).toBe(0);
      expect(out.split('\r\n')[0]).toBe(csv.split('\r\n')[0]);
    }
    expect(auditLog().find((row) => row.actor === STAFF)).toMatchObject({
      action: 'exported leads',
      detail: '2 leads (2 selected)',
    });
    // One form's leads alone: a CSV, named for the form.
    const one = await postMany(
      '/admin/bulk',
      [
        ['csrf', browser.csrf],
        ['action', 'export'],
        ['id', b],
      ],
      browser,
    );
    expect(one.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(one.headers.get('content-disposition')).toBe(`attachment; filename="globaq-partner-applications-${day}.csv"`);
    // The list's export of both forms: a ZIP too.
    const all = await unzip(await post('/admin/export?q=bulk+export', { csrf: browser.csrf }, browser));
    expect([...all.keys()]).toEqual([`globaq-contact-messages-${day}.csv`, `globaq-partner-applications-${day}.csv`]);
  });
});

describe('guessing passwords', () => {
  test('20 wrong passwords in a row: the account is slowed after the first few, and the right one is then refused too', async () => {
    // The server's clock stands still: the wait the first few start does not run out during the
    // tries, however slow the machine.
    await server.clock!.hold();
    try {
      const answers: number[] = [];
      for (let i = 0; i < 20; i++)
        answers.push((await post('/admin/login', { email: OTHER, password: `wrong password ${i}` })).status);
      expect(answers.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
      expect(answers.at(-1)).toBe(429);
      const right = await post('/admin/login', { email: OTHER, password: PASSWORD });
      expect(right.status).toBe(429);
      expect(await right.text()).toMatch(
        /Too many failed sign-ins: wait \d+ seconds?, then sign in again\. Nothing was checked this time/,
      );
      expect(right.headers.getSetCookie()).toEqual([]);
      // Another account from the same address is not locked by it.
      await signIn(STAFF);
    } finally {
      await server.clock!.resume();
    }
  });
});
