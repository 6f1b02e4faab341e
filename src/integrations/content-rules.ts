/**
 * The content rules the build enforces beyond each entry's schema (src/content.config.ts), as
 * pure functions over file text, so unit tests run them without a build:
 *
 * - a front matter value with a colon in it is quoted (YAML would otherwise stop the build with
 *   "bad indentation of a mapping entry" and a stack trace that names neither cause nor cure);
 * - a service's description (its MDX body) has at least SERVICE_MIN_WORDS words;
 * - an Arabic twin has the same sections (##, ### … headings, in the same order) as its English
 *   original;
 * - the front matter matches its collection's schema (src/lib/content-schemas.ts, handed in by
 *   the integration): checked here first to name the line, and a misspelled field with the field
 *   it probably means;
 * - the Arabic content and strings use the terms of docs/glossary.md, not the forms it lists to
 *   avoid;
 * - every image a content file names is there (Astro would name the module chain, not the line);
 * - every internal link and #anchor in content and data reaches a page and an id that the built
 *   site has.
 *
 * Each problem names the file and the line or field, and says what to do. Plain Node, no Astro
 * imports: the integration (content-checks.ts) runs it before Astro reads the content.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

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

/** Where the content lives, relative to the project's root. */
export const CONTENT_DIR = 'src/content';
/** The Arabic twins: the same relative paths under here. */
export const AR_CONTENT_DIR = 'src/content/ar';
/** The collections that have twins, by folder under CONTENT_DIR. */
export const TWINNED_DIRS = ['services', 'pages'] as const;
/**
 * Who does the work: one YAML file per entry, by folder under CONTENT_DIR, with Arabic twins at
 * the same paths under AR_CONTENT_DIR. Empty in the repository until the company supplies them.
 */
export const TRUST_DIRS = ['team', 'credentials', 'cases'] as const;
export type TrustDir = (typeof TRUST_DIRS)[number];

/** The front matter's lines (without the --- fences) and the body, with the line the body starts on. */
export function splitSource(text: string): { frontmatter: string[]; body: string; bodyLine: number } {
  const lines = text.split(/\r?\n/);
  if (lines[0] !== '---') return { frontmatter: [], body: text, bodyLine: 1 };
  const end = lines.indexOf('---', 1);
  if (end < 0) return { frontmatter: lines.slice(1), body: '', bodyLine: lines.length + 1 };
  return { frontmatter: lines.slice(1, end), body: lines.slice(end + 1).join('\n'), bodyLine: end + 2 };
}

/**
 * Front matter values YAML cannot read as the editor meant: an unquoted value holding ": " (or
 * ending in ":") is read as a second key and fails the whole file. Names the line and the cure.
 */
