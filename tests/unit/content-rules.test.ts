/**
 * The content rules the build enforces (src/integrations/content-rules.ts, content-links.ts), on
 * small made-up files and a made-up built site; tests/unit/check-content.test.ts makes an
 * editor's mistakes in a copy of the project and runs `npm run check:content` on it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  contentProblems,
  formatProblem,
  frontmatterProblems,
  glossaryRules,
  imageProblems,
  missingTwins,
  pendingArabicPaths,
  serviceBodyProblems,
  termProblems,
  sameMetaProblems,
  twinFactProblems,
  twinSectionProblems,
  wordCount,
} from '../../src/integrations/content-rules';
import {
  brokenLinks,
  linksInContent,
  linksInData,
  readBuiltSite,
  sourceLinks,
  sourceSite,
} from '../../src/integrations/content-links';
import { nearestField } from '../../src/data/data-file';
import { ROOT } from '../helpers/content';
import { pageSchema, serviceSchema } from '../../src/lib/content-schemas';

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
});

describe('front matter values', () => {
  test('an unquoted value with ": " in it gets the quoting advice, with its line', () => {
    const text = '---\ntitle: Audits\ndescription: Audits by Globaq: on-site and remote\n---\nBody\n';
    expect(frontmatterProblems('a.mdx', text).map(formatProblem)).toEqual([
      'a.mdx:3: quote this value: "description" contains a colon followed by a space, which YAML reads as a new field. Write description: "Audits by Globaq: on-site and remote"',
    ]);
  });

  test('quoted values, addresses and times, and list items of a mapping pass', () => {
    const text = [
      '---',
      'title: "Audits: on-site"',
      "lead: 'Audits: on-site'",
      'description: See https://example.com at 10:30 for details',
      'courses:',
      '  - id: six-sigma',
      '    summary: >',
      '      Six Sigma: a method',
      '---',
    ].join('\n');
    expect(frontmatterProblems('a.mdx', text)).toEqual([]);
  });
});

describe('service descriptions', () => {
  test('words are counted without headings, list markers and tags', () => {
    expect(wordCount('## Heading here\n\n- one two\n- three\n\n<Card>four</Card>')).toBe(6);
  });

  test('under 100 words fails, saying how many; 100 pass', () => {
    const body = (n: number) => `---\norder: 1\n---\n${Array.from({ length: n }, (_, i) => `word${i}`).join(' ')}\n`;
    expect(serviceBodyProblems('s.mdx', body(99)).map(formatProblem)).toEqual([
      "s.mdx: the service's description (the text under the front matter) is 99 words, at least 100: describe the service in full, as the others do",
    ]);
    expect(serviceBodyProblems('s.mdx', body(100))).toEqual([]);
  });
});

describe('Arabic twins keep the sections', () => {
  const english = { file: 'en.mdx', text: '---\nx: 1\n---\n## One\n\ntext\n\n### Two\n\n### Three\n' };
  test('the same headings at the same levels pass', () => {
    expect(twinSectionProblems(english, { file: 'ar.mdx', text: '---\nx: 1\n---\n## واحد\n\n### اثنان\n\n### ثلاثة\n' })).toEqual(
      [],
    );
  });
  test('a missing or re-levelled section names the Arabic file, its line and the English section', () => {
    const [missing] = twinSectionProblems(english, { file: 'ar.mdx', text: '---\nx: 1\n---\n## واحد\n\n### اثنان\n' });
    expect(formatProblem(missing!)).toMatch(
      /^ar\.mdx: its sections differ from its English twin en\.mdx: the English twin has more sections: "### Three" is missing/,
    );
    const [levelled] = twinSectionProblems(english, {
      file: 'ar.mdx',
      text: '---\nx: 1\n---\n## واحد\n\n## اثنان\n\n### ثلاثة\n',
    });
    expect(formatProblem(levelled!)).toMatch(
      /^ar\.mdx:6: its sections differ from its English twin en\.mdx: section 2 is "## اثنان", but the English twin's is "### Two"/,
    );
  });
});

describe('internal links', () => {
  test('found in MDX (Markdown links and href attributes, same-page anchors on their page) and in data modules', () => {
    const mdx =
      '---\nroute: Trainings/OtherTrainings\n---\nSee [courses](/Trainings/OtherTrainings#six-sigma "x") and <a href="#hse">HSE</a>, [out](https://example.com).\n';
    expect(linksInContent('src/content/pages/x.mdx', mdx)).toEqual([
      {
        file: 'src/content/pages/x.mdx',
        line: 4,
        href: '/Trainings/OtherTrainings#six-sigma',
        page: '/Trainings/OtherTrainings',
      },
      { file: 'src/content/pages/x.mdx', line: 4, href: '#hse', page: '/Trainings/OtherTrainings' },
    ]);
    expect(linksInContent('src/content/ar/services/a.mdx', '---\norder: 1\n---\n[x](#top)\n')[0]?.page).toBe('/ar/services/a');
    const data =
      "// '/NotALink' in a comment\nexport const a = { href: '/AboutUs' };\nconst b = \"/ContactUs#form\"; const c = `/services/${'{'}slug}`;\n";
    expect(linksInData('src/data/x.ts', data).map((l) => `${l.line} ${l.href}`)).toEqual(['2 /AboutUs', '3 /ContactUs#form']);
  });

  test('a link to a missing page or anchor names the file and line; a case slip is pointed out', () => {
    const site = new Map([
      ['/', new Set(['main'])],
      ['/Trainings/ISOTrainings/ISOAwarenessTraining', new Set(['main', 'iso-9001-2015'])],
    ]);
    const links = [
      { file: 'a.mdx', line: 3, href: '/Trainings/ISOTraining' },
      { file: 'a.mdx', line: 4, href: '/trainings/isotrainings/isoawarenesstraining' },
      { file: 'b.ts', line: 9, href: '/Trainings/ISOTrainings/ISOAwarenessTraining#iso-9999' },
      { file: 'b.ts', line: 10, href: '/Trainings/ISOTrainings/ISOAwarenessTraining#iso-9001-2015' },
      { file: 'c.mdx', line: 2, href: '#main', page: '/' },
      { file: 'c.mdx', line: 5, href: '/favicon.ico' },
    ];
    expect(brokenLinks(links, site, (p) => p !== '/favicon.ico').map(formatProblem)).toEqual([
      'a.mdx:3: the link "/Trainings/ISOTraining" goes to no page of the site: check the path against the page\'s route (its front matter) or the menu (src/data/navigation.yaml)',
      'a.mdx:4: the link "/trainings/isotrainings/isoawarenesstraining" goes to no page of the site: did you mean "/Trainings/ISOTrainings/ISOAwarenessTraining"? (paths are case-sensitive)',
      'b.ts:9: the link "/Trainings/ISOTrainings/ISOAwarenessTraining#iso-9999" goes to an anchor that page /Trainings/ISOTrainings/ISOAwarenessTraining does not have: "#iso-9999" matches no heading, course or standard id there',
      'c.mdx:5: the link "/favicon.ico" goes to no file of the site: check the spelling',
    ]);
  });

  test('before the build, a link to no page of the sources is named with the page probably meant', () => {
    const site = sourceSite(ROOT);
    for (const page of [
      '/',
      '/ar',
      '/AboutUs',
      '/Aboutus',
      '/ContactUs',
      '/Trainings/OtherTrainings',
      '/ar/Trainings/OtherTrainings',
    ]) {
      expect(site.has(page), page).toBe(true);
    }
    const links = [{ file: 'a.mdx', line: 7, href: '/Trainings/OtherTraining#six-sigma' }];
    expect(brokenLinks(links, site).map(formatProblem)).toEqual([
      'a.mdx:7: the link "/Trainings/OtherTraining#six-sigma" goes to no page of the site: did you mean "/Trainings/OtherTrainings#six-sigma"?',
    ]);
  });

  test("a built site is read as its pages, their ids, and the host's rewrites", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-site-'));
    temps.push(dir);
    fs.mkdirSync(path.join(dir, 'ar/services'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.html'), '<main id="main"><h2 id=overview>x</h2></main>');
    fs.writeFileSync(path.join(dir, 'AboutUs.html'), '<p id="who">x</p>');
    fs.writeFileSync(path.join(dir, 'ar.html'), '<p>x</p>');
    fs.writeFileSync(path.join(dir, 'ar/services/a.html'), '<p>x</p>');
    fs.writeFileSync(path.join(dir, '_redirects'), '/Aboutus /AboutUs 200\n/services/* /services/404.html 404\n');
    const site = readBuiltSite(dir);
    expect([...site.keys()].sort()).toEqual(['/', '/AboutUs', '/Aboutus', '/ar', '/ar/services/a']);
    expect([...site.get('/')!]).toEqual(['main', 'overview']);
    expect(site.get('/Aboutus')).toBe(site.get('/AboutUs'));
  });
});

describe('front matter against its schema', () => {
  const service = (lines: string[]) => `---\n${lines.join('\n')}\n---\n\nBody.\n`;
  const good = [
    'order: 3',
    'title: "Audit Assistance"',
    'shortDescription: "Support before, during and after your certification audits."',
    'description: "Audit assistance by Globaq: readiness reviews, audit-day support and closing findings on time."',
  ];

  test('a misspelled field is named on its line with the field it probably means, and not also as missing', () => {
    const text = service(good.map((line) => line.replace(/^shortDescription:/, 'shortDescripton:')));
    expect(frontmatterProblems('src/content/services/x.mdx', text, serviceSchema).map(formatProblem)).toEqual([
      'src/content/services/x.mdx:4: field "shortDescripton" is not a field: did you mean "shortDescription"?',
    ]);
    expect(nearestField('Title', ['order', 'title'])).toBe('title');
    expect(nearestField('summary', ['order', 'title', 'description'])).toBeUndefined();
  });

  test('an unknown field lists the fields; a missing one and a wrong value are named on their lines', () => {
    const text = service(['colour: "navy"', ...good.slice(1).map((line) => line.replace(/^title: .*/, 'title: "AI"'))]);
    expect(frontmatterProblems('src/content/services/x.mdx', text, serviceSchema).map(formatProblem)).toEqual([
      'src/content/services/x.mdx:2: field "colour" is not a field: the fields are order, title, shortDescription, description',
      'src/content/services/x.mdx: field "order" is missing',
      'src/content/services/x.mdx:3: field "title" is "AI": 2 characters, at least 3',
    ]);
    expect(frontmatterProblems('src/content/services/x.mdx', service(good), serviceSchema)).toEqual([]);
  });
});

