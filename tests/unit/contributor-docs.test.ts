/**
 * The editor's and contributor's guides say what the code does: every setting the test and bench
 * scripts read is in CONTRIBUTING.md; docs/content.md names the markers that translation status
 * honours and the content rules' limits; the README's editing section points at the guide.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';
import { NO_TRANSLATION_MARKERS } from '../../scripts/translation-status.ts';
import { SERVICE_MIN_WORDS } from '../../src/integrations/content-rules';

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

describe('CONTRIBUTING.md', () => {
  test('names every environment variable the test, end-to-end and bench scripts read', () => {
    const contributing = read('CONTRIBUTING.md');
    const names = new Set<string>();
    for (const file of ['playwright.config.ts', 'scripts/test.mjs', 'scripts/bench.mjs', 'scripts/bench-static.mjs']) {
      for (const match of read(file).matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g))
        names.add(match[1] ?? match[2]!);
    }
    expect([...names]).toEqual(expect.arrayContaining(['E2E_PORT', 'E2E_SUBMISSIONS_DB', 'CHROMIUM_PATH']));
    for (const name of names) expect(contributing, name).toContain(`\`${name}\``);
  });
});

describe('docs/content.md', () => {
  const guide = read('docs/content.md');

  test('names the markers of a change that needs no translation', () => {
    for (const marker of NO_TRANSLATION_MARKERS) expect(guide).toContain(marker);
    expect(guide).toContain('Translation: none');
  });

  test('states the limits the build enforces', () => {
    expect(guide).toContain(`at least ${SERVICE_MIN_WORDS} words`);
    expect(guide).toContain('50 to 170 characters');
  });

  test("is where the README sends editors, beside the contributors' guide", () => {
    const readme = read('README.md');
    const readers = readme.slice(readme.indexOf('## Docs, by reader'), readme.indexOf('## Map of the repository'));
    expect(readers).toMatch(/^\| Change a text[^\n]*\]\(docs\/content\.md\) \|$/m);
    expect(readers).toContain('](CONTRIBUTING.md)');
  });
});
