/**
 * The deployment guide (docs/deploy.md) against what it describes: the headers a static host
 * sends (public/_headers) and the nginx snippet stay the same, every build-time variable is
 * documented, and the server trusts a proxy's forwarded headers for the site's own address only.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import config from '../../astro.config.mjs';
import { ROOT } from '../helpers/frontmatter';
import { signInSummary, twoStepSettings } from '../../src/server/inbox/two-step';
import { loadSettingsFile } from '../../src/server/ops/settings-file';

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const DEPLOY = read('docs/deploy.md');
const README = read('README.md');
const CONTENT = read('docs/content.md');
const RECEIVER = read('docs/receiver.md');

/** public/_headers as { path pattern: { header: value } }. */
function parseHeadersFile(text: string): Record<string, Record<string, string>> {
  const rules: Record<string, Record<string, string>> = {};
  let current: Record<string, string> | undefined;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      current = rules[line.trim()] = {};
      continue;
    }
    const colon = line.indexOf(':');
    if (!current || colon < 0) throw new Error(`public/_headers: a header outside a path block: ${line}`);
    current[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return rules;
}

/** The fenced nginx block of docs/deploy.md whose text contains `marker`. */
function nginxBlock(marker: string): string {
  const block = [...DEPLOY.matchAll(/```nginx\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').find((b) => b.includes(marker));
  if (!block) throw new Error(`docs/deploy.md has no nginx block with "${marker}"`);
  return block;
}

const addHeaders = (block: string) =>
  Object.fromEntries([...block.matchAll(/^\s*add_header\s+([\w-]+)\s+"([^"]*)"\s+always;/gm)].map((m) => [m[1], m[2]]));

describe('deployment guide', () => {
  test('the README links the guide', () => {
    expect(README).toMatch(/\]\(docs\/deploy\.md\)/);
  });

  test('the nginx headers snippet sends exactly the headers of public/_headers', () => {
    const rules = parseHeadersFile(read('public/_headers'));
    const all = rules['/*'];
    expect(Object.keys(all ?? {})).toEqual(expect.arrayContaining(['X-Content-Type-Options', 'Content-Security-Policy']));
    expect(addHeaders(nginxBlock('snippets/globaq-headers.conf: the same'))).toEqual(all);
  });

  test('hashed assets get the same long caching from nginx as from public/_headers', () => {
    const rules = parseHeadersFile(read('public/_headers'));
    const cache = rules['/_astro/*']?.['Cache-Control'];
    expect(cache).toContain('immutable');
    const staticBlock = nginxBlock('globaq-static');
    const astro = staticBlock.slice(staticBlock.indexOf('location /_astro/'));
    expect(addHeaders(astro.slice(0, astro.indexOf('}')))['Cache-Control']).toBe(cache);
  });

  test("the nginx rules for /Aboutus and Coming Soon are the ones the hosts' table gives", () => {
    const staticBlock = nginxBlock('globaq-static');
    expect(staticBlock).toMatch(/location = \/Aboutus \{\s*try_files \/AboutUs\.html =404;/);
    expect(staticBlock).toMatch(/location \/services\/ \{[^}]*error_page 404 \/services\/404\.html;/);
    expect(DEPLOY).toMatch(/^\| nginx \|[^\n]*`location = \/Aboutus \{ try_files \/AboutUs\.html =404; \}`/m);
  });

  test('the _redirects rules the guide shows are the ones public/_redirects holds', () => {
    const rules = (text: string) =>
      text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'));
    const shown = /Netlify and Cloudflare Pages\*\* read[\s\S]*?```text\n([\s\S]*?)```/.exec(DEPLOY)?.[1] ?? '';
    expect(rules(shown)).toEqual(rules(read('public/_redirects')));
  });

  test('the Caddyfile sends exactly the headers of public/_headers, and caches hashed assets alike', () => {
    const caddy = /```caddy\n([\s\S]*?)```/.exec(DEPLOY)?.[1] ?? '';
    const block = /\bheader \{\n([\s\S]*?)\n\s*\}/.exec(caddy)?.[1] ?? '';
    const headers = Object.fromEntries([...block.matchAll(/^\s*([\w-]+) "([^"]*)"$/gm)].map((m) => [m[1], m[2]]));
    const rules = parseHeadersFile(read('public/_headers'));
    expect(headers).toEqual(rules['/*']);
    expect(caddy).toContain(`header /_astro/* Cache-Control "${rules['/_astro/*']?.['Cache-Control']}"`);
    // The precompressed twins and the nearest 404 page, as the table above the block says.
    expect(caddy).toContain('precompressed br gzip');
    expect(caddy).toMatch(/handle \/ar\/services\/\* \{\s*rewrite \* \/ar\/services\/404\.html/);
  });

  test("the nginx rules serve the Arabic pages the way the site's own server does", () => {
    const staticBlock = nginxBlock('globaq-static');
    expect(staticBlock).toMatch(/location = \/ar\/Aboutus \{\s*try_files \/ar\/AboutUs\.html =404;/);
    expect(staticBlock).toMatch(/location \/ar\/ \{[^}]*error_page 404 \/ar\/404\.html;/);
    expect(staticBlock).toMatch(/location \/ar\/services\/ \{[^}]*error_page 404 \/ar\/services\/404\.html;/);
    // /ar itself is ar.html through the general rule, which tries $uri.html.
    expect(staticBlock).toMatch(/location \/ \{\s*try_files \$uri \$uri\.html =404;/);
  });

  test('the reverse proxy passes the host and scheme the server needs', () => {
    const proxy = nginxBlock('proxy_pass');
    for (const header of ['Host $host', 'X-Forwarded-Proto $scheme', 'X-Forwarded-Host $host']) {
      expect(proxy).toContain(`proxy_set_header ${header};`);
    }
    // The server sends the security headers itself: nginx must not add them a second time.
    expect(proxy).not.toMatch(/include snippets\/globaq-headers\.conf;/);
    expect(DEPLOY).toContain('BEHIND_HTTPS=true');
    // The rate limit reads the client from X-Forwarded-For: nginx writes the address it saw,
    // never the client's own header, and the server is told to believe nginx.
    expect(proxy).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    expect(proxy).not.toContain('$proxy_add_x_forwarded_for;');
    expect(DEPLOY).toMatch(/^TRUSTED_PROXIES="127\.0\.0\.1,::1"$/m);
    expect(proxy).toMatch(/gzip on;/);
  });

  test('every build-time variable of the site is documented', () => {
    const schema = Object.keys(config.env?.schema ?? {});
    expect(schema).toEqual(expect.arrayContaining(['PUBLIC_CONTACT_ENDPOINT', 'PUBLIC_PARTNER_ENDPOINT']));
    for (const name of [...schema, 'SITE_URL']) expect(`${CONTENT}\n${RECEIVER}\n${DEPLOY}`, name).toContain(name);
    for (const name of ['HOST', 'PORT', 'SUBMISSIONS_DB', 'SITE_URL', 'PUBLIC_CONTACT_ENDPOINT'])
      expect(DEPLOY).toContain(`\`${name}\``);
  });

  test("the server trusts a proxy's forwarded headers for the site's own address only", () => {
    const site = new URL(String(config.site));
    expect(config.security?.allowedDomains).toEqual([{ protocol: site.protocol.slice(0, -1), hostname: site.hostname }]);
  });
});

test('the settings file the guide writes, run as written, gives two-step sign-in required under a key made on the machine', () => {
  const blocks = [...DEPLOY.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const settings = blocks.find((block) => block.startsWith('SITE_URL=') && block.includes('OPS_TOKEN='))!;
  const keyLine = blocks.find((block) => block.includes('STAFF_TOTP_KEY') && block.includes('openssl rand -hex 32'))!;
  expect(keyLine, 'a step that makes the key').toBeDefined();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-deploy-settings-'));
  try {
    const file = path.join(dir, 'site.env');
    fs.writeFileSync(file, settings);
    const made = spawnSync('sh', ['-c', keyLine.replaceAll('/etc/globaq/site.env', file)], { encoding: 'utf8' });
    expect(made.status, made.stderr).toBe(0);
    const env: NodeJS.ProcessEnv = {};
    loadSettingsFile(['--settings', file], env);
    const twoStep = twoStepSettings(env);
    expect(twoStep.required).toBe(true);
    expect(twoStep.key).toHaveLength(32);
    expect(signInSummary(twoStep)).toMatch(/^two-step sign-in required/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
