/**
 * `npm run check:content` (scripts/check-content.mjs) names an editor's usual mistakes in seconds,
 * without building: each is made in a copy of the project, in whichever file holds the content
 * today, and the message must name the file, the line, the field or id, and the fix, with no
 * stack trace. The build runs the same checks before it writes a page (src/integrations/content-checks.ts).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { listMdx, twinPath } from '../../src/integrations/content-rules';
import { COURSE_LEVELS } from '../../src/lib/content-schemas';
import { projectCopy } from '../helpers/project-copy';

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

/** A copy of the project, edited by `edit`, and what `npm run check:content` says of it. */
function checkCopy(edit: (at: (file: string) => string) => void) {
  const dir = projectCopy('globaq-check-');
  copies.push(dir);
  edit((file) => path.join(dir, file));
  const started = Date.now();
  const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', 'scripts/check-content.mjs'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const output = `${result.stdout}\n${result.stderr}`;
  // The verdict is the last line printed (stdout; the problems go to stderr before it).
  const verdict = result.stdout.trim().split('\n').at(-1);
  return { status: result.status, output, lines: output.trim().split('\n'), verdict, seconds: (Date.now() - started) / 1000 };
}

/** `file`'s text with `from` replaced by `to`; fails when the file no longer has `from`. */
function edit(file: string, from: RegExp, to: (match: string, ...groups: string[]) => string): string {
  const text = fs.readFileSync(file, 'utf8');
  expect(text, `${from} in ${file}`).toMatch(from);
  const edited = text.replace(from, to);
  fs.writeFileSync(file, edited);
  return edited;
}

/** The line (from 1) of `text` that `pattern` matches first. */
const lineOf = (text: string, pattern: RegExp): number => text.split('\n').findIndex((line) => pattern.test(line)) + 1;

/** The first file of `files` (relative to the project) whose text matches `pattern`. */
function firstWith(dir: string, files: readonly string[], pattern: RegExp): string {
  const file = files.find((name) => pattern.test(fs.readFileSync(path.join(dir, name), 'utf8')));
  expect(file, `a file matching ${pattern}`).toBeDefined();
  return file!;
}

describe('npm run check:content', () => {
  test('the project as it is passes, in well under 15 s, the verdict on the last line', () => {
    const { status, verdict, seconds } = checkCopy(() => {});
    expect(verdict).toMatch(/^Content check: no problem, \d+ warnings? \(\d+\.\d s\)$/);
    expect(status).toBe(0);
    expect(seconds).toBeLessThan(15);
  });

  test('a data file: an unquoted colon and a misspelled field, each on its line, with the fix', () => {
    let home = '';
    let company = '';
    const result = checkCopy((at) => {
      home = edit(at('src/data/home.yaml'), /^( {2}en:) "(.*)"$/m, (_all, key, words) => `${key} Note: ${words}`);
      company = edit(at('src/data/company.yaml'), /^email:/m, () => 'emial:');
    });
    expect(result.status).toBe(1);
    expect(result.output).toContain(
      `src/data/home.yaml needs a correction:\n  line ${lineOf(home, /^ {2}en: Note: /)}: quote this value: "en" contains a colon`,
    );
    expect(result.output).toMatch(/Write en: "Note: /);
    expect(result.output).not.toContain('Nested mappings');
    expect(result.output).toContain(
      `src/data/company.yaml needs a correction:\n  line ${lineOf(company, /^emial:/)}: field "emial" is not a field: did you mean "email"?`,
    );
    expect(result.verdict).toMatch(/^Content check: 2 problems to correct/);
    expect(result.seconds).toBeLessThan(15);
  });

  test('a course level, an Arabic twin that differs, a broken link and a local phone: file, line, id and fix, no stack trace', () => {
    const expected: string[] = [];
    const result = checkCopy((at) => {
      const root = at('.');
      // A course level that is not one of the schema's.
      const pages = listMdx(root, 'src/content/pages');
      const training = firstWith(root, pages, /^course:\n(?: {2}.*\n)*? {2}level: \w+$/m);
      const levelled = edit(at(training), /^(course:\n(?: {2}.*\n)*? {2}level:) \w+$/m, (_all, before) => `${before} expert`);
      const values = COURSE_LEVELS.map((level) => `"${level}"`).join(', ');
      expected.push(
        `${training}:${lineOf(levelled, /^ {2}level: expert$/)}: field "course.level" is "expert": write one of ${values}`,
      );
      // An Arabic twin whose course runs a day longer than the English one, on another page.
      const english = firstWith(
        root,
        pages.filter((page) => page !== training && fs.existsSync(at(twinPath(page)))),
        /^ {2}days: \d+$/m,
      );
      const arabic = twinPath(english);
      let days = 0;
      const longer = edit(at(arabic), /^ {2}days: (\d+)$/m, (_all, n) => `  days: ${(days = Number(n)) + 1}`);
      expected.push(
        `${arabic}:${lineOf(longer, /^ {2}days: /)}: "course.days" is ${days + 1}, but the English twin's is ${days}: a translation keeps it (English twin: ${english})`,
      );
      // A link with the last letter of its page dropped.
      const services = listMdx(root, 'src/content/services');
      const linking = firstWith(root, services, /\]\(\/[A-Za-z/]+\)/);
      let href = '';
      const linked = edit(at(linking), /\]\((\/[A-Za-z/]+)\)/, (_all, target) => `](${(href = target).slice(0, -1)})`);
      expected.push(
        `${linking}:${lineOf(linked, new RegExp(`\\]\\(${href.slice(0, -1)}\\)`))}: the link "${href.slice(0, -1)}" goes to no page of the site: did you mean "${href}"?`,
      );
      // A phone in local format: the company's details are checked as the build checks them.
      const company = edit(at('src/data/company.yaml'), /^phone: .*$/m, () => 'phone: "013 812 3456"');
      expected.push(
        `src/data/company.yaml:${lineOf(company, /^phone: /)}: phone is "013 812 3456": write it in international format: "+", the country code, then the number, digits and spaces only, e.g. "+966 13 812 3456" (not "013 812 3456")`,
      );
    });
    for (const line of expected) expect(result.lines).toContain(line);
    expect(result.output).not.toMatch(/^\s+at /m);
    expect(result.verdict).toMatch(/^Content check: 4 problems to correct/);
    expect(result.status).toBe(1);
    expect(result.seconds).toBeLessThan(15);
  });
});
