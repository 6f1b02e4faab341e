/**
 * The content rules the build enforces, as pure functions over file text so unit tests run them without a build: front
 * matter and YAML entries against their collection's schema (src/lib/content-schemas.ts), each problem on its line in
 * the words of src/data/data-file.ts; a service's description at least SERVICE_MIN_WORDS long; an Arabic twin with its
 * English original's sections and facts; the terms of docs/glossary.md; every image a content file names. Plain Node,
 * no Astro imports: content-checks.ts runs it before Astro reads the content.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'astro/zod';
import { parse as parseYaml } from 'yaml';
import { lineFinder, nearestField, schemaIssues, unquotedColons } from '../data/data-file.ts';

/** One thing wrong in one file: `file:line: message` when printed. */
export interface ContentProblem {
  /** Relative to the project's root, with forward slashes. */
  readonly file: string;
  readonly line?: number | undefined;
  readonly message: string;
}

export const formatProblem = (problem: ContentProblem): string =>
  `${problem.file}${problem.line ? `:${problem.line}` : ''}: ${problem.message}`;

/** A service's description (the MDX body under the front matter) is at least this many words. */
export const SERVICE_MIN_WORDS = 100;

export const CONTENT_DIR = 'src/content';
const AR_CONTENT_DIR = 'src/content/ar';
/** The collections that have Arabic twins (the same relative paths under AR_CONTENT_DIR), by folder. */
const TWINNED_DIRS = ['services', 'pages'] as const;
/** Who does the work: one YAML file per entry, by folder; empty in the repository until the company supplies them. */
export const TRUST_DIRS = ['team', 'credentials', 'cases'] as const;
export type TrustDir = (typeof TRUST_DIRS)[number];

/** The front matter's lines (without the --- fences) and the body, with the line the body starts on. */
function splitSource(text: string): { frontmatter: string[]; body: string; bodyLine: number } {
  const lines = text.split(/\r?\n/);
  if (lines[0] !== '---') return { frontmatter: [], body: text, bodyLine: 1 };
  const end = lines.indexOf('---', 1);
  if (end < 0) return { frontmatter: lines.slice(1), body: '', bodyLine: lines.length + 1 };
  return { frontmatter: lines.slice(1, end), body: lines.slice(end + 1).join('\n'), bodyLine: end + 2 };
}

/** The front matter's mistakes, each on its line: against its collection's schema when given, else only values to quote. */
export function frontmatterProblems(file: string, text: string, schema?: z.ZodType): ContentProblem[] {
  const frontmatter = splitSource(text).frontmatter.join('\n');
  const issues = schema ? schemaIssues(schema, frontmatter) : unquotedColons(frontmatter);
  return issues.map(({ line, message }) => ({ file, line: line && line + 1, message }));
}

