/**
 * The morning digest, sent through a real SMTP server on loopback with the clock given: from
 * 07:00 Riyadh, one mail per staff account with something to say (their unanswered leads, their
 * follow-ups due today or overdue, the held count), in English and Arabic, naming each lead by its
 * sender's name and company, form, time, wait and link (never what they wrote); nothing for an account with nothing
 * to say; once a day even from two servers; a mail the server refuses is tried again by the next
 * sweep.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { openStores, type Stores } from '../../src/server/store/database';
import { smtpTransport } from '../../src/server/mail/outbox';
import { sendMorningDigests } from '../../src/server/inbox/morning-digest';
import { contactBody, partnerBody, tempDir } from '../helpers/server';
import { startSmtp, type MailSink } from '../helpers/smtp';

const HUDA = 'huda@globaq.example';
const OMAR = 'omar@globaq.example';
const SANA = 'sana@globaq.example';
/** Sunday 29 November 2026 in Riyadh. */
const riyadh = (time: string) => new Date(`2026-11-29T${time}:00+03:00`);
const VISITOR = 'Secret <b>message</b> from Layla';

let smtp: MailSink;
let dir: string;
let stores: Stores;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp.close();
});
afterEach(async () => {
  await stores.close();
  fs.rmSync(dir, { recursive: true, force: true });
  smtp.mails.splice(0);
});

async function open(): Promise<Stores> {
  dir = tempDir('timely-morning-');
  stores = openStores({ dbPath: path.join(dir, 'submissions.db'), databaseUrl: undefined, poolMax: 1 });
  await stores.ready;
  for (const email of [HUDA, OMAR, SANA]) await stores.staff.add(email, 'scrypt$1', riyadh('00:00'));
  return stores;
}

const config = (url: string) => ({
  siteUrl: 'https://globaq.example',
  notifications: {
    smtpUrl: url,
    requireTls: false,
    to: ['leads@globaq.example'],
    from: 'Globaq website <web@globaq.example>',
    retrySeconds: 60,
    giveUpDays: 3,
  },
});

test("each account's digest from 07:00: its unanswered leads and follow-ups due, nobody's leads, the held count, named by person and company, in both languages; none with nothing to say", async () => {
  const { submissions, inbox } = await open();
  const thursday = new Date('2026-11-26T16:00:00+03:00');
  const waiting = await submissions.save({ form: 'contact', fields: contactBody({ message: VISITOR }), receivedAt: thursday });
  const answered = await submissions.save({ form: 'partner', fields: partnerBody(), receivedAt: thursday });
  const later = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: thursday });
  await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: thursday, held: 'noProof' });
  // Nobody's lead: in every account's digest.
  const nobodys = await submissions.save({
    form: 'partner',
    fields: partnerBody(),
    receivedAt: new Date('2026-11-25T10:00:00+03:00'),
  });
  for (const lead of [waiting, answered, later]) await inbox.assign(lead.id, HUDA, HUDA, thursday);
  await inbox.setStatus(answered.id, 'answered', HUDA, thursday);
  await inbox.setFollowUp(answered.id, '2026-11-29', HUDA, thursday);
  await inbox.setFollowUp(later.id, '2026-12-03', HUDA, thursday);
  // Unanswered with a follow-up due: listed once, under "not yet answered".
  await inbox.setFollowUp(waiting.id, '2026-11-28', HUDA, thursday);
  const transport = smtpTransport(smtp.url, false);
  try {
    expect(await sendMorningDigests(stores, config(smtp.url), transport, riyadh('06:59'))).toMatchObject({ skipped: 'notYet' });
    expect(smtp.mails).toHaveLength(0);
    // Omar and Sana have nothing assigned, but leads are held: each is told the count.
    const outcome = await sendMorningDigests(stores, config(smtp.url), transport, riyadh('07:00'));
    expect([...outcome.sent].sort()).toEqual([HUDA, OMAR, SANA]);
    const mails = await smtp.waitFor(3);
    const huda = mails.find((mail) => mail.recipients.includes(HUDA))!;
    expect(huda.recipients).toEqual([HUDA]);
    expect(mails.every((mail) => mail.parsed.headers.get('auto-submitted') === 'auto-generated')).toBe(true);
    expect(huda.parsed.subject).toBe(
      'Your leads this morning: 2 unanswered, 1 to follow up · طلباتك هذا الصباح: بلا رد 2، للمتابعة 1',
    );
    const text = huda.parsed.text ?? '';
    // The unanswered: waiting and later (Thursday 16:00 to Sunday 07:00 is one working hour).
    expect(text).toContain('Assigned to you and not yet answered (2)');
    // Named by the person and company, each isolated in its own direction, in both languages.
    expect(text).toContain(
      '\u2068Omar Al-Harbi\u2069, \u2068Eastern Fabrication Co.\u2069 · Contact form · Nov 26, 2026, 4:00 PM · Waiting 1 working hour',
    );
    expect(text).toContain('\u2068Omar Al-Harbi\u2069، \u2068Eastern Fabrication Co.\u2069 · نموذج التواصل');
    expect(text).toContain('\u2068Aisha Al-Qahtani\u2069, \u2068Eastern Quality Training\u2069 · Partner application');
    expect(text).toContain(`https://globaq.example/admin/leads/${waiting.id}`);
    expect(text.split(`https://globaq.example/admin/leads/${waiting.id}`)).toHaveLength(3); // once in each language
    expect(text).toContain('Follow-ups due today or overdue (1)');
    expect(text).toMatch(/Partner application · .* · Answered after under a working minute · follow up Sun, Nov 29, 2026/);
    expect(text).toContain('Held for review, waiting for someone to release them or mark them as spam: 1.');
    expect(text).toContain('https://globaq.example/admin?mine=1');
    // The Arabic half, with its own plural and direction.
    expect(text).toContain('طلبات مسندة إليك لم يُرد عليها بعد (العدد: 2)');
    expect(text).toContain('في الانتظار منذ ساعة عمل واحدة');
    expect(huda.parsed.html).toContain('<section lang="ar" dir="rtl"');
    // Nothing else the visitor wrote, in any part.
    for (const mail of mails) expect(mail.raw).not.toMatch(/Secret|Layla|message<|&lt;b&gt;/);
    const omar = mails.find((mail) => mail.recipients.includes(OMAR))!;
    expect(omar.parsed.text).not.toContain('Assigned to you and');
    expect(omar.parsed.text).toContain('Held for review');
    for (const mail of mails) {
      expect(mail.parsed.text).toContain('Assigned to nobody and not yet answered, oldest first (1): take one');
      expect(mail.parsed.text).toContain(`https://globaq.example/admin/leads/${nobodys.id}`);
      expect(mail.parsed.text).toContain('طلبات غير مسندة إلى أحد ولم يُرد عليها بعد، الأقدم أولًا (العدد: 1)');
    }
    // Once a day: the next sweep, or a second server, sends nothing more.
    expect(await sendMorningDigests(stores, config(smtp.url), transport, riyadh('08:00'))).toEqual({
      sent: [],
      quiet: [],
      failed: [],
    });
    expect(smtp.mails).toHaveLength(3);
  } finally {
    transport.close();
  }
});

