/**
 * The docs cannot rot: every relative link in README.md, CONTRIBUTING.md, docs/ and the folder
 * READMEs reaches a file or folder that exists (and its `#anchor`, a heading or an `<a id>`
 * there), and every repository path they name in running text or code (`src/server/cli.ts`,
 * `tests/unit/...`) exists. A moved file then fails here, naming the doc and the line, instead of
 * leaving a newcomer at a dead end.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';

/** The Markdown a reader follows: the guides and every README inside the repository's own folders. */
function docs(): string[] {
  const found = ['README.md', 'CONTRIBUTING.md'];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true })) {
      const child = `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (rel === 'docs' ? entry.name.endsWith('.md') : entry.name === 'README.md') found.push(child);
    }
  };
  for (const folder of ['docs', 'src', 'integrations', 'scripts', 'tests']) walk(folder);
  return found;
}

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const exists = (file: string) => fs.existsSync(path.join(ROOT, file));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** Every anchor a Markdown file offers: its headings (numbered like GitHub's when repeated) and its `<a id>`s. */
function anchorsOf(file: string): Set<string> {
  const text = read(file).replace(/^```[\s\S]*?^```/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(match[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of text.matchAll(/<a id="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

interface Line {
  readonly file: string;
  readonly number: number;
  readonly text: string;
  /** Inside a fenced code block. */
  readonly code: boolean;
}

function linesOf(file: string): Line[] {
  let code = false;
  return read(file)
    .split('\n')
    .map((text, i) => {
      if (/^\s*```/.test(text)) {
        code = !code;
        return { file, number: i + 1, text, code: true };
      }
      return { file, number: i + 1, text, code };
    });
}

const DOCS = docs();
const LINES = DOCS.flatMap(linesOf);

describe('the docs', () => {
  test('are found (README, CONTRIBUTING, the guides in docs/)', () => {
    expect(DOCS).toEqual(
      expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/requirements.md', 'docs/architecture.md']),
    );
  });

  test('every relative link reaches a file or folder, and its anchor', () => {
    const broken: string[] = [];
    for (const line of LINES) {
      if (line.code) continue;
      const text = line.text.replace(/`[^`]*`/g, '``');
      for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = match[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
        const [pathPart, anchor] = target.split('#') as [string, string | undefined];
        const resolved =
          pathPart === '' ? line.file : path.posix.normalize(path.posix.join(path.posix.dirname(line.file), decodeURI(pathPart)));
        const where = `${line.file}:${line.number}: ${target}`;
        if (resolved.startsWith('..') || !exists(resolved)) {
          broken.push(`${where} (no ${resolved})`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
          broken.push(`${where} (no #${anchor} in ${resolved})`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('every repository path they name exists', () => {
    // A path as text or code: `src/server/cli.ts`, scripts/start.mjs. Patterns ({slug}, **, *,
    // <name>, …) name no one file, and examples of a file to write (x.mdx, my-service.mdx) none yet.
    const PATH = /(?<![\w./@-])((?:src|tests|scripts|public|integrations|deploy|docs)\/[\w./[\]@-]*)/g;
    const missing: string[] = [];
    for (const line of LINES) {
      for (const match of line.text.matchAll(PATH)) {
        const end = match.index! + match[0].length;
        if (/^[{*<…]/.test(line.text.slice(end))) continue;
        const named = match[1]!.replace(/[.,:;)\]]+$/, '');
        if (/\/(x|my-[\w-]+)\.[\w.]+$/.test(named)) continue;
        if (!exists(named)) missing.push(`${line.file}:${line.number}: ${named}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('the README stays a front page: under 150 lines, with the map of every top folder and every src/ folder', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(150);
    const map = readme.slice(readme.indexOf('## Map of the repository'));
    const folders = (dir: string) =>
      fs
        .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && entry.name !== '.git')
        .map((entry) => (dir === '.' ? `${entry.name}/` : `${dir}/${entry.name}/`))
        // The repository's folders: those holding a file in git (not what a build or a test run left).
        .filter((folder) => execFileSync('git', ['ls-files', '--', folder], { cwd: ROOT, encoding: 'utf8' }).trim() !== '');
    for (const folder of [...folders('.'), ...folders('src')]) {
      expect(map, folder).toMatch(
        new RegExp(
          `^\\| \\[\`${folder.replace(/\./g, '\\.')}\`\\]\\(${folder.replace(/\./g, '\\.')}\\) \\|[^\\n]*\\]\\([^)]+\\) \\|$`,
          'm',
        ),
      );
    }
  });
});
