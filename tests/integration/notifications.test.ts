/**
 * Every lead reaches a person: the built server, started with SMTP_URL pointing at a
 * real SMTP server on loopback (tests/helpers/smtp.ts), e-mails each lead through the outbox.
 * No part of the mail path is mocked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/server/cli';
import { CONTACT_FIELDS, contactLabelKey } from '../../src/forms/contact';
import { PARTNER_FIELD_ORDER, partnerLabelKey } from '../../src/forms/partner';
import { t } from '../../src/i18n';
import {
  contactBody,
  partnerBody,
  postForm,
  postJson,
  asForm,
  startServer,
  tempDir,
  type RunningServer,
} from '../helpers/server';
import { freePort, startSmtp, type MailSink } from '../helpers/smtp';
import { until } from '../helpers/wait';

const TO = 'leads@globaq.example, sales@globaq.example';
const FROM = 'Globaq website <website@globaq.example>';

let dir: string;
const cleanup: (() => Promise<void>)[] = [];

beforeAll(() => {
  dir = tempDir('globaq-mail-');
});

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
/** The built server with notifications on, mailing to `smtpPort`; stopped after the test. */
async function serverMailingTo(
  smtpPort: number,
  extra: Record<string, string> = {},
  dbPath = path.join(dir, `leads-${++counter}.db`),
): Promise<RunningServer> {
  const server = await startServer({
    dbPath,
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      LEADS_NOTIFY_TO: TO,
      LEADS_NOTIFY_FROM: FROM,
      LEADS_NOTIFY_RETRY_SECONDS: '1',
      ...extra,
    },
  });
  cleanup.push(() => server.stop('SIGKILL'));
  return server;
}

async function sink(port?: number): Promise<MailSink> {
  const smtp = await startSmtp(port);
  cleanup.push(() => smtp.close());
  return smtp;
}

