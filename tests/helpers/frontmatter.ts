/**
 * Reads content files' front matter as plain YAML, without Astro: for Playwright tests, which
 * cannot load astro:content. Unit tests validate the same files with the real schemas
 * (tests/helpers/content.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface RawEntry {
  /** File name without extension, as Astro's glob loader names it. */
  readonly id: string;
  readonly filePath: string;
  readonly frontmatter: Record<string, unknown>;
  readonly body: string;
}

function listMdx(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return listMdx(full);
    return d.name.endsWith('.mdx') ? [full] : [];
  });
}

export function splitFrontmatter(source: string): { frontmatter: Record<string, unknown>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(source);
  if (!match) throw new Error('no front matter');
  return { frontmatter: parseYaml(match[1] ?? '') as Record<string, unknown>, body: match[2] ?? '' };
}

/** Every MDX file under src/content/{dir}. */
export function readContentDir(dir: string): RawEntry[] {
  return listMdx(path.join(ROOT, 'src/content', dir)).map((file) => {
    const { frontmatter, body } = splitFrontmatter(fs.readFileSync(file, 'utf8'));
    return { id: path.basename(file, '.mdx'), filePath: path.relative(ROOT, file), frontmatter, body };
  });
}
