/** Lead notifications, the parts without a mail server: settings, the mail's text, the retry schedule. */
import { describe, expect, test } from 'vitest';
import { ConfigError, receiverConfig } from '../../src/server/config';
import { composeLeadNotice, headerText } from '../../src/server/mail/lead-mail';
import { messageIdFor, recipientsFor, retryDelaySeconds } from '../../src/server/mail/outbox';

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
      retrySeconds: 30,
      giveUpDays: 3,
      acknowledge: true,
    });
    expect(
      receiverConfig({ ...ON, LEADS_NOTIFY_RETRY_SECONDS: '5', LEADS_NOTIFY_GIVE_UP_DAYS: '7' }).notifications,
    ).toMatchObject({ retrySeconds: 5, giveUpDays: 7 });
  });

  test('the acknowledgement to the sender is on by default, off with LEADS_ACKNOWLEDGE=off; anything else stops the start', () => {
    expect(receiverConfig({ ...ON, LEADS_ACKNOWLEDGE: 'on' }).notifications!.acknowledge).toBe(true);
    expect(receiverConfig({ ...ON, LEADS_ACKNOWLEDGE: 'off' }).notifications!.acknowledge).toBe(false);
    expect(() => receiverConfig({ ...ON, LEADS_ACKNOWLEDGE: 'no' })).toThrow(/LEADS_ACKNOWLEDGE: must be on or off/);
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
    expect(notice.text).toContain('City: Dammam');
    expect(notice.text).not.toContain('Country:');
    expect(notice.text).toContain('Message:\n<a href="http://evil.example">win</a>\nline 2');
    expect(composeLeadNotice({ ...lead, fields: { ...lead.fields, company: '' } }).subject).toBe(
      'New contact message from Sara Al-Qahtani',
    );
  });

  test('the HTML part escapes what the visitor typed: no link, no markup of theirs', () => {
    const { html } = composeLeadNotice(lead);
    expect(html).toContain('&lt;a href=&quot;http://evil.example&quot;&gt;win&lt;/a&gt;');
    expect(html).not.toContain('<a ');
  });

  test('the language it was sent in; an Arabic lead also has its time as the Arabic site writes it (Western digits, Riyadh)', () => {
    const english = composeLeadNotice(lead);
    expect(english.text).toMatch(/^Sent in: English$/m);
    expect(english.text).not.toContain('The same time in');
    expect(english.text).not.toMatch(/[\u0660-\u0669]/);
    expect(english.html).toContain('Sent in: English');

    const arabic = composeLeadNotice({ ...lead, language: 'ar' });
    // Staff read English: the mail stays English, subject included.
    expect(arabic.subject).toBe('New contact message from Sara Al-Qahtani, Gulf QA');
    expect(arabic.text).toMatch(/^Received Monday,? 23 November 2026 at 12:05 \(Riyadh time\)$/m);
    expect(arabic.text).toMatch(/^Sent in: Arabic$/m);
    // 09:05 UTC is 12:05 in Riyadh, the 23rd of November (Gregorian), written with the Western
    // digits the Arabic site writes everywhere.
    const local = /^The same time in Arabic: (.+)$/m.exec(arabic.text)?.[1] ?? '';
    expect(local).toContain('12:05');
    expect(local).toContain('23');
    expect(local).toContain('نوفمبر');
    expect(local).not.toMatch(/[\u0660-\u0669]/);
    // In the HTML part, isolated right to left and marked Arabic; what the visitor typed still escaped.
    expect(arabic.html).toContain(`The same time in Arabic: <bdi lang="ar" dir="rtl">${local}</bdi>`);
    expect(arabic.html).toContain('Sent in: Arabic');
    expect(arabic.html).toContain('&lt;a href=&quot;http://evil.example&quot;&gt;win&lt;/a&gt;');
    expect(arabic.html).not.toContain('<a ');
  });

  test('header text is one line with no control character', () => {
    expect(headerText('A\r\nBcc: x@evil.example\u0000\u2028B')).toBe('A Bcc: x@evil.example B');
    expect(headerText('x'.repeat(300))).toHaveLength(200);
  });
});