async function created(response: Response): Promise<string> {
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** The staff command's `outbox` listing for a database. */
async function outboxListing(dbPath: string): Promise<string> {
  let out = '';
  const code = await main(['outbox', '--db', dbPath], {
    stdout: (text) => (out += text),
    stderr: (text) => (out += text),
    env: {},
    root: process.cwd(),
    cwd: process.cwd(),
  });
  expect(code).toBe(0);
  return out;
}

/**
 * Waits until the staff command's `outbox` listing says every notification was delivered, then
 * stops the server (SIGTERM: the outbox's round under way ends first, and none starts after).
 * Nothing more can be sent from then on: a count of mails taken now is final.
 */
async function deliveredAndStopped(server: RunningServer): Promise<void> {
  await until(async () => expect(await outboxListing(server.dbPath)).toContain('Every notification was delivered.'), 100);
  await server.stop();
  expect(server.output()).toContain('"event":"stop.done"');
}

describe('one e-mail per lead, to staff, with every answer', () => {
  test('a contact message: To, From, Reply-To, subject, every field with its label, the lead id and a stable Message-ID', async () => {
    const smtp = await sink();
    const server = await serverMailingTo(smtp.port);
    const body = contactBody({ message: 'Hello <script>alert("x")</script> & <b>bold</b>\nSecond line' });
    const id = await created(await postJson(server.baseUrl, '/api/contact', body));
    const [mail] = await smtp.waitFor(1);
    const parsed = mail!.parsed;
    expect(mail!.recipients.sort()).toEqual(['leads@globaq.example', 'sales@globaq.example']);
    expect(parsed.from?.value).toEqual([{ name: 'Globaq website', address: 'website@globaq.example' }]);
    expect(parsed.replyTo?.value.map((v) => v.address)).toEqual(['omar@example.com']);
    expect(parsed.subject).toBe('New contact message from Omar Al-Harbi, Eastern Fabrication Co.');
    expect(parsed.messageId).toBe(`<lead.${id}@globaq.example>`);
    const text = parsed.text ?? '';
    expect(text).toContain(`Lead ${id}`);
    expect(text).toMatch(/Received .* \(Riyadh time\)/);
    // Every answered field, with its label, in the form's order.
    const positions = CONTACT_FIELDS.map((field) => text.indexOf(`${t(contactLabelKey(field))}:`));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // Each answer isolated (FSI ... PDI): it keeps its own direction beside the label.
    expect(text).toContain('Company: \u2068Eastern Fabrication Co.\u2069');
    // The HTML part shows the visitor's markup as text: no script, no bold, no link they made.
    const html = String(parsed.html);
    expect(html).toContain('Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<b>');
    await deliveredAndStopped(server);
    expect(smtp.mails).toHaveLength(1);
  });

  test('a partner application (as a form post): the subject names the organisation and country, every answer in the form order', async () => {
    const smtp = await sink();
    const server = await serverMailingTo(smtp.port);
    const response = await postForm(server.baseUrl, '/api/partner', asForm(partnerBody()));
    expect(response.status).toBe(303);
    const [mail] = await smtp.waitFor(1);
    const body = partnerBody();
    expect(mail!.parsed.subject).toBe(`New partner application: ${String(body['organization'])}, ${String(body['country'])}`);
    expect(mail!.parsed.replyTo?.value.map((v) => v.address)).toEqual([body['email']]);
    const text = mail!.parsed.text ?? '';
    const answered = PARTNER_FIELD_ORDER.filter((field) => {
      const value = body[field];
      return Array.isArray(value) ? value.length > 0 : value !== '' && value !== null && value !== undefined;
    });
    expect(answered.length).toBeGreaterThan(20);
    const positions = answered.map((field) => text.indexOf(`${t(partnerLabelKey(field))}:`));
    expect(positions.filter((p) => p < 0)).toEqual([]);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  test('a lead from an Arabic page: the mail body in Arabic, right to left, each answer in its own direction', async () => {
    const smtp = await sink();
    const server = await serverMailingTo(smtp.port);
    const english = await created(await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: 'English' })));
    const arabic = await created(await postJson(server.baseUrl, '/api/contact?lang=ar', contactBody({ firstName: 'سارة' })));
    const form = await postForm(server.baseUrl, '/api/partner?lang=ar', asForm(partnerBody({ name: 'عائشة' })));
    expect(form.headers.get('location')).toBe('/ar/ThanksPage');
    const mails = await smtp.waitFor(3);
    const mailOf = (id: string) => mails.find((mail) => mail.parsed.messageId === `<lead.${id}@globaq.example>`)?.parsed;
    expect(mailOf(english)?.text).toMatch(/^Sent in: English$/m);
    expect(mailOf(english)?.text).not.toMatch(/[\u0660-\u0669]/);
    const text = mailOf(arabic)?.text ?? '';
    expect(text).toMatch(/^لغة الإرسال: العربية$/m);
    // The hour and minutes in the digits the Arabic site writes (Western), with Arabic words around them.
    expect(text).toMatch(/^تاريخ الاستلام: [^\n]*\b\d{1,2}:\d{2}\b[^\n]* \(بتوقيت الرياض\)$/m);
    expect(text).toContain('الاسم الأول: \u2068سارة\u2069');
    const partner = mails.find((mail) => mail.parsed.text?.includes('\u2068عائشة\u2069'));
    expect(partner?.parsed.text).toMatch(/^لغة الإرسال: العربية$/m);
    expect(String(partner?.parsed.html)).toMatch(/<html lang="ar" dir="rtl">/);
    expect(String(partner?.parsed.html)).toMatch(/<td dir="auto"[^>]*>عائشة<\/td>/);
  });

  test('per-form recipients: partner applications to one address, contact messages to another', async () => {
    const smtp = await sink();
    const server = await serverMailingTo(smtp.port, {
      LEADS_NOTIFY_TO_PARTNER: 'partners@globaq.example',
      LEADS_NOTIFY_TO_CONTACT: 'hello@globaq.example, desk@globaq.example',
    });
    const partner = await created(await postJson(server.baseUrl, '/api/partner', partnerBody()));
    const contact = await created(await postJson(server.baseUrl, '/api/contact', contactBody()));
    const mails = await smtp.waitFor(2);
    const byLead = new Map(mails.map((mail) => [String(mail.parsed.headers.get('x-globaq-lead')), mail.recipients.sort()]));
    expect(byLead.get(`partner ${partner}`)).toEqual(['partners@globaq.example']);
    expect(byLead.get(`contact ${contact}`)).toEqual(['desk@globaq.example', 'hello@globaq.example']);
    await deliveredAndStopped(server);
    expect(smtp.mails).toHaveLength(2);
  });

  test('a line break in a name cannot add a header or a recipient', async () => {
    const smtp = await sink();
    const server = await serverMailingTo(smtp.port);
    await created(
      await postJson(
        server.baseUrl,
        '/api/contact',
        contactBody({
          firstName: 'Omar\r\nBcc: victim@evil.example',
          lastName: 'X\nSubject: forged',
          company: 'Co\r\n\r\n<html>',
        }),
      ),
    );
    const [mail] = await smtp.waitFor(1);
    expect(mail!.recipients.sort()).toEqual(['leads@globaq.example', 'sales@globaq.example']);
    expect(mail!.parsed.bcc).toBeUndefined();
    expect(mail!.parsed.headers.get('subject')).toBe(
      'New contact message from Omar Bcc: victim@evil.example X Subject: forged, Co <html>',
    );
    const headerBlock = mail!.raw.slice(0, mail!.raw.indexOf('\r\n\r\n'));
    expect(headerBlock).not.toMatch(/^Bcc:/im);
    expect(headerBlock.match(/^Subject:/gim)).toHaveLength(1);
  });

  test('a right-to-left override in a name is taken out on receipt: the subject and the stored lead read in order', async () => {
    const smtp = await sink();
    const server = await serverMailingTo(smtp.port);
    const id = await created(
      await postJson(
        server.baseUrl,
        '/api/contact',
        contactBody({ firstName: 'Omar \u202Egnp.exe\u202C', company: '\u2067Gulf\u2069 QA' }),
      ),
    );
    const [mail] = await smtp.waitFor(1);
    expect(mail!.parsed.subject).toBe('New contact message from Omar gnp.exe Al-Harbi, Gulf QA');
    // The visitor's own controls are gone; only the mail's isolation of each answer (FSI ... PDI) is left.
    expect(mail!.parsed.text).not.toMatch(/[\u202A-\u202E\u2066\u2067]/);
    expect(mail!.parsed.text).toContain('Company: \u2068Gulf QA\u2069');
    const db = new DatabaseSync(server.dbPath, { readOnly: true });
    const row = db.prepare('SELECT fields FROM submissions WHERE id = ?').get(id) as { fields: string };
    db.close();
    expect(JSON.parse(row.fields)).toMatchObject({ firstName: 'Omar gnp.exe', company: 'Gulf QA' });
  });

  test("the honeypot's catch is stored apart and mailed to nobody", async () => {
    const smtp = await sink();
    const server = await serverMailingTo(smtp.port);
    await created(await postJson(server.baseUrl, '/api/contact', contactBody({ homepage: 'http://spam.example' })));
    await created(await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: 'Real' })));
    const [mail] = await smtp.waitFor(1);
    expect(mail!.parsed.subject).toContain('Real');
    await deliveredAndStopped(server);
    expect(smtp.mails).toHaveLength(1);
  });
});

