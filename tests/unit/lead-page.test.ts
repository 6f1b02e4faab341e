/**
 * The lead page's helpers (src/server/inbox.ts): the one date formatter of the inbox (Riyadh
 * time, "25 Nov 2026, 09:30"), which answers become links and which never do, how the answers
 * are laid out (contact block, answered in the form's order, "Not answered", the visitor's clock
 * apart), and "Reply by e-mail" (the message quoted, the subject in the lead's language).
 */
import { describe, expect, test } from 'vitest';
import { answerLink, leadView, replyHref, riyadhTime } from '../../src/server/inbox/lead-view';
import { ar } from '../../src/i18n/ar';
import { contactBody, partnerBody } from '../helpers/server';

describe('riyadhTime: every date in the inbox and the audit log', () => {
  test('Riyadh time (UTC+3), as people read it', () => {
    expect(riyadhTime('2026-11-25T06:30:00.000Z')).toBe('25 Nov 2026, 09:30');
    // Past midnight in Riyadh while it is still the day before in UTC; September is "Sep".
    expect(riyadhTime('2026-09-30T22:05:00.000Z')).toBe('1 Oct 2026, 01:05');
    expect(riyadhTime('2026-09-03T08:00:00.000Z')).toBe('3 Sep 2026, 11:00');
    expect(riyadhTime(undefined)).toBe('');
    expect(riyadhTime('not a time')).toBe('');
  });

  test('in Arabic for an Arabic reply: the Gregorian date, Western digits, Riyadh time', () => {
    const text = riyadhTime('2026-11-25T06:30:00.000Z', 'ar');
    expect(text).toContain('2026');
    expect(text).toContain('نوفمبر');
    expect(text).toMatch(/09:30/);
  });
});

describe('answerLink: which answers are links', () => {
  test('an e-mail address: mailto, the address encoded', () => {
    expect(answerLink('email', 'omar@example.com')).toEqual({ kind: 'email', href: 'mailto:omar@example.com' });
    expect(answerLink('email', 'a?cc=boss@evil.example@x.com')).toBeUndefined();
    expect(answerLink('email', 'not an address')).toBeUndefined();
  });

  test('a phone number: tel: with its digits and a leading +, Arabic-Indic digits made Western', () => {
    expect(answerLink('tel', '+966 50 123 4567')).toEqual({ kind: 'tel', href: 'tel:+966501234567' });
    expect(answerLink('tel', '+٩٧٣ ٣٩٠٠ ١٢٣٤')).toEqual({ kind: 'tel', href: 'tel:+97339001234' });
    expect(answerLink('tel', '(013) 555-0101')).toEqual({ kind: 'tel', href: 'tel:0135550101' });
    expect(answerLink('tel', 'call me')).toBeUndefined();
  });

  test('a website: http or https only (a bare host gets https://), never a script, a file or credentials', () => {
    expect(answerLink('url', 'https://example.com')).toEqual({ kind: 'url', href: 'https://example.com/' });
    expect(answerLink('url', 'example.com/about')).toEqual({ kind: 'url', href: 'https://example.com/about' });
    expect(answerLink('url', 'http://gulf-labs.sa')).toEqual({ kind: 'url', href: 'http://gulf-labs.sa/' });
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'https://user:pass@evil.example',
      'vbscript:x',
      'localhost',
      '" onmouseover="x',
    ]) {
      expect(answerLink('url', bad), bad).toBeUndefined();
    }
    // Text that is not of a linked kind is never a link, whatever it looks like.
    expect(answerLink('longText', 'https://evil.example')).toBeUndefined();
  });
});

