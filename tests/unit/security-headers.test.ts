import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { HSTS, SECURITY_HEADERS, securityHeadersFor } from '../../src/server/http/security-headers';
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

test('the policy lets the forms reach exactly the site and the configured external endpoints', async () => {
  const { cspDirectives } = await import('../../src/integrations/csp');
  const own = cspDirectives({});
  expect(own).toContain("connect-src 'self'");
  expect(own).toContain("form-action 'self'");
  const external = cspDirectives({
    PUBLIC_CONTACT_ENDPOINT: 'https://script.google.com/macros/s/abc/exec?form=contact',
    PUBLIC_PARTNER_ENDPOINT: 'https://script.google.com/macros/s/abc/exec?form=partner',
  });
  expect(external).toContain("connect-src 'self' https://script.google.com");
  expect(external).toContain("form-action 'self' https://script.google.com");
  expect(cspDirectives({ PUBLIC_CONTACT_ENDPOINT: '/api/contact' })).toContain("connect-src 'self'");
});

test('no secret reaches the browser: the built client files name no server-side setting', async () => {
  const { readdirSync, readFileSync, existsSync } = await import('node:fs');
  const dir = path.join(ROOT, 'dist/client/_astro');
  if (!existsSync(dir)) throw new Error('build first');
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.js'))) {
    const code = readFileSync(path.join(dir, file), 'utf8');
    expect(code, file).not.toMatch(/SUBMISSIONS_(DB|ALLOWED_ORIGINS|RATE)|NETLIFY_AUTH_TOKEN|node:sqlite/);
  }
});