describe('a misspelled field inside a list or an object', () => {
  test("a course's field is named on its line, with the one it probably means", () => {
    const text = fs
      .readFileSync(path.join(ROOT, 'src/content/pages/trainings/other-trainings.mdx'), 'utf8')
      .replace(/^( {4})summary:/m, '$1summery:');
    const line = text.split('\n').findIndex((l) => l.startsWith('    summery:')) + 1;
    expect(frontmatterProblems('src/content/pages/trainings/other-trainings.mdx', text, pageSchema).map(formatProblem)).toEqual([
      `src/content/pages/trainings/other-trainings.mdx:${line}: field "courses.0.summery" is not a field: did you mean "courses.0.summary"?`,
    ]);
  });

  test('a value out of a list names its line and the values accepted, with the one probably meant', () => {
    const file = 'src/content/pages/trainings/other-trainings.mdx';
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/^( {2}level:) \w+/m, '$1 advance');
    const line = text.split('\n').findIndex((l) => l === '  level: advance') + 1;
    expect(frontmatterProblems(file, text, pageSchema).map(formatProblem)).toEqual([
      `${file}:${line}: field "course.level" is "advance": write one of "introductory", "intermediate", "advanced" (did you mean "advanced"?)`,
    ]);
  });
});

describe("a course's duration", () => {
  test('a course without one, on a page whose course: gives no days, is named on the courses line', () => {
    const file = 'src/content/pages/trainings/other-trainings.mdx';
    const original = fs.readFileSync(path.join(ROOT, file), 'utf8');
    expect(/^ {2}days:/m.test(original), 'the page gives no days: each course says its own').toBe(false);
    const text = original.replace(/^ {4}duration: .*\n/m, '');
    // The line of the list's first entry, under `courses:`.
    const line = text.split('\n').indexOf('courses:') + 2;
    expect(frontmatterProblems(file, text, pageSchema).map(formatProblem)).toEqual([
      `${file}:${line}: field "courses": duration is required for each course when the page's course: gives no days ("2 days")`,
    ]);
    expect(frontmatterProblems(file, text.replace(/^course:\n/m, 'course:\n  days: 2\n'), pageSchema)).toEqual([]);
  });
});