describe('leadView: the lead page laid out', () => {
  test("a contact message: the contact block first, the message, the visitor's clock behind Details, the unanswered in one line", () => {
    const view = leadView({ form: 'contact', fields: contactBody({ city: '', company: '' }) });
    expect(view.contact.map((answer) => [answer.label, answer.text])).toEqual([
      ['Name', 'Omar Al-Harbi'],
      ['Email', 'omar@example.com'],
      ['Country', 'Saudi Arabia'],
    ]);
    expect(view.contact.find((answer) => answer.name === 'email')?.link?.href).toBe('mailto:omar@example.com');
    expect(view.sections).toHaveLength(1);
    expect(view.sections[0]!.answers.map((answer) => [answer.name, answer.long])).toEqual([['message', true]]);
    expect(view.unanswered).toEqual(['City', 'Company']);
    expect(view.details.map((answer) => answer.name)).toEqual(['submissionDate', 'submissionTimestamp']);
    // The message is text, however much it looks like a link.
    expect(
      leadView({ form: 'contact', fields: contactBody({ message: 'https://evil.example' }) }).sections[0]!.answers[0]!.link,
    ).toBeUndefined();
  });

  test("a partner application: phone, e-mail and website as links; its answers in the form's sections; nothing answered twice", () => {
    const view = leadView({ form: 'partner', fields: partnerBody({ uploadedFiles: ['cv.pdf'], localCompetition: '' }) });
    const links = Object.fromEntries(
      view.contact.filter((answer) => answer.link).map((answer) => [answer.name, answer.link!.href]),
    );
    expect(links).toEqual({
      email: 'mailto:aisha@example.com',
      phoneNumber: 'tel:+966501234567',
      companyWebsite: 'https://example.com/',
    });
    expect(view.sections.map((section) => section.heading)).toEqual(
      [
        'Company Information',
        'Partnership Interest',
        'Training & Capabilities',
        'Business Analysis',
        'Competition Analysis',
      ].filter((heading) => view.sections.some((s) => s.heading === heading)),
    );
    const shown = [...view.contact, ...view.sections.flatMap((section) => section.answers), ...view.details].map(
      (answer) => answer.name,
    );
    expect(new Set(shown).size).toBe(shown.length);
    expect(view.details.map((answer) => answer.name)).toEqual(['uploadedFiles']);
    expect(view.unanswered).toEqual(['Number of Employees', 'Who are your main local competitors?']);
    // Every answered field is shown somewhere.
    const answered = Object.entries(partnerBody({ uploadedFiles: ['cv.pdf'], localCompetition: '' }))
      .filter(([, value]) => value !== '' && value !== null && !(Array.isArray(value) && value.length === 0))
      .map(([name]) => name);
    expect(shown.sort()).toEqual(answered.sort());
  });
});

describe('replyHref: "Reply by e-mail"', () => {
  const params = (href: string) => new URLSearchParams(href.slice(href.indexOf('?') + 1));

  test('an English contact message: to the visitor, an English subject, the message quoted line by line', () => {
    const href = replyHref({
      form: 'contact',
      language: 'en',
      receivedAt: '2026-11-25T06:30:00.000Z',
      fields: contactBody({ message: 'First line\nSecond line' }),
    })!;
    expect(href.startsWith('mailto:omar@example.com?')).toBe(true);
    expect(params(href).get('subject')).toBe('Your message to Globaq');
    const body = params(href).get('body')!;
    expect(body).toContain('Dear Omar Al-Harbi,');
    expect(body).toContain('On 25 Nov 2026, 09:30 (Riyadh time) you wrote:\r\n> First line\r\n> Second line');
    // Spaces are %20, never +, which a mail program would show as a plus.
    expect(href).not.toContain('+');
  });

  test('an Arabic lead: the subject and the quote line in Arabic (from src/i18n/ar.ts)', () => {
    const href = replyHref({
      form: 'contact',
      language: 'ar',
      receivedAt: '2026-11-25T06:30:00.000Z',
      fields: contactBody({ firstName: 'سارة', lastName: 'الحربي', message: 'نحتاج تقييم Schedule Q' }),
    })!;
    expect(params(href).get('subject')).toBe(ar['reply.subject.contact']);
    const body = params(href).get('body')!;
    expect(body).toContain('مرحبًا سارة الحربي،');
    expect(body).toContain('> نحتاج تقييم Schedule Q');
    expect(body).toMatch(/كتبتم في .*2026.*\(بتوقيت الرياض\):/);
    expect(
      params(replyHref({ form: 'partner', language: 'ar', receivedAt: '2026-11-25T06:30:00.000Z', fields: partnerBody() })!).get(
        'subject',
      ),
    ).toBe(ar['reply.subject.partner']);
  });

  test('no usable address, no reply link; a long message is cut so the link stays usable', () => {
    expect(
      replyHref({
        form: 'contact',
        language: 'en',
        receivedAt: '2026-11-25T06:30:00.000Z',
        fields: contactBody({ email: 'no address' }),
      }),
    ).toBeUndefined();
    // What the address holds is encoded: it adds no header (no Bcc) to the mail.
    const tricky = replyHref({
      form: 'contact',
      language: 'en',
      receivedAt: '2026-11-25T06:30:00.000Z',
      fields: contactBody({ email: 'x?bcc=a@b.c' }),
    })!;
    expect(tricky.startsWith('mailto:x%3Fbcc%3Da@b.c?subject=')).toBe(true);
    expect([...params(tricky).keys()]).toEqual(['subject', 'body']);
    const href = replyHref({
      form: 'contact',
      language: 'en',
      receivedAt: '2026-11-25T06:30:00.000Z',
      fields: contactBody({ message: 'word '.repeat(2000) }),
    })!;
    expect(params(href).get('body')!.length).toBeLessThan(1700);
  });
});
