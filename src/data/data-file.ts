/**
 * Reads one of the site's data files (src/data/*.yaml) and checks it against its Zod schema,
 * the same schema its content collection uses (src/content.config.ts). A malformed entry stops
 * with one line per problem naming the file, the entry and the field, and, for a misspelled
 * field, the one it probably means ("did you mean"), as the content checks do.
 *
 * Pure Node (fs and the `yaml` package, no Astro imports): the build's integrations, the pages,
 * the server's mail templates, the scripts and the tests all read the same files the same way.
 * Paths are relative to the project's folder, found from this module's place (projectRoot).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
import type { z } from 'astro/zod';
import { fieldsAt, nearestField } from '../integrations/content-rules.ts';

/** A data file that cannot be read as its schema says: each line names the file, the entry and the field. */
export class DataFileError extends Error {
  readonly problems: readonly string[];
  constructor(file: string, problems: readonly string[]) {
    super(`${file} needs a correction:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'DataFileError';
    this.problems = problems;
  }
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

/** The problems of `data` (the parsed file) against `schema`, one sentence each, "did you mean" included. */
export function dataProblems(schema: z.ZodType, data: unknown): string[] {
  const result = schema.safeParse(data);
  if (result.success) return [];
  const problems: string[] = [];
  const meant = new Set<string>();
  const element = (schema as unknown as { def?: { element?: z.ZodType } }).def?.element ?? schema;
  for (const issue of result.error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const inEntry = Array.isArray(data) && typeof issue.path[0] === 'number' ? issue.path.slice(1) : issue.path;
    const known = fieldsAt(element as never, inEntry);
    const at = fieldPath(issue.path, data);
    for (const key of issue.keys) {
      const near = nearestField(key, known);
      const name = at ? `${at}.${key}` : key;
      if (near) meant.add(`${issue.path.map(String).join('.')}.${near}`.replace(/^\./, ''));
      problems.push(
        `${entryName(data, issue.path)}field "${name}" is not a field: ${near ? `did you mean "${at ? `${at}.${near}` : near}"?` : `the fields are ${known.join(', ')}`}`,
      );
    }
  }
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') continue;
    const value = issue.path.reduce<unknown>(
      (object, key) => (object && typeof object === 'object' ? (object as Record<PropertyKey, unknown>)[key] : undefined),
      data,
    );
    if (value === undefined && meant.has(issue.path.map(String).join('.'))) continue;
    const field = fieldPath(issue.path, data);
    problems.push(
      value === undefined
        ? `${entryName(data, issue.path)}field "${field}" is missing${issue.message.startsWith('Invalid input') ? '' : `: ${issue.message}`}`
        : `${entryName(data, issue.path)}field "${field}" is ${JSON.stringify(value)}: ${issue.message}`,
    );
  }
  return problems;
}

/** `text` (the contents of `file`) parsed as YAML and checked against `schema`; throws a DataFileError naming what to correct. */
export function parseDataFile<T extends z.ZodType>(file: string, text: string, schema: T): z.infer<T> {
  const document = parseDocument(text, { prettyErrors: true });
  if (document.errors.length > 0) {
    throw new DataFileError(
      file,
      document.errors.map((error) => `line ${error.linePos?.[0]?.line ?? '?'}: ${error.message.split('\n')[0] ?? ''} (check the indentation and the ":" after each field)`),
    );
  }
  const data: unknown = document.toJS();
  const problems = dataProblems(schema, data);
  if (problems.length > 0) throw new DataFileError(file, problems);
  return schema.parse(data);
}

/**
 * The project's folder: the nearest folder holding `file`, from this module's own place upwards
 * (src/data in the sources, dist/server/chunks in the built server), else the working directory.
 */
export function projectRoot(file: string): string {
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