describe('Arabic twins keep the facts', () => {
  const page = (lines: string[]) => `---\nroute: "Trainings/X"\n${lines.join('\n')}\n---\n`;
  const english = {
    file: 'en.mdx',
    text: page([
      'standards: [iso-9001-2015, iso-14001-2015]',
      'courses:',
      '  - id: a',
      '  - id: b',
      '    level: advanced',
      'course:',
      '  days: 2',
      '  level: introductory',
    ]),
  };
  test('the same facts pass, and so does a twin lacking a course not yet translated', () => {
    const arabic = english.text.replace('  - id: a\n', '');
    expect(twinFactProblems(english, { file: 'ar.mdx', text: arabic })).toEqual([]);
  });
  test('a day, a level, a standard or a course of its own: each named on its line, with its id and the English value', () => {
    const arabic = english.text
      .replace('iso-9001-2015, ', '')
      .replace('  - id: b\n    level: advanced', '  - id: b\n    level: introductory\n  - id: c')
      .replace('days: 2', 'days: 3');
    expect(twinFactProblems(english, { file: 'ar.mdx', text: arabic }).map(formatProblem)).toEqual([
      `ar.mdx:10: "course.days" is 3, but the English twin's is 2: a translation keeps it (English twin: en.mdx)`,
      `ar.mdx:3: "standards" lacks iso-9001-2015: list the English twin's, in its order (English twin: en.mdx)`,
      `ar.mdx:7: course "b" is introductory, but the English twin's is advanced (English twin: en.mdx)`,
      `ar.mdx:8: course "c" is not in the English twin: add it there first, or correct the id (English twin: en.mdx)`,
    ]);
  });
});

