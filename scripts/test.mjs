/**
 * `npm test`: every check of the project, in order, each counted.
 *
 *   1. astro check      strict TypeScript over the whole project (one check)
 *      eslint           JavaScript, TypeScript, Astro, React hooks and jsx-a11y rules (one check)
 *      stylelint        CSS in logical properties, keywords and units only (one check)
 *      prettier         every source file formatted (one check; `npm run format` fixes it)
 *   2. astro build      the site (one check; the end-to-end tests need it)
 *   3. vitest           unit, content and integration tests (tests/unit, tests/integration)
 *   4. playwright       end-to-end tests on the built site in Chromium (tests/e2e)
 *
 * The four checks of step 1 are single-threaded: they run as two lanes side by side (astro check
 * beside the other three), each lane's output printed whole when it ends.
 *
 * Ends with one line "N passed, N failed" summed over all of them (also written to
 * test-results/summary.txt), and exits non-zero when anything failed. Each step's wall time and
 * the machine's CPU use during it go to test-results/timings.json (`npm run bench:tests` prints
 * them with the slowest tests).
 *
 * Chromium: CHROMIUM_PATH, else Debian's chromium-headless-shell for the end-to-end tests and its
 * chromium for Lighthouse. PostgreSQL: Debian's server programs, which the PostgreSQL store's
 * tests start themselves (tests/helpers/postgres.ts). When any is missing and this runs as root
 * on Debian, Debian's package is installed; otherwise it says what to install (and those tests
 * say they are skipped).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, 'test-results');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
let passed = 0;
let failed = 0;

/** The machine's busy and total CPU ticks since boot (/proc/stat), or undefined off Linux. */
function cpuTicks() {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** A loopback port nothing listens on now (the system picks it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Each step's wall time and CPU use, in the order they ran. */
const timings = [];

/** Runs `work` (sync or async) as the step `label`, recording its time and the CPU used meanwhile. */
async function timed(label, work) {
  const started = performance.now();
  const before = cpuTicks();
  const ok = await work();
  const after = cpuTicks();
  const cpu = before && after && after.total > before.total ? (after.busy - before.busy) / (after.total - before.total) : null;
  timings.push({ step: label, seconds: Math.round((performance.now() - started) / 100) / 10, cpu, ok });
  return ok;
}

function run(label, command, args, env = {}) {
  return timed(label, () => {
    console.log(`\n=== ${label} ===`);
    const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    return result.status === 0;
  });
}

/** Runs a command with its output held, then printed whole: for steps that run side by side. */
function quietly(label, command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: process.env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      console.log(`\n=== ${label} ===\n${output.trimEnd()}`);
      resolve(code === 0);
    });
  });
}

function count(label, ok) {
  if (ok) passed += 1;
  else {
    failed += 1;
    console.error(`FAILED: ${label}`);
  }
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = fs.existsSync('/usr/bin/apt-get');

/** PostgreSQL's server programs from Debian's packages (initdb, pg_ctl), or undefined. */
function postgresBin() {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const versions = fs
    .readdirSync(base)
    .filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? path.join(base, versions[0], 'bin') : undefined;
}

/**
 * Debian's packages the tests need and the machine lacks (Chromium for the end-to-end tests,
 * PostgreSQL for the multi-instance store's), installed in one go when this runs as root on
 * Debian; otherwise each missing one is named with how to install it.
 */
function ensurePackages() {
  const wanted = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  const missing = [];
  if (!fs.existsSync(wanted) && !process.env.CHROMIUM_PATH) missing.push('chromium');
  if (!postgresBin()) missing.push('postgresql');
  // Optional: without it the end-to-end tests drive the full Chromium, slower.
  const shell = !process.env.CHROMIUM_PATH && !fs.existsSync('/usr/bin/chromium-headless-shell');
  if ((missing.length > 0 || shell) && isRoot && hasApt) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
    for (const packages of [missing, shell ? ['chromium-headless-shell'] : []]) {
      if (update.status !== 0 || packages.length === 0) continue;
      console.log(`Installing Debian's ${packages.join(' and ')}…`);
      spawnSync('apt-get', ['install', '-y', '-qq', ...packages], { stdio: 'inherit', env });
    }
  }
  if (!postgresBin()) {
    console.error(
      "No PostgreSQL server programs (initdb): the PostgreSQL store's tests will say they are skipped. Install Debian's package (as root: apt-get install -y postgresql).",
    );
  }
  if (fs.existsSync(wanted)) return wanted;
  console.error(
    `No Chromium at ${wanted}. Install Debian's package (as root: apt-get install -y chromium) ` +
      'or set CHROMIUM_PATH to a Chromium or Chrome binary.',
  );
  return undefined;
}

fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });

// Node keeps the compiled code of each module it loads here and reuses it in every later process
// of the run (the receiver the tests start some hundred times, Vitest's workers, the linters): a
// server's start takes a sixth less CPU. A changed file is compiled again (its hash is checked).
process.env.NODE_COMPILE_CACHE ??= path.join(root, 'node_modules', '.cache', 'node-compile');

let chromium;
await timed("Debian's packages", () => {
  chromium = ensurePackages();
  return true;
});

// Two lanes: the type check, and the three linters one after the other.
const checks = {};
await timed('static checks (astro check | eslint, stylelint, prettier)', async () => {
  const lint = async () => {
    checks.eslint = await quietly('eslint (lint)', bin('eslint'), ['.']);
    checks.stylelint = await quietly('stylelint (logical CSS)', bin('stylelint'), ['src/**/*.{css,astro}']);
    checks.prettier = await quietly('prettier (formatting)', bin('prettier'), [
      '--check',
      '--log-level=warn',
      '**/*.{ts,tsx,mts,mjs,js,astro,css}',
    ]);
  };
  const types = async () => {
    checks['astro check'] = await quietly('astro check (TypeScript, strictest)', bin('astro'), ['check']);
  };
  await Promise.all([types(), lint()]);
  return Object.values(checks).every(Boolean);
});
for (const [label, ok] of Object.entries(checks)) count(label, ok);

// The quiet build (scripts/build.mjs), as `npm run build` runs it: warnings stand out in CI's log.
const built = await run('astro build', process.execPath, [path.join(root, 'scripts', 'build.mjs')]);
count('astro build', built);

const vitestJson = path.join(results, 'vitest.json');
const vitestOk = await run('vitest (unit and content tests)', bin('vitest'), [
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestJson}`,
]);
const vitest = readJson(vitestJson);
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += (vitest.numFailedTests ?? 0) + (vitest.numTotalTestSuites && !vitestOk && !vitest.numFailedTests ? 1 : 0);
} else count('vitest produced no report', false);

if (built && chromium) {
  const playwrightJson = path.join(results, 'playwright.json');
  // A port the system has free, so a second `npm test` on the same machine runs beside this one.
  const port = process.env.E2E_PORT || String(await freePort());
  await run('playwright (end-to-end tests in Chromium)', bin('playwright'), ['test'], { E2E_PORT: port });
  const report = readJson(playwrightJson);
  if (report?.stats) {
    passed += (report.stats.expected ?? 0) + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected ?? 0;
    if ((report.errors ?? []).length > 0) count('playwright run errors', false);
  } else count('playwright produced no report', false);
} else {
  count(built ? 'end-to-end tests: no Chromium' : 'end-to-end tests: the build failed', false);
}

fs.writeFileSync(path.join(results, 'timings.json'), `${JSON.stringify(timings, null, 2)}\n`);
console.log('\nSteps (wall seconds, CPU busy):');
for (const { step, seconds, cpu } of timings)
  console.log(`  ${String(seconds).padStart(6)} s  ${cpu === null ? '  ?' : `${Math.round(cpu * 100)}%`.padStart(4)}  ${step}`);

const summary = `${passed} passed, ${failed} failed`;
fs.writeFileSync(path.join(results, 'summary.txt'), `${summary}\n`);
console.log(`\n${summary}`);
process.exit(failed > 0 ? 1 : 0);
