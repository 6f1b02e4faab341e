/**
 * The site's data files (src/data/*.yaml): each is read against its schema, and a malformed entry
 * is named by file, entry and field, with the field probably meant for a misspelled one. The
 * build runs the same check first (src/integrations/data-files.ts; tests/unit/malformed-content.test.ts
 * runs it on a copy of the project).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DataFileError, dataFileProblems, parseDataFile } from '../../src/data/data-file';
import {
  CAROUSELS_FILE,
  COMPANY_FILE,
  DATA_FILES,
  HOME_FILE,
  NAVIGATION_FILE,
  STANDARDS_FILE,
  carouselsFileSchema,
  companyFileSchema,
  homeFileSchema,
  navigationFileSchema,
  standardsFileSchema,
} from '../../src/data/schemas';
import { STANDARD_ENTRIES } from '../../src/data/standards';
import { NAVIGATION_ENTRIES } from '../../src/data/navigation';
import { ROOT } from '../helpers/content';
import { editEntry, entryName } from '../helpers/data-entries';

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const standardEntry = (id: string, named = id) => entryName(STANDARD_ENTRIES, id, named);
const menuEntry = (id: string, named = id) => entryName(NAVIGATION_ENTRIES, id, named);

/** The problems the file's text, edited, has, one line each: with their "line N: " when `lines`, else without. */
function problemsOf(
  file: string,
  schema: Parameters<typeof parseDataFile>[2],
  edit: (text: string) => string,
  lines = false,
): string[] {
  const text = read(file);
  const edited = edit(text);
  expect(edited, 'the edit applies').not.toBe(text);
  try {
    parseDataFile(file, edited, schema);
  } catch (error) {
    expect(error).toBeInstanceOf(DataFileError);
    expect((error as Error).message.split('\n')[0]).toBe(`${file} needs a correction:`);
    const problems = (error as DataFileError).problems;
    return lines ? [...problems] : problems.map((problem) => problem.replace(/^line \d+: /, ''));
  }
  return [];
}

/** The line (from 1) of `text` that `pattern` matches first. */
const lineOf = (text: string, pattern: RegExp): number => text.split('\n').findIndex((line) => pattern.test(line)) + 1;

describe('the data files as they are', () => {
  test('every one is well-formed', () => {
    expect(DATA_FILES.map(({ file }) => file)).toEqual([
      STANDARDS_FILE,
      NAVIGATION_FILE,
      COMPANY_FILE,
      CAROUSELS_FILE,
      HOME_FILE,
    ]);
    expect(dataFileProblems(ROOT)).toEqual([]);
  });
});