export function frontmatterProblems(file: string, text: string): ContentProblem[] {
  const problems: ContentProblem[] = [];
  splitSource(text).frontmatter.forEach((line, i) => {
    const match = /^(\s*(?:-\s+)?)([A-Za-z_][\w-]*):[ \t]+(\S.*)$/.exec(line);
    if (!match) return;
    const [, , key, value = ''] = match;
    // Quoted, block (| >), flow ([ {), anchors and aliases are YAML's own business.
    if (/^["'|>[{&*!]/.test(value)) return;
    const plain = value.replace(/\s+#.*$/, '');
    if (/:(\s|$)/.test(plain)) {
      problems.push({
        file,
        line: i + 2,
        message: `quote this value: "${key}" contains a colon followed by a space, which YAML reads as a new field. Write ${key}: "${plain.replace(/"/g, '\\"')}"`,
      });
    }
  });
  return problems;
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

/** The body's headings, in order: their level and the line they are on. */
export function headingsOf(text: string): { level: number; line: number; text: string }[] {
  const { body, bodyLine } = splitSource(text);
  const out: { level: number; line: number; text: string }[] = [];
  body.split('\n').forEach((line, i) => {
    const match = /^(#{2,6})\s+(.*)$/.exec(line);
    if (match) out.push({ level: match[1]!.length, line: bodyLine + i, text: match[2]!.trim() });
  });
  return out;
}

/** An Arabic twin whose sections differ from its English original's. */
export function twinSectionProblems(
  english: { file: string; text: string },
  arabic: { file: string; text: string },
): ContentProblem[] {
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

/** Every `.mdx` file under `dir` (relative to `root`), as relative paths with forward slashes, sorted. */
export function listMdx(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs
    .readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && d.name.endsWith('.mdx'))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
}

/** Every `.yaml` entry directly in `dir` (relative to `root`), as relative paths with forward slashes, sorted. */
export function listYaml(root: string, dir: string): string[] {
  const full = path.join(root, dir);
  if (!fs.existsSync(full)) return [];
  return fs
    .readdirSync(full, { withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.yaml'))
    .map((d) => `${dir}/${d.name}`)
    .sort();
}

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

/**
 * The Arabic addresses that show an English page until its twin is written (/ar/services/x,
 * /ar/AboutUs): kept out of the sitemap, since search engines are sent to the English page.
 */
export function pendingArabicPaths(root: string): Set<string> {
  return new Set(
    missingTwins(root).flatMap(({ english }) => {
      const page = pageOfContent(english, fs.readFileSync(path.join(root, english), 'utf8'));
      return page ? [`/ar${page}`] : [];
    }),
  );
}

/** The part of a Zod object schema the check uses: its fields, and its parse. */
export interface ContentSchema {
  readonly shape: Readonly<Record<string, unknown>>;
  safeParse(data: unknown): {
    success: boolean;
    error?: { issues: readonly { code: string; path: readonly PropertyKey[]; message: string; keys?: string[] }[] };
  };
}

/** The schemas of the collections, by the folder under CONTENT_DIR (or AR_CONTENT_DIR) they read. */
export type ContentSchemas = Readonly<Record<(typeof TWINNED_DIRS)[number], ContentSchema>> &
  Partial<Readonly<Record<TrustDir, ContentSchema>>>;

/**
 * A YAML entry's problems, as for an MDX file's front matter (a colon to quote, the schema's
 * fields), on the lines of the YAML file itself.
 */
export function yamlProblems(file: string, text: string, schema: ContentSchema | undefined): ContentProblem[] {
  const asFrontmatter = `---\n${text.replace(/\r?\n$/, '')}\n---\n`;
  return [...frontmatterProblems(file, asFrontmatter), ...(schema ? schemaProblems(file, asFrontmatter, schema) : [])].map(
    (problem) => (problem.line ? { ...problem, line: problem.line - 1 } : problem),
  );
}

/** How many single-letter edits turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/** The field a misspelled one probably means: the nearest, within a third of its letters. */
export function nearestField(name: string, fields: readonly string[]): string | undefined {
  const ranked = fields
    .map((field) => ({ field, distance: editDistance(name.toLowerCase(), field.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance);
  const best = ranked[0];
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.field : undefined;
}

/**
 * The fields of the object at `at` inside a schema (a course in `courses`, `course`): Zod's
 * optional, nullable, default and array wrappers looked through. None when it cannot tell.
 */
export function fieldsAt(schema: ContentSchema, at: readonly PropertyKey[]): string[] {
  type Node = { shape?: Record<string, unknown>; def?: { innerType?: unknown; element?: unknown; shape?: unknown } };
  const unwrap = (node: unknown): Node | undefined => {
    let current = node as Node | undefined;
    for (let i = 0; i < 10 && current; i++) {
      const def = (current as { def?: Node['def'] }).def;
      const inner = def?.innerType ?? def?.element;
      if (current.shape && !inner) return current;
      if (!inner) return current;
      current = inner as Node;
    }
    return current;
  };
  let node: Node | undefined = schema as Node;
  for (const key of at) {
    if (typeof key === 'number' || /^\d+$/.test(String(key))) continue;
    node = unwrap(unwrap(node)?.shape?.[String(key)]);
  }
  node = unwrap(node);
  return node?.shape ? Object.keys(node.shape) : [];
}

/**
 * The front matter's mistakes against its schema, each on the line of its field: a field the
 * schema does not have (with the one it probably means), a missing one, a wrong value. Nothing
 * when the front matter is not YAML (frontmatterProblems and Astro say why).
 */
export function schemaProblems(file: string, text: string, schema: ContentSchema): ContentProblem[] {
  const lines = splitSource(text).frontmatter;
  let data: unknown;
  try {
    data = parseYaml(lines.join('\n')) ?? {};
  } catch {
    return [];
  }
  const result = schema.safeParse(data);
  if (result.success || !result.error) return [];
  const fields = Object.keys(schema.shape);
  const lineOf = (field: PropertyKey | undefined) => {
    const at = lines.findIndex((line) => line.startsWith(`${String(field)}:`));
    return at >= 0 ? at + 2 : undefined;
  };
  // A nested field's line: the first line that names it, indented or as a list item's first field.
  const nestedLineOf = (key: string) => {
    const at = lines.findIndex((line) => new RegExp(`^\\s*(?:-\\s+)?${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:`).test(line));
    return at >= 0 ? at + 2 : undefined;
  };
  // What was meant, by the path of its object ("" at the top, "courses.0" in a course).
  const meant = new Set<string>();
  const problems: ContentProblem[] = [];
  for (const issue of result.error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const at = issue.path.map(String).join('.');
    const known = issue.path.length === 0 ? fields : fieldsAt(schema, issue.path);
    for (const key of issue.keys ?? []) {
      const near = nearestField(key, known);
      if (near) meant.add(at ? `${at}.${near}` : near);
      const name = at ? `${at}.${key}` : key;
      const message = near
        ? `"${name}" is not a field: did you mean "${at ? `${at}.${near}` : near}"?`
        : `"${name}" is not a field (the fields are ${known.join(', ')})`;
      problems.push({ file, line: issue.path.length === 0 ? lineOf(key) : nestedLineOf(key), message });
    }
  }
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') continue;
    const [field] = issue.path;
    const where = issue.path.map(String).join('.');
    const value = issue.path.reduce<unknown>(
      (object, key) => (object && typeof object === 'object' ? (object as Record<PropertyKey, unknown>)[key] : undefined),
      data,
    );
    const missing = value === undefined;
    if (missing && meant.has(where)) continue;
    problems.push({
      file,
      line: lineOf(field),
      message: missing ? `"${where}" is missing` : `${where}: ${issue.message}`,
    });
  }
  return problems;
}

/** The Arabic glossary: its rows with forms to avoid are checked (termProblems). */
export const GLOSSARY = 'docs/glossary.md';

/** A glossary row: the term to use for an English idea, and the forms that drift from it. */
export interface TermRule {
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

/** The Arabic interface strings and data (src/data/ar, and the data files holding both languages), beside the Arabic content. */
function arabicSources(root: string): string[] {
  const data = path.join(root, 'src/data/ar');
  const sideBySide = fs.existsSync(path.join(root, 'src/data'))
    ? fs
        .readdirSync(path.join(root, 'src/data'))
        .filter((name) => name.endsWith('.yaml'))
        .map((name) => `src/data/${name}`)
    : [];
  return [
    'src/i18n/ar.ts',
    ...(fs.existsSync(data) ? fs.readdirSync(data).map((name) => `src/data/ar/${name}`) : []),
    ...sideBySide,
  ].filter((file) => fs.existsSync(path.join(root, file)));
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
    problems.push(...frontmatterProblems(file, text));
    const schema = schemas?.[/^src\/content\/(?:ar\/)?services\//.test(file) ? 'services' : 'pages'];
    if (schema) problems.push(...schemaProblems(file, text, schema));
    if (/^src\/content\/(ar\/)?services\//.test(file)) problems.push(...serviceBodyProblems(file, text));
    problems.push(...imageProblems(root, file, text));
  }
  const entries = TRUST_DIRS.flatMap((dir) =>
    [CONTENT_DIR, AR_CONTENT_DIR].flatMap((base) => listYaml(root, `${base}/${dir}`).map((file) => ({ file, dir }))),
  );
  for (const { file, dir } of entries) {
    problems.push(...yamlProblems(file, read(file), schemas?.[dir]), ...imageProblems(root, file, read(file)));
  }
  const glossary = path.join(root, GLOSSARY);
  const rules = fs.existsSync(glossary) ? glossaryRules(fs.readFileSync(glossary, 'utf8')) : [];
  const arabic = [...files, ...entries.map((entry) => entry.file)].filter((f) => f.startsWith(`${AR_CONTENT_DIR}/`));
  for (const file of [...arabic, ...arabicSources(root)]) {
    problems.push(...termProblems(file, read(file), rules));
  }
  for (const dir of TWINNED_DIRS) {
    for (const english of listMdx(root, `${CONTENT_DIR}/${dir}`)) {
      const arabic = twinPath(english);
      if (!fs.existsSync(path.join(root, arabic))) continue;
      problems.push(...twinSectionProblems({ file: english, text: read(english) }, { file: arabic, text: read(arabic) }));
    }
  }
  return problems;
}

/** The pictures an editor can point at from content: by extension. */
const IMAGE = /\.(?:avif|gif|jpe?g|png|svg|webp)$/i;

/**
 * The images a content file names (`![alt](./x.png)`, `import x from './x.png'`, a YAML
 * `src: "./x.jpg"`) that are not there, each on its line, with the file probably meant. A path
 * starting with "/" is a file in public/; any other, beside the content file.
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

// ---------------------------------------------------------------------------------------------
// Internal links

/** An internal link as written in a source file. */
export interface SourceLink {
  readonly file: string;
  readonly line: number;
  /** As written: "/Trainings/OtherTrainings#six-sigma", "#overview". */
  readonly href: string;
  /** The page the link sits on, for links to an anchor on the same page ("#overview"). */
  readonly page?: string | undefined;
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

/** Internal links in MDX: Markdown links and href attributes whose target starts with "/" or "#". */
export function linksInContent(file: string, text: string): SourceLink[] {
  const page = pageOfContent(file, text);
  const links: SourceLink[] = [];
  text.split('\n').forEach((line, i) => {
    for (const match of line.matchAll(/\]\(\s*<?([/#][^)\s>]*)>?(?:\s+"[^"]*")?\s*\)|\bhref=["']([/#][^"']*)["']/g)) {
      const href = match[1] ?? match[2];
      if (href && !href.startsWith('//')) links.push({ file, line: i + 1, href, page });
    }
  });
  return links;
}

/**
 * Internal links in data: in a module, string literals that are site paths ('/AboutUs',
 * "/ContactUs#form"); in a YAML data file, the values of `href:` and `page:`.
 */
export function linksInData(file: string, text: string): SourceLink[] {
  const links: SourceLink[] = [];
  if (file.endsWith('.yaml')) {
    text.split('\n').forEach((line, i) => {
      const href = /^\s*(?:-\s+)?(?:href|page):\s*["']?(\/[^\s"'#]*(?:#[\w-]+)?)["']?\s*$/.exec(line)?.[1];
      if (href) links.push({ file, line: i + 1, href });
    });
    return links;
  }
  text.split('\n').forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    for (const match of line.matchAll(/(['"`])(\/(?:[A-Za-z0-9][\w./-]*)?(?:#[\w-]+)?)\1/g)) {
      links.push({ file, line: i + 1, href: match[2]! });
    }
  });
  return links;
}

/** Every internal link in the project's content (src/content) and data (src/data). */
export function sourceLinks(root: string): SourceLink[] {
  const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
  const data = fs
    .readdirSync(path.join(root, 'src/data'), { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && /\.(ts|js|mjs|json|yaml)$/.test(d.name))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
  return [
    ...listMdx(root, CONTENT_DIR).flatMap((file) => linksInContent(file, read(file))),
    ...data.flatMap((file) => linksInData(file, read(file))),
  ];
}

/** The built site as links see it: each page's path and the ids on it. */
export type BuiltSite = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * The pages and ids of a static build (dist/client): AboutUs.html is /AboutUs, index.html is /,
 * ar.html is /ar; the host's 200 rewrites in _redirects (/Aboutus → /AboutUs) count as pages.
 */
export function readBuiltSite(dir: string): BuiltSite {
  const site = new Map<string, Set<string>>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    const html = fs.readFileSync(path.join(dir, rel), 'utf8');
    const ids = new Set([...html.matchAll(/\sid=["']?([^"'\s>]+)/g)].map((m) => m[1]!));
    const page = rel === 'index.html' ? '/' : `/${rel.replace(/(\/index)?\.html$/, '')}`;
    site.set(page, ids);
  }
  const redirects = path.join(dir, '_redirects');
  if (fs.existsSync(redirects)) {
    for (const line of fs.readFileSync(redirects, 'utf8').split('\n')) {
      const [from, to, status] = line.trim().split(/\s+/);
      if (status === '200' && from && to && !from.includes('*') && site.has(to)) site.set(from, site.get(to)!);
    }
  }
  return site;
}

/** Files that are not pages (/favicon.ico, /og/x.png) exist when the build wrote them. */
function isAsset(pathname: string): boolean {
  return /\.[a-z0-9]+$/i.test(pathname) && !pathname.endsWith('.html');
}

/** Links whose page or anchor the built site lacks, each naming the file and line that holds it. */
export function brokenLinks(
  links: readonly SourceLink[],
  site: BuiltSite,
  assetExists: (pathname: string) => boolean = () => true,
): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const link of links) {
    const [target = '', anchor] = link.href.split('#') as [string, string | undefined];
    const pathname = target === '' ? link.page : target.replace(/\?.*$/, '').replace(/\/$/, '') || '/';
    if (pathname === undefined) continue;
    if (isAsset(pathname)) {
      if (!assetExists(pathname))
        problems.push({
          file: link.file,
          line: link.line,
          message: `the link "${link.href}" goes to no file of the site: check the spelling`,
        });
      continue;
    }
    const ids = site.get(pathname);
    if (!ids) {
      const near = [...site.keys()].find((p) => p.toLowerCase() === pathname.toLowerCase());
      problems.push({
        file: link.file,
        line: link.line,
        message: `the link "${link.href}" goes to no page of the site${near ? `: did you mean "${near}"? (paths are case-sensitive)` : ": check the path against the page's route (its front matter) or the menu (src/data/navigation.yaml)"}`,
      });
    } else if (anchor && !ids.has(anchor)) {
      problems.push({
        file: link.file,
        line: link.line,
        message: `the link "${link.href}" goes to an anchor that page ${pathname} does not have: "#${anchor}" matches no heading, course or standard id there`,
      });
    }
  }
  return problems;
}
