/**
 * Translation status (scripts/translation-status.ts, `npm run translations`) on a temporary git
 * repository the test makes: English edits make twins outdated, translation commits bring them
 * up to date, marked commits change nothing, a page without a twin is missing, and interface
 * strings are followed key by key.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, test } from 'vitest';
import {
  formatComment,
  formatPage,
  formatTable,
  introducedBy,
  isMarked,
  parseDictionary,
  translationStatus,
  type PairStatus,
} from '../../scripts/translation-status.ts';
import { ROOT } from '../helpers/content';

const repos: string[] = [];
afterAll(() => {
  for (const dir of repos) fs.rmSync(dir, { recursive: true, force: true });
});

let repo = '';
const run = (args: string[]) => {
  const result = spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
};
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
  fs.writeFileSync(path.join(repo, file), text);
};
const commit = (message: string) => {
  run(['add', '-A']);
  run(['commit', '-q', '-m', message]);
  return run(['rev-parse', 'HEAD']);
};
const dictionary = (name: string, entries: Record<string, string>) =>
  `/** Strings. */\nexport const ${name} = {\n${Object.entries(entries)
    .map(([key, value]) => `  /** ${key}. */\n  '${key}': '${value}',`)
    .join('\n')}\n} as const;\n`;
const statusOf = (english: string, ref = 'HEAD') => translationStatus(repo, ref).find((entry) => entry.english === english);

const EN_SERVICE = 'src/content/services/audits.mdx';
const AR_SERVICE = 'src/content/ar/services/audits.mdx';

beforeEach(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-translations-'));
  repos.push(repo);
  run(['init', '-q', '-b', 'main']);
  run(['config', 'user.email', 'editor@example.com']);
  run(['config', 'user.name', 'Editor']);
  run(['config', 'commit.gpgsign', 'false']);
  write(EN_SERVICE, '---\norder: 1\n---\nWe audit suppliers.\n');
  write(AR_SERVICE, '---\norder: 1\n---\nندقق الموردين.\n');
  write('src/data/home.ts', "export const home = { title: 'Welcome' };\n");
  write('src/data/ar/home.ts', "export const home = { title: 'مرحبًا' };\n");
  write('src/data/site.ts', "export const site = 'binds the others';\n");
  write('src/i18n/en.ts', dictionary('en', { 'nav.home': 'Home', 'footer.blurb': 'Quality from Al-Khobar.' }));
  write('src/i18n/ar.ts', dictionary('ar', { 'nav.home': 'الرئيسية', 'footer.blurb': 'الجودة من الخبر.' }));
  commit('Site in both languages');
});

describe('content and data twins', () => {
  test('everything starts up to date; a data module without words is not listed', () => {
    const entries = translationStatus(repo);
    expect(entries.map((e) => `${e.status}: ${e.twin}`)).toEqual([
      'up to date: src/content/ar/services/audits.mdx',
      'up to date: src/data/ar/home.ts',
      'up to date: src/i18n/ar.ts footer.blurb',
      'up to date: src/i18n/ar.ts nav.home',
    ]);
  });

  test('an English edit makes its twin outdated, with the English diff since the twin last changed', () => {
    const translated = run(['rev-parse', 'HEAD']);
    write(EN_SERVICE, '---\norder: 1\n---\nWe audit suppliers and contractors.\n');
    const edit = commit('Audits: contractors too');
    const entry = statusOf(EN_SERVICE)!;
    expect(entry.status).toBe('outdated');
    expect(entry.since?.hash).toBe(translated);
    expect(entry.commits?.map((c) => c.hash)).toEqual([edit]);
    expect(entry.diff).toContain('-We audit suppliers.');
    expect(entry.diff).toContain('+We audit suppliers and contractors.');
    expect(formatTable(translationStatus(repo))).toMatch(
      new RegExp(`outdated +${AR_SERVICE} +English changed in ${edit.slice(0, 7)} since the twin's ${translated.slice(0, 7)}`),
    );
  });

  test('a translation commit brings it up to date', () => {
    write(EN_SERVICE, '---\norder: 1\n---\nWe audit suppliers and contractors.\n');
    commit('Audits: contractors too');
    write(AR_SERVICE, '---\norder: 1\n---\nندقق الموردين والمقاولين.\n');
    commit('Arabic: contractors too');
    expect(statusOf(EN_SERVICE)?.status).toBe('up to date');
  });

  test('a commit marked as needing no translation changes nothing: [no-translation], [lunaria-ignore] or the trailer', () => {
    write(EN_SERVICE, '---\norder: 1\n---\nWe audit suppliers!\n');
    commit('Audits: punctuation [no-translation]');
    expect(statusOf(EN_SERVICE)?.status).toBe('up to date');
    write('src/data/home.ts', "export const home = { title: 'Welcome!' };\n");
    commit('Home: punctuation\n\nTranslation: none');
    expect(statusOf('src/data/home.ts')?.status).toBe('up to date');
    expect(isMarked('Fix typo [lunaria-ignore]')).toBe(true);
    expect(isMarked('Fix typo\n\nTranslation: needed')).toBe(false);
    // An unmarked commit after them still counts.
    write(EN_SERVICE, '---\norder: 1\n---\nWe audit suppliers, fast!\n');
    commit('Audits: fast');
    expect(statusOf(EN_SERVICE)?.status).toBe('outdated');
  });

  test('a new English page without its twin is missing; the CLI prints it first, exits 0, and --check exits 1', () => {
    write('src/content/pages/about.mdx', '---\nroute: AboutUs\n---\nAbout.\n');
    commit('About page, English first');
    expect(statusOf('src/content/pages/about.mdx')).toMatchObject({ status: 'missing', twin: 'src/content/ar/pages/about.mdx' });
    const cli = (args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, 'scripts/translations.mjs'), ...args], { cwd: repo, encoding: 'utf8' });
    const plain = cli([]);
    expect(plain.status).toBe(0);
    expect(plain.stdout.split('\n')[2]).toMatch(
      /^ {2}missing +src\/content\/ar\/pages\/about\.mdx +no Arabic twin of src\/content\/pages\/about\.mdx/,
    );
    const check = cli(['--check']);
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('1 Arabic twin is missing');
    write('src/content/ar/pages/about.mdx', '---\nroute: AboutUs\n---\nمن نحن.\n');
    commit('About page in Arabic');
    expect(cli(['--check']).status).toBe(0);
  });
});

