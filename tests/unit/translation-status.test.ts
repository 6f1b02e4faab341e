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

  test('a merge is no change of its own: a key names its branch commit, and keys the branch left alone stay up to date', () => {
    run(['checkout', '-q', '-b', 'wording']);
    write('src/i18n/ar.ts', dictionary('ar', { 'nav.home': 'الصفحة الرئيسية', 'footer.blurb': 'الجودة من الخبر.' }));
    commit('Arabic first');
    write('src/i18n/en.ts', dictionary('en', { 'nav.home': 'Home page', 'footer.blurb': 'Quality from Al-Khobar.' }));
    commit('Then the English');
    run(['checkout', '-q', 'main']);
    write(
      'src/i18n/en.ts',
      dictionary('en', { 'nav.home': 'Home', 'footer.blurb': 'Quality from Al-Khobar.', 'nav.more': 'More' }),
    );
    write(
      'src/i18n/ar.ts',
      dictionary('ar', { 'nav.home': 'الرئيسية', 'footer.blurb': 'الجودة من الخبر.', 'nav.more': 'المزيد' }),
    );
    commit('A key in both languages on main');
    run(['merge', '-q', '--no-edit', '-X', 'theirs', 'wording']);
    const strings = translationStatus(repo).filter((e) => e.kind === 'string');
    expect(strings.map((e) => `${e.status}: ${e.key}`)).toContain('outdated: nav.home');
    // The branch's English change is newer than its Arabic one, so that key is outdated; the merge
    // itself is no change: the newest English change named is the branch's, not the merge.
    expect(strings.find((e) => e.key === 'nav.home')?.commits?.[0]?.message).toBe('Then the English');
    expect(strings.find((e) => e.key === 'nav.more')?.status).toBe('up to date');
    expect(strings.find((e) => e.key === 'footer.blurb')?.status).toBe('up to date');
  });

  test('a twin a translator checked is up to date by the trailer "Translation-reviewed:", until the English changes again', () => {
    write('src/i18n/en.ts', dictionary('en', { 'nav.home': 'Home page', 'footer.blurb': 'Quality from Al-Khobar.' }));
    write(EN_SERVICE, '---\norder: 1\n---\nWe audit your suppliers.\n');
    commit('Menu and audits reworded');
    expect(
      translationStatus(repo)
        .filter((e) => e.status === 'outdated')
        .map((e) => e.twin),
    ).toEqual([AR_SERVICE, 'src/i18n/ar.ts nav.home']);
    run([
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      `Arabic checked: it says this already\n\nTranslation-reviewed: ${AR_SERVICE}, nav.home`,
    ]);
    expect(translationStatus(repo).filter((e) => e.status !== 'up to date')).toEqual([]);
    write('src/i18n/en.ts', dictionary('en', { 'nav.home': 'Start', 'footer.blurb': 'Quality from Al-Khobar.' }));
    commit('Menu: Start');
    expect(
      translationStatus(repo)
        .filter((e) => e.status === 'outdated')
        .map((e) => e.twin),
    ).toEqual(['src/i18n/ar.ts nav.home']);
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

describe('what an editor wrote, not commits', () => {
  test('a change of comments or code only leaves the twin up to date; a change of words does not', () => {
    const company = (phone: string, comment: string, legalName = 'Globaq Quality Assurance') =>
      write(
        'src/data/company.yaml',
        `# ${comment}\nphone: "${phone}"\nlegalName:\n  en: "${legalName}"\n  ar: "Globaq لضمان الجودة"\n`,
      );
    const legalName = 'src/data/company.yaml detail legalName';
    company('+966 13 000 0000', 'The company.');
    write(EN_SERVICE, '---\norder: 1 # the catalogue\n---\nWe audit suppliers.\n');
    commit('Company in both languages');
    // Comments and a phone number: nothing to translate.
    company('+966 13 812 3456', "The company's details, as an editor reads them.");
    write(EN_SERVICE, '---\norder: 1 # position in the catalogue\n---\n{/* A note for editors. */}\n\nWe audit suppliers.\n');
    commit('Company: the real phone; comments');
    expect(statusOf(legalName)?.status).toBe('up to date');
    // The English words of a detail changed: its Arabic twin is outdated.
    company('+966 13 812 3456', 'The company.', 'Globaq Quality Assurance and Consultancy');
    commit('Company: the full legal name');
    expect(statusOf(legalName)?.status).toBe('outdated');
    expect(statusOf(EN_SERVICE)?.status).toBe('up to date');
    // A rewritten paragraph is outdated.
    write(
      EN_SERVICE,
      '---\norder: 1 # position in the catalogue\n---\n{/* A note for editors. */}\n\nWe audit suppliers on site.\n',
    );
    const edit = commit('Audits: on site');
    expect(statusOf(EN_SERVICE)).toMatchObject({ status: 'outdated', commits: [{ hash: edit }] });
  });
});

describe('entries followed one by one', () => {
  const page = (courses: string[], title = (id: string) => `The ${id} course for quality teams`) =>
    `---\nroute: Trainings/OtherTrainings\ncourses:\n${courses.map((id) => `  - id: ${id}\n    title: "${title(id)}"\n`).join('')}---\nCourses.\n`;
  /** src/data/standards.yaml: each id's English words, and its Arabic ones where given. */
  const standards = (entries: [string, string, string?][]) =>
    `# The standards.\n${entries
      .map(
        ([id, en, ar]) =>
          `- id: ${id}\n  code: ${id.toUpperCase()}\n  kind: certification\n  en:\n    title: ${en}\n    summary: What ${en} covers.\n${ar ? `  ar:\n    title: ${ar}\n    summary: ما تغطيه المواصفة.\n` : ''}`,
      )
      .join('')}`;
  /** src/data/navigation.yaml: links with their English label, and their Arabic one where given. */
  const menu = (entries: [string, string, string?][]) =>
    entries
      .map(
        ([href, en, ar]) =>
          `- id: ${href.slice(1).toLowerCase()}\n  href: ${href}\n  label:\n    en: ${en}\n${ar ? `    ar: ${ar}\n` : ''}`,
      )
      .join('');

  beforeEach(() => {
    write('src/content/pages/other-trainings.mdx', page(['six-sigma']));
    write(
      'src/content/ar/pages/other-trainings.mdx',
      page(['six-sigma'], () => 'دورة ستة سيجما لفرق الجودة'),
    );
    write('src/data/standards.yaml', standards([['iso-9001-2015', 'Quality management systems', 'أنظمة إدارة الجودة']]));
    write('src/data/navigation.yaml', menu([['/AboutUs', 'About Us', 'من نحن']]));
    commit('Courses, standards and menu in both languages');
  });

  const behind = () =>
    translationStatus(repo)
      .filter((entry) => entry.status !== 'up to date' && entry.kind === 'entry')
      .map((entry) => `${entry.status}: ${entry.twin}`);

  test('a course, a standard or a menu entry in English only is listed as missing, by name', () => {
    expect(behind()).toEqual([]);
    write('src/content/pages/other-trainings.mdx', page(['kaizen', 'six-sigma']));
    write(
      'src/data/standards.yaml',
      standards([
        ['iso-9001-2015', 'Quality management systems', 'أنظمة إدارة الجودة'],
        ['iso-50001-2018', 'Energy management systems'],
      ]),
    );
    write(
      'src/data/navigation.yaml',
      menu([
        ['/AboutUs', 'About Us', 'من نحن'],
        ['/EnergyAudits', 'Energy Audits'],
      ]),
    );
    commit('A course, a standard and a menu entry, English first');
    expect(behind()).toEqual([
      'missing: src/content/ar/pages/other-trainings.mdx course kaizen',
      'missing: src/data/navigation.yaml menu entry /EnergyAudits (ar)',
      'missing: src/data/standards.yaml standard iso-50001-2018 (ar)',
    ]);
    const table = formatTable(translationStatus(repo));
    expect(table).toMatch(/missing +src\/content\/ar\/pages\/other-trainings\.mdx course kaizen +not in the Arabic file yet/);
    expect(table).toContain('Arabic translations at HEAD: 3 missing');
  });

  test("a course in English only leaves its page's twin up to date; a change to a translated course does not", () => {
    const pageStatus = () =>
      translationStatus(repo).find(
        (entry) => entry.kind === 'content' && entry.twin === 'src/content/ar/pages/other-trainings.mdx',
      )?.status;
    write('src/content/pages/other-trainings.mdx', page(['kaizen', 'six-sigma']));
    commit('A course, English first');
    expect(pageStatus()).toBe('up to date');
    write(
      'src/content/pages/other-trainings.mdx',
      page(['kaizen', 'six-sigma'], (id) => `The ${id} course, rewritten`),
    );
    commit('Both courses rewritten');
    expect(pageStatus()).toBe('outdated');
  });

  test('English text in an Arabic file is flagged: a copied course, a standard, a paragraph', () => {
    write(
      'src/content/ar/pages/other-trainings.mdx',
      `${page(['six-sigma'], () => 'دورة ستة سيجما لفرق الجودة').trimEnd()}\n\nThis paragraph was pasted in English by mistake.\n`,
    );
    commit('Arabic page with an English paragraph');
    write('src/content/pages/other-trainings.mdx', page(['kaizen', 'six-sigma']));
    write(
      'src/content/ar/pages/other-trainings.mdx',
      page(['kaizen', 'six-sigma'], (id) =>
        id === 'kaizen' ? 'Kaizen training for quality teams' : 'دورة ستة سيجما لفرق الجودة',
      ),
    );
    write(
      'src/data/standards.yaml',
      standards([
        ['iso-9001-2015', 'Quality management systems', 'أنظمة إدارة الجودة'],
        ['iso-50001-2018', 'Energy management systems', 'Energy management systems for industry'],
      ]),
    );
    commit('Kaizen and ISO 50001 copied into the Arabic files');
    const english = translationStatus(repo).filter((entry) => entry.status === 'in English');
    expect(english.map((entry) => `${entry.twin}: ${entry.detail}`)).toEqual([
      'src/content/ar/pages/other-trainings.mdx:5: Kaizen training for quality teams',
      'src/data/standards.yaml standard iso-50001-2018 (ar): Energy management systems for industry',
    ]);
    // Nothing is missing: the copy hides nothing but the translation.
    expect(behind().filter((line) => line.startsWith('missing'))).toEqual([]);
    const cli = spawnSync(process.execPath, [path.join(ROOT, 'scripts/translations.mjs'), '--check'], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(cli.status).toBe(1);
    expect(cli.stdout).toMatch(
      /in English +src\/data\/standards\.yaml standard iso-50001-2018 \(ar\) +English text where Arabic is expected: "Energy management/,
    );
    expect(cli.stderr).toContain('2 places in the Arabic files hold English text');
  });

  test('a data entry is outdated when its English words change, not when a comment, a code or a path does', () => {
    const both = (title: string, code = 'ISO 9001:2015'): string =>
      standards([['iso-9001-2015', title, 'أنظمة إدارة الجودة']]).replace('ISO-9001-2015', code);
    write('src/data/standards.yaml', `# Edited by the quality team.\n${both('Quality management systems', 'ISO 9001:2026')}`);
    write('src/data/navigation.yaml', menu([['/AboutUs', 'About Us', 'من نحن']]).replace('id: aboutus', 'id: about'));
    commit('A comment, a code and an id');
    expect(behind()).toEqual([]);
    write('src/data/standards.yaml', both('Quality management systems, with climate action'));
    commit('A standard retitled in English');
    const [outdated] = translationStatus(repo).filter((entry) => entry.status === 'outdated' && entry.kind === 'entry');
    expect(outdated?.twin).toBe('src/data/standards.yaml standard iso-9001-2015 (ar)');
    expect(outdated?.diff).toContain('Quality management systems, with climate action');
    write(
      'src/data/standards.yaml',
      both('Quality management systems, with climate action').replace('أنظمة إدارة الجودة', 'أنظمة إدارة الجودة والعمل المناخي'),
    );
    commit('Its Arabic title follows');
    expect(behind()).toEqual([]);
  });

  test('Latin names and codes in Arabic text are not English text', () => {
    write(
      'src/data/standards.yaml',
      standards([
        ['iso-9001-2015', 'Quality management systems', 'ISO/IEC 17025:2017 وSchedule Q وHACCP'],
        ['iso-45001-2018', 'Safety', 'ISO 9001:2015 HACCP CSM GI 2.100'],
      ]),
    );
    commit('Arabic with Latin names');
    expect(translationStatus(repo).filter((entry) => entry.status === 'in English')).toEqual([]);
  });
});
