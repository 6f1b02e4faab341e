/**
 * The English site is spelled one way: US spelling ("organization", "program", "center", "license"),
 * the form most of its text already uses. A British form in the English content or the English
 * interface strings fails here, named with its file and line, so the pages do not mix the two.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** British forms and the US form to write instead. */
const BRITISH: ReadonlyArray<[RegExp, string]> = [
  [/\borganis(e|es|ed|ing|ation|ations|ational)\b/i, 'organiz…'],
  [/\bprogrammes?\b/i, 'program'],
  [/\blicences?\b/i, 'license'],
  [/\bcentres?\b/i, 'center'],
  [/\bbehaviours?\b/i, 'behavior'],
  [/\bcolours?\b/i, 'color'],
  [/\banalys(e|es|ed|ing)\b/i, 'analyz…'],
  [/\b(util|recogn|minim|optim|priorit|summar|standard|real)is(e|es|ed|ing|ation)\b/i, '…ize'],
  [/\blabours?\b/i, 'labor'],
  [/\bhonours?\b/i, 'honor'],
  [/\bfavour(s|able|ite)?\b/i, 'favor'],
];

function englishContentFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'ar' ? [] : englishContentFiles(full);
    return entry.name.endsWith('.mdx') || entry.name.endsWith('.md') ? [full] : [];
  });
}

/** Each British form on a line: "file:line: found (write …)". Keys of the strings module are skipped. */
function britishForms(file: string, text: string, isStrings: boolean): string[] {
  return text.split('\n').flatMap((raw, index) => {
    const line = isStrings ? raw.replace(/^\s*'[^']*':/, '') : raw;
    return BRITISH.flatMap(([form, write]) => {
      const found = form.exec(line);
      return found ? [`${path.relative(root, file)}:${index + 1}: "${found[0]}" (write ${write})`] : [];
    });
  });
}

describe('US spelling in the English site', () => {
  test('the English content pages and services use no British form', () => {
    const files = englishContentFiles(path.join(root, 'src/content'));
    expect(files.length).toBeGreaterThan(0);
    const found = files.flatMap((file) => britishForms(file, fs.readFileSync(file, 'utf8'), false));
    expect(found).toEqual([]);
  });

  test('the English interface strings use no British form (keys aside)', () => {
    const file = path.join(root, 'src/i18n/en.ts');
    expect(britishForms(file, fs.readFileSync(file, 'utf8'), true)).toEqual([]);
  });

  test('the English words of the data files use no British form (the Arabic ones aside)', () => {
    const dir = path.join(root, 'src/data');
    const files = fs.readdirSync(dir).filter((name) => /\.(ts|yaml)$/.test(name));
    expect(files).toContain('standards.yaml');
    const found = files.flatMap((name) => {
      const file = path.join(dir, name);
      // A side-by-side YAML entry's Arabic words sit under "ar:", indented below it.
      let arabicIndent = -1;
      const english = fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .map((line) => {
          const indent = line.length - line.trimStart().length;
          if (arabicIndent >= 0 && (indent > arabicIndent || !line.trim())) return '';
          arabicIndent = /^\s*ar:/.test(line) ? indent : -1;
          return arabicIndent >= 0 ? '' : line;
        })
        .join('\n');
      return britishForms(file, english, false);
    });
    expect(found).toEqual([]);
  });

  test('a British form is named with its file, line and the form to write', () => {
    const file = path.join(root, 'src/content/x.mdx');
    expect(britishForms(file, 'One line.\nOur programme helps the organisation.', false)).toEqual([
      'src/content/x.mdx:2: "organisation" (write organiz…)',
      'src/content/x.mdx:2: "programme" (write program)',
    ]);
  });
});
