/**
 * ARCHITECTURE invariant 5: a malformed content file fails the build, naming the file and the
 * field. Runs Astro's own content sync on a copy of the project with a broken file.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';

const copies: string[] = [];

function projectCopyWith(edit: (dir: string) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-content-'));
  copies.push(dir);
  for (const name of ['src', 'public', 'scripts', 'astro.config.mjs', 'package.json', 'tsconfig.json']) {
    fs.cpSync(path.join(ROOT, name), path.join(dir, name), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  edit(dir);
  return dir;
}

function sync(dir: string) {
  const result = spawnSync(path.join(ROOT, 'node_modules/.bin/astro'), ['sync'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
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
    const dir = projectCopyWith((d) => replaceIn(path.join(d, 'src/content/services/ai-solutions.mdx'), /^description: .*$/m, 'description: "Too short"'));
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

  test('a page listing an unknown standard: names the file and the field', () => {
    const dir = projectCopyWith((d) => replaceIn(path.join(d, 'src/content/pages/iso-consultancy.mdx'), /- iso-9001-2015/, '- iso-9999-2030'));
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/content/pages/iso-consultancy.mdx');
    expect(output).toMatch(/standards\.\d+/);
  });

  test('an Arabic page (src/content/ar, issue 17) whose lead is missing: names the file and the field, as the English schema does', () => {
    const dir = projectCopyWith((d) => replaceIn(path.join(d, 'src/content/ar/pages/iso-consultancy.mdx'), /^lead: .*\n/m, ''));
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/content/ar/pages/iso-consultancy.mdx');
    expect(output).toMatch(/\blead\b/);
  });

  test('a description over the limit: says how long it is and the limit ("227 characters, at most 170")', () => {
    const long = 'A description that goes on and on. '.repeat(6).trim();
    const dir = projectCopyWith((d) => replaceIn(path.join(d, 'src/content/services/ai-solutions.mdx'), /^description: .*$/m, `description: "${long}"`));
    const { status, output } = sync(dir);
    expect(status).not.toBe(0);
    expect(output).toContain('src/content/services/ai-solutions.mdx');
    expect(output).toContain(`description: ${long.length} characters, at most 170`);
  });

  test('a colon in an unquoted value: names the file and the line, and says to quote the value', () => {
    const file = 'src/content/services/ai-solutions.mdx';
    const dir = projectCopyWith((d) =>
      replaceIn(path.join(d, file), /^description: .*$/m, 'description: AI solutions by Globaq: on-site assessments, roadmaps and training for your teams'),
    );
    const line = fs.readFileSync(path.join(dir, file), 'utf8').split('\n').findIndex((l) => l.startsWith('description:')) + 1;
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

  test('the untouched project syncs cleanly (the checks above fail for the edit alone)', () => {
    const { status, output } = sync(projectCopyWith(() => {}));
    expect(status, output).toBe(0);
  });
});

function build(dir: string) {
  const result = spawnSync(path.join(ROOT, 'node_modules/.bin/astro'), ['build'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe('the whole build, on a copy (one build: a minute or two)', () => {
  test('a broken internal link in an MDX file fails the build, naming the file, the line and the link', { timeout: 600_000 }, () => {
    const file = 'src/content/services/trainings.mdx';
    let line = 0;
    const dir = projectCopyWith((d) => {
      const text = fs.readFileSync(path.join(d, file), 'utf8');
      fs.writeFileSync(path.join(d, file), `${text.trimEnd()}\n\nSee [our ISO trainings](/Trainings/ISOTraining) for the programme.\n`);
      line = fs.readFileSync(path.join(d, file), 'utf8').trimEnd().split('\n').length;
    });
    const { status, output } = build(dir);
    expect(status, output).not.toBe(0);
    expect(output).toContain(`${file}:${line}: the link "/Trainings/ISOTraining" goes to no page of the site`);
  });
});
