/**
 * An editor's correct, documented edits never fail the checks (docs/content.md): on a copy of the
 * project with the edits of tests/helpers/editor-edits.ts (a 13th service, a course, a page and its
 * menu entry in English only, a new standard with and without its Arabic text, a rewritten
 * paragraph, the real phone number, a client's logo, a quality policy point in English only), the
 * unit tests that read the content pass, the content checks of the build warn of each translation
 * still to do without stopping, and translation status lists what is to translate and nothing
 * else. A misspelled field then stops the build, naming the file and the field.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';
import { projectCopy } from '../helpers/project-copy';
import { NEW_PAGE, NEW_SERVICE, UNTRANSLATED_STANDARD, applyEditorEdits } from '../helpers/editor-edits';
import { sideBySideStatuses } from '../../scripts/translation-status';

/** The unit tests that read the content and data (those that read the built site run after a build). */
const CONTENT_TESTS = [
  'catalogue',
  'content',
  'content-ar',
  'content-inventory',
  'content-rules',
  'data-ar',
  'i18n-site',
  'locale',
  'menu',
  'whole-names',
].map((name) => `tests/unit/${name}.test.ts`);

let dir = '';
const run = (command: string, args: string[]) => {
  const result = spawnSync(command, args, {
    cwd: dir,
    encoding: 'utf8',
    // Not this run's own vitest settings: the copy's run is a run of its own.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
      FORCE_COLOR: '0',
      NO_COLOR: '1',
    },
    timeout: 900_000,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
};

/** Commits the copy's files as they are, so translation status reads the edits as history. */
const commit = (message: string) => {
  for (const args of [
    ['add', '-A'],
    ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.com', 'commit', '-qm', message],
  ]) {
    expect(spawnSync('git', args, { cwd: dir, encoding: 'utf8' }).status).toBe(0);
  }
};

beforeAll(() => {
  dir = projectCopy('globaq-editor-', ['tests', 'vitest.config.ts']);
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n.astro\n');
  spawnSync('git', ['init', '-q'], { cwd: dir });
  commit('The site before the edits');
  applyEditorEdits(dir);
  commit('The editor’s edits');
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("an editor's documented edits, on a copy of the project", () => {
  test('the content checks of the build pass, with one warning line for each translation to do', () => {
    const { status, output } = run(path.join(ROOT, 'node_modules/.bin/astro'), ['sync']);
    expect(status, output).toBe(0);
    const warnings = output.split('\n').filter((line) => /\bWARN\b|\[WARN\]/.test(line));
    expect(
      warnings.some((line) => line.includes(`src/content/ar/services/${NEW_SERVICE}.mdx is missing`)),
      output,
    ).toBe(true);
    expect(warnings.some((line) => line.includes('src/content/ar/pages/audit-assistance/supplier-audits.mdx is missing'))).toBe(
      true,
    );
    expect(
      warnings.filter((line) => line.includes(`src/data/standards.yaml has no Arabic words (ar) for ${UNTRANSLATED_STANDARD}:`)),
    ).toHaveLength(1);
    expect(
      warnings.filter((line) =>
        line.includes(`src/data/navigation.yaml has no Arabic label (ar) for "Supplier Audits" (/${NEW_PAGE})`),
      ),
    ).toHaveLength(1);
    expect(
      warnings.filter((line) => line.includes('src/data/home.yaml has no Arabic words (ar) for qualityPolicy.5:')),
    ).toHaveLength(1);
    expect(warnings.filter((line) => /company\.yaml|carousels\.yaml/.test(line))).toEqual([]);
  }, 600_000);

  test('translation status lists the policy point to translate; the phone and the logo make nothing outdated', () => {
    const behind = sideBySideStatuses(dir, 'HEAD')
      .filter((pair) => pair.status !== 'up to date')
      .map((pair) => `${pair.status}: ${pair.english}`);
    expect(behind).toContain('missing: src/data/home.yaml text qualityPolicy.5');
    expect(behind.filter((line) => /company|carousels/.test(line))).toEqual([]);
  }, 300_000);

  test('the unit tests that read the content pass', () => {
    const { status, output } = run(path.join(ROOT, 'node_modules/.bin/vitest'), ['run', ...CONTENT_TESTS]);
    expect(status, output.slice(-6000)).toBe(0);
    expect(output).toMatch(/Test Files +\d+ passed/);
  }, 900_000);

  test('a misspelled field stops the build, naming the file, the field and the one meant', () => {
    const file = path.join(dir, 'src/data/home.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^mission:/m, 'misson:'));
    const { status, output } = run(path.join(ROOT, 'node_modules/.bin/astro'), ['sync']);
    expect(status).not.toBe(0);
    expect(output).toContain('src/data/home.yaml needs a correction:');
    expect(output).toContain('field "misson" is not a field: did you mean "mission"?');
    expect(output).not.toMatch(/Stack trace|unhandled error/i);
  }, 600_000);
});
