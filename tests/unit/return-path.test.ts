/**
 * Where sign-in returns to (src/server/return-path.ts): an inbox path on this site, as asked for;
 * anything a browser or a proxy could read as another host, in any spelling, returns to the list.
 */
import { describe, expect, test } from 'vitest';
import { INBOX_HOME, safeReturnPath } from '../../src/server/inbox/return-path';

const LEAD = '/admin/leads/0b7f2f4e-7a51-4c39-9a53-2f1a4a4b7c11';

describe('a return path of the inbox is kept', () => {
  test.each([
    [LEAD, LEAD],
    ['/admin', '/admin'],
    ['/admin?status=new&search=Sara%20Al-Qahtani', '/admin?status=new&search=Sara%20Al-Qahtani'],
    ['/admin/audit?view=refused&page=2', '/admin/audit?view=refused&page=2'],
    ['/admin/two-step', '/admin/two-step'],
  ])('%s', (raw, expected) => {
    expect(safeReturnPath(raw)).toBe(expected);
  });
});

describe('anything else goes to the list', () => {
  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['not text', ['/admin/audit']],
    ['another site', 'https://evil.example'],
    ['another site, inbox path', 'https://evil.example/admin'],
    ['scheme-relative', '//evil.example'],
    ['scheme-relative, inbox path', '//evil.example/admin'],
    ['backslash', '/\\evil.example'],
    ['backslash, inbox path', '/admin/\\evil.example'],
    ['two backslashes', '\\\\evil.example'],
    ['encoded slashes', '%2F%2Fevil.example'],
    ['encoded slashes after one', '/%2Fevil.example'],
    ['encoded slashes, lower case', '/%2f%2fevil.example'],
    ['double-encoded slashes', '/%252F%252Fevil.example'],
    ['encoded backslash', '/%5Cevil.example'],
    ['encoded backslash, lower case', '/%5cevil.example'],
    ['double-encoded backslash', '/%255Cevil.example'],
    ['encoded backslash in the inbox', '/admin/%5C%5Cevil.example'],
    ['tab inside', '/\t/evil.example'],
    ['line break inside', '/\n/evil.example'],
    ['carriage return inside', '/\r/evil.example'],
    ['encoded tab', '/%09/evil.example'],
    ['encoded line break', '/%0A/evil.example'],
    ['encoded carriage return', '/%0d/evil.example'],
    ['leading space', ' /admin'],
    ['no-break space', '/admin\u00a0'],
    ['zero-width space', '/\u200b/evil.example'],
    ['null byte', '/admin%00'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:text/html,<script>alert(1)</script>'],
    ['relative', 'admin/leads'],
    ['a public page', '/ContactUs'],
    ['dot segments out of the inbox', '/admin/../ContactUs'],
    ['encoded dot segments out of the inbox', '/admin/%2e%2e/%2e%2e/evil'],
    ['encoded slashes between dot segments', '/admin/leads/..%2F..%2FContactUs'],
    ['encoded sign-in page', '/admin/%6Cogin'],
    ['the sign-in page (a loop)', '/admin/login'],
    ['the second step', '/admin/login/code'],
    ['sign-out', '/admin/logout'],
    ['a fragment', '/admin#x'],
    ['malformed escape', '/admin/%E0%A4%A'],
    ['escapes nested too deep', `/admin/${'%25'.repeat(6)}41`],
    ['too long', `/admin?search=${'a'.repeat(3000)}`],
    ['a look-alike prefix', '/administrator'],
  ])('%s', (_name, raw) => {
    expect(safeReturnPath(raw)).toBe(INBOX_HOME);
  });
});

describe('the query may hold what a search holds', () => {
  test('an encoded space, slashes and a backslash in the search stay in the search', () => {
    expect(safeReturnPath('/admin?search=http%3A%2F%2Fexample.com%5Cx%20y')).toBe(
      '/admin?search=http%3A%2F%2Fexample.com%5Cx%20y',
    );
  });
  test('a query never makes the path another host', () => {
    expect(safeReturnPath('//evil.example?x=/admin')).toBe(INBOX_HOME);
    expect(safeReturnPath('/%2F%2Fevil.example?x=/admin')).toBe(INBOX_HOME);
  });
});
