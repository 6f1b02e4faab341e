/**
 * The mails about a lead beyond its notification, through the built server and a real SMTP
 * server on loopback (tests/helpers/smtp.ts), nothing mocked: the acknowledgement to the sender
 * (in the form's language, nothing the visitor typed in it, Reply-To the leads mailbox, one a day per
 * mailbox, at most 5 an hour to a domain, none for a held lead until it is released; every
 * automatic mail marked Auto-Submitted, staff's answer not), staff's answer from the lead's page (threaded with the
 * notification, Reply-To the leads mailbox with a copy to it, the lead's token in the subject, kept
 * in the timeline, the lead marked Answered, never a second answer from a stale page; every
 * forged or malformed post refused; "X is answering" for the others, "Customer answered" on the
 * timeline, the list's assignee column and filter), the assignee's mail, the reply templates
 * (placeholders filled from the lead, one signature), and the erasure of
 * every such mail with its lead.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { contactBody, partnerBody, postJson, startServer, tempDir, type RunningServer, LIGHT_HASH } from '../helpers/server';
import { startSmtp, type MailSink, type ReceivedMail } from '../helpers/smtp';
import { parseHtml } from '../helpers/dom';
import { outboxDelivered, until } from '../helpers/wait';
import { companyFile, createSite } from '../../src/data/company';
import { locales, t } from '../../src/i18n';

const PASSWORD = 'correct horse battery staple';
const STAFF = 'huda@globaq.example';
const OTHER = 'omar@globaq.example';
const FROM = 'Globaq website <website@globaq.example>';
const SITE = 'https://www.globaq.example';
const SCRIPT = '<img src=x onerror=alert(1)>';
/** The company's details the built server mails: src/data/company.yaml with the build's environment. */
const COMPANY = createSite(process.env);
/** Its words in Arabic, or in English until translated (src/data/site.ts). */
const [legalNameAr, localityAr, countryAr] = [
  companyFile.legalName,
  companyFile.address.locality,
  companyFile.address.country,
].map((words) => words.ar ?? words.en);

let dir: string;
let server: RunningServer;
let smtp: MailSink;

interface Browser {
  cookie: string;
  csrf: string;
}

const get = (route: string, browser?: Browser) =>
  fetch(`${server.baseUrl}${route}`, { redirect: 'manual', headers: browser ? { Cookie: browser.cookie } : {} });

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
  const response = await get(route, browser);
  expect(response.status, route).toBe(200);
  const html = await response.text();
  browser.csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? browser.csrf;
  return html;
}

async function signIn(email: string): Promise<Browser> {
  const response = await post('/admin/login', { email, password: PASSWORD });
  expect(response.status, await response.clone().text()).toBe(303);
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('globaq-staff='));
  const browser = { cookie: cookie!.split(';')[0]!, csrf: '' };
  await page('/admin', browser);
  return browser;
}

/** A lead sent as a visitor sends it (with a proof, unless `held`); its id. */
async function lead(form: 'contact' | 'partner', fields: Record<string, unknown>, language = 'en', held = false) {
  const body = form === 'contact' ? contactBody(fields) : partnerBody(fields);
  const response = await postJson(server.baseUrl, `/api/${form}?lang=${language}`, held ? { ...body, altcha: undefined } : body, {
    Origin: server.origin,
  });
  expect([201, 202]).toContain(response.status);
  return ((await response.json()) as { id: string }).id;
}

/** The mails received so far to this address. */
const mailsTo = (address: string): ReceivedMail[] => smtp.mails.filter((mail) => mail.recipients.includes(address));

/** Waits until `count` mails reached `address` (the outbox polls every second). */
async function waitForMails(address: string, count: number): Promise<ReceivedMail[]> {
  await until(() => mailsTo(address).length >= count);
  expect(mailsTo(address), `mails to ${address}`).toHaveLength(count);
  return mailsTo(address);
}

/** Every mail queued so far was sent (the sink has it): the outbox sends nothing more by itself. */
const delivered = () => outboxDelivered(server.dbPath);