describe('the company, home and carousel files', () => {
  test("a misspelled field: named on its line in the file, whatever the file's lines are now", () => {
    const misspell = (t: string) => t.replace(/^email:/m, 'e-mail:');
    const line = lineOf(misspell(read(COMPANY_FILE)), /^e-mail:/);
    expect(line).toBeGreaterThan(0);
    expect(problemsOf(COMPANY_FILE, companyFileSchema, misspell, true)).toEqual([
      `line ${line}: field "e-mail" is not a field: did you mean "email"?`,
    ]);
  });

  test('an unquoted colon: the line and the value quoted, not the parser\'s "Nested mappings"', () => {
    const edit = (t: string) => t.replace(/^( {2}en:) "(.*)"$/m, '$1 Our mission: $2');
    const edited = edit(read(HOME_FILE));
    const line = lineOf(edited, /^ {2}en: Our mission: /);
    const [problem, ...more] = problemsOf(HOME_FILE, homeFileSchema, edit, true);
    expect(more).toEqual([]);
    expect(problem).toMatch(new RegExp(`^line ${line}: quote this value: "en" contains a colon .* Write en: "Our mission: `));
  });

  test('a misspelled field or a missing one: named by its path in the file', () => {
    expect(problemsOf(COMPANY_FILE, companyFileSchema, (t) => t.replace(/^email:/m, 'e-mail:'))).toEqual([
      'field "e-mail" is not a field: did you mean "email"?',
    ]);
    expect(problemsOf(HOME_FILE, homeFileSchema, (t) => t.replace(/^ {2}cta:\n {4}en: "Contact Us"\n {4}ar: .*\n/m, ''))).toEqual(
      ['field "customSolution.cta" is missing'],
    );
  });

  test('a carousel picture that is not in src/assets/: the build names the list, the entry and the path', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-data-'));
    for (const { file } of DATA_FILES) fs.cpSync(path.join(ROOT, file), path.join(root, file));
    fs.cpSync(path.join(ROOT, 'src/assets'), path.join(root, 'src/assets'), { recursive: true });
    // The last logo the file lists, whichever it is.
    const { clients } = parseDataFile(CAROUSELS_FILE, read(CAROUSELS_FILE), carouselsFileSchema);
    const logo = clients.at(-1)!.image;
    fs.rmSync(path.join(root, 'src/assets', logo));
    try {
      expect(dataFileProblems(root)).toEqual([
        `${CAROUSELS_FILE} needs a correction:\n  clients entry ${clients.length}, field "image" is "${logo}": no such file in src/assets/ (add the file, or correct the path; letter case counts)`,
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a malformed standard (src/data/standards.yaml)', () => {
  test('a misspelled field: names the entry and the field, with the one it probably means, and not also as missing', () => {
    const id = 'iso-iec-17020-2012';
    expect(
      problemsOf(STANDARDS_FILE, standardsFileSchema, (t) =>
        editEntry(t, id, (entry) => entry.replace(/^( {4})summary:/m, '$1sumary:')),
      ),
    ).toEqual([`${standardEntry(id)}, field "en.sumary" is not a field: did you mean "en.summary"?`]);
  });

  test('a value it does not accept, a missing title and a repeated id: each named, with what to write', () => {
    const [guidance, inspection] = ['iso-31000-2018', 'iso-iec-17020-2012'];
    const problems = problemsOf(STANDARDS_FILE, standardsFileSchema, (t) =>
      editEntry(
        editEntry(t, guidance, (entry) => entry.replace('kind: guidance', 'kind: guideline')),
        inspection,
        (entry) => entry.replace(/^ {4}title: .*\n/m, ''),
      ),
    );
    const kind = `${standardEntry(guidance)}, field "kind" is "guideline": `;
    expect(
      problems.find((problem) => problem.startsWith(kind)),
      problems.join('\n'),
    ).toMatch(/"guidance"/);
    expect(problems).toContainEqual(`${standardEntry(inspection)}, field "en.title" is missing`);
    // A repeated id, once each entry is well-formed: named where it repeats.
    expect(
      problemsOf(STANDARDS_FILE, standardsFileSchema, (t) => t.replace('- id: iso-59020-2024', '- id: iso-59010-2024')),
    ).toEqual([
      `${standardEntry('iso-59020-2024', 'iso-59010-2024')}, field "id" is "iso-59010-2024": another standard has this id: each id once`,
    ]);
  });

  test('broken YAML: names the line', () => {
    const problems = problemsOf(
      STANDARDS_FILE,
      standardsFileSchema,
      (t) => t.replace('  code: ISO 9001:2015\n', '  code: ISO 9001:2015\n   kind: x\n'),
      true,
    );
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(/^line \d+: .*check the indentation/);
  });
});

describe('a malformed menu entry (src/data/navigation.yaml)', () => {
  test('a missing English label: names the entry and the field', () => {
    expect(
      problemsOf(NAVIGATION_FILE, navigationFileSchema, (t) =>
        editEntry(t, 'about', (entry) => entry.replace(/^ {4}en: .*\n/m, '')),
      ),
    ).toEqual([`${menuEntry('about')}, field "label.en" is missing`]);
  });

  test('a misspelled field inside a group: names its path, with the one it probably means', () => {
    expect(
      problemsOf(NAVIGATION_FILE, navigationFileSchema, (t) =>
        // The group's first item's label.
        editEntry(t, 'ms-audits', (entry) => entry.replace(/^ {6}label:/m, '      lable:')),
      ),
    ).toEqual([`${menuEntry('ms-audits')}, field "items.0.lable" is not a field: did you mean "items.0.label"?`]);
  });

  test('an entry that is neither a link nor a group, and a top-level entry without an id', () => {
    const problems = problemsOf(NAVIGATION_FILE, navigationFileSchema, (t) =>
      editEntry(t.replace('- id: contact\n  href: /ContactUs\n', '- href: /ContactUs\n'), 'audit-assistance', (entry) =>
        entry.replace(/^ {4}- href: .*\n/m, '    - label2: x\n'),
      ),
    );
    const label2 = `${menuEntry('audit-assistance')}, field "items.0.label2" is not a field`;
    expect(
      problems.some((problem) => problem.startsWith(label2)),
      problems.join('\n'),
    ).toBe(true);
    expect(problems).toContainEqual(
      `${menuEntry('contact', '/ContactUs')}, field "id" is missing: give the entry a short id, unique in the file, e.g. "about"`,
    );
  });
});
