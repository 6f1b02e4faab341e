/**
 * ARCHITECTURE invariant 5: a malformed content file fails the build, naming the file and the
 * field. Runs Astro's own content sync on a copy of the project with a broken file.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';
import { projectCopy } from '../helpers/project-copy';
import { parseHtml } from '../helpers/dom';
import { ar } from '../../src/i18n/ar';
import { NEW_COURSE, NEW_PAGE, NEW_SERVICE, UNTRANSLATED_STANDARD, applyEditorEdits, lastOrder } from '../helpers/editor-edits';

const copies: string[] = [];

function projectCopyWith(edit: (dir: string) => void): string {
  const dir = projectCopy('globaq-content-');
  copies.push(dir);
  edit(dir);
  return dir;
}

function sync(dir: string, env: Record<string, string> = {}) {
  const result = spawnSync(path.join(ROOT, 'node_modules/.bin/astro'), ['sync'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1', ...env },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

function replaceIn(file: string, from: RegExp, to: string) {
  const text = fs.readFileSync(file, 'utf8');
  if (!from.test(text)) throw new Error(`pattern ${from} not in ${file}`);
  fs.writeFileSync(file, text.replace(from, to));
}

afterAll(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a malformed content file fails the build', () => {
  test('a service whose description is too short: names the file and the field', () => {
    const dir = projectCopyWith((d) =>
      replaceIn(path.join(d, 'src/content/services/ai-solutions.mdx'), /^description: .*$/m, 'description: "Too short"'),
    );
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/content/services/ai-solutions.mdx');
    // How long it is, and the limit: the editor knows how much to add.
    expect(output).toMatch(/description: 9 characters, at least 50\b/);
  });

  test('a page without its route: names the file and the field', () => {
    const dir = projectCopyWith((d) => replaceIn(path.join(d, 'src/content/pages/iso-consultancy.mdx'), /^route: .*\n/m, ''));
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/content/pages/iso-consultancy.mdx');
    expect(output).toMatch(/\broute\b/);
  });

  test('a misspelled field: names the file, the field and the one it probably means, without a stack trace', () => {
    const dir = projectCopyWith((d) =>
      replaceIn(path.join(d, 'src/content/services/ai-solutions.mdx'), /^shortDescription:/m, 'shortDescripton:'),
    );
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/content/services/ai-solutions.mdx');
    expect(output).toContain('"shortDescripton" is not a field: did you mean "shortDescription"?');
    expect(output).not.toMatch(/Stack trace|unhandled error/i);
  });

  test('a page listing an unknown standard: names the file and the field', () => {
    const dir = projectCopyWith((d) =>
      replaceIn(path.join(d, 'src/content/pages/iso-consultancy.mdx'), /- iso-9001-2015/, '- iso-9999-2030'),
    );
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/content/pages/iso-consultancy.mdx');
    expect(output).toMatch(/standards\.\d+/);
  });

  test('an Arabic page (src/content/ar) whose lead is missing: names the file and the field, as the English schema does', () => {
    const dir = projectCopyWith((d) => replaceIn(path.join(d, 'src/content/ar/pages/iso-consultancy.mdx'), /^lead: .*\n/m, ''));
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/content/ar/pages/iso-consultancy.mdx');
    expect(output).toMatch(/\blead\b/);
  });

  test('a description over the limit: says how long it is and the limit ("227 characters, at most 170")', () => {
    const long = 'A description that goes on and on. '.repeat(6).trim();
    const dir = projectCopyWith((d) =>
      replaceIn(path.join(d, 'src/content/services/ai-solutions.mdx'), /^description: .*$/m, `description: "${long}"`),
    );
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/content/services/ai-solutions.mdx');
    expect(output).toContain(`description: ${long.length} characters, at most 170`);
  });

  test('a colon in an unquoted value: names the file and the line, and says to quote the value', () => {
    const file = 'src/content/services/ai-solutions.mdx';
    const dir = projectCopyWith((d) =>
      replaceIn(
        path.join(d, file),
        /^description: .*$/m,
        'description: AI solutions by Globaq: on-site assessments, roadmaps and training for your teams',
      ),
    );
    const line =
      fs
        .readFileSync(path.join(dir, file), 'utf8')
        .split('\n')
        .findIndex((l) => l.startsWith('description:')) + 1;
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain(`${file}:${line}: quote this value: "description" contains a colon`);
    expect(output).toContain('description: "AI solutions by Globaq: on-site');
    // Not YAML's own words, which name neither the cause nor the cure.
    expect(output).not.toContain('bad indentation of a mapping entry');
  });

  test('a service description under 100 words: names the file and says how many words it has', () => {
    const file = 'src/content/services/ai-solutions.mdx';
    const dir = projectCopyWith((d) => {
      const text = fs.readFileSync(path.join(d, file), 'utf8');
      const end = text.indexOf('\n---', 3) + 4;
      fs.writeFileSync(path.join(d, file), `${text.slice(0, end)}\n\nOnly a few words about this service for now.\n`);
    });
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain(`${file}: the service's description (the text under the front matter) is 9 words, at least 100`);
  });

  test('an Arabic twin without one of the English sections: names the Arabic file, the line and the section', () => {
    const file = 'src/content/ar/services/ai-solutions.mdx';
    const dir = projectCopyWith((d) => replaceIn(path.join(d, file), /^### .*\n/m, ''));
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain(`${file}:`);
    expect(output).toContain('its sections differ from its English twin src/content/services/ai-solutions.mdx');
  });

  test('an Arabic term the glossary says to avoid: names the file, the line and the term to write', () => {
    const file = 'src/content/ar/pages/laboratory/consultancy.mdx';
    const dir = projectCopyWith((d) => replaceIn(path.join(d, file), /الحياد/, 'الحيادية'));
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toMatch(
      new RegExp(`${file}:\\d+: «حيادية» is not the glossary's term for "impartiality": write «الحياد، بحياد»`),
    );
  });

  test('a local-format phone in src/data/company.yaml: the build says where, and what to write', () => {
    const dir = projectCopyWith((d) =>
      // Whatever number the editor has put there since (the README asks to replace the example).
      replaceIn(path.join(d, 'src/data/company.yaml'), /^phone: .*$/m, 'phone: "013 812 3456"'),
    );
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/data/company.yaml: phone is "013 812 3456": write it in international format');
  });

  test("an operator's override in the environment: the build announces it in one warning line", () => {
    const { status, output } = sync(
      projectCopyWith(() => {}),
      { PUBLIC_SITE_PHONE: '+966 13 812 3456' },
    );
    expect(status, output).toBe(0);
    const lines = output.split('\n').filter((line) => line.includes('PUBLIC_SITE_PHONE'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /WARN.*PUBLIC_SITE_PHONE is set in this build's environment: phone is "\+966 13 812 3456" \(src\/data\/company\.yaml has /,
    );
  });

  test('a misspelled field in a data file (src/data/standards.yaml): names the file, the entry, the field and the one it probably means', () => {
    const dir = projectCopyWith((d) =>
      replaceIn(
        path.join(d, 'src/data/standards.yaml'),
        /^( {4})summary: (Requirements for the competence of bodies)/m,
        '$1sumary: $2',
      ),
    );
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/data/standards.yaml');
    expect(output).toContain('entry 2 (iso-iec-17020-2012), field "en.sumary" is not a field: did you mean "en.summary"?');
    expect(output).not.toMatch(/Stack trace|unhandled error|Unable to load/i);
  });

  test('a menu entry without its English label (src/data/navigation.yaml): names the file, the entry and the field', () => {
    const dir = projectCopyWith((d) => replaceIn(path.join(d, 'src/data/navigation.yaml'), /^ {4}en: About Us\n/m, ''));
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/data/navigation.yaml');
    expect(output).toMatch(/entry 1 \(about\), field "label\.en" is missing/);
    expect(output).not.toMatch(/Stack trace|unhandled error/i);
  });

  test('the untouched project syncs cleanly (the checks above fail for the edit alone)', () => {
    const { status, output } = sync(projectCopyWith(() => {}));
    expect(status, output).toBe(0);
  });
});

/** `npm run build` in `dir`: the quiet build (scripts/build.mjs). */
function build(dir: string) {
  const result = spawnSync(process.execPath, ['scripts/build.mjs'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe('the whole build, on a copy (one build: a minute or two)', () => {
  // An editor adds a 13th service in English only, with a link to a page that does not exist.
  const slug = NEW_SERVICE;
  const file = `src/content/services/${slug}.mdx`;
  let line = 0;
  let dir = '';
  let result = { status: null as number | null, output: '' };
  const page = (route: string) => parseHtml(fs.readFileSync(path.join(dir, 'dist/client', `${route}.html`), 'utf8'));

  beforeAll(() => {
    dir = projectCopyWith((d) => {
      // The editor's documented edits (tests/helpers/editor-edits.ts), then the broken link.
      applyEditorEdits(d);
      const text = fs
        .readFileSync(path.join(d, 'src/content/services/ai-solutions.mdx'), 'utf8')
        .replace(/^order: .*$/m, `order: ${lastOrder(d) + 1}`)
        .replace(/^title: .*$/m, 'title: Quality Digitalization');
      fs.writeFileSync(
        path.join(d, file),
        `${text.trimEnd()}\n\nSee [our ISO trainings](/Trainings/ISOTraining) for the programme.\n`,
      );
      line = fs.readFileSync(path.join(d, file), 'utf8').trimEnd().split('\n').length;
    });
    result = build(dir);
  }, 600_000);

  test('a broken internal link in an MDX file fails the build, naming the file, the line and the link', () => {
    expect(result.status, result.output).not.toBe(0);
    expect(result.output).toContain(`${file}:${line}: the link "/Trainings/ISOTraining" goes to no page of the site`);
  });

  test('the quiet build: no known harmless warning, no file-by-file listing, the error and warning in a screenful', () => {
    expect(result.output).not.toContain('MODULE_LEVEL_DIRECTIVE');
    expect(result.output).not.toMatch(/├─ \/AboutUs\.html/);
    expect(result.output).toMatch(/Wrote \d+ pages, \d+ other files .* and \d+ optimized images/);
    expect(result.output.trim().split('\n').length, result.output).toBeLessThan(60);
  });

  test('a service without its Arabic twin: one warning line names the missing file', () => {
    const warnings = result.output.split('\n').filter((l) => l.includes(`src/content/ar/services/${slug}.mdx`));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /WARN.*src\/content\/ar\/services\/quality-digitalization\.mdx is missing: \/ar shows src\/content\/services\/quality-digitalization\.mdx in English/,
    );
  });

  test('its Arabic route shows the English text in the Arabic layout, under the notice, and stays in the Arabic menus', () => {
    const document = page(`ar/services/${slug}`);
    expect(document.documentElement.getAttribute('lang')).toBe('ar');
    expect(document.documentElement.getAttribute('dir')).toBe('rtl');
    expect(document.querySelector('.translation-pending')?.textContent).toBe(ar['translation.pending']);
    expect(document.querySelector('h1')?.getAttribute('lang')).toBe('en');
    expect(document.querySelector('h1')?.textContent).toBe('Quality Digitalization');
    expect(document.querySelector('#overview + [lang="en"]')?.textContent).toContain('Artificial intelligence');
    // The Arabic home's cards and footer list it, marked as English.
    const home = page('ar');
    expect(
      home.querySelector(`.service-card a[href="/ar/services/${slug}"]`)?.closest('.service-card')?.getAttribute('lang'),
    ).toBe('en');
    expect(home.querySelector(`footer a[href="/ar/services/${slug}"]`)?.getAttribute('lang')).toBe('en');
    // Translated pages show no notice.
    expect(page('ar/services/ai-solutions').querySelector('.translation-pending')).toBeNull();
  });

  test('a course added in English only: the Arabic page lists it in English, marked, in the English order', () => {
    expect(result.output).not.toMatch(/field "courses"/);
    const english = page('Trainings/OtherTrainings');
    const arabic = page('ar/Trainings/OtherTrainings');
    const ids = (document: Document) => [...document.querySelectorAll('.courses__item')].map((item) => item.id);
    expect(ids(english)[0]).toBe(NEW_COURSE);
    expect(ids(arabic)).toEqual(ids(english));
    const course = arabic.querySelector(`#${NEW_COURSE}`)!;
    expect(course.getAttribute('lang')).toBe('en');
    expect(course.querySelector('h3')?.textContent).toBe('Kaizen Training');
    expect(course.querySelector('.courses__pending')?.textContent?.trim()).toBe(ar['translation.pendingCourse']);
    expect(course.querySelector('.courses__pending')?.getAttribute('lang')).toBe('ar');
    // The translated courses stay as the translator wrote them.
    expect(arabic.querySelector('#six-sigma')?.hasAttribute('lang')).toBe(false);
    expect(arabic.querySelector('#six-sigma .courses__pending')).toBeNull();
  });

  test('a standard without its Arabic text: the Arabic page shows it in English, marked; the build says so in one line', () => {
    const item = page('ar/ISOConsultancy').getElementById(UNTRANSLATED_STANDARD)!;
    expect(item.getAttribute('lang')).toBe('en');
    expect(item.querySelector('h3')?.textContent).toContain('Information security management systems');
    expect(item.querySelector('.standards__pending')?.textContent?.trim()).toBe(ar['translation.pendingCourse']);
    expect(item.querySelector('.standards__pending')?.getAttribute('lang')).toBe('ar');
    // The one with its Arabic text is in Arabic, unmarked.
    expect(page('ar/ISOConsultancy').getElementById('iso-50001-2018')?.hasAttribute('lang')).toBe(false);
    expect(result.output.split('\n').filter((l) => l.includes(`no Arabic words (ar) for ${UNTRANSLATED_STANDARD}`))).toHaveLength(
      1,
    );
  });

  test('a menu entry in English only: the Arabic menus show it in English, marked lang="en"', () => {
    const links = [...page('ar').querySelectorAll(`header a[href="/ar/${NEW_PAGE}"]`)];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link.getAttribute('lang')).toBe('en');
      expect(link.textContent).toBe('Supplier Audits');
    }
    expect(page(`ar/${NEW_PAGE}`).querySelector('.translation-pending')?.textContent).toBe(ar['translation.pending']);
  });

  test('a content mistake is named, without a stack trace or "unhandled error"', () => {
    expect(result.output).not.toMatch(/Stack trace|unhandled error|^\s+at .*\(/im);
  });

  test('search engines are sent to the English page: no hreflang alternates, the English canonical', () => {
    const english = page(`services/${slug}`);
    const arabic = page(`ar/services/${slug}`);
    for (const document of [english, arabic]) {
      expect(document.querySelectorAll('link[rel="alternate"][hreflang]')).toHaveLength(0);
      expect(new URL(document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? '').pathname).toBe(
        `/services/${slug}`,
      );
    }
    // The visitor can still switch language: the English page's switch goes to the Arabic route.
    expect(english.querySelector('a[hreflang="ar"]')?.getAttribute('href')).toBe(`/ar/services/${slug}`);
    // A translated page keeps its alternates.
    expect(page('services/ai-solutions').querySelectorAll('link[rel="alternate"][hreflang]').length).toBeGreaterThan(0);
  });
});
