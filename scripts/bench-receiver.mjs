/**
 * `npm run bench:receiver`: a load benchmark of the submission receiver (not a test).
 *
 * Starts the built site's own server (src/server/http/serve.ts, built first when missing) on a free
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
 * Verification is on: each submission carries its own solved proof of work, as the site's forms
 * send it (a pool solved before the clock starts, on challenges from the server itself, with the
 * work made light: the server's check costs the same whatever the browser's work). Beside it, the
 * same load without proofs, as every submission was sent before the proof existed (now stored held
 * for review): the figures side by side show what checking costs. `--no-proof-compare` runs only
 * the verified load.
 *
 * With --stores (`npm run bench:receiver -- --stores`), three set-ups side by side in one run:
 * one instance on SQLite, one on PostgreSQL, two on PostgreSQL (the load split between them, as
 * a load balancer would), on a throwaway PostgreSQL started like the tests' (Debian's package).
 *
 * Goal: at least 200 stored submissions per second on 2 cores, p99 under 50 ms,
 * no errors, stored equal to acknowledged. Requests still in flight when the clock stops may
 * be stored without their 201 being read: they are counted apart.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';
import autocannon from 'autocannon';
import { SMTPServer } from 'smtp-server';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { openStores } from '../src/server/store/database.ts';
import { freshDatabase, startPostgres } from '../tests/helpers/postgres.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const connections = Number(process.env.BENCH_CONNECTIONS || 50);
const duration = Number(process.env.BENCH_DURATION || 10);

ensureBuilt(root);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-bench-'));
const notify = process.argv.includes('--notify');
const compareStores = process.argv.includes('--stores');
const compareProof = !process.argv.includes('--no-proof-compare');

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
  ? {
      SMTP_URL: `smtp://127.0.0.1:${smtp.server.address().port}`,
      LEADS_NOTIFY_TO: 'leads@globaq.example',
      LEADS_NOTIFY_FROM: 'website@globaq.example',
    }
  : {};

/** Starts one server with this database; resolves with it once it listens. */
function startServer(databaseEnv) {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', path.join(root, 'src', 'server', 'http', 'serve.ts')],
    {
      cwd: root,
      // Light work for the pool's solving (the server's check is two HMACs whatever the work) and no
      // minimum time: the pool is solved before the clock starts.
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        SUBMISSIONS_RATE_LIMIT: '0',
        SUBMISSIONS_HELD_PER_DAY: '0',
        SUBMISSIONS_UNPROVEN_FILES_MB_PER_DAY: '0',
        SUBMISSIONS_LEADS_PER_DAY: '0',
        SUBMISSIONS_FILES_MB_PER_DAY: '0',
        ALTCHA_COST: '1',
        ALTCHA_MAX_NUMBER: '100',
        SUBMISSIONS_MIN_SECONDS: '0',
        ...notifyEnv,
        ...databaseEnv,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
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

/** Solved proofs, one per submission, from challenges the server issued (solved before the load). */
async function solvedProofs(baseUrl, count) {
  const out = [];
  const one = async () => {
    const challenge = await (await fetch(`${baseUrl}/api/challenge`)).json();
    const solution = await solveChallenge({ challenge, deriveKey });
    out.push(Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'));
  };
  for (let done = 0; done < count; done += 100) await Promise.all(Array.from({ length: Math.min(100, count - done) }, one));
  return out;
}

/** How many proofs to solve per instance: more than the run can send (BENCH_PROOFS). */
const proofsPerInstance = Number(process.env.BENCH_PROOFS || Math.ceil(duration * 3000));

let sequence = 0;
const payload = (n, altcha) =>
  JSON.stringify({
    ...(altcha ? { altcha } : {}),
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

/** One autocannon run against one URL; the ids it was answered with go into `acknowledged`. */
function load(url, conns, acknowledged, note, proofs) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections: conns,
        duration,
        requests: [
          {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            setupRequest: (request) => ({ ...request, body: payload(++sequence, proofs?.pop()) }),
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
}

/**
 * One set-up: `instances` servers on one database, the connections split between them, for the
 * same duration. Returns its figures; every acknowledged id is looked up in the database.
 */
async function scenario(name, instances, database, withProof = true) {
  const servers = await Promise.all(Array.from({ length: instances }, () => startServer(database.env)));
  const urls = servers.map(({ port }) => `http://127.0.0.1:${port}/api/contact`);
  const pools = withProof
    ? await Promise.all(servers.map(({ port }) => solvedProofs(`http://127.0.0.1:${port}`, proofsPerInstance + 1)))
    : urls.map(() => undefined);
  const acknowledged = [];
  for (const [i, url] of urls.entries()) {
    // One warm-up request each, so the first measured one does not pay for loading the route.
    const warm = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: payload(0, pools[i]?.pop()),
    });
    if (warm.status !== 201) throw new Error(`Warm-up answered ${warm.status}: ${await warm.text()}`);
    acknowledged.push((await warm.json()).id);
  }
  console.log(
    `${name}: autocannon, ${connections} connections for ${duration} s${instances > 1 ? `, split between ${instances} instances` : ''}${notify ? ', lead notifications on (loopback SMTP)' : ''}${withProof ? ', each with its own solved proof of work' : ', without proofs (held)'}`,
  );
  const errorSamples = new Map();
  const note = (sample) => errorSamples.set(sample, (errorSamples.get(sample) ?? 0) + 1);
  const results = await Promise.all(
    urls.map((url, i) =>
      load(url, Math.floor(connections / instances) + (i < connections % instances ? 1 : 0), acknowledged, note, pools[i]),
    ),
  );
  const proofsLeft = pools.reduce((sum, pool) => sum + (pool?.length ?? 0), 0);

  const stores = openStores(database.config, { create: false, poolMax: 2 });
  await stores.ready;
  /** With --notify: how long after the load the outbox took to deliver every mail (at most 5 min). */
  let drainSeconds;
  let pendingLeft = 0;
  if (notify) {
    const started = Date.now();
    for (;;) {
      pendingLeft = (await stores.outbox.list(['pending'])).length;
      if (pendingLeft === 0 || Date.now() - started > 300_000) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    drainSeconds = (Date.now() - started) / 1000;
  }
  await Promise.all(servers.map(({ child }) => new Promise((resolve) => (child.once('exit', resolve), child.kill('SIGTERM')))));
  const stored = await stores.submissions.count({ form: 'contact' });
  const held = await stores.held.count('held');
  const storedIds = new Set();
  for await (const row of stores.submissions.export({ form: 'contact' })) storedIds.add(row.id);
  await stores.close();

  const total = (pick) => results.reduce((sum, result) => sum + pick(result), 0);
  const worst = (pick) => Math.max(...results.map(pick));
  const seconds = Math.max(...results.map((result) => result.duration));
  return {
    name,
    rate: total((r) => r.requests.average),
    p50: worst((r) => r.latency.p50),
    p99: worst((r) => r.latency.p99),
    answered: total((r) => r.requests.total),
    non2xx: total((r) => r.non2xx),
    errors: total((r) => r.errors),
    timeouts: total((r) => r.timeouts),
    created: total((r) => r.statusCodeStats['201']?.count ?? 0) + instances,
    stored,
    missing: acknowledged.filter((id) => !storedIds.has(id)).length,
    inFlight: stored - acknowledged.length,
    storedPerSecond: (stored - instances) / seconds,
    drainSeconds,
    pendingLeft,
    errorSamples,
    held,
    verified: stored - held,
    proofsRanOut: withProof && proofsLeft === 0,
  };
}

const loadBefore = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(', ');
const sqlite = {
  config: { dbPath: path.join(dir, 'submissions.db'), databaseUrl: undefined, poolMax: 10 },
  env: { SUBMISSIONS_DB: path.join(dir, 'submissions.db') },
};
const runs = [];
let postgres;
try {
  runs.push(await scenario('SQLite, verified', 1, sqlite));
  if (compareProof) {
    const before = {
      config: { ...sqlite.config, dbPath: path.join(dir, 'no-proof.db') },
      env: { SUBMISSIONS_DB: path.join(dir, 'no-proof.db') },
    };
    runs.push(await scenario('SQLite, no proof', 1, before, false));
  }
  if (compareStores) {
    // Durable like a production server (fsync and synchronous commit on), so the figures compare with SQLite's FULL sync.
    postgres = await startPostgres({ durable: true });
    for (const instances of [1, 2]) {
      const url = await freshDatabase(postgres.adminUrl);
      const database = { config: { dbPath: '', databaseUrl: url, poolMax: 10 }, env: { DATABASE_URL: url } };
      runs.push(await scenario(`PostgreSQL, ${instances} instance${instances === 1 ? '' : 's'}`, instances, database));
    }
  }
} finally {
  postgres?.stop();
  if (smtp) await new Promise((resolve) => smtp.close(resolve));
}

const rows = [
  ['requests/s (sum over instances)', (r) => r.rate.toFixed(0)],
  ['latency p50 (worst instance)', (r) => `${r.p50} ms`],
  ['latency p99 (worst instance)', (r) => `${r.p99} ms`],
  ['requests answered', (r) => String(r.answered)],
  ['non-2xx answers', (r) => String(r.non2xx)],
  ['errors / timeouts', (r) => `${r.errors} / ${r.timeouts}`],
  ['201s answered (with warm-up)', (r) => String(r.created)],
  ['rows stored', (r) => String(r.stored)],
  ['201s missing from the database', (r) => String(r.missing)],
  ['stored, 201 not read (in flight at the stop)', (r) => String(r.inFlight)],
  ['stored per second', (r) => r.storedPerSecond.toFixed(0)],
  ['verified (in the inbox) / held', (r) => `${r.verified} / ${r.held}`],
  ...(notify
    ? [
        ['notifications still pending', (r) => String(r.pendingLeft)],
        ['outbox drained, seconds after the load', (r) => r.drainSeconds.toFixed(1)],
      ]
    : []),
];
console.log('');
console.log(`${''.padEnd(46)} ${runs.map((r) => r.name.padStart(22)).join(' ')}`);
for (const [label, value] of rows) console.log(`${label.padEnd(46)} ${runs.map((r) => value(r).padStart(22)).join(' ')}`);
for (const run of runs) for (const [sample, count] of run.errorSamples) console.log(`  ${run.name}: ${count} × ${sample}`);
if (notify) console.log(`mails received by the SMTP server: ${mailsReceived}`);
if (runs.some((r) => r.proofsRanOut))
  console.log(
    `The pool of solved proofs ran out (BENCH_PROOFS=${proofsPerInstance}): the rest went without and were held; raise BENCH_PROOFS.`,
  );
const verifiedRun = runs.find((r) => r.name === 'SQLite, verified');
const noProofRun = runs.find((r) => r.name === 'SQLite, no proof');
if (verifiedRun && noProofRun) {
  console.log(
    `\nthroughput with each proof checked: ${verifiedRun.storedPerSecond.toFixed(0)} stored/s (p99 ${verifiedRun.p99} ms), beside ${noProofRun.storedPerSecond.toFixed(0)} stored/s (p99 ${noProofRun.p99} ms) without proofs, as before the check existed`,
  );
}
const first = verifiedRun ?? runs[0];
const goals = [
  ['>= 200 stored/s', first.storedPerSecond >= 200],
  ['p99 < 50 ms', first.p99 < 50],
  ['no errors, no non-2xx', runs.every((r) => r.errors === 0 && r.timeouts === 0 && r.non2xx === 0)],
  ['every 201 stored', runs.every((r) => r.missing === 0)],
  ['every proof accepted', !verifiedRun || (verifiedRun.held === 0 && !verifiedRun.proofsRanOut)],
];
console.log(`\ngoals (SQLite, the default): ${goals.map(([label, ok]) => `${label} ${ok ? 'met' : 'MISSED'}`).join('; ')}`);
const loadAfter = os
  .loadavg()
  .map((n) => n.toFixed(1))
  .join(', ');
console.log(
  `(${os.cpus().length} CPUs, shared by the load generator, the servers and PostgreSQL; load average before the run ${loadBefore}, after ${loadAfter})`,
);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(runs.every((r) => r.missing === 0 && r.errors === 0) ? 0 : 1);