describe('interface strings, key by key', () => {
  test('a changed key is outdated, with its old and new English; the other keys stay up to date', () => {
    write('src/i18n/en.ts', dictionary('en', { 'nav.home': 'Home page', 'footer.blurb': 'Quality from Al-Khobar.' }));
    commit('Menu: Home page');
    const entries = translationStatus(repo).filter((e) => e.kind === 'string');
    expect(entries.map((e) => `${e.status}: ${e.key}`)).toEqual(['outdated: nav.home', 'up to date: footer.blurb']);
    expect(entries[0]?.diff).toBe("- 'Home'\n+ 'Home page'\n");
    // Translating that key brings it up to date.
    write('src/i18n/ar.ts', dictionary('ar', { 'nav.home': 'الصفحة الرئيسية', 'footer.blurb': 'الجودة من الخبر.' }));
    commit('Arabic menu');
    expect(translationStatus(repo).filter((e) => e.status !== 'up to date')).toEqual([]);
  });

  test('a key added in English only is missing; a marked change of a key is not outdated', () => {
    write(
      'src/i18n/en.ts',
      dictionary('en', { 'nav.home': 'Home', 'footer.blurb': 'Quality from Al-Khobar!', 'nav.new': 'New' }),
    );
    commit('New key, and punctuation [no-translation]');
    const entries = translationStatus(repo).filter((e) => e.kind === 'string');
    expect(entries.map((e) => `${e.status}: ${e.key}`)).toEqual([
      'missing: nav.new',
      'up to date: footer.blurb',
      'up to date: nav.home',
    ]);
  });

  test('dictionaries are read key by key, values over several lines and comments apart', () => {
    const entries = parseDictionary(
      "export const en = {\n  /** A comment. */\n  'a.b': 'one',\n  'c':\n    'two ' +\n    'lines',\n} as const;\n",
    );
    expect([...entries]).toEqual([
      ['a.b', "'one'"],
      ['c', "'two ' + 'lines'"],
    ]);
  });
});

describe('pull requests', () => {
  test('the comment lists what the pull request made outdated or missing, not what was behind before', () => {
    write(EN_SERVICE, '---\norder: 1\n---\nOld news.\n');
    commit('Audits: before the pull request');
    const base = run(['rev-parse', 'HEAD']);
    run(['checkout', '-q', '-b', 'feature']);
    write('src/data/home.ts', "export const home = { title: 'Welcome to Globaq' };\n");
    write('src/content/services/esg.mdx', '---\norder: 2\n---\nESG.\n');
    commit('Home title; ESG service');
    const before = translationStatus(repo, base);
    const after = translationStatus(repo);
    const introduced = introducedBy(before, after);
    expect(introduced.map((e) => `${e.status}: ${e.twin}`)).toEqual([
      'missing: src/content/ar/services/esg.mdx',
      'outdated: src/data/ar/home.ts',
    ]);
    const comment = formatComment(introduced, after, { pageUrl: 'https://pr-7--globaq.netlify.app/translation-status.html' });
    expect(comment).toContain('<!-- globaq-translations -->');
    expect(comment).toContain('| missing | `src/content/ar/services/esg.mdx` | `src/content/services/esg.mdx` |');
    expect(comment).toContain('| outdated | `src/data/ar/home.ts` | `src/data/home.ts` |');
    expect(comment).not.toContain('src/content/ar/services/audits.mdx` |');
    expect(comment).toContain('In all: 1 missing, 2 outdated');
    expect(formatComment([], after)).toContain('This pull request leaves no Arabic twin behind.');
  });

  test("the status page shows each outdated pair's English diff, escaped, and is never indexed", () => {
    write(EN_SERVICE, '---\norder: 1\n---\nWe audit <suppliers> & more.\n');
    commit('Audits: more');
    const page = formatPage(translationStatus(repo) as PairStatus[]);
    expect(page).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page).toContain('+We audit &lt;suppliers&gt; &amp; more.');
  });
});
