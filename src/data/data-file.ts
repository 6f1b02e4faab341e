/**
 * Reads a data file (src/data/*.yaml) and checks it against the Zod schema its content collection uses. A malformed
 * entry stops with one line per problem naming the file's line, the entry and the field, with "did you mean" for a
 * misspelled field; the content checks word Zod's issues the same way (schemaIssues). Pure Node, no Astro imports: the
 * build, the pages, the server's mail templates, the scripts and the tests all read the files the same way.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LineCounter, isMap, parseDocument, type Document } from 'yaml';
import type { z } from 'astro/zod';
import { CAROUSELS_FILE, DATA_FILES, type CarouselsFile } from './schemas.ts';

/** A data file that cannot be read as its schema says: each line names the file, the entry and the field. */
export class DataFileError extends Error {
  readonly problems: readonly string[];
  constructor(file: string, problems: readonly string[]) {
    super(`${file} needs a correction:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'DataFileError';
    this.problems = problems;
  }
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

/** The name a misspelled one probably means (a field, a value, a file, a path): the nearest, within a third of its letters. */
export function nearestField(name: string, fields: readonly string[]): string | undefined {
  const ranked = fields
    .map((field) => ({ field, distance: editDistance(name.toLowerCase(), field.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance);
  const best = ranked[0];
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.field : undefined;
}

/** The fields of the object at `at` in a schema, through optional, nullable, default and array wrappers; none when unsure. */
function fieldsAt(schema: unknown, at: readonly PropertyKey[]): string[] {
  type Node = { shape?: Record<string, unknown>; def?: { innerType?: unknown; element?: unknown } };
  const unwrap = (node: unknown): Node | undefined => {
    let current = node as Node | undefined;
    for (let i = 0; i < 10 && current; i++) {
      const inner = current.def?.innerType ?? current.def?.element;
      if (!inner) return current;
      current = inner as Node;
    }
    return current;
  };
  let node = unwrap(schema);
  for (const key of at) {
    if (typeof key === 'number' || /^\d+$/.test(String(key))) continue;
    node = unwrap(unwrap(node)?.shape?.[String(key)]);
  }
  return node?.shape ? Object.keys(node.shape) : [];
}

/**
 * Unquoted values YAML cannot read as meant: one holding ": " (or ending in ":") is read as a second field and fails
 * the whole file. Each with its line (from 1) and the corrected line.
 */
export function unquotedColons(text: string): { line: number; message: string }[] {
  return text.split(/\r?\n/).flatMap((line, i) => {
    const [, indent = '', key = '', value = ''] = /^(\s*(?:-\s+)?)([A-Za-z_][\w-]*):[ \t]+(\S.*)$/.exec(line) ?? [];
    // Quoted, block (| >), flow ([ {), anchors and aliases are YAML's own business.
    const plain = value.replace(/\s+#.*$/, '');
    if (!key || /^["'|>[{&*!]/.test(value) || !/:(\s|$)/.test(plain)) return [];
    const fixed = `${indent}${key}: "${plain.replace(/"/g, '\\"')}"`;
    return [
      {
        line: i + 1,
        message: `quote this value: "${key}" contains a colon followed by a space, which YAML reads as a new field. Write ${fixed.trim()}`,
      },
    ];
  });
}

/** An entry's name in a message: its place in the file and its id when it has one ("entry 3 (iso-9001-2015)"). */
function entryName(data: unknown, at: readonly PropertyKey[]): string {
  const [first] = at;
  if (typeof first !== 'number' || !Array.isArray(data)) return '';
  const entry = data[first] as { id?: unknown; href?: unknown; page?: unknown } | undefined;
  const id = entry?.id ?? entry?.href ?? entry?.page;
  return `entry ${first + 1}${typeof id === 'string' ? ` (${id})` : ''}, `;
}

/** The path of a field inside its entry, as an editor reads it ("en.title", "items.2.label.ar"). */
const fieldPath = (at: readonly PropertyKey[], data: unknown): string =>
  (Array.isArray(data) && typeof at[0] === 'number' ? at.slice(1) : at).map(String).join('.');

/**
 * The line (from 1) of the field at `at` in a parsed YAML document, or of `key` in the object at
 * `at`; for a field that is missing, the line of the entry or object that lacks it. None at the top.
 */
function lineIn(document: Document, counter: LineCounter, at: readonly PropertyKey[], key?: string): number | undefined {
  const lineOf = (node: unknown) => {
    const offset = (node as { range?: readonly number[] } | null)?.range?.[0];
    return offset === undefined ? undefined : counter.linePos(offset).line;
  };
  if (key !== undefined) {
    const map = at.length > 0 ? document.getIn(at, true) : document.contents;
    const pair = isMap(map) ? map.items.find((item) => (item.key as { value?: unknown } | null)?.value === key) : undefined;
    if (pair) return lineOf(pair.key);
  }
  for (let depth = at.length; depth > 0; depth--) {
    const line = lineOf(document.getIn(at.slice(0, depth), true));
    if (line !== undefined) return line;
  }
  return undefined;
}

/** The line (from 1) of the field at `at` in YAML `text` (of its key, for a named field), or of the nearest enclosing one. */
export function lineFinder(text: string): (at: readonly PropertyKey[]) => number | undefined {
  const counter = new LineCounter();
  const document = parseDocument(text, { lineCounter: counter });
  return (at) => {
    const last = at.at(-1);
    return typeof last === 'string' ? lineIn(document, counter, at.slice(0, -1), last) : lineIn(document, counter, at);
  };
}

/** One thing wrong in a YAML text against its schema: the line when known, and what to do. */
interface SchemaIssue {
  readonly line?: number | undefined;
  readonly message: string;
}