test('nothing to say, no mail (and the day is done); a refused mail is given back and sent by the next sweep', async () => {
  const { submissions, inbox } = await open();
  const transport = smtpTransport(smtp.url, false);
  try {
    const outcome = await sendMorningDigests(stores, config(smtp.url), transport, riyadh('07:10'));
    expect([...outcome.quiet].sort()).toEqual([HUDA, OMAR, SANA]);
    expect(outcome.sent).toEqual([]);
    // A lead assigned later that morning waits for tomorrow's digest.
    const lead = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: riyadh('07:20') });
    await inbox.assign(lead.id, OMAR, HUDA, riyadh('07:20'));
    // Awaited: a digest it sent would be at the sink already.
    expect((await sendMorningDigests(stores, config(smtp.url), transport, riyadh('08:00'))).sent).toEqual([]);
    expect(smtp.mails).toHaveLength(0);
  } finally {
    transport.close();
  }
  // The next day the mail server is gone: the claim is given back, and the next sweep sends it.
  const monday = new Date('2026-11-30T07:05:00+03:00');
  const down = smtpTransport('smtp://127.0.0.1:1', false);
  try {
    const failed = await sendMorningDigests(stores, config('smtp://127.0.0.1:1'), down, monday);
    expect(failed.failed).toEqual([OMAR]);
  } finally {
    down.close();
  }
  const back = smtpTransport(smtp.url, false);
  try {
    const retried = await sendMorningDigests(stores, config(smtp.url), back, new Date(monday.getTime() + 60 * 60_000));
    expect(retried.sent).toEqual([OMAR]);
    const [mail] = await smtp.waitFor(1);
    expect(mail!.recipients).toEqual([OMAR]);
    expect(mail!.parsed.text).toContain('Assigned to you and not yet answered (1)');
  } finally {
    back.close();
  }
});

test('notifications off: no digest', async () => {
  await open();
  const transport = smtpTransport(smtp.url, false);
  try {
    expect(
      await sendMorningDigests(stores, { siteUrl: undefined, notifications: undefined }, transport, riyadh('09:00')),
    ).toMatchObject({ skipped: 'off' });
  } finally {
    transport.close();
  }
});
