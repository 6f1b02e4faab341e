/**
 * `npm test`: every check of the project, in order, each counted.
 *
 *   1. astro check      strict TypeScript over the whole project (one check)
 *      eslint           JavaScript, TypeScript, Astro, React hooks and jsx-a11y rules (one check)
 *      stylelint        CSS in logical properties, keywords and units only (one check)
 *      prettier         every source file formatted (one check; `npm run format` fixes it)
 *   2. astro build      the site (one check; the end-to-end tests need it)
 *   3. vitest           unit and content tests (tests/unit)
 *   4. playwright       end-to-end tests on the built site in Chromium (tests/e2e)
 *
 * Ends with one line "N passed, N failed" summed over all of them (also written to
 * test-results/summary.txt), and exits non-zero when anything failed.
 *
 * Chromium: CHROMIUM_PATH, else Debian's chromium-headless-shell for the end-to-end tests and its
 * chromium for Lighthouse. PostgreSQL: Debian's server programs, which the PostgreSQL store's
 * tests start themselves (tests/helpers/postgres.ts). When any is missing and this runs as root
 * on Debian, Debian's package is installed; otherwise it says what to install (and those tests
 * say they are skipped).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, 'test-results');
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
let passed = 0;
let failed = 0;

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status === 0;
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

const chromium = ensurePackages();

count('astro check', run('astro check (TypeScript, strictest)', bin('astro'), ['check']));
count('eslint', run('eslint (lint)', bin('eslint'), ['.']));
count('stylelint', run('stylelint (logical CSS)', bin('stylelint'), ['src/**/*.{css,astro}']));
count(
  'prettier',
  run('prettier (formatting)', bin('prettier'), ['--check', '--log-level=warn', '**/*.{ts,tsx,mts,mjs,js,astro,css}']),
);

// The quiet build (scripts/build.mjs), as `npm run build` runs it: warnings stand out in CI's log.
const built = run('astro build', process.execPath, [path.join(root, 'scripts', 'build.mjs')]);
count('astro build', built);

const vitestJson = path.join(results, 'vitest.json');
const vitestOk = run('vitest (unit and content tests)', bin('vitest'), [
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
  run('playwright (end-to-end tests in Chromium)', bin('playwright'), ['test']);
  const report = readJson(playwrightJson);
  if (report?.stats) {
    passed += (report.stats.expected ?? 0) + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected ?? 0;
    if ((report.errors ?? []).length > 0) count('playwright run errors', false);
  } else count('playwright produced no report', false);
} else {
  count(built ? 'end-to-end tests: no Chromium' : 'end-to-end tests: the build failed', false);
}

const summary = `${passed} passed, ${failed} failed`;
fs.writeFileSync(path.join(results, 'summary.txt'), `${summary}\n`);
console.log(`\n${summary}`);
process.exit(failed > 0 ? 1 : 0);
