/**
 * `npm run test:changed`: the tests a change touches, in a minute or two instead of `npm test`'s
 * quarter hour. Vitest's own `--changed` (the test files that import a changed file, and changed
 * test files), then the Playwright specs a changed file can affect (the table below: end-to-end
 * specs do not import the site, so they are picked by what a visitor would see), against a build
 * made first when anything under src/, public/ or the configuration changed.
 *
 * The change is everything since `main` (uncommitted and untracked files included), or since the
 * commit given: `npm run test:changed -- HEAD~3`. `npm test` stays the check before a review.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const git = (...args) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout.trim();
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

const base = process.argv[2] ?? (git('merge-base', 'HEAD', 'main') || 'HEAD');
const changed = [
  ...git('diff', '--name-only', base).split('\n'),
  ...git('ls-files', '--others', '--exclude-standard').split('\n'),
].filter(Boolean);

/** What a changed file can affect, as the specs that show it (CONTRIBUTING.md, "Which tests a change needs"). */
const SPECS = [
  [
    /^src\/components\/islands\/(ContactForm|PartnerForm|form-|use-|altcha|forms\.css)|^src\/forms\//,
    ['contact-form', 'partner-form', 'form-hydration', 'no-js', 'arabic-forms', 'first-action'],
  ],
  [
    /^src\/components\/islands\/(DesktopNav|MobileNav|menu-common|navigation\.css)|^src\/components\/Header|^src\/data\/navigation|^src\/lib\/(menu|nav-twins)/,
    ['nav', 'first-action', 'a11y'],
  ],
  [/Carousel|carousel|^src\/data\/carousels/, ['home', 'first-action']],
  [
    /^src\/(styles|layouts|components)\/|^src\/scripts\/site|^src\/integrations\/intent-directive/,
    ['layout', 'a11y', 'first-action'],
  ],
  [/^src\/(content|data)\/|^docs\/glossary/, ['a11y', 'no-js', 'home']],
  [/^src\/i18n\//, ['arabic', 'arabic-forms', 'a11y']],
  [/^src\/server\/(receiver|store|mail)\/|^src\/pages\/api\//, ['receiver', 'bots', 'inbox']],
  [
    /^src\/server\/inbox\/|^src\/pages\/admin\//,
    [
      'inbox',
      'inbox-arabic',
      'inbox-reply',
      'inbox-tabs',
      'inbox-words',
      'lead-page',
      'sign-in',
      'triage',
      'queue-flow',
      'timely',
    ],
  ],
  [/^src\/server\/http\/|^src\/pages\/(privacy|\[)|^public\//, ['security', 'routes', 'privacy']],
];

const e2e = path.join(root, 'tests', 'e2e');
const allSpecs = fs.readdirSync(e2e).filter((name) => name.endsWith('.spec.ts'));
const specs = new Set();
for (const file of changed) {
  if (file.startsWith('tests/e2e/')) {
    const name = path.basename(file);
    // A spec runs itself; a helper of the specs (or the configuration) runs them all.
    if (name.endsWith('.spec.ts')) specs.add(name);
    else for (const spec of allSpecs) specs.add(spec);
  } else if (file === 'playwright.config.ts') for (const spec of allSpecs) specs.add(spec);
  for (const [pattern, names] of SPECS) if (pattern.test(file)) for (const name of names) specs.add(`${name}.spec.ts`);
}

console.log(`${changed.length} file(s) changed since ${base}.`);
const needsBuild = changed.some((file) => /^(src|public)\/|^astro\.config|^integrations\//.test(file));
if (needsBuild || !fs.existsSync(path.join(root, 'dist', 'server', 'entry.mjs'))) {
  console.log('\n=== astro build ===');
  const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

console.log('\n=== vitest --changed ===');
const vitest = spawnSync(bin('vitest'), ['run', '--changed', base, '--passWithNoTests'], { cwd: root, stdio: 'inherit' });

let playwright = { status: 0 };
const chosen = [...specs].filter((spec) => allSpecs.includes(spec)).sort();
if (chosen.length > 0) {
  console.log(`\n=== playwright: ${chosen.join(', ')} ===`);
  playwright = spawnSync(bin('playwright'), ['test', ...chosen.map((spec) => `tests/e2e/${spec}`)], {
    cwd: root,
    stdio: 'inherit',
  });
} else console.log('\nNo end-to-end spec is affected.');
process.exit(vitest.status === 0 && playwright.status === 0 ? 0 : 1);