/**
 * The problems of YAML `text` against `schema`, one sentence each, on their lines: a misspelled field with the one it
 * probably means (not also as missing), a value out of a list with those accepted, Zod's words otherwise; an unreadable
 * text gives YAML's errors, or the value to quote.
 */
export function schemaIssues(schema: z.ZodType, text: string): SchemaIssue[] {
  const counter = new LineCounter();
  const document = parseDocument(text, { prettyErrors: true, lineCounter: counter });
  if (document.errors.length > 0) {
    const colons = unquotedColons(text);
    if (colons.length > 0) return colons;
    return document.errors.map((error) => ({
      line: error.linePos?.[0]?.line,
      message: `${error.message.split('\n')[0] ?? ''} (check the indentation and the ":" after each field)`,
    }));
  }
  const data: unknown = document.toJS() ?? {};
  const result = schema.safeParse(data);
  if (result.success) return [];
  const issues: SchemaIssue[] = [];
  const meant = new Set<string>();
  const element = (schema as unknown as { def?: { element?: z.ZodType } }).def?.element ?? schema;
  for (const issue of result.error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const inEntry = Array.isArray(data) && typeof issue.path[0] === 'number' ? issue.path.slice(1) : issue.path;
    const known = fieldsAt(element, inEntry);
    const at = fieldPath(issue.path, data);
    for (const key of issue.keys) {
      const near = nearestField(key, known);
      const name = at ? `${at}.${key}` : key;
      if (near) meant.add(`${issue.path.map(String).join('.')}.${near}`.replace(/^\./, ''));
      issues.push({
        line: lineIn(document, counter, issue.path, key),
        message: `${entryName(data, issue.path)}field "${name}" is not a field: ${near ? `did you mean "${at ? `${at}.${near}` : near}"?` : `the fields are ${known.join(', ')}`}`,
      });
    }
  }
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') continue;
    const value = issue.path.reduce<unknown>(
      (object, key) => (object && typeof object === 'object' ? (object as Record<PropertyKey, unknown>)[key] : undefined),
      data,
    );
    if (value === undefined && meant.has(issue.path.map(String).join('.'))) continue;
    const field = `${entryName(data, issue.path)}field "${fieldPath(issue.path, data)}"`;
    // A value out of a list: the values it accepts, and the one probably meant. A long value is not repeated.
    const values = issue.code === 'invalid_value' ? issue.values.map(String) : [];
    const near = typeof value === 'string' ? nearestField(value, values) : undefined;
    const says = values.length > 0 ? `write one of ${values.map((v) => `"${v}"`).join(', ')}${near ? ` (did you mean "${near}"?)` : ''}` : issue.message;
    issues.push({
      line: lineIn(document, counter, issue.path),
      message:
        value === undefined
          ? `${field} is missing${issue.message.startsWith('Invalid input') ? '' : `: ${issue.message}`}`
          : `${field}${JSON.stringify(value).length <= 40 ? ` is ${JSON.stringify(value)}` : ''}: ${says}`,
    });
  }
  return issues;
}

/** `text` (the contents of `file`) parsed as YAML and checked against `schema`; throws a DataFileError naming what to correct. */
export function parseDataFile<T extends z.ZodType>(file: string, text: string, schema: T): z.infer<T> {
  const issues = schemaIssues(schema, text);
  if (issues.length > 0) {
    throw new DataFileError(
      file,
      issues.map(({ line, message }) => `${line ? `line ${line}: ` : ''}${message}`),
    );
  }
  return schema.parse(parseDocument(text).toJS());
}

/** The project's folder: the nearest one holding `file` from this module's place upwards, else the working directory. */
function projectRoot(file: string): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (fs.existsSync(path.join(dir, file))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

/** The data file `file` (relative to the project's folder) read and checked; see parseDataFile. */
export function readDataFile<T extends z.ZodType>(file: string, schema: T, root = projectRoot(file)): z.infer<T> {
  return parseDataFile(file, fs.readFileSync(path.join(root, file), 'utf8'), schema);
}

/** The paths of a data file's words with no Arabic yet ("qualityPolicy.5"): each `en:` without its `ar:`, lists counted from 1. */
export function untranslated(value: unknown, at = ''): string[] {
  if (!value || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  if (typeof record.en === 'string') return record.ar === undefined ? [at] : [];
  const entries = Array.isArray(value) ? value.map((item: unknown, i): [string, unknown] => [String(i + 1), item]) : Object.entries(record);
  return entries.flatMap(([key, item]) => untranslated(item, at ? `${at}.${key}` : key));
}

/** The carousels' pictures that are not in src/assets/, each named by its list, entry and path. */
function missingPictures(data: CarouselsFile, root: string): string[] {
  return (['hero', 'clients'] as const).flatMap((list) =>
    data[list].flatMap(({ image }, i) =>
      fs.existsSync(path.join(root, 'src/assets', image))
        ? []
        : [
            `${list} entry ${i + 1}, field "image" is "${image}": no such file in src/assets/ (add the file, or correct the path; letter case counts)`,
          ],
    ),
  );
}

/** The problems of every data file, one message per malformed file (empty when all are well-formed). */
export function dataFileProblems(root?: string): string[] {
  return DATA_FILES.flatMap(({ file, schema }) => {
    try {
      const data: unknown = readDataFile(file, schema, root);
      if (file !== CAROUSELS_FILE) return [];
      const missing = missingPictures(data as CarouselsFile, root ?? projectRoot(file));
      if (missing.length > 0) throw new DataFileError(file, missing);
      return [];
    } catch (error) {
      if (error instanceof DataFileError) return [error.message];
      throw error;
    }
  });
}
