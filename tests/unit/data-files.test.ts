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
import { DataFileError, parseDataFile } from '../../src/data/data-file';
import {
  CAROUSELS_FILE,
  COMPANY_FILE,
  DATA_FILES,
  HOME_FILE,
  NAVIGATION_FILE,
  STANDARDS_FILE,
  companyFileSchema,
  homeFileSchema,
  navigationFileSchema,
  standardsFileSchema,
} from '../../src/data/schemas';
import { dataFileProblems } from '../../src/integrations/data-files';
import { ROOT } from '../helpers/content';

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

/** The problems the file's text, edited, has: one line each. */
function problemsOf(file: string, schema: Parameters<typeof parseDataFile>[2], edit: (text: string) => string): string[] {
  const text = read(file);
  const edited = edit(text);
  expect(edited, 'the edit applies').not.toBe(text);
  try {
    parseDataFile(file, edited, schema);
  } catch (error) {
    expect(error).toBeInstanceOf(DataFileError);
    expect((error as Error).message.split('\n')[0]).toBe(`${file} needs a correction:`);
    return [...(error as DataFileError).problems];
  }
  return [];
}

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
    fs.rmSync(path.join(root, 'src/assets/clients/halvora-water.svg'));
    try {
      expect(dataFileProblems(root)).toEqual([
        `${CAROUSELS_FILE} needs a correction:\n  clients entry 4, field "image" is "clients/halvora-water.svg": no such file in src/assets/ (add the file, or correct the path; letter case counts)`,
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('a malformed standard (src/data/standards.yaml)', () => {
  test('a misspelled field: names the entry and the field, with the one it probably means, and not also as missing', () => {
    expect(
      problemsOf(STANDARDS_FILE, standardsFileSchema, (t) =>
        t.replace(/^( {4})summary: (Requirements for the competence of bodies)/m, '$1sumary: $2'),
      ),
    ).toEqual(['entry 2 (iso-iec-17020-2012), field "en.sumary" is not a field: did you mean "en.summary"?']);
  });

  test('a value it does not accept, a missing title and a repeated id: each named, with what to write', () => {
    const problems = problemsOf(STANDARDS_FILE, standardsFileSchema, (t) =>
      t.replace('kind: guidance', 'kind: guideline').replace(/^( {4})title: Inspection bodies\n/m, ''),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/^entry 8 \(iso-31000-2018\), field "kind" is "guideline": .*"guidance"/),
    );
    expect(problems).toContainEqual('entry 2 (iso-iec-17020-2012), field "en.title" is missing');
    // A repeated id, once each entry is well-formed.
    expect(
      problemsOf(STANDARDS_FILE, standardsFileSchema, (t) => t.replace('- id: iso-59020-2024', '- id: iso-59010-2024')),
    ).toEqual(['entry 11 (iso-59010-2024), field "id" is "iso-59010-2024": another standard has this id: each id once']);
  });

  test('broken YAML: names the line', () => {
    const problems = problemsOf(STANDARDS_FILE, standardsFileSchema, (t) =>
      t.replace('  code: ISO 9001:2015\n', '  code: ISO 9001:2015\n   kind: x\n'),
    );
    expect(problems.length).toBeGreaterThan(0);
    for (const problem of problems) expect(problem).toMatch(/^line \d+: .*check the indentation/);
  });
});

describe('a malformed menu entry (src/data/navigation.yaml)', () => {
  test('a missing English label: names the entry and the field', () => {
    expect(problemsOf(NAVIGATION_FILE, navigationFileSchema, (t) => t.replace(/^ {4}en: About Us\n/m, ''))).toEqual([
      'entry 1 (about), field "label.en" is missing',
    ]);
  });

  test('a misspelled field inside a group: names its path, with the one it probably means', () => {
    expect(
      problemsOf(NAVIGATION_FILE, navigationFileSchema, (t) =>
        t.replace('      label:\n        en: Vendor Assessment', '      lable:\n        en: Vendor Assessment'),
      ),
    ).toEqual(['entry 2 (ms-audits), field "items.0.lable" is not a field: did you mean "items.0.label"?']);
  });

  test('an entry that is neither a link nor a group, and a top-level entry without an id', () => {
    const problems = problemsOf(NAVIGATION_FILE, navigationFileSchema, (t) =>
      t
        .replace('- id: contact\n  href: /ContactUs\n', '- href: /ContactUs\n')
        .replace('    - href: /AuditAssistance/ISOInternalAudits\n', '    - label2: x\n'),
    );
    expect(problems).toContainEqual(
      expect.stringMatching(/^entry 6 \(audit-assistance\), field "items\.0\.label2" is not a field/),
    );
    expect(problems).toContainEqual(
      'entry 7 (/ContactUs), field "id" is missing: give the entry a short id, unique in the file, e.g. "about"',
    );
  });
});
