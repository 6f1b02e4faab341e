/** Lead notifications, the parts without a mail server: settings, the mail's text, the retry schedule. */
import { describe, expect, test } from 'vitest';
import { ConfigError, receiverConfig } from '../../src/server/config';
import { composeLeadNotice, headerText } from '../../src/server/mail/lead-mail';
import { messageIdFor, recipientsFor, retryDelaySeconds } from '../../src/server/mail/outbox';
import { canonicalMailbox } from '../../src/server/store/outbox-queries';

const ON = {
  SMTP_URL: 'smtps://user:pa55@mail.example.com:465',
  LEADS_NOTIFY_TO: 'a@globaq.example, b@globaq.example',
  LEADS_NOTIFY_FROM: 'Globaq website <web@globaq.example>',
};

describe('settings', () => {
  test('off without SMTP_URL; on with it, its recipients, sender and retry schedule', () => {
    expect(receiverConfig({}).notifications).toBeUndefined();
    expect(receiverConfig(ON).notifications).toEqual({
      smtpUrl: ON.SMTP_URL,
      requireTls: true,
      to: ['a@globaq.example', 'b@globaq.example'],
      from: 'Globaq website <web@globaq.example>',
      // Customers answer to the leads mailbox: LEADS_NOTIFY_TO until LEADS_REPLY_TO names another.
      replyTo: ['a@globaq.example', 'b@globaq.example'],
      retrySeconds: 30,
      giveUpDays: 3,
      acknowledge: true,
      acknowledgeLimits: { perDomain: 5, total: 60 },
    });
    expect(receiverConfig({ ...ON, LEADS_REPLY_TO: 'sales@globaq.example' }).notifications!.replyTo).toEqual([
      'sales@globaq.example',
    ]);
    expect(
      receiverConfig({ ...ON, LEADS_NOTIFY_RETRY_SECONDS: '5', LEADS_NOTIFY_GIVE_UP_DAYS: '7' }).notifications,
    ).toMatchObject({ retrySeconds: 5, giveUpDays: 7 });
  });

  test('the acknowledgement to the sender is on by default, off with LEADS_ACKNOWLEDGE=off; anything else stops the start', () => {
    expect(receiverConfig({ ...ON, LEADS_ACKNOWLEDGE: 'on' }).notifications!.acknowledge).toBe(true);
    expect(receiverConfig({ ...ON, LEADS_ACKNOWLEDGE: 'off' }).notifications!.acknowledge).toBe(false);
    expect(() => receiverConfig({ ...ON, LEADS_ACKNOWLEDGE: 'no' })).toThrow(/LEADS_ACKNOWLEDGE: must be on or off/);
    const limits = { LEADS_ACKNOWLEDGE_PER_DOMAIN_HOUR: '2', LEADS_ACKNOWLEDGE_PER_HOUR: '20' };
    expect(receiverConfig({ ...ON, ...limits }).notifications!.acknowledgeLimits).toEqual({ perDomain: 2, total: 20 });
    expect(() => receiverConfig({ ...ON, LEADS_ACKNOWLEDGE_PER_HOUR: '0' })).toThrow(
      /LEADS_ACKNOWLEDGE_PER_HOUR: must be a whole number from 1/,
    );
  });

  test("one mailbox however it is written: case, +tag, and Gmail's dots and second name", () => {
    for (const address of ['victim+1@gmail.com', 'Victim@GMAIL.com', 'v.ictim@googlemail.com'])
      expect(canonicalMailbox(address), address).toBe('victim@gmail.com');
    expect(canonicalMailbox('First.Last+news@Example.com')).toBe('first.last@example.com');
  });

  test('TLS is required of any mail server but one on loopback, unless SMTP_REQUIRE_TLS says otherwise', () => {
    const tls = (env: Record<string, string>) => receiverConfig({ ...ON, ...env }).notifications!.requireTls;
    expect(tls({ SMTP_URL: 'smtp://user:pw@mail.example.com:587' })).toBe(true);
    expect(tls({ SMTP_URL: 'smtp://127.0.0.1:2525' })).toBe(false);
    expect(tls({ SMTP_URL: 'smtp://localhost:25' })).toBe(false);
    expect(tls({ SMTP_URL: 'smtp://[::1]:25' })).toBe(false);
    expect(tls({ SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_REQUIRE_TLS: 'true' })).toBe(true);
    expect(tls({ SMTP_URL: 'smtp://mail.example.com:25', SMTP_REQUIRE_TLS: 'false' })).toBe(false);
    expect(() => receiverConfig({ ...ON, SMTP_REQUIRE_TLS: 'yes' })).toThrow(/SMTP_REQUIRE_TLS: must be true or false/);
  });

  test('each form may have its own recipients; the others default to LEADS_NOTIFY_TO', () => {
    const partnersApart = receiverConfig({ ...ON, LEADS_NOTIFY_TO_PARTNER: 'partners@globaq.example' }).notifications!;
    expect(partnersApart.toByForm).toEqual({ partner: ['partners@globaq.example'] });
    expect(recipientsFor(partnersApart, 'partner')).toEqual(['partners@globaq.example']);
    expect(recipientsFor(partnersApart, 'contact')).toEqual(['a@globaq.example', 'b@globaq.example']);
    expect(receiverConfig(ON).notifications!.toByForm).toBeUndefined();
    expect(recipientsFor(receiverConfig(ON).notifications!, 'partner')).toEqual(['a@globaq.example', 'b@globaq.example']);
    // Every form named: LEADS_NOTIFY_TO may be left out; one form named is not enough.
    const both = {
      SMTP_URL: ON.SMTP_URL,
      LEADS_NOTIFY_FROM: ON.LEADS_NOTIFY_FROM,
      LEADS_NOTIFY_TO_CONTACT: 'hello@globaq.example',
      LEADS_NOTIFY_TO_PARTNER: 'partners@globaq.example, ceo@globaq.example',
    };
    expect(recipientsFor(receiverConfig(both).notifications!, 'partner')).toEqual([
      'partners@globaq.example',
      'ceo@globaq.example',
    ]);
    expect(recipientsFor(receiverConfig(both).notifications!, 'contact')).toEqual(['hello@globaq.example']);
    expect(() => receiverConfig({ ...both, LEADS_NOTIFY_TO_CONTACT: '' })).toThrow(
      /^LEADS_NOTIFY_TO: must be set when SMTP_URL is/,
    );
    expect(() => receiverConfig({ ...ON, LEADS_NOTIFY_TO_CONTACT: 'hello at globaq' })).toThrow(
      /^LEADS_NOTIFY_TO_CONTACT: "hello at globaq" is not an e-mail address/,
    );
  });

  test('each mistake is named by its variable', () => {
    const error = (env: Record<string, string>) => {
      try {
        receiverConfig(env);
      } catch (caught) {
        expect(caught).toBeInstanceOf(ConfigError);
        return (caught as Error).message;
      }
      return 'no error';
    };
    expect(error({ ...ON, SMTP_URL: 'mail.example.com' })).toMatch(/^SMTP_URL: is not a URL/);
    expect(error({ ...ON, SMTP_URL: 'https://mail.example.com' })).toMatch(/^SMTP_URL: must start with smtp:\/\/ or smtps:\/\//);
    expect(error({ ...ON, SMTP_URL: 'https://user:pa55@mail.example.com' })).not.toContain('pa55');
    expect(error({ SMTP_URL: ON.SMTP_URL })).toBe(
      'LEADS_NOTIFY_TO: must be set when SMTP_URL is (who gets the lead notifications, and who sends them); LEADS_NOTIFY_FROM: must be set when SMTP_URL is (who gets the lead notifications, and who sends them)',
    );
    expect(error({ ...ON, LEADS_NOTIFY_TO: 'leads at globaq' })).toMatch(
      /^LEADS_NOTIFY_TO: "leads at globaq" is not an e-mail address/,
    );
    expect(error({ ...ON, LEADS_NOTIFY_FROM: 'web@globaq.example\r\nBcc: x@evil.example' })).toMatch(
      /^LEADS_NOTIFY_FROM: [\s\S]* is not an e-mail address/,
    );
    expect(error({ ...ON, LEADS_NOTIFY_RETRY_SECONDS: '0' })).toMatch(
      /^LEADS_NOTIFY_RETRY_SECONDS: must be a whole number from 1/,
    );
  });
});

describe('the retry schedule and the Message-ID', () => {
  test('the first delay, doubled each time, never above an hour', () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelaySeconds(n, 30))).toEqual([30, 60, 120, 240, 480]);
    expect(retryDelaySeconds(20, 30)).toBe(3600);
  });

  test("one Message-ID per lead, on the sender's domain", () => {
    expect(messageIdFor('0b7c', 'Globaq website <web@globaq.example>')).toBe('<lead.0b7c@globaq.example>');
    expect(messageIdFor('0b7c', 'web@globaq.example')).toBe('<lead.0b7c@globaq.example>');
  });
});

