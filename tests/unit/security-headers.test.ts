import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { HSTS, SECURITY_HEADERS, securityHeadersFor } from '../../scripts/security-headers.mjs';
import { ROOT } from '../helpers/content';

test('HSTS only when the site is told it is behind HTTPS', () => {
  expect(securityHeadersFor({ behindHttps: false })['Strict-Transport-Security']).toBeUndefined();
  expect(securityHeadersFor({ behindHttps: true })['Strict-Transport-Security']).toBe(HSTS);
});

test("public/_headers for static hosts carries the server's headers, HSTS included (static hosts serve HTTPS)", () => {
  const text = fs.readFileSync(path.join(ROOT, 'public/_headers'), 'utf8');
  const block = text.split(/^\/\*$/m)[1]?.split(/^\S/m)[0] ?? '';
  const headers = Object.fromEntries(
    block
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]),
  );
  expect(headers).toEqual({ ...SECURITY_HEADERS, 'Strict-Transport-Security': HSTS });
  expect(SECURITY_HEADERS['Content-Security-Policy']).toContain("frame-ancestors 'none'");
});
