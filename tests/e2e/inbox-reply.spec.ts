/**
 * Answering a lead from its page, in the English and the Arabic inbox, against a server of its own
 * with mail on (a real SMTP server on loopback): staff add a bilingual template on
 * /admin/templates, start the answer from it on the lead's page (the lead's language chosen
 * first; put in without a reload, and asked before it replaces typed text), a colleague sees "X is
 * answering" on the lead and in the list, and they send it; the answer shows in the timeline
 * with its text, the lead is Answered, and the mail server gets it threaded with the lead's
 * notification. Script typed into the subject and the
 * answer stays text on the page. Screenshots at 390 and 1440 px go to SHOTS_DIR when it is set.
 */
import path from 'node:path';
import { expect, test, type Browser } from '@playwright/test';
import { openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { t, locales } from '../../src/i18n';
import { contactBody, LIGHT_HASH, postJson, startServer, tempDir, type RunningServer } from '../helpers/server';
import { startSmtp, type MailSink } from '../helpers/smtp';

const PASSWORD = 'correct horse battery staple';
const STAFF = 'huda@globaq.example';
const OTHER = 'omar@globaq.example';
const SCRIPT = '<img src=x onerror="document.title=\'pwned\'">';
const SHOTS = process.env['SHOTS_DIR'];

let server: RunningServer;
let smtp: MailSink;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({
    dbPath: path.join(tempDir('lead-mails-e2e-'), 'leads.db'),
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      LEADS_NOTIFY_TO: 'leads@globaq.example',
      LEADS_NOTIFY_FROM: 'website@globaq.example',
      LEADS_NOTIFY_RETRY_SECONDS: '1',
    },
  });
  const staff = openStaffStore(server.dbPath);
  await staff.add(STAFF, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
  await staff.add(OTHER, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
  await staff.close();
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

async function signedIn(browser: Browser, code: 'en' | 'ar', email = STAFF) {
  const context = await browser.newContext({ locale: code === 'ar' ? 'ar-SA' : 'en-GB', baseURL: server.baseUrl });
  const page = await context.newPage();
  await page.goto('/admin/login');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('input[name="password"]').press('Enter');
  await expect(page).toHaveURL(/\/admin$/);
  return { context, page };
}

for (const code of ['en', 'ar'] as const) {
  const inbox = locales[code];
  const tr = (key: Parameters<typeof t>[0], values: Record<string, string | number> = {}) => t(key, values, inbox);

  test(`${code} inbox: a template started, the answer sent, in the timeline and in the mail server with the thread's headers`, async ({
    browser,
  }) => {
    // The lead in the other language than the inbox's: the template's text follows the lead.
    const leadLanguage = code === 'en' ? 'ar' : 'en';
    const visitor = `visitor.${code}@example.com`;
    const posted = await postJson(server.baseUrl, `/api/contact?lang=${leadLanguage}`, contactBody({ email: visitor }), {
      Origin: server.origin,
    });
    expect(posted.status).toBe(201);
    const id = ((await posted.json()) as { id: string }).id;

    const { context, page } = await signedIn(browser, code);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: tr('admin.nav.templates') }).click();
    const add = page.locator('form', { has: page.getByRole('button', { name: tr('admin.templates.create') }) });
    await add.locator('input[name="name"]').fill(`Thanks ${code}`);
    await add.locator('textarea[name="bodyEn"]').fill('Thank you for your message; we will call you on Sunday.');
    await add.locator('textarea[name="bodyAr"]').fill('شكرًا لرسالتكم، وسنتصل بكم يوم الأحد.');
    await add.getByRole('button', { name: tr('admin.templates.create') }).click();
    await expect(page.getByRole('status')).toHaveText(tr('admin.templates.done.added'));

    await page.goto(`/admin/leads/${id}`);
    const reply = page.locator('#reply');
    await reply.locator('select[name="template"]').selectOption({ label: `Thanks ${code}` });
    await expect(reply.locator('select[name="in"]')).toHaveValue(leadLanguage);
    await reply.getByRole('button', { name: tr('admin.reply.useTemplate') }).click();
    const expected =
      leadLanguage === 'ar' ? 'شكرًا لرسالتكم، وسنتصل بكم يوم الأحد.' : 'Thank you for your message; we will call you on Sunday.';
    await expect(reply.locator('textarea[name="body"]')).toHaveValue(expected);
    // Opening the reply box tells a colleague "X is answering", on the lead's page and in the list.
    const colleague = await signedIn(browser, code, OTHER);
    await colleague.page.goto(`/admin/leads/${id}`);
    await expect(colleague.page.locator('.lead-answering')).toContainText(
      tr('admin.reply.answering', { email: code === 'ar' ? `\u2068${STAFF}\u2069` : STAFF, time: '' }).split(' (')[0]!,
    );
    await colleague.page.goto('/admin');
    await expect(colleague.page.locator('.lead-list__answering').first()).toHaveText(
      tr('admin.list.answering', { email: code === 'ar' ? `\u2068${STAFF}\u2069` : STAFF }),
    );
    await colleague.context.close();
    // A template chosen over typed text asks first; dismissed, the typed text stays.
    await reply.locator('textarea[name="body"]').fill('My own words');
    await reply.getByRole('button', { name: tr('admin.reply.useTemplate') }).click();
    await expect.poll(() => dialogs).toEqual([tr('admin.reply.replaceDraft')]);
    await expect(reply.locator('textarea[name="body"]')).toHaveValue('My own words');
    dialogs.length = 0;
    await reply.locator('input[name="subject"]').fill(`Your visit ${SCRIPT}`);
    await reply.locator('textarea[name="body"]').fill(`${expected}\n${SCRIPT}`);
    if (SHOTS)
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await reply.screenshot({ path: path.join(SHOTS, `reply-form-${code}-${width}.png`) });
      }
    await reply.getByRole('button', { name: tr('admin.reply.send') }).click();
    await expect(page.getByRole('status')).toHaveText(tr('admin.lead.done.replied'));
    const entry = page.locator('.lead-event--reply').first();
    // The subject as sent, with the lead's token: isolated in its own direction inside an Arabic sentence.
    const sent = `Your visit ${SCRIPT} [#${id.slice(0, 8)}]`;
    await expect(entry).toContainText(
      tr('admin.lead.event.replySent', { subject: code === 'ar' ? `\u2068${sent}\u2069` : sent }),
    );
    await expect(entry.locator('.lead-note')).toContainText(SCRIPT);
    await expect(page.locator('.lead-summary .lead-status')).toHaveText(tr('admin.status.answered'));
    // The script stayed text: no element made of it, nothing run.
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(await page.title()).not.toBe('pwned');
    expect(dialogs).toEqual([]);

    const mail = await expect
      .poll(() => smtp.mails.find((received) => received.recipients.includes(visitor) && received.parsed.inReplyTo), {
        timeout: 15_000,
      })
      .toBeTruthy()
      .then(() => smtp.mails.find((received) => received.recipients.includes(visitor) && received.parsed.inReplyTo)!);
    expect(mail.parsed.inReplyTo).toBe(`<lead.${id}@globaq.example>`);
    expect(mail.parsed.references).toBe(`<lead.${id}@globaq.example>`);
    // Answered to the shared leads mailbox, which gets a copy.
    expect(mail.parsed.replyTo?.value.map((value) => value.address)).toEqual(['leads@globaq.example']);
    expect(mail.recipients).toContain('leads@globaq.example');
    expect(String(mail.parsed.html)).not.toContain('<img');
    await page.reload();
    await expect(page.locator('.lead-event--reply .lead-reply-state').first()).toContainText(
      tr('admin.reply.state.sent', { time: '' }).trim(),
    );
    if (SHOTS)
      for (const width of [390, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.locator('#timeline').screenshot({ path: path.join(SHOTS, `reply-timeline-${code}-${width}.png`) });
        await page.goto('/admin/templates');
        await page.screenshot({ path: path.join(SHOTS, `templates-${code}-${width}.png`), fullPage: true });
        await page.goto(`/admin/leads/${id}`);
      }
    await context.close();
  });
}
