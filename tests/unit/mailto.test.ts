import { describe, expect, test } from 'vitest';
import { MAILTO_BODY_MAX, mailtoHref } from '../../src/forms/mailto';
import { tParts } from '../../src/i18n';

describe('the e-mail way around a failing form', () => {
  test('a mailto link with the subject and what the visitor typed, line by line', () => {
    const href = mailtoHref('info@globaq.example', 'Message from the website', [
      'We need a Schedule Q assessment.',
      '',
      'Omar Saleh',
      '  ',
      'omar@example.com',
    ]);
    const url = new URL(href);
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe('info@globaq.example');
    expect(url.searchParams.get('subject')).toBe('Message from the website');
    expect(url.searchParams.get('body')).toBe('We need a Schedule Q assessment.\n\nOmar Saleh\n\nomar@example.com');
  });

  test('characters that mean something in a URL arrive as typed', () => {
    const body = new URL(mailtoHref('a@example.com', 'S & T', ['50% done? yes & no #1 = أهلاً'])).searchParams.get('body');
    expect(body).toBe('50% done? yes & no #1 = أهلاً');
  });

  test('a very long message is cut, so mail programs still open the link', () => {
    const body = new URL(mailtoHref('a@example.com', 'S', ['x'.repeat(10_000)])).searchParams.get('body') ?? '';
    expect(body.length).toBe(MAILTO_BODY_MAX);
    expect(body.endsWith('…')).toBe(true);
  });

  test('the help line keeps its words around the two links, in the locale order', () => {
    expect(tParts('form.failure.help')).toEqual([
      'Your answers are still here. If sending keeps failing, e-mail us at ',
      { slot: 'email' },
      ' or call ',
      { slot: 'phone' },
      '.',
    ]);
  });
});
