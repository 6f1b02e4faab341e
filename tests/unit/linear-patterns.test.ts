/**
 * Every regular expression that can meet a visitor's or a stranger's text runs in linear time.
 * The patterns are collected from the source (every regular-expression literal under the folders
 * below, found by TypeScript's parser), not listed by hand: a new one is checked the day it is
 * written. Each goes through the ReDoS checker `recheck`, then against long attack strings made
 * of its own characters, where a backtracking pattern takes seconds (the old phone pattern: 4.8 s
 * on 60,000 spaces).
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkSync } from 'recheck';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/frontmatter';

/** Where visitor input goes: the forms' rules (browser and receiver), the server, the islands. */
const FOLDERS = ['src/forms', 'src/server', 'src/components/islands', 'src/scripts'];

interface Found {
  readonly file: string;
  readonly line: number;
  readonly regex: RegExp;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

function collect(): Found[] {
  const found: Found[] = [];
  for (const file of FOLDERS.flatMap((folder) => sourceFiles(path.join(ROOT, folder)))) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(source);
        const end = text.lastIndexOf('/');
        found.push({
          file: path.relative(ROOT, file),
          line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
          regex: new RegExp(text.slice(1, end), text.slice(end + 1)),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

const patterns = collect();

test('the patterns are found in the source (the phone and e-mail checks among them)', () => {
  expect(patterns.length).toBeGreaterThan(40);
  expect(patterns.some((p) => p.file === path.join('src', 'forms', 'rules.ts') && p.regex.source.includes('ext'))).toBe(true);
  expect(patterns.some((p) => p.file.startsWith(path.join('src', 'server', 'receiver')))).toBe(true);
});

describe('no pattern backtracks: recheck finds each safe', () => {
  for (const { file, line, regex } of patterns) {
    test(`${file}:${line} ${regex}`, () => {
      const result = checkSync(regex.source, regex.flags);
      const attack = result.status === 'vulnerable' ? ` (attack: ${result.attack.pattern}, ${result.complexity.type})` : '';
      expect(`${result.status}${attack}`).toBe('safe');
    });
  }
});

/**
 * Attack strings of `length` made of a pattern's own characters, in the shapes that make a
 * backtracking pattern slow: one character repeated, a pair repeated, each followed by a
 * character that fails the match.
 */
function attacks(regex: RegExp, length: number): string[] {
  const chars = new Set<string>([' ', '\t', '1', 'a', '.', '@', '-', '/', '<', '#', 'x', '\n']);
  for (const c of regex.source.replace(/\\[pPuxk]\{?[^}\\]*\}?|\\./g, '')) if (c.charCodeAt(0) < 0x7f) chars.add(c);
  const list = [...chars];
  const out: string[] = [];
  for (const a of list) {
    out.push(`${a.repeat(length)}\u0000`);
    for (const b of [' ', '1', '.']) if (b !== a) out.push(`1${(a + b).repeat(length / 2)}\u0000`);
  }
  return out;
}

/** One run of the pattern over `text`, in milliseconds. */
function timeOnce(regex: RegExp, text: string): number {
  const copy = new RegExp(regex.source, regex.flags);
  const started = performance.now();
  if (copy.global) text.replace(copy, '');
  else copy.test(text);
  return performance.now() - started;
}

/** The fastest of three runs of the pattern over `text`, in milliseconds. */
function fastest(regex: RegExp, text: string): number {
  return Math.min(timeOnce(regex, text), timeOnce(regex, text), timeOnce(regex, text));
}

/**
 * How much longer the long text takes than the short one: the fastest of five runs of each,
 * taken in turns, so a moment when the machine is busy slows both alike.
 */
function growthOf(regex: RegExp, short: string, long: string): number {
  let shortBest = Number.POSITIVE_INFINITY;
  let longBest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    shortBest = Math.min(shortBest, timeOnce(regex, short));
    longBest = Math.min(longBest, timeOnce(regex, long));
  }
  return longBest / Math.max(1, shortBest);
}

describe('each pattern meets attack strings in linear time: four times the length, about four times the time', () => {
  for (const { file, line, regex } of patterns) {
    test(`${file}:${line} ${regex}`, () => {
      const short = attacks(regex, 25_000);
      const long = attacks(regex, 100_000);
      for (const [index, text] of long.entries()) {
        const time = fastest(regex, text);
        // Fast outright (a linear pattern takes a few milliseconds here, a quadratic one seconds);
        // else judged by growth, which a busy machine slows alike: linear 4x, quadratic 16x.
        if (time < 250) continue;
        const growth = growthOf(regex, short[index]!, text);
        expect(growth, `${JSON.stringify(text.slice(0, 12))}… took ${Math.round(time)} ms`).toBeLessThan(9);
      }
    });
  }
});