function rows<T>(sql: string, ...values: string[]): T[] {
  const db = new DatabaseSync(server.dbPath, { readOnly: true });
  try {
    return db.prepare(sql).all(...values) as T[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dir = tempDir('lead-mails-mails-');
  smtp = await startSmtp();
  server = await startServer({
    dbPath: path.join(dir, 'submissions.db'),
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      LEADS_NOTIFY_TO: 'leads@globaq.example',
      LEADS_REPLY_TO: 'sales@globaq.example',
      LEADS_NOTIFY_FROM: FROM,
      LEADS_NOTIFY_RETRY_SECONDS: '1',
      LEADS_ACKNOWLEDGE: 'on',
      SITE_URL: SITE,
    },
  });
  const staff = openStaffStore(server.dbPath);
  await staff.add(STAFF, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
  await staff.add(OTHER, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
  await staff.close();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await smtp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the acknowledgement to the sender', () => {
  test("in the form's language, with the company's details and nothing the visitor typed; one a day per address", async () => {
    const address = 'noura@example.com';
    const name = 'Buy cheap pills http://spam.example';
    const id = await lead(
      'contact',
      { firstName: name, lastName: SCRIPT, email: 'Noura@Example.com', message: 'Relay this text to the victim' },
      'ar',
    );
    const [ack] = await waitForMails(address, 1);
    const parsed = ack!.parsed;
    expect(parsed.subject).toBe(`استلمنا رسالتكم: ${legalNameAr}`);
    expect(parsed.from?.value.map((value) => value.address)).toEqual(['website@globaq.example']);
    const text = parsed.text ?? '';
    expect(text).toContain('نردّ خلال يوم عمل واحد');
    // The phone a left-to-right isolate in the Arabic line: never "0000 000 13 966+".
    expect(text).toContain(`\u2066${COMPANY.phone}\u2069`);
    expect(String(parsed.html)).toContain(`\u2066${COMPANY.phone}\u2069`);
    expect(text).toContain(COMPANY.email);
    expect(text).toContain(`${localityAr}، ${countryAr}`);
    // Nothing the visitor typed: not the name, not the message, not the markup.
    for (const typed of ['Buy cheap', 'spam.example', 'Relay this text', 'onerror', 'Noura'])
      expect(ack!.raw, typed).not.toContain(typed);
    expect(String(parsed.html)).toContain('<html lang="ar" dir="rtl">');
    // Mails to the visitor carry nothing of the inbox's.
    expect(parsed.headers.has('x-globaq-lead')).toBe(false);
    // Automatic (RFC 3834), answered to the shared leads mailbox, which people read.
    expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(parsed.replyTo?.value.map((value) => value.address)).toEqual(['sales@globaq.example']);
    // The notification went to staff as before, automatic too.
    const notified = await waitForMails('leads@globaq.example', mailsTo('leads@globaq.example').length || 1);
    expect(notified.at(-1)!.parsed.headers.get('auto-submitted')).toBe('auto-generated');

    // Another lead from the same address the same day: staff are notified, the sender is not mailed again.
    await lead('partner', { email: address, name: 'Noura' });
    await waitForMails('leads@globaq.example', notified.length + 1);
    await delivered();
    expect(mailsTo(address)).toHaveLength(1);
    expect(
      rows('SELECT kind FROM notifications WHERE submission_id = ?', id)
        .map((row) => (row as { kind: string }).kind)
        .sort(),
    ).toEqual(['acknowledgement', 'notification']);
  });

  test("one a day per mailbox, case, +tag and Gmail's dots aside; at most 5 an hour to one domain", async () => {
    const victim = ['victim+1@gmail.com', 'Victim@gmail.com', 'v.ictim@googlemail.com', 'victim+2@gmail.com'];
    const domain = Array.from({ length: 7 }, (_, index) => `person${index}@cap.example`);
    for (const email of [...victim, ...domain]) await lead('contact', { email });
    await delivered();
    const acknowledged = rows<{ recipients: string }>("SELECT recipients FROM notifications WHERE kind = 'acknowledgement'").map(
      (row) => row.recipients,
    );
    expect(acknowledged.filter((to) => /@(gmail|googlemail)\.com$/.test(to))).toEqual(['victim+1@gmail.com']);
    expect(acknowledged.filter((to) => to.endsWith('@cap.example')).sort()).toEqual(domain.slice(0, 5));
    expect(smtp.mails.filter((mail) => mail.recipients.some((to) => /gmail|cap\.example/.test(to)))).toHaveLength(6);
  });

  test('never for a held lead; a held lead released by staff gets it then', async () => {
    const address = 'held.person@example.com';
    const id = await lead('contact', { email: address }, 'en', true);
    await delivered();
    expect(mailsTo(address)).toHaveLength(0);
    const staff = await signIn(STAFF);
    await page(`/admin/leads/${id}`, staff);
    const released = await post(`/admin/leads/${id}`, { csrf: staff.csrf, action: 'release' }, staff);
    expect(released.status).toBe(303);
    const [ack] = await waitForMails(address, 1);
    expect(ack!.parsed.subject).toBe(`We have received your message: ${COMPANY.legalName}`);
    expect(ack!.parsed.text).toContain('We answer within one working day (Sunday to Thursday)');
    expect(ack!.parsed.headers.get('auto-submitted')).toBe('auto-generated');
  });
});

describe("staff's answer from the lead's page", () => {
  let id: string;
  let staff: Browser;
  const visitor = 'layla@example.com';

  beforeAll(async () => {
    const notified = mailsTo('leads@globaq.example').length;
    id = await lead('contact', { firstName: 'Layla', email: visitor }, 'ar');
    await waitForMails('leads@globaq.example', notified + 1);
    staff = await signIn(STAFF);
  });

  test('the form offers the subject in the lead language; the answer is threaded, Reply-To staff, escaped, in the timeline, and the lead Answered', async () => {
    const before = await page(`/admin/leads/${id}`, staff);
    expect(before).toContain('value="ردّ على رسالتكم إلى Globaq"');
    const body = `Dear Layla,\nThank you. ${SCRIPT}\nسنتصل بكم غدًا.`;
    const sent = await post(
      `/admin/leads/${id}`,
      { csrf: staff.csrf, action: 'send-reply', subject: `Your visit\r\nBcc: victim@example.com ${SCRIPT}`, body },
      staff,
    );
    expect(sent.status, await sent.clone().text()).toBe(303);
    expect(sent.headers.get('location')).toBe(`/admin/leads/${id}?done=replied#timeline`);
    const mails = await waitForMails(visitor, 2);
    const reply = mails.find((mail) => mail.parsed.inReplyTo)!;
    // To the customer, and a copy to the shared mailbox their answer comes back to.
    expect(reply.recipients).toEqual([visitor, 'sales@globaq.example']);
    const parsed = reply.parsed;
    expect(parsed.from?.value.map((value) => value.address)).toEqual(['website@globaq.example']);
    expect(parsed.replyTo?.value.map((value) => value.address)).toEqual(['sales@globaq.example']);
    // Staff's own words: not automatic.
    expect(parsed.headers.has('auto-submitted')).toBe(false);
    expect(parsed.inReplyTo).toBe(`<lead.${id}@globaq.example>`);
    expect(parsed.references).toBe(`<lead.${id}@globaq.example>`);
    // No header was added through the subject: one line, no Bcc.
    expect(parsed.subject).toBe(`Your visit Bcc: victim@example.com ${SCRIPT} [#${id.slice(0, 8)}]`);
    expect(parsed.bcc).toBeUndefined();
    expect(reply.raw).not.toMatch(/^Bcc:/m);
    expect(parsed.text).toContain('Thank you. <img src=x onerror=alert(1)>');
    const html = String(parsed.html);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');

    const after = await page(`/admin/leads/${id}?done=replied`, staff);
    expect(after).toContain('Your answer is queued to be sent, and the lead is marked Answered.');
    expect(after).toContain('Answer e-mailed: Your visit Bcc: victim@example.com &lt;img src=x onerror=alert(1)&gt;');
    expect(after).toContain('Thank you. &lt;img src=x onerror=alert(1)&gt;');
    expect(parseHtml(after).querySelectorAll('img')).toHaveLength(0);
    expect(rows<{ status: string }>('SELECT status FROM submissions WHERE id = ?', id)[0]!.status).toBe('answered');
    // Audited by the lead's id only: none of the text.
    const audit = rows<{ action: string; detail: string }>(
      "SELECT action, detail FROM audit_log WHERE lead_id = ? AND action = 'sent reply'",
      id,
    );
    expect(audit).toEqual([{ action: 'sent reply', detail: '' }]);
    expect(server.output()).not.toContain('Thank you.');
    // Delivered: the timeline says so.
    await until(async () => expect(await page(`/admin/leads/${id}`, staff)).toMatch(/Sent \d/), 200);
  });

  test('two staff answering one lead: the send from a page made before the first answer is refused, the first shown, the draft kept', async () => {
    const twice = await lead('contact', { email: 'twice.answered@example.com' });
    const other = await signIn(OTHER);
    const seenIn = (html: string) => /name="seen" value="(\d+)"/.exec(html)?.[1] ?? '';
    const mine = seenIn(await page(`/admin/leads/${twice}`, staff));
    const theirs = seenIn(await page(`/admin/leads/${twice}`, other));
    const send = (browser: Browser, seen: string, body: string) =>
      post(`/admin/leads/${twice}`, { csrf: browser.csrf, seen, action: 'send-reply', subject: 'Your message', body }, browser);
    expect((await send(staff, mine, 'The first answer, from Huda')).status).toBe(303);
    const late = await send(other, theirs, 'A second answer, from Omar');
    expect(late.status).toBe(409);
    const html = await late.text();
    expect(html).toContain('A second answer, from Omar');
    expect(html).toContain('Your message [#');
    expect(rows('SELECT id FROM notifications WHERE kind = ? AND submission_id = ?', 'reply', twice)).toHaveLength(1);
  });

  test('two sends at the same moment from pages showing the same lead: one goes, the other is refused as stale', async () => {
    const once = await lead('contact', { email: 'at.once@example.com' });
    const other = await signIn(OTHER);
    const seenIn = (html: string) => /name="seen" value="(\d+)"/.exec(html)?.[1] ?? '';
    const mine = seenIn(await page(`/admin/leads/${once}`, staff));
    const theirs = seenIn(await page(`/admin/leads/${once}`, other));
    const send = (browser: Browser, seen: string) =>
      post(
        `/admin/leads/${once}`,
        { csrf: browser.csrf, seen, action: 'send-reply', subject: 'Hi', body: `From ${seen}` },
        browser,
      );
    const statuses = (await Promise.all([send(staff, mine), send(other, theirs)])).map((response) => response.status).sort();
    expect(statuses).toEqual([303, 409]);
    expect(rows('SELECT id FROM notifications WHERE kind = ? AND submission_id = ?', 'reply', once)).toHaveLength(1);
  });

  test('opening the reply box shows "X is answering" to the others, on the lead and in the list, in both languages; not to oneself', async () => {
    const shared = await lead('contact', { firstName: 'Sara', email: 'sara.answering@example.com' });
    const other = await signIn(OTHER);
    const seen = /name="seen" value="(\d+)"/.exec(await page(`/admin/leads/${shared}`, staff))?.[1] ?? '';
    const mark = () => post(`/admin/leads/${shared}`, { csrf: staff.csrf, action: 'answering' }, staff);
    expect((await mark()).status).toBe(303);
    expect((await mark()).status).toBe(303);
    // Marked once while under way, and audited.
    expect(rows('SELECT seq FROM lead_events WHERE lead_id = ? AND detail = ?', shared, 'answering')).toHaveLength(1);
    expect(rows('SELECT seq FROM audit_log WHERE lead_id = ? AND action = ?', shared, 'began answer')).toHaveLength(1);
    const sign = t('admin.list.answering', { email: STAFF }, locales.en);
    const onLead = parseHtml(await page(`/admin/leads/${shared}`, other)).querySelector('.lead-answering')?.textContent ?? '';
    expect(onLead).toContain(t('admin.reply.answering', { email: STAFF, time: '' }, locales.en).split(' (')[0]);
    expect(await page('/admin', other)).toContain(sign);
    const arabic = { cookie: `${other.cookie}; globaq-inbox-language=ar`, csrf: other.csrf };
    const arabicList = parseHtml(await page('/admin', arabic)).querySelector('.lead-list__answering')?.textContent;
    expect(arabicList).toBe(t('admin.list.answering', { email: `\u2068${STAFF}\u2069` }, locales.ar));
    // Not to oneself; and one's own mark does not refuse one's own answer from the page made before it.
    const answeringOn = async (browser: Browser) =>
      parseHtml(await page(`/admin/leads/${shared}`, browser)).querySelector('.lead-answering');
    expect(await answeringOn(staff)).toBeNull();
    const sent = await post(
      `/admin/leads/${shared}`,
      { csrf: staff.csrf, seen, action: 'send-reply', subject: 'Hello', body: 'Hello Sara' },
      staff,
    );
    expect(sent.status).toBe(303);
    // Sent: nobody is answering any more.
    expect(await answeringOn(other)).toBeNull();
    // The timeline tells it in the inbox's language.
    expect(await page(`/admin/leads/${shared}`, arabic)).toContain(t('admin.lead.event.answering', {}, locales.ar));
  });

  test('"Customer answered" is one press: on the timeline with who and when, audited; forged posts change nothing', async () => {
    const answered = await lead('contact', { email: 'customer.answers@example.com' });
    await page(`/admin/leads/${answered}`, staff);
    const fields = { csrf: staff.csrf, action: 'customer-answered' };
    const count = () => rows('SELECT seq FROM lead_events WHERE lead_id = ? AND detail = ?', answered, 'customer').length;
    expect((await post(`/admin/leads/${answered}`, fields)).status).toBe(403);
    expect((await post(`/admin/leads/${answered}`, fields, staff, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(`/admin/leads/${answered}`, { ...fields, csrf: 'forged' }, staff)).status).toBe(403);
    expect((await post('/admin/leads/00000000-0000-4000-8000-000000000000', fields, staff)).status).toBe(404);
    expect(
      (await post('/admin/leads/00000000-0000-4000-8000-000000000000', { ...fields, action: 'answering' }, staff)).status,
    ).toBe(404);
    expect(count()).toBe(0);
    const pressed = await post(`/admin/leads/${answered}`, fields, staff);
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(`/admin/leads/${answered}?done=customer#timeline`);
    expect(count()).toBe(1);
    for (const code of ['en', 'ar'] as const) {
      const browser = { cookie: `${staff.cookie}; globaq-inbox-language=${code}`, csrf: staff.csrf };
      const entry = parseHtml(await page(`/admin/leads/${answered}?done=customer`, browser)).querySelector(
        '.lead-event--customer',
      );
      expect(entry?.textContent).toContain(t('admin.lead.event.customer', {}, locales[code]));
      expect(entry?.querySelector('time')?.getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(entry?.textContent).toContain(STAFF);
    }
    expect(rows('SELECT seq FROM audit_log WHERE lead_id = ? AND action = ?', answered, 'customer answered')).toHaveLength(1);
  });

  test('the list has an "Assigned to" column and filter: nobody, or one staff member', async () => {
    const mine = await lead('contact', { firstName: 'Assigned', email: 'assigned.one@example.com' });
    const nobodys = await lead('contact', { firstName: 'Unassigned', email: 'nobody.one@example.com' });
    await page(`/admin/leads/${mine}`, staff);
    expect((await post(`/admin/leads/${mine}`, { csrf: staff.csrf, action: 'assign', assignee: STAFF }, staff)).status).toBe(303);
    const ids = (html: string) =>
      [...parseHtml(html).querySelectorAll('input[name="id"]')].map((box) => box.getAttribute('value'));
    const unassigned = await page('/admin?status=all&assigned=nobody', staff);
    expect(ids(unassigned)).toContain(nobodys);
    expect(ids(unassigned)).not.toContain(mine);
    const hers = await page(`/admin?status=all&assigned=${encodeURIComponent(STAFF)}`, staff);
    expect(ids(hers)).toEqual([mine]);
    for (const code of ['en', 'ar'] as const) {
      const browser = { cookie: `${staff.cookie}; globaq-inbox-language=${code}`, csrf: staff.csrf };
      const html = parseHtml(await page('/admin?status=all', browser));
      expect([...html.querySelectorAll('th')].map((th) => th.textContent?.trim())).toContain(
        t('admin.list.col.assigned', {}, locales[code]),
      );
      const row = html.querySelector(`input[value="${mine}"]`)?.closest('tr');
      expect(row?.querySelector('.lead-list__assigned')?.textContent).toContain(STAFF);
      expect(html.querySelector('select[name="assigned"] option[value="nobody"]')?.textContent).toBe(
        t('admin.lead.nobody', {}, locales[code]),
      );
    }
  });

  test('refused: an empty or overlong answer (saying the limit), a spam lead, a held lead; nothing is queued', async () => {
    const count = () => rows('SELECT id FROM notifications WHERE kind = ?', 'reply').length;
    const queued = count();
    await page(`/admin/leads/${id}`, staff);
    const empty = await post(
      `/admin/leads/${id}`,
      { csrf: staff.csrf, action: 'send-reply', subject: 'Hi', body: '  \r\n ' },
      staff,
    );
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Write the answer first: it is empty.');
    const long = await post(
      `/admin/leads/${id}`,
      { csrf: staff.csrf, action: 'send-reply', subject: 'Hi', body: 'x'.repeat(10_001) },
      staff,
    );
    expect(long.status).toBe(400);
    const longPage = await long.text();
    expect(longPage).toContain('at most 10,000 characters');
    // What was typed is shown again, not lost.
    expect(longPage).toContain('x'.repeat(100));
    const spamId = await lead('contact', { email: 'spam.person@example.com' });
    await page(`/admin/leads/${spamId}`, staff);
    await post(`/admin/leads/${spamId}`, { csrf: staff.csrf, action: 'status', status: 'spam' }, staff);
    const spam = await post(`/admin/leads/${spamId}`, { csrf: staff.csrf, action: 'send-reply', body: 'Hello' }, staff);
    expect(spam.status).toBe(400);
    expect(await spam.text()).toContain('marked as spam');
    const heldId = await lead('contact', { email: 'held.again@example.com' }, 'en', true);
    const held = await post(`/admin/leads/${heldId}`, { csrf: staff.csrf, action: 'send-reply', body: 'Hello' }, staff);
    expect(held.status).toBe(400);
    expect(count()).toBe(queued);
  });

  test('an attacker: no session, another origin, a forged token, a forged lead id; nothing is queued', async () => {
    const count = () => rows('SELECT id FROM notifications WHERE kind = ?', 'reply').length;
    const queued = count();
    const fields = { csrf: staff.csrf, action: 'send-reply', body: 'Forged answer' };
    const none = await post(`/admin/leads/${id}`, fields);
    expect(none.status).toBe(403);
    const otherOrigin = await post(`/admin/leads/${id}`, fields, staff, { Origin: 'https://evil.example' });
    expect(otherOrigin.status).toBe(403);
    const forged = await post(`/admin/leads/${id}`, { ...fields, csrf: 'forged-token' }, staff);
    expect(forged.status).toBe(403);
    const unknown = await post('/admin/leads/00000000-0000-4000-8000-000000000000', fields, staff);
    expect(unknown.status).toBe(404);
    const notAnId = await post('/admin/leads/..%2F..%2Fetc', fields, staff);
    expect([403, 404]).toContain(notAnId.status);
    await delivered();
    expect(count()).toBe(queued);
    expect(mailsTo(visitor).some((mail) => (mail.parsed.text ?? '').includes('Forged answer'))).toBe(false);
  });

  test('erasing the lead erases every mail about it: no trace of the address or the answer in the database', async () => {
    await page(`/admin/leads/${id}`, staff);
    const gone = await post(`/admin/leads/${id}`, { csrf: staff.csrf, action: 'delete-confirmed' }, staff);
    expect(gone.status).toBe(303);
    expect(rows('SELECT id FROM notifications WHERE submission_id = ?', id)).toEqual([]);
    const bytes = Buffer.concat(
      ['', '-wal'].map((suffix) =>
        fs.existsSync(`${server.dbPath}${suffix}`) ? fs.readFileSync(`${server.dbPath}${suffix}`) : Buffer.alloc(0),
      ),
    );
    expect(bytes.includes(Buffer.from(visitor))).toBe(false);
    expect(bytes.includes(Buffer.from('سنتصل بكم غدًا'))).toBe(false);
  });
});

describe('the assignee is mailed', () => {
  test("assigned by someone else: both languages, the lead's person and company, the form, the time, who, the note and the link; assigning oneself mails nobody", async () => {
    const id = await lead('partner', { email: 'partner.lead@example.com' });
    const staff = await signIn(STAFF);
    await page(`/admin/leads/${id}`, staff);
    const assigned = await post(
      `/admin/leads/${id}`,
      { csrf: staff.csrf, action: 'assign', assignee: OTHER, assignNote: `Please follow up Sunday ${SCRIPT}` },
      staff,
    );
    expect(assigned.status).toBe(303);
    const [mail] = await waitForMails(OTHER, 1);
    const parsed = mail!.parsed;
    expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');
    const named = '\u2068Aisha Al-Qahtani\u2069, \u2068Eastern Quality Training\u2069';
    expect(parsed.subject).toBe(`Assigned to you: ${named} · أُسند إليك: ${named.replace(', ', '، ')}`);
    const text = parsed.text ?? '';
    expect(text).toContain(`${STAFF} assigned you a lead from ${named}: Partner application, received`);
    expect(text).toContain(`أسند إليك ${STAFF} طلبًا من ${named.replace(', ', '، ')}: طلب الشراكة، استُلم في`);
    expect(text).toContain(`Their note: Please follow up Sunday ${SCRIPT}`);
    expect(text).toContain(`Open the lead: ${SITE}/admin/leads/${id}`);
    expect(text).toContain('ملاحظته: Please follow up Sunday');
    const html = String(parsed.html);
    expect(html).toContain(`<a href="${SITE}/admin/leads/${id}">`);
    expect(html).not.toContain('<img');
    // The note is in the lead's timeline too.
    expect(await page(`/admin/leads/${id}`, staff)).toContain('Please follow up Sunday &lt;img');

    const mine = await lead('contact', { email: 'mine@example.com' });
    await page(`/admin/leads/${mine}`, staff);
    await post(`/admin/leads/${mine}`, { csrf: staff.csrf, action: 'assign', assignee: STAFF }, staff);
    await delivered();
    expect(mailsTo(STAFF)).toHaveLength(0);
  });
});

describe('reply templates', () => {
  test("added, chosen on a lead's page in the lead's language or the other, changed, deleted; audited; forged posts refused", async () => {
    const staff = await signIn(OTHER);
    await page('/admin/templates', staff);
    const added = await post(
      '/admin/templates',
      {
        csrf: staff.csrf,
        action: 'add',
        name: `Price list ${SCRIPT}`,
        bodyEn: 'Here is our price list.',
        bodyAr: 'إليكم قائمة الأسعار.',
      },
      staff,
    );
    expect(added.status).toBe(303);
    const list = await page('/admin/templates?done=added', staff);
    expect(list).toContain('Template added.');
    // Shown as text: no element is made of it.
    expect(parseHtml(list).querySelector('.reply-template h2')?.textContent).toBe(`Price list ${SCRIPT}`);
    expect(parseHtml(list).querySelectorAll('img')).toHaveLength(0);
    const templateId = /name="id" value="([^"]+)"/.exec(list)![1]!;
    const arabicLead = await lead('contact', { email: 'template.user@example.com' }, 'ar');
    const chosen = await page(`/admin/leads/${arabicLead}?template=${templateId}`, staff);
    expect(chosen).toMatch(/<textarea name="body"[^>]*>إليكم قائمة الأسعار.<\/textarea>/);
    const english = await page(`/admin/leads/${arabicLead}?template=${templateId}&in=en`, staff);
    expect(english).toMatch(/<textarea name="body"[^>]*>Here is our price list.<\/textarea>/);

    await page('/admin/templates', staff);
    const forged = await post('/admin/templates', { csrf: 'forged', action: 'delete', id: templateId }, staff);
    expect(forged.status).toBe(403);
    const foreign = await post('/admin/templates', { csrf: staff.csrf, action: 'delete', id: templateId }, staff, {
      Origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    const anonymous = await post('/admin/templates', { csrf: staff.csrf, action: 'delete', id: templateId });
    expect(anonymous.status).toBe(403);
    const missing = await post(
      '/admin/templates',
      { csrf: staff.csrf, action: 'add', name: 'No Arabic', bodyEn: 'Hi', bodyAr: '' },
      staff,
    );
    expect(missing.status).toBe(400);
    const saved = await post(
      '/admin/templates',
      { csrf: staff.csrf, action: 'save', id: templateId, name: 'Prices', bodyEn: 'Prices attached.', bodyAr: 'الأسعار مرفقة.' },
      staff,
    );
    expect(saved.status).toBe(303);
    expect(await page('/admin/templates', staff)).toContain('Prices attached.');
    const deleted = await post('/admin/templates', { csrf: staff.csrf, action: 'delete', id: templateId }, staff);
    expect(deleted.status).toBe(303);
    expect(await page('/admin/templates', staff)).toContain('No templates yet.');
    const audit = rows<{ action: string; detail: string }>(
      "SELECT action, detail FROM audit_log WHERE action LIKE '%template' ORDER BY seq",
    );
    expect(audit).toEqual([
      { action: 'added template', detail: `template ${templateId}` },
      { action: 'changed template', detail: `template ${templateId}` },
      { action: 'deleted template', detail: `template ${templateId}` },
    ]);
  });
});
