/**
 * Code and docs cite the project's own requirements, never an outside document or a tracker:
 * every section sign in src/, tests/ and scripts/ is part of a `docs/requirements.md §N.M`
 * citation of a section that exists (its anchor `#sN-M`), nothing cites the old specification's
 * numbering, and no issue number is left in the code or the docs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';

const SELF = 'tests/unit/requirement-citations.test.ts';
const TEXT = /\.(ts|tsx|mts|mjs|js|astro|css|md|mdx|gs|json|yml|yaml)$|\/_(redirects|headers)$/;

/** Every text file under the given folders (relative to the repository), skipping this one. */
function filesUnder(...folders: string[]): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    const full = path.join(ROOT, rel);
    if (!fs.existsSync(full)) return;
    if (fs.statSync(full).isFile()) {
      if (TEXT.test(rel) && rel !== SELF) out.push(rel);
      return;
    }
    for (const entry of fs.readdirSync(full)) walk(`${rel}/${entry}`);
  };
  for (const folder of folders) walk(folder);
  return out;
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
/** Each hit as `file:line: text`, for a failure that says where to look. */
function hits(files: string[], pattern: RegExp): string[] {
  const found: string[] = [];
  for (const file of files) {
    read(file)
      .split('\n')
      .forEach((line, i) => {
        if (pattern.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

const anchors = new Set([...read('docs/requirements.md').matchAll(/<a id="(s\d+(?:-\d+)?)"><\/a>/g)].map((m) => m[1]!));
const CODE = filesUnder('src', 'tests', 'scripts', 'integrations', 'public/_redirects', 'public/_headers');
const DOCS = ['README.md', 'CONTRIBUTING.md', ...filesUnder('docs', 'deploy')];
/** `docs/requirements.md §7.2` or a list after it: `docs/requirements.md §8.5, §8.4`. */
const CITATION = /docs\/requirements\.md §(\d+(?:\.\d+)?)((?:, §\d+(?:\.\d+)?)*)/g;

describe('requirement citations', () => {
  test('the requirements have their numbered anchors (the test below reads them)', () => {
    expect(anchors.has('s1')).toBe(true);
    expect(anchors.has('s8-4')).toBe(true);
  });

  test('nothing cites the old specification by its section numbers', () => {
    expect(hits([...CODE, ...DOCS], new RegExp(['spec', '§'].join('\\.? ?'), 'i'))).toEqual([]);
  });

  test('every section sign in the code is a citation of docs/requirements.md', () => {
    const stray = hits(CODE, /§/).filter((hit) => hit.replace(CITATION, '').includes('§'));
    expect(stray).toEqual([]);
  });

  test('every section the code cites exists in docs/requirements.md', () => {
    const missing: string[] = [];
    for (const file of CODE) {
      for (const match of read(file).matchAll(CITATION)) {
        const sections = [match[1]!, ...[...match[2]!.matchAll(/§(\d+(?:\.\d+)?)/g)].map((m) => m[1]!)];
        for (const section of sections) {
          if (!anchors.has(`s${section.replace('.', '-')}`)) missing.push(`${file}: §${section}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('issue numbers', () => {
  // "issue 17", "issues 8 and 17", "issue #26", "(#26)", "PR #3": a tracker's numbers mean nothing
  // to the next reader; the text says what the change is instead.
  const ISSUE = new RegExp(['\\bissues? #?\\d', '\\((?:see )?#\\d+\\)', '\\b(?:PR|pull request) #\\d'].join('|'), 'i');

  test("none in src/, scripts/, docs/, the guides and the tools' configuration", () => {
    const configs = ['astro.config.mjs', 'playwright.config.ts', 'vitest.config.ts', 'eslint.config.js', 'stylelint.config.js'];
    expect(hits([...filesUnder('src', 'scripts', 'integrations'), ...DOCS, ...configs], ISSUE)).toEqual([]);
  });

  test("none in the tests' own words (test data may still quote one)", () => {
    expect(hits(filesUnder('tests'), /\bissues? #?\d/i)).toEqual([]);
  });
});
