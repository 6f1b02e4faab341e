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
    expect(output).toMatch(/description: at least 50 characters/);
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

  test('the untouched project syncs cleanly (the checks above fail for the edit alone)', () => {
    const { status, output } = sync(projectCopyWith(() => {}));
    expect(status, output).toBe(0);
  });
});