describe('a mail server that offers no TLS gets nothing when TLS is required', () => {
  test('SMTP_REQUIRE_TLS=true and a server without STARTTLS: nothing is sent (not even the password); the lead waits, the outbox and /readyz say why', async () => {
    const smtp = await sink();
    const server = await serverMailingTo(smtp.port, {
      SMTP_REQUIRE_TLS: 'true',
      SMTP_URL: `smtp://website:s3cret-pass@127.0.0.1:${smtp.port}`,
    });
    const id = await created(await postJson(server.baseUrl, '/api/contact', contactBody()));
    // The outbox tries at once and retries after a second: each attempt refused before any mail or password is sent.
    await until(async () => {
      const ready = (await (await fetch(`${server.baseUrl}/readyz`)).json()) as { checks: Record<string, { detail: string }> };
      expect(ready.checks['notifications']?.detail).toMatch(/^1 pending; the last attempt failed: .*STARTTLS/);
    }, 250);
    expect(smtp.mails).toHaveLength(0);
    let out = '';
    expect(
      await main(['outbox', '--db', server.dbPath], {
        stdout: (text) => (out += text),
        stderr: (text) => (out += text),
        env: {},
        root: dir,
        cwd: dir,
      }),
    ).toBe(0);
    expect(out).toContain(id);
    expect(out).toMatch(/STARTTLS/);
    expect(out).not.toContain('s3cret-pass');
  });
});