describe('titles and descriptions of their own', () => {
  // A page copied as the start of a new one, as editors do, its title changed and its description not.
  const pages = fs.readdirSync(path.join(ROOT, 'src/content/pages')).filter((name) => name.endsWith('.mdx'));
  const original = {
    file: `src/content/pages/${pages[0]}`,
    text: fs.readFileSync(path.join(ROOT, 'src/content/pages', pages[0]!), 'utf8'),
  };
  const copy = {
    file: 'src/content/pages/new-page.mdx',
    text: original.text.replace(/^title: .*$/m, 'title: "A page of its own"'),
  };
  const line = (text: string, field: string) => text.split('\n').findIndex((l) => l.startsWith(`${field}:`)) + 1;

  test("a copied description is named on the copy's line, with the page it copies", () => {
    expect(sameMetaProblems([original, copy])).toEqual([
      {
        file: copy.file,
        line: line(copy.text, 'description'),
        message: expect.stringContaining(`the same as ${original.file}'s`),
      },
    ]);
  });

  test('a title twice in one collection is named; the Arabic twin and another collection may share words', () => {
    const twin = { file: original.file.replace('src/content/', 'src/content/ar/'), text: original.text };
    const service = {
      file: 'src/content/services/x.mdx',
      text: original.text.replace(/^description: .*$/m, 'description: "Other"'),
    };
    expect(sameMetaProblems([original, twin, service])).toEqual([]);
    const retitled = { ...copy, text: copy.text.replace(/^description: .*$/m, 'description: "Its own words"') };
    const sameTitle = { ...retitled, text: retitled.text.replace(/^title: .*$/m, original.text.match(/^title: .*$/m)![0]) };
    expect(sameMetaProblems([original, retitled])).toEqual([]);
    expect(sameMetaProblems([original, sameTitle]).map((p) => [p.file, p.line])).toEqual([[copy.file, line(copy.text, 'title')]]);
  });
});