describe('the mail', () => {
  const lead = {
    id: 'f00d',
    form: 'contact' as const,
    receivedAt: '2026-11-23T09:05:00.000Z',
    language: 'en' as const,
    fields: {
      firstName: 'Sara',
      lastName: 'Al-Qahtani',
      email: 'sara@example.com',
      country: '',
      city: 'Dammam',
      company: 'Gulf QA',
      message: '<a href="http://evil.example">win</a>\nline 2',
    },
  };

  test('subject, received time in Riyadh, the lead id, only answered fields, the Reply-To', () => {
    const notice = composeLeadNotice(lead);
    expect(notice.subject).toBe('New contact message from Sara Al-Qahtani, Gulf QA');
    expect(notice.replyTo).toBe('sara@example.com');
    expect(notice.text).toMatch(/^Received Monday,? 23 November 2026 at 12:05 \(Riyadh time\)$/m);
    expect(notice.text).toContain('Lead f00d');
    expect(notice.text).toContain('City: \u2068Dammam\u2069');
    expect(notice.text).not.toContain('Country:');
    expect(notice.text).toContain('Message:\n\u2068<a href="http://evil.example">win</a>\u2069\n\u2068line 2\u2069');
    expect(composeLeadNotice({ ...lead, fields: { ...lead.fields, company: '' } }).subject).toBe(
      'New contact message from Sara Al-Qahtani',
    );
  });

  test('the HTML part escapes what the visitor typed: no link, no markup of theirs', () => {
    const { html } = composeLeadNotice(lead);
    expect(html).toContain('&lt;a href=&quot;http://evil.example&quot;&gt;win&lt;/a&gt;');
    expect(html).not.toContain('<a ');
  });

  test('the language it was sent in; an Arabic lead gets its mail body in Arabic, right to left, its time as the Arabic site writes it', () => {
    const english = composeLeadNotice(lead);
    expect(english.text).toMatch(/^Sent in: English$/m);
    expect(english.text).not.toMatch(/[\u0660-\u0669]/);
    expect(english.html).toContain('Sent in: English');
    expect(english.html).toMatch(/^<!doctype html><html lang="en" dir="ltr">/);

    const arabic = composeLeadNotice({ ...lead, language: 'ar' });
    // The subject stays English: staff's mail rules and threads read it.
    expect(arabic.subject).toBe('New contact message from Sara Al-Qahtani, Gulf QA');
    expect(arabic.text).toMatch(/^لغة الإرسال: العربية$/m);
    // 09:05 UTC is 12:05 in Riyadh, the 23rd of November (Gregorian), written with the Western
    // digits the Arabic site writes everywhere.
    const received = /^تاريخ الاستلام: (.+) \(بتوقيت الرياض\)$/m.exec(arabic.text)?.[1] ?? '';
    expect(received).toContain('12:05');
    expect(received).toContain('نوفمبر');
    expect(received).not.toMatch(/[\u0660-\u0669]/);
    expect(arabic.text).toContain('المدينة: \u2068Dammam\u2069');
    expect(arabic.html).toContain('&lt;a href=&quot;http://evil.example&quot;&gt;win&lt;/a&gt;');
    expect(arabic.html).not.toContain('<a ');
  });

  test('each answer keeps its own direction: dir="auto" cells in an RTL mail, isolates in the text, nothing a mail program drops', () => {
    const mixed = 'نظام ISO 9001 للجودة.';
    const notice = composeLeadNotice({
      ...lead,
      language: 'ar',
      fields: {
        ...lead.fields,
        firstName: 'سارة',
        lastName: 'القحطاني',
        company: 'Gulf QA (KSA).',
        message: `${mixed}\nThanks.`,
      },
    });
    // The whole mail right to left, marked Arabic, by attributes (Gmail, Outlook and Apple Mail all keep them).
    expect(notice.html).toMatch(
      /^<!doctype html><html lang="ar" dir="rtl"><head><meta charset="utf-8"><\/head><body dir="rtl" style="[^"]*text-align:right/,
    );
    expect(notice.html).toMatch(/<table dir="rtl" role="presentation"/);
    // Each row: the Arabic label, then the visitor's value in its own direction, aligned physically.
    expect(notice.html).toContain(
      '<tr><th scope="row" align="right" valign="top" style="text-align:right;vertical-align:top;padding:4px 0 4px 12px">الشركة</th><td dir="auto" align="right" valign="top" style="text-align:right;vertical-align:top;padding:4px 0">Gulf QA (KSA).</td></tr>',
    );
    expect(notice.html).toContain(
      `<td dir="auto" align="right" valign="top" style="text-align:right;vertical-align:top;padding:4px 0">${mixed}<br>Thanks.</td>`,
    );
    // Nothing that a mail program strips or misreads: no stylesheet, no <bdi>, no logical CSS values, no pre-wrap.
    expect(notice.html).not.toMatch(/<style|<bdi|:start|:end|inline-start|pre-wrap|<script/i);
    // Every value cell says dir="auto".
    const cells = [...notice.html.matchAll(/<td\b[^>]*>/g)].map((m) => m[0]);
    expect(cells.length).toBeGreaterThan(3);
    for (const cell of cells) expect(cell).toContain('dir="auto"');
    // The text part: each value line isolated, so its full stop stays at its own end.
    expect(notice.text).toContain('الشركة: \u2068Gulf QA (KSA).\u2069');
    expect(notice.text).toContain(`\u2068${mixed}\u2069\n\u2068Thanks.\u2069`);
    expect(notice.text).toMatch(/\u2068سارة القحطاني\u2069/);
    // An English lead with an Arabic answer: left to right, the Arabic value isolated.
    const english = composeLeadNotice({ ...lead, fields: { ...lead.fields, city: 'الخبر.' } });
    expect(english.text).toContain('City: \u2068الخبر.\u2069');
    expect(english.html).toContain(
      '<td dir="auto" align="left" valign="top" style="text-align:left;vertical-align:top;padding:4px 0">الخبر.</td>',
    );
    expect(english.html).toContain('padding:4px 12px 4px 0">City</th>');
  });

  test('Arabic: right-to-left values isolated in the English subject; a partner mail says its options and country in Arabic', () => {
    const contact = composeLeadNotice({
      ...lead,
      language: 'ar',
      fields: { ...lead.fields, firstName: 'سارة', lastName: 'القحطاني' },
    });
    expect(contact.subject).toBe('New contact message from \u2068سارة القحطاني\u2069, Gulf QA');
    const partner = {
      ...lead,
      form: 'partner' as const,
      fields: {
        name: 'Aisha Al-Qahtani',
        email: 'aisha@example.com',
        phoneNumber: '+966 50 123 4567',
        country: 'Saudi Arabia',
        organization: 'مركز الجودة',
        classroomAvailable: 'Yes',
        formOfOwnership: 'Privately held company',
        servicesTypes: ['Training Courses', 'Inspection Services'],
      },
    };
    expect(composeLeadNotice(partner).subject).toBe('New partner application: \u2068مركز الجودة\u2069, Saudi Arabia');
    const arabic = composeLeadNotice({ ...partner, language: 'ar' });
    expect(arabic.text).toContain('الدولة: \u2068المملكة العربية السعودية\u2069');
    expect(arabic.text).toContain('\u2068شركة خاصة\u2069');
    expect(arabic.text).toContain('\u2068نعم\u2069');
    expect(arabic.text).toContain('\u2068الدورات التدريبية، خدمات التفتيش\u2069');
    expect(arabic.text).not.toMatch(/: \u2068(Saudi Arabia|Privately held company|Yes|Training Courses)/);
    // A phone number is an isolate with no strong letter: it reads left to right in the Arabic line.
    expect(arabic.text).toContain('رقم الهاتف: \u2068+966 50 123 4567\u2069');
    expect(arabic.html).toContain('>شركة خاصة</td>');
    // The English mail keeps the words the form stores.
    const english = composeLeadNotice(partner);
    expect(english.text).toContain('\u2068Privately held company\u2069');
    expect(english.text).toContain('\u2068Training Courses, Inspection Services\u2069');
  });

  test('header text is one line with no control character', () => {
    expect(headerText('A\r\nBcc: x@evil.example\u0000\u2028B')).toBe('A Bcc: x@evil.example B');
    expect(headerText('x'.repeat(300))).toHaveLength(200);
  });
});
