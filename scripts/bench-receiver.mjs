/**
 * `npm run bench:receiver`: a load benchmark of the submission receiver (not a test).
 *
 * Starts the built site's own server (src/server/serve.ts, built first when missing) on a free
 * loopback port with a fresh database in a temporary folder and the rate limit off, then
 * sends contact submissions as JSON with autocannon: 50 connections for 10 s (BENCH_CONNECTIONS,
 * BENCH_DURATION change them). Prints requests/s, p50/p99 latency, the non-2xx count, and the
 * rows stored against the 201s answered; every id answered with 201 is then looked up in the
 * database. Exits non-zero when an acknowledged submission is missing or a request failed.
 *
 * With --notify (`npm run bench:receiver -- --notify`), lead notifications are on, sent to a real
 * SMTP server on loopback (smtp-server, the tests' own): the figures then show whether storing
 * waits for mail (it must not), and it prints how long the outbox took to deliver every mail.
 *
 * Goal (issue 7): at least 1,000 stored submissions per second on 2 cores, p99 under 50 ms,
 * no errors, stored equal to acknowledged. Requests still in flight when the clock stops may
 * be stored without their 201 being read: they are counted apart.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SMTPServer } from 'smtp-server';
import { openSqliteStore } from '../src/server/sqlite-store.ts';
import { openOutboxStore } from '../src/server/outbox.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const connections = Number(process.env.BENCH_CONNECTIONS || 50);
const duration = Number(process.env.BENCH_DURATION || 10);

if (!fs.existsSync(path.join(root, 'dist', 'server', 'entry.mjs'))) {
  console.log('No build yet: building…');
  const built = spawnSync(path.join(root, 'node_modules', '.bin', 'astro'), ['build'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-bench-'));
const dbPath = path.join(dir, 'submissions.db');
const notify = process.argv.includes('--notify');

/** A loopback mail server that accepts and counts every mail (only with --notify). */
let mailsReceived = 0;
const smtp = notify
  ? new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, callback) {
        stream.on('data', () => {});
        stream.on('end', () => {
          mailsReceived += 1;
          callback();
        });
      },
    })
  : undefined;
if (smtp) await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
const notifyEnv = smtp
  ? { SMTP_URL: `smtp://127.0.0.1:${smtp.server.address().port}`, LEADS_NOTIFY_TO: 'leads@globaq.example', LEADS_NOTIFY_FROM: 'website@globaq.example' }
  : {};

/** Starts the server; resolves with its port once it listens. */
function startServer() {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(root, 'src', 'server', 'serve.ts')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', SUBMISSIONS_DB: dbPath, SUBMISSIONS_RATE_LIMIT: '0', ...notifyEnv },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('The server did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`The server exited (${code}) before listening`)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    });
  });
}

const loadBefore = os.loadavg().map((n) => n.toFixed(1)).join(', ');
const { child, port } = await startServer();
const url = `http://127.0.0.1:${port}/api/contact`;
let sequence = 0;
const acknowledged = [];
const payload = (n) =>
  JSON.stringify({
    firstName: 'Bench',
    lastName: `Visitor ${n}`,
    email: `visitor${n}@example.com`,
    country: 'Saudi Arabia',
    city: 'Al-Khobar',
    company: 'Load Test Co.',
    message: `Submission number ${n}: we would like a quotation for an ISO 9001 internal audit and awareness training for 25 staff.`,
    submissionDate: new Date().toISOString(),
    submissionTimestamp: new Date().toUTCString(),
  });

// One warm-up request, so the first measured one does not pay for loading the route.
const warm = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: payload(0) });
if (warm.status !== 201) throw new Error(`Warm-up answered ${warm.status}: ${await warm.text()}`);
acknowledged.push((await warm.json()).id);

console.log(`autocannon: ${connections} connections for ${duration} s, POST ${url}${notify ? ', lead notifications on (loopback SMTP)' : ''}`);
/** What went wrong, if anything: each distinct answer or error once, with its count. */
const errorSamples = new Map();
const note = (sample) => errorSamples.set(sample, (errorSamples.get(sample) ?? 0) + 1);
const result = await new Promise((resolve, reject) => {
  const instance = autocannon(
    {
      url,
      connections,
      duration,
      requests: [
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          setupRequest: (request) => ({ ...request, body: payload(++sequence) }),
          onResponse: (status, body) => {
            if (status === 201) acknowledged.push(JSON.parse(body).id);
            else note(`answer ${status}: ${body.slice(0, 120)}`);
          },
        },
      ],
    },
    (error, done) => (error ? reject(error) : resolve(done)),
  );
  instance.on('reqError', (error) => note(`error: ${error.code ?? error.message}`));
});

/** With --notify: how long after the load the outbox took to deliver every mail (at most 5 min). */
let drainSeconds;
let pendingLeft = 0;
if (notify) {
  const outbox = openOutboxStore(dbPath);
  const started = Date.now();
  for (;;) {
    pendingLeft = (await outbox.list(['pending'])).length;
    if (pendingLeft === 0 || Date.now() - started > 300_000) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await outbox.close();
  drainSeconds = (Date.now() - started) / 1000;
}

await new Promise((resolve) => {
  child.once('exit', resolve);
  child.kill('SIGTERM');
});
if (smtp) await new Promise((resolve) => smtp.close(resolve));

const store = openSqliteStore(dbPath, { create: false });
const stored = await store.count({ form: 'contact' });
const storedIds = new Set();
for await (const row of store.export({ form: 'contact' })) storedIds.add(row.id);
await store.close();
const missing = acknowledged.filter((id) => !storedIds.has(id)).length;
const created = result.statusCodeStats['201']?.count ?? 0;

const rate = result.requests.average;
const storedPerSecond = (stored - 1) / result.duration;
const lines = [
  ['requests/s (average)', rate.toFixed(0)],
  ['latency p50', `${result.latency.p50} ms`],
  ['latency p99', `${result.latency.p99} ms`],
  ['requests answered', String(result.requests.total)],
  ['non-2xx answers', String(result.non2xx)],
  ['errors / timeouts', `${result.errors} / ${result.timeouts}`],
  ['201s answered (with warm-up)', String(created + 1)],
  ['rows stored', String(stored)],
  ['201s missing from the database', String(missing)],
  ['stored, 201 not read (in flight at the stop)', String(stored - acknowledged.length)],
  ['stored per second', storedPerSecond.toFixed(0)],
  ...(notify
    ? [
        ['mails received by the SMTP server', String(mailsReceived)],
        ['notifications still pending', String(pendingLeft)],
        ['outbox drained, seconds after the load', drainSeconds.toFixed(1)],
      ]
    : []),
];
console.log('');
for (const [label, value] of lines) console.log(`${label.padEnd(46)} ${value}`);
for (const [sample, count] of errorSamples) console.log(`  ${count} × ${sample}`);
const goals = [
  ['>= 1000 stored/s', storedPerSecond >= 1000],
  ['p99 < 50 ms', result.latency.p99 < 50],
  ['no errors, no non-2xx', result.errors === 0 && result.timeouts === 0 && result.non2xx === 0],
  ['every 201 stored', missing === 0],
];
console.log(`\ngoals: ${goals.map(([label, ok]) => `${label} ${ok ? 'met' : 'MISSED'}`).join('; ')}`);
const load = os.loadavg().map((n) => n.toFixed(1)).join(', ');
console.log(`(${os.cpus().length} CPUs, shared by the load generator and the server; load average before the run ${loadBefore}, after ${load})`);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(missing === 0 && result.errors === 0 ? 0 : 1);