describe('images a content file names', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-images-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  fs.mkdirSync(path.join(dir, 'src/content/team'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'public/images'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'src/content/team/first-last.jpg'), '');
  fs.writeFileSync(path.join(dir, 'public/images/plant.png'), '');

  test('one that is not there is named on its line, with the file probably meant; those there pass', () => {
    const yaml = 'order: 1\nname: "First Last"\nphoto:\n  src: "./first-lst.jpg"\n  alt: "First Last"\n';
    expect(imageProblems(dir, 'src/content/team/first-last.yaml', yaml).map(formatProblem)).toEqual([
      'src/content/team/first-last.yaml:4: the image "./first-lst.jpg" is not there (src/content/team/): did you mean "./first-last.jpg"?',
    ]);
    const mdx = '---\ntitle: "x"\n---\n\n![A plant](/images/plant.png)\n\n![A tank](/images/tank.webp)\n';
    expect(imageProblems(dir, 'src/content/pages/x.mdx', mdx).map(formatProblem)).toEqual([
      'src/content/pages/x.mdx:7: the image "/images/tank.webp" is not there (public/images/): add the file, or correct the name (letter case counts)',
    ]);
    expect(imageProblems(dir, 'src/content/team/first-last.yaml', yaml.replace('first-lst', 'first-last'))).toEqual([]);
  });
});

describe('the Arabic glossary (docs/glossary.md)', () => {
  const rules = glossaryRules(fs.readFileSync(path.join(ROOT, 'docs/glossary.md'), 'utf8'));

  test('its rows with forms to avoid become rules; rows without, and the header, do not', () => {
    const made = glossaryRules(
      [
        '| English | Arabic | Not |',
        '|---|---|---|',
        '| impartiality | الحياد | الحيادية |',
        '| observation | ملاحظة | |',
        '| effectiveness | فاعلية | فعالية، بفعالية |',
      ].join('\n'),
    );
    expect(made).toEqual([
      { english: 'impartiality', use: 'الحياد', avoid: ['الحيادية'] },
      { english: 'effectiveness', use: 'فاعلية', avoid: ['فعالية', 'بفعالية'] },
    ]);
    // The review's drifts are among the project's rules.
    expect(rules.flatMap((rule) => rule.avoid)).toEqual(
      expect.arrayContaining(['SAC', 'حيادية', 'فعالية', 'فعاليته', 'واعتماداتنا', 'إغلاق الملاحظات', 'اعتماداتها']),
    );
  });

  test('a form to avoid names the file, the line, the form and the term to write', () => {
    const text = 'عنوان\nيمنح المركز السعودي للاعتماد (SAC) الاعتماد.\nتقييم المخاطر التي تهدد الحيادية';
    expect(termProblems('src/content/ar/pages/x.mdx', text, rules).map(formatProblem)).toEqual([
      'src/content/ar/pages/x.mdx:2: «SAC» is not the glossary\'s term for "Saudi Accreditation Center (SAAC, saac.gov.sa)": write «المركز السعودي للاعتماد (SAAC)» (docs/glossary.md)',
      'src/content/ar/pages/x.mdx:3: «حيادية» is not the glossary\'s term for "impartiality": write «الحياد، بحياد» (docs/glossary.md)',
    ]);
    expect(termProblems('src/content/ar/pages/x.mdx', 'الحياد والسرية وفاعلية الإجراءات (SAAC)', rules)).toEqual([]);
    // A suffixed form drifts too: «فعاليته» is not «فعالية» followed by a space.
    expect(termProblems('src/content/ar/pages/x.mdx', 'رؤية لمدى فعاليته', rules).map(formatProblem)).toEqual([
      'src/content/ar/pages/x.mdx:1: «فعاليته» is not the glossary\'s term for "effectiveness": write «فاعلية، بفاعلية، فاعليته» (docs/glossary.md)',
    ]);
  });

  test("the second review's drifts stop the build, each pointing to one term (PRPs, hazard, mock audit and the rest)", () => {
    const drifts: Array<[string, string]> = [
      ['يتناول البرامج المسبقة لسلامة الغذاء', 'البرامج الأولية (PRPs)'],
      ['تحديد الأخطار في مكان العمل', 'مصدر الخطر، مصادر الخطر'],
      ['تدقيق تجريبي في اليوم الثاني', 'تدقيق محاكاة، تقييم محاكاة'],
      ['إجراء تقييم تجريبي يحاكي الزيارة', 'تدقيق محاكاة، تقييم محاكاة'],
      ['معدات معايرة ذات تتبع مترولوجي', 'التتبع المترولوجي؛ معدات مُعايَرة قابلة للتتبع المترولوجي'],
      ['### للموردين الساعين إلى الاعتماد', 'الموافقة، موافقة أرامكو السعودية عليه، الساعين إلى الموافقة عليهم'],
      ['يمنحه المركز السعودي للاعتماد (SAC)', 'المركز السعودي للاعتماد (SAAC)'],
    ];
    for (const [line, use] of drifts) {
      expect(
        termProblems('src/content/ar/pages/x.mdx', line, rules).map((problem) => problem.message),
        line,
      ).toEqual([expect.stringContaining(`write «${use}»`)]);
    }
    // The terms to use pass, as does HACCP's established name and a pilot project.
    const kept = 'البرامج الأولية (PRPs) ومصادر الخطر وتحليل المخاطر ونقاط التحكم الحرجة وتدقيق محاكاة ومشروع تجريبي (SAAC)';
    expect(termProblems('src/content/ar/pages/x.mdx', kept, rules)).toEqual([]);
  });

  test('the build checks the Arabic content, the Arabic strings and the Arabic data', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-glossary-'));
    temps.push(dir);
    for (const file of ['docs/glossary.md', 'src/i18n/ar.ts', 'src/data/home.yaml']) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
    }
    expect(contentProblems(dir)).toEqual([]);
    fs.appendFileSync(path.join(dir, 'src/i18n/ar.ts'), '\n// أبرز عملائنا واعتماداتنا\n');
    fs.mkdirSync(path.join(dir, 'src/content/ar/pages'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'src/content/pages'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/content/pages/p.mdx'), '---\ntitle: "T"\n---\n\nWe work.\n');
    fs.writeFileSync(path.join(dir, 'src/content/ar/pages/p.mdx'), '---\ntitle: "ت"\n---\n\nنعمل بفعالية.\n');
    expect(contentProblems(dir).map((problem) => `${problem.file}:${problem.line}`)).toEqual([
      'src/content/ar/pages/p.mdx:5',
      `src/i18n/ar.ts:${fs.readFileSync(path.join(dir, 'src/i18n/ar.ts'), 'utf8').trimEnd().split('\n').length}`,
    ]);
  });
});

