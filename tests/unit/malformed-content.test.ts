/**
 * ARCHITECTURE invariant 5: a malformed content file fails the build, naming the file and the
 * field. Runs Astro's own content sync on a copy of the project with a broken file. A broken link,
 * found once the pages are built, and the quiet build's output: tests/unit/editor-edits.test.ts,
 * on the editor's built copy.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';
import { projectCopy } from '../helpers/project-copy';
import { editEntry, entryName } from '../helpers/data-entries';
import { STANDARD_ENTRIES } from '../../src/data/standards';
import { NAVIGATION_ENTRIES } from '../../src/data/navigation';

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

/** Edits the entry `id` of the data file `file` in the copy `dir`. */
function editEntryIn(dir: string, file: string, id: string, edit: (entry: string) => string) {
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  const edited = editEntry(text, id, edit);
  if (edited === text) throw new Error(`no entry ${id} to edit in ${file}`);
  fs.writeFileSync(path.join(dir, file), edited);
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
    expect(output).toMatch(/field "description" is "Too short": 9 characters, at least 50\b/);
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
    expect(output).toContain('field "shortDescripton" is not a field: did you mean "shortDescription"?');
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
    expect(output).toContain(`field "description": ${long.length} characters, at most 170`);
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
    expect(output).toMatch(/src\/data\/company\.yaml:\d+: phone is "013 812 3456": write it in international format/);
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
    const id = 'iso-iec-17020-2012';
    const dir = projectCopyWith((d) =>
      editEntryIn(d, 'src/data/standards.yaml', id, (entry) => entry.replace(/^( {4})summary:/m, '$1sumary:')),
    );
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/data/standards.yaml');
    expect(output).toContain(`${entryName(STANDARD_ENTRIES, id)}, field "en.sumary" is not a field: did you mean "en.summary"?`);
    expect(output).not.toMatch(/Stack trace|unhandled error|Unable to load/i);
  });

  test('a menu entry without its English label (src/data/navigation.yaml): names the file, the entry and the field', () => {
    const dir = projectCopyWith((d) =>
      editEntryIn(d, 'src/data/navigation.yaml', 'about', (entry) => entry.replace(/^ {4}en: .*\n/m, '')),
    );
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/data/navigation.yaml');
    expect(output).toContain(`${entryName(NAVIGATION_ENTRIES, 'about')}, field "label.en" is missing`);
    expect(output).not.toMatch(/Stack trace|unhandled error/i);
  });

  test('the untouched project syncs cleanly (the checks above fail for the edit alone)', () => {
    const { status, output } = sync(projectCopyWith(() => {}));
    expect(status, output).toBe(0);
  });
});