/** The words of an MDX body, not counting headings' hashes, list markers or components' tags. */
export function wordCount(body: string): number {
  const text = body
    .replace(/<[^>]+>/g, ' ')
    .replace(/^\s*(?:#{1,6}|[-*+]|\d+\.)\s+/gm, '')
    .replace(/[[\]()*_`]/g, ' ');
  return text.split(/\s+/).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** A service whose description is too short for its own page. */
export function serviceBodyProblems(file: string, text: string): ContentProblem[] {
  const words = wordCount(splitSource(text).body);
  if (words >= SERVICE_MIN_WORDS) return [];
  return [
    {
      file,
      message: `the service's description (the text under the front matter) is ${words} words, at least ${SERVICE_MIN_WORDS}: describe the service in full, as the others do`,
    },
  ];
}

/** A content file: its path and text. */
type Source = { readonly file: string; readonly text: string };

/** The body's headings, in order: their level and the line they are on. */
function headingsOf(text: string): { level: number; line: number; text: string }[] {
  const { body, bodyLine } = splitSource(text);
  const out: { level: number; line: number; text: string }[] = [];
  body.split('\n').forEach((line, i) => {
    const match = /^(#{2,6})\s+(.*)$/.exec(line);
    if (match) out.push({ level: match[1]!.length, line: bodyLine + i, text: match[2]!.trim() });
  });
  return out;
}

/** An Arabic twin whose sections differ from its English original's. */
export function twinSectionProblems(english: Source, arabic: Source): ContentProblem[] {
  const own = headingsOf(arabic.text);
  const original = headingsOf(english.text);
  const marks = (hs: { level: number }[]) => hs.map((h) => '#'.repeat(h.level)).join(' ') || 'none';
  if (marks(own) === marks(original)) return [];
  const i = own.findIndex((h, n) => h.level !== original[n]?.level);
  const at = i >= 0 ? own[i] : undefined;
  const where = at
    ? `section ${i + 1} is "${'#'.repeat(at.level)} ${at.text}", but the English twin's is ${original[i] ? `"${'#'.repeat(original[i]!.level)} ${original[i]!.text}"` : 'missing (it has fewer sections)'}`
    : `the English twin has more sections: "${'#'.repeat(original[own.length]!.level)} ${original[own.length]!.text}" is missing`;
  return [
    {
      file: arabic.file,
      line: at?.line,
      message: `its sections differ from its English twin ${english.file}: ${where}. A translation keeps the same headings at the same levels, in the same order (English: ${marks(original)}; here: ${marks(own)})`,
    },
  ];
}

/** Pages of one language sharing a description, or one collection's title: search results would show them as one. */
export function sameMetaProblems(sources: readonly Source[]): ContentProblem[] {
  const first = new Map<string, string>();
  return sources.flatMap(({ file, text }) => {
    const lines = splitSource(text).frontmatter;
    const data = (parseYaml(lines.join('\n')) as Record<string, unknown> | null) ?? {};
    return (['title', 'description'] as const).flatMap((field) => {
      const value = data[field];
      const at = lines.findIndex((line) => line.startsWith(`${field}:`));
      if (typeof value !== 'string' || !value.trim()) return [];
      const scope = field === 'title' ? path.posix.dirname(file) : file.startsWith(`${AR_CONTENT_DIR}/`) ? 'ar' : 'en';
      const key = `${scope}\n${field}\n${value.trim().toLowerCase()}`;
      const earlier = first.get(key);
      if (!earlier) first.set(key, file);
      const message = `its ${field} is the same as ${earlier}'s: write one of its own (search results show it)`;
      return earlier ? [{ file, line: at + 2, message }] : [];
    });
  });
}

/**
 * An Arabic twin whose facts differ from its English original's, each on its line: a service's order, a page's route and
 * standards, its courses and their levels, how a training runs. A twin may lack courses not yet translated, never add one.
 */
export function twinFactProblems(english: Source, arabic: Source): ContentProblem[] {
  type Facts = Record<string, unknown> & { standards?: string[]; courses?: { id?: string; level?: string }[] };
  const facts = (text: string): Facts => {
    try {
      return (parseYaml(splitSource(text).frontmatter.join('\n')) as Facts | null) ?? {};
    } catch {
      return {}; // frontmatterProblems names what YAML cannot read
    }
  };
  const [en, ar] = [facts(english.text), facts(arabic.text)];
  const lineOf = lineFinder(splitSource(arabic.text).frontmatter.join('\n'));
  const problems: ContentProblem[] = [];
  const say = (at: PropertyKey[], message: string) => {
    const line = lineOf(at);
    problems.push({ file: arabic.file, line: line && line + 1, message: `${message} (English twin: ${english.file})` });
  };
  const show = (value: unknown) => (Array.isArray(value) ? value.join(', ') : String(value));
  const get = (data: Facts, at: string[]) =>
    at.reduce<unknown>((o, key) => (o as Record<string, unknown> | undefined)?.[key], data);
  const runs = ar.course && en.course ? ['days', 'level', 'languages', 'delivery'].map((key) => ['course', key]) : [];
  for (const at of [['order'], ['route'], ...runs]) {
    const [mine, theirs] = [get(ar, at), get(en, at)];
    if (show(mine) !== show(theirs)) {
      say(at, `"${at.join('.')}" is ${show(mine)}, but the English twin's is ${show(theirs)}: a translation keeps it`);
    }
  }
  const [own, theirs] = [ar.standards ?? [], en.standards ?? []];
  if (own.join() !== theirs.join()) {
    const lacks = theirs.filter((id) => !own.includes(id));
    const extra = own.filter((id) => !theirs.includes(id));
    const what = [lacks.length > 0 && `lacks ${lacks.join(', ')}`, extra.length > 0 && `lists ${extra.join(', ')}`];
    say(
      ['standards'],
      `"standards" ${what.filter(Boolean).join(' and ') || 'is in another order'}: list the English twin's, in its order`,
    );
  }
  const ids = (en.courses ?? []).map((course) => course.id);
  (ar.courses ?? []).forEach((course, i) => {
    const j = ids.indexOf(course.id);
    if (j < 0)
      return say(['courses', i, 'id'], `course "${course.id}" is not in the English twin: add it there first, or correct the id`);
    // A level of the course's own on either side (the page's level is compared above).
    const [level, theirs] = [
      course.level ?? get(ar, ['course', 'level']),
      en.courses?.[j]?.level ?? get(en, ['course', 'level']),
    ];
    if ((course.level || en.courses?.[j]?.level) && level !== theirs) {
      say(
        ['courses', i, course.level ? 'level' : 'id'],
        `course "${course.id}" is ${show(level)}, but the English twin's is ${show(theirs)}`,
      );
    }
  });
  return problems;
}

/** Every `ext` file under `dir` (relative to `root`), as relative paths with forward slashes, sorted. */
export function listMdx(root: string, dir: string, ext = '.mdx'): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs
    .readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith(ext))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

/** Every `.yaml` entry in a trust collection's `dir`. */
export const listYaml = (root: string, dir: string): string[] => listMdx(root, dir, '.yaml');

/** The trust collections with no English entry: the build names them in one line, and the site shows none of their places. */
export function emptyTrustDirs(root: string): TrustDir[] {
  return TRUST_DIRS.filter((dir) => listYaml(root, `${CONTENT_DIR}/${dir}`).length === 0);
}

/** "team, credentials and cases have no entries yet …": the build's one line about empty trust collections. */
export function emptyTrustMessage(empty: readonly TrustDir[]): string | undefined {
  if (empty.length === 0) return undefined;
  const names = empty.length === 1 ? empty[0] : `${empty.slice(0, -1).join(', ')} and ${empty.at(-1)}`;
  const verb = empty.length === 1 ? 'has' : 'have';
  return `Trust content: ${names} ${verb} no entries yet, so no page, section or link shows them (docs/content.md#who-does-the-work)`;
}

/** A validity ending on `until` (its whole day) has passed at `now`: the pages mark it, the build warns. */
export const hasExpired = (until: Date, now: Date): boolean => until.getTime() + 86_400_000 <= now.getTime();

/** The Arabic twin's path of an English content file (src/content/services/x.mdx → src/content/ar/services/x.mdx). */
export const twinPath = (file: string): string => `${AR_CONTENT_DIR}/${file.slice(CONTENT_DIR.length + 1)}`;

/** English content files without an Arabic twin: the Arabic site shows them in English meanwhile. */
export function missingTwins(root: string): { english: string; arabic: string }[] {
  return [
    ...TWINNED_DIRS.flatMap((dir) => listMdx(root, `${CONTENT_DIR}/${dir}`)),
    ...TRUST_DIRS.flatMap((dir) => listYaml(root, `${CONTENT_DIR}/${dir}`)),
  ]
    .map((english) => ({ english, arabic: twinPath(english) }))
    .filter(({ arabic }) => !fs.existsSync(path.join(root, arabic)));
}

/** The Arabic addresses that show an English page until its twin is written: kept out of the sitemap. */
export function pendingArabicPaths(root: string): Set<string> {
  return new Set(
    missingTwins(root).flatMap(({ english }) => {
      const page = pageOfContent(english, fs.readFileSync(path.join(root, english), 'utf8'));
      return page ? [`/ar${page}`] : [];
    }),
  );
}

/** The schemas of the collections, by the folder under CONTENT_DIR (or AR_CONTENT_DIR) they read. */
type ContentSchemas = Readonly<Record<(typeof TWINNED_DIRS)[number] | TrustDir, z.ZodType>>;

const GLOSSARY = 'docs/glossary.md';

/** A glossary row: the term to use for an English idea, and the forms that drift from it. */
interface TermRule {
  readonly english: string;
  readonly use: string;
  readonly avoid: readonly string[];
}

/** The rows of the glossary's tables (English | Arabic | Not) with something under Not. */
export function glossaryRules(markdown: string): TermRule[] {
  return markdown.split('\n').flatMap((line) => {
    const cells = /^\|(.*)\|\s*$/
      .exec(line.trim())?.[1]
      ?.split('|')
      .map((cell) => cell.trim());
    const [english, use, not] = cells ?? [];
    if (cells?.length !== 3 || !english || !use || !not || not === 'Not' || /^-+$/.test(not)) return [];
    const avoid = not
      .split('،')
      .map((form) => form.trim())
      .filter(Boolean);
    return [{ english, use, avoid }];
  });
}

/** Each line of an Arabic file that uses a form the glossary says to avoid. */
export function termProblems(file: string, text: string, rules: readonly TermRule[]): ContentProblem[] {
  return text.split(/\r?\n/).flatMap((line, i) =>
    rules.flatMap((rule) => {
      // One problem per rule and line, naming the longest form found ("بفعالية", not also "فعالية").
      const form = rule.avoid.filter((f) => line.includes(f)).sort((a, b) => b.length - a.length)[0];
      if (!form) return [];
      const message = `«${form}» is not the glossary's term for "${rule.english}": write «${rule.use}» (${GLOSSARY})`;
      return [{ file, line: i + 1, message }];
    }),
  );
}

/** The Arabic interface strings, and the data files holding both languages, beside the Arabic content. */
function arabicSources(root: string): string[] {
  const dir = path.join(root, 'src/data');
  const data = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.yaml')) : [];
  return ['src/i18n/ar.ts', ...data.map((name) => `src/data/${name}`)].filter((file) => fs.existsSync(path.join(root, file)));
}

/** Every rule above over the project's content (with the schemas, when given); problems fail the build. */
export function contentProblems(root: string, schemas?: ContentSchemas): ContentProblem[] {
  const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
  const problems: ContentProblem[] = [];
  const files = [
    ...TWINNED_DIRS.flatMap((dir) => listMdx(root, `${CONTENT_DIR}/${dir}`)),
    ...TWINNED_DIRS.flatMap((dir) => listMdx(root, `${AR_CONTENT_DIR}/${dir}`)),
  ];
  for (const file of files) {
    const text = read(file);
    const schema = schemas?.[/^src\/content\/(?:ar\/)?services\//.test(file) ? 'services' : 'pages'];
    problems.push(...frontmatterProblems(file, text, schema));
    if (/^src\/content\/(ar\/)?services\//.test(file)) problems.push(...serviceBodyProblems(file, text));
    problems.push(...imageProblems(root, file, text));
  }
  const entries = TRUST_DIRS.flatMap((dir) =>
    [CONTENT_DIR, AR_CONTENT_DIR].flatMap((base) => listYaml(root, `${base}/${dir}`).map((file) => ({ file, dir }))),
  );
  for (const { file, dir } of entries) {
    const text = read(file);
    const issues = schemas ? schemaIssues(schemas[dir], text) : unquotedColons(text);
    problems.push(...issues.map((issue) => ({ file, ...issue })), ...imageProblems(root, file, text));
  }
  const glossary = path.join(root, GLOSSARY);
  const rules = fs.existsSync(glossary) ? glossaryRules(fs.readFileSync(glossary, 'utf8')) : [];
  const arabic = [...files, ...entries.map((entry) => entry.file)].filter((f) => f.startsWith(`${AR_CONTENT_DIR}/`));
  for (const file of [...arabic, ...arabicSources(root)]) {
    problems.push(...termProblems(file, read(file), rules));
  }
  // A twin is compared with an English file that is itself well-formed: one mistake, one message.
  const wrong = new Set(problems.map((problem) => problem.file));
  problems.push(...sameMetaProblems(files.filter((file) => !wrong.has(file)).map((file) => ({ file, text: read(file) }))));
  for (const dir of TWINNED_DIRS) {
    for (const english of listMdx(root, `${CONTENT_DIR}/${dir}`)) {
      const arabic = twinPath(english);
      if (!fs.existsSync(path.join(root, arabic)) || wrong.has(english)) continue;
      const pair = [
        { file: english, text: read(english) },
        { file: arabic, text: read(arabic) },
      ] as const;
      problems.push(...twinSectionProblems(...pair), ...twinFactProblems(...pair));
    }
    for (const arabic of listMdx(root, `${AR_CONTENT_DIR}/${dir}`)) {
      const english = `${CONTENT_DIR}/${arabic.slice(AR_CONTENT_DIR.length + 1)}`;
      if (fs.existsSync(path.join(root, english))) continue;
      const message = `has no English twin (${english}): a translation sits at its English original's path under ar/; move it there, or add the English file first`;
      problems.push({ file: arabic, message });
    }
  }
  return problems;
}

/** The pictures an editor can point at from content: by extension. */
const IMAGE = /\.(?:avif|gif|jpe?g|png|svg|webp)$/i;

/**
 * The images a content file names (`![alt](./x.png)`, `import x from './x.png'`, a YAML `src: "./x.jpg"`) that are not
 * there, each on its line, with the file probably meant. A path starting with "/" is in public/; any other, beside the file.
 */
export function imageProblems(root: string, file: string, text: string): ContentProblem[] {
  const problems: ContentProblem[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const refs = [
      ...[...line.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)/g)].map((m) => m[1]),
      ...[...line.matchAll(/^\s*import\s+\w+\s+from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]),
      ...[...line.matchAll(/^\s*(?:-\s+)?src:\s*["']?([^"'\s#]+)/g)].map((m) => m[1]),
    ];
    for (const ref of refs) {
      if (!ref || !IMAGE.test(ref) || /^[a-z]+:/i.test(ref)) continue;
      const target = ref.startsWith('/') ? path.join(root, 'public', ref) : path.join(root, path.dirname(file), ref);
      if (fs.existsSync(target)) continue;
      const folder = path.dirname(target);
      const there = fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => IMAGE.test(name)) : [];
      const near = nearestField(path.basename(ref), there);
      const where = path.relative(root, folder).split(path.sep).join('/') || '.';
      problems.push({
        file,
        line: i + 1,
        message: `the image "${ref}" is not there (${where}/)${near ? `: did you mean "${ref.includes('/') ? `${ref.slice(0, ref.lastIndexOf('/'))}/${near}` : near}"?` : ': add the file, or correct the name (letter case counts)'}`,
      });
    }
  });
  return problems;
}

/** The page an MDX file is served at (its English path; under /ar for a twin). */
export function pageOfContent(file: string, text: string): string | undefined {
  const arabic = file.startsWith(`${AR_CONTENT_DIR}/`);
  const prefix = arabic ? '/ar' : '';
  const rest = file.slice((arabic ? AR_CONTENT_DIR : CONTENT_DIR).length + 1);
  if (rest.startsWith('services/')) return `${prefix}/services/${path.posix.basename(rest, '.mdx')}`;
  const route = /^route:\s*["']?([^"'\s]+)["']?\s*$/m.exec(splitSource(text).frontmatter.join('\n'))?.[1];
  return route ? `${prefix}/${route}` : undefined;
}