describe('missing Arabic twins', () => {
  test('are named, with the Arabic address that shows the English page meanwhile (kept out of the sitemap)', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-twins-'));
    temps.push(root);
    const write = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    };
    write('src/content/services/a.mdx', '---\norder: 1\n---\nA\n');
    write('src/content/services/b.mdx', '---\norder: 2\n---\nB\n');
    write('src/content/ar/services/a.mdx', '---\norder: 1\n---\nأ\n');
    write('src/content/pages/trainings/other.mdx', '---\nroute: "Trainings/OtherTrainings"\n---\nC\n');
    expect(missingTwins(root)).toEqual([
      { english: 'src/content/services/b.mdx', arabic: 'src/content/ar/services/b.mdx' },
      { english: 'src/content/pages/trainings/other.mdx', arabic: 'src/content/ar/pages/trainings/other.mdx' },
    ]);
    expect([...pendingArabicPaths(root)].sort()).toEqual(['/ar/Trainings/OtherTrainings', '/ar/services/b']);
    // A translation at a path no English file has: named, with where its original would be.
    write('src/content/ar/services/c.mdx', '---\norder: 3\n---\nج\n');
    expect(contentProblems(root).map(formatProblem)).toContainEqual(
      "src/content/ar/services/c.mdx: has no English twin (src/content/services/c.mdx): a translation sits at its English original's path under ar/; move it there, or add the English file first",
    );
  });
});

describe('the project as it is', () => {
  test('breaks none of the rules', () => {
    expect(contentProblems(ROOT).map(formatProblem)).toEqual([]);
  });

  test('its menus link every content page: the link check sees the data modules', () => {
    const hrefs = sourceLinks(ROOT)
      .filter((l) => l.file === 'src/data/navigation.yaml')
      .map((l) => l.href);
    expect(hrefs).toContain('/AboutUs');
    expect(hrefs).toContain('/Trainings/OtherTrainings');
  });
});
