/**
 * `npm run bench:tests`: figures, not pass/fail. Runs `npm test` (scripts/test.mjs), then prints
 * the wall time and CPU use of each of its steps, the ten slowest tests, and the slowest files of
 * each runner with their test time added up. `npm run bench:tests -- --last` prints the figures
 * of the last run without running it again (test-results/ as that run left it).
 *
 * The machines here are shared and noisy: compare runs made one after the other, and read the
 * CPU column (a step near 100% is bound by the cores; well under it, by waiting).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, 'test-results');
const readJson = (name) => {
  try {
    return JSON.parse(fs.readFileSync(path.join(results, name), 'utf8'));
  } catch {
    return undefined;
  }
};

if (!process.argv.includes('--last')) {
  spawnSync(process.execPath, [path.join(root, 'scripts', 'test.mjs')], { cwd: root, stdio: 'inherit' });
}

const relative = (file) => path.relative(root, file);
/** Every test: its runner, file, title and seconds. */
const tests = [];
const vitest = readJson('vitest.json');
for (const file of vitest?.testResults ?? [])
  for (const result of file.assertionResults)
    tests.push({ runner: 'vitest', file: relative(file.name), title: result.title, seconds: (result.duration ?? 0) / 1000 });

const playwright = readJson('playwright.json');
const walk = (suite, file) => {
  for (const child of suite.suites ?? []) walk(child, child.file ?? file);
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests)
      for (const result of test.results)
        tests.push({
          runner: `playwright ${test.projectName}`,
          file: `tests/e2e/${spec.file ?? file}`,
          title: spec.title,
          seconds: result.duration / 1000,
        });
};
for (const suite of playwright?.suites ?? []) walk(suite, suite.file);

const seconds = (value) => value.toFixed(1).padStart(7);
const timings = readJson('timings.json') ?? [];
console.log('\nThe steps of npm test (wall seconds, CPU busy on the whole machine):');
for (const { step, seconds: wall, cpu } of timings)
  console.log(`${seconds(wall)} s ${cpu === null ? '   ?' : `${Math.round(cpu * 100)}%`.padStart(5)}  ${step}`);
console.log(`${seconds(timings.reduce((sum, { seconds: wall }) => sum + wall, 0))} s        in all`);

console.log('\nThe ten slowest tests:');
for (const test of [...tests].sort((a, b) => b.seconds - a.seconds).slice(0, 10))
  console.log(`${seconds(test.seconds)} s  [${test.runner}] ${test.file} › ${test.title.slice(0, 100)}`);

for (const runner of [...new Set(tests.map((test) => test.runner))]) {
  const files = new Map();
  for (const test of tests.filter((candidate) => candidate.runner === runner)) {
    const entry = files.get(test.file) ?? { seconds: 0, count: 0 };
    entry.seconds += test.seconds;
    entry.count += 1;
    files.set(test.file, entry);
  }
  const total = [...files.values()].reduce((sum, entry) => sum + entry.seconds, 0);
  console.log(`\n${runner}: ${files.size} files, test time ${total.toFixed(0)} s; the slowest files:`);
  for (const [file, entry] of [...files].sort((a, b) => b[1].seconds - a[1].seconds).slice(0, 8))
    console.log(`${seconds(entry.seconds)} s  ${String(entry.count).padStart(4)} tests  ${file}`);
}
