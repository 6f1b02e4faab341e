/**
 * docs/testing.md maps every section of docs/requirements.md to the tests that prove it: one row
 * for each section (a heading `## N.` or `### N.M`), in the requirements' order, linking the
 * section's anchor; each row names a test file or says there is no test yet; and every file under
 * tests/ it names exists. A new section without its row, or a test file moved or renamed, fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

const requirements = read('docs/requirements.md');
/** Every section's number, in order: "1", "1.1", ... "15". */
const sections = [...requirements.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? /gm)].map((m) => m[1]!);
const anchors = new Set([...requirements.matchAll(/<a id="(s\d+(?:-\d+)?)"><\/a>/g)].map((m) => m[1]!));

const map = read('docs/testing.md');
/** The map's rows: `| [7.2](requirements.md#s7-2) | Required fields | tests |`. */
const rows = [...map.matchAll(/^\| \[(\d+(?:\.\d+)?)\]\(requirements\.md#([\w-]+)\) \|[^|\n]*\|(.*)\|$/gm)].map((m) => ({
  section: m[1]!,
  anchor: m[2]!,
  tests: m[3]!,
}));
/** A test file as the map names it: `unit/forms.test.ts`, or in full, `tests/unit/forms.test.ts`. */
const FILE = /`(?:tests\/)?((?:unit|integration|e2e|helpers|fixtures)\/[\w.-]+\.ts)`/g;

describe('docs/testing.md, the map from the requirements to the tests', () => {
  test('the requirements have their sections (the tests below read them)', () => {
    expect(sections.length).toBeGreaterThan(50);
    expect(sections).toContain('8.4');
  });

  test('has one row for every section of docs/requirements.md, in its order, and no other', () => {
    expect(rows.map((row) => row.section)).toEqual(sections);
  });

  test("each row links its section's anchor", () => {
    const wrong = rows.filter((row) => row.anchor !== `s${row.section.replace('.', '-')}` || !anchors.has(row.anchor));
    expect(wrong.map((row) => `${row.section}: #${row.anchor}`)).toEqual([]);
  });

  test('each row names a test file, or says there is no test yet', () => {
    const empty = rows.filter((row) => ![...row.tests.matchAll(FILE)].length && !/no test yet/i.test(row.tests));
    expect(empty.map((row) => row.section)).toEqual([]);
  });

  test('every test file it names exists under tests/', () => {
    const named = [...new Set([...map.matchAll(FILE)].map((m) => m[1]!))];
    expect(named.length).toBeGreaterThan(40);
    expect(named.filter((file) => !fs.existsSync(path.join(ROOT, 'tests', file)))).toEqual([]);
  });
});