describe('a notification is delayed, never lost', () => {
  test('mail server down when the lead arrives: the visitor gets success, the mail arrives once it is back', async () => {
    const port = await freePort();
    const server = await serverMailingTo(port);
    const id = await created(await postJson(server.baseUrl, '/api/contact', contactBody()));
    // Once the first attempt has failed:
    const listing = await until(async () => {
      const text = await outboxListing(server.dbPath);
      expect(text).toMatch(/ECONNREFUSED/);
      return text;
    }, 100);
    expect(listing).toContain(id);
    expect(listing).toMatch(/pending .* next try/);
    const smtp = await sink(port);
    const [mail] = await smtp.waitFor(1, 30_000);
    expect(mail!.parsed.messageId).toBe(`<lead.${id}@globaq.example>`);
    await deliveredAndStopped(server);
    expect(smtp.mails).toHaveLength(1);
  });

  test('the server killed after the lead was committed and before its mail went: after the restart the mail arrives, once', async () => {
    const port = await freePort();
    const dbPath = path.join(dir, 'crash.db');
    const first = await serverMailingTo(port, {}, dbPath);
    const id = await created(await postJson(first.baseUrl, '/api/partner', partnerBody()));
    // Ended (stop waits for the process): nothing of the first server can reach the mail server.
    await first.stop('SIGKILL');
    const smtp = await sink(port);
    expect(smtp.mails).toHaveLength(0);
    const second = await serverMailingTo(port, {}, dbPath);
    const [mail] = await smtp.waitFor(1, 30_000);
    expect(mail!.parsed.messageId).toBe(`<lead.${id}@globaq.example>`);
    await deliveredAndStopped(second);
    expect(smtp.mails).toHaveLength(1);
  });

  test('200 leads at once: 200 mails, none twice, and no visitor waits for mail', async () => {
    const smtp = await sink();
    const server = await serverMailingTo(smtp.port);
    const ids = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        postJson(server.baseUrl, '/api/contact', contactBody({ firstName: `Visitor${i}` })).then(created),
      ),
    );
    expect(new Set(ids).size).toBe(200);
    const mails = await smtp.waitFor(200, 60_000);
    await deliveredAndStopped(server);
    expect(smtp.mails).toHaveLength(200);
    const messageIds = mails.map((mail) => mail.parsed.messageId);
    expect(new Set(messageIds).size).toBe(200);
    expect(new Set(messageIds)).toEqual(new Set(ids.map((id) => `<lead.${id}@globaq.example>`)));
  }, 120_000);
});

describe('settings', () => {
  test('a bad SMTP_URL stops the server at start, naming the variable and never the password', async () => {
    await expect(
      startServer({
        dbPath: path.join(dir, 'bad.db'),
        env: { SMTP_URL: 'http://user:s3cret@mail.example.com', LEADS_NOTIFY_TO: TO, LEADS_NOTIFY_FROM: FROM },
      }),
    ).rejects.toThrow(/SMTP_URL: must start with smtp:\/\/ or smtps:\/\//);
    await expect(
      startServer({
        dbPath: path.join(dir, 'bad.db'),
        env: { SMTP_URL: 'http://user:s3cret@mail.example.com', LEADS_NOTIFY_TO: TO, LEADS_NOTIFY_FROM: FROM },
      }),
    ).rejects.not.toThrow(/s3cret/);
    await expect(
      startServer({ dbPath: path.join(dir, 'bad.db'), env: { SMTP_URL: 'smtp://mail.example.com', LEADS_NOTIFY_FROM: FROM } }),
    ).rejects.toThrow(/LEADS_NOTIFY_TO: must be set when SMTP_URL is/);
  });

  test('without SMTP_URL the server says once that notifications are off, and queues none', async () => {
    const server = await startServer({ dbPath: path.join(dir, 'off.db') });
    cleanup.push(() => server.stop());
    expect(server.output().match(/Lead notifications are off/g)).toHaveLength(1);
    await created(await postJson(server.baseUrl, '/api/contact', contactBody()));
    expect(await outboxListing(server.dbPath)).toContain('Every notification was delivered.');
  });
});
