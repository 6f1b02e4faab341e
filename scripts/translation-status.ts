/**
 * Which Arabic twins are behind their English originals, read from git history (no network, no
 * dependency): content (src/content → src/content/ar), data (src/data → src/data/ar) and
 * interface strings (src/i18n/en.ts → ar.ts, key by key). `npm run translations` prints it
 * (scripts/translations.mjs); docs/content.md explains it to editors.
 *
 * A twin is
 * - missing: the Arabic file (or string key) does not exist;
 * - outdated: the words of its English original changed in a commit that the twin's last change
 *   of words does not include (the English commit is not an ancestor of it); the English diff
 *   since says what to translate;
 * - in English: the Arabic file holds English text where Arabic is expected (a field, a
 *   paragraph, a data entry's words);
 * - up to date: otherwise.
 *
 * "Words" are what an editor wrote and a translator translates: a content file's front matter and
 * body without comments (MDX, HTML and YAML ones) and import lines; a data module's text strings
 * (comments, code, identifiers, numbers, addresses and phone numbers left out). A commit that
 * changes only comments or code, or a phone number, never makes a twin outdated.
 *
 * Entries are followed one by one where a file lists them: a course of a page (`courses`), an ISO
 * standard (src/data/standards.yaml), a menu entry (src/data/navigation.yaml), each text of the company's
 * details, the home page and the carousels (src/data/company.yaml, home.yaml, carousels.yaml). One the English has
 * and the twin lacks is missing: the Arabic site shows it in English meanwhile. The data files
 * that hold both languages side by side (`en:` and `ar:` per entry) are compared entry by entry,
 * the English words against the Arabic ones (SIDE_BY_SIDE).
 *
 * A twin a translator checked and found right although the English changed is named in a commit's
 * trailer "Translation-reviewed:" (the twin file, the string key or `file#entry`), and is up to date.
 *
 * A commit that needs no translation (a typo fixed in English only, a reformat) says so in its
 * message, with "[no-translation]" (or Lunaria's "[lunaria-ignore]"), or the trailer
 * "Translation: none"; it then never makes a twin outdated.
 *
 * Status is of committed history at a ref (HEAD by default): uncommitted edits do not count.
 */
import { spawnSync } from 'node:child_process';
import { parse as parseYaml } from 'yaml';

interface Commit {
  hash: string;
  /** Its parents (two for a merge, none for the first commit). */
  parents?: string[];
  date: string;
  message: string;
}
export type Status = 'missing' | 'in English' | 'outdated' | 'up to date';
type PairKind = 'content' | 'data' | 'string' | 'entry';
export interface PairStatus {
  kind: PairKind;
  english: string;
  twin: string;
  key?: string;
  status: Status;
  /** For "in English": what holds English text, and its first words. */
  detail?: string;
  since?: Commit;
  commits?: Commit[];
  diff?: string;
}
interface KeyChange {
  commit: Commit;
  value: string | undefined;
  before: string | undefined;
}

/** What marks a commit as needing no translation. */
export const NO_TRANSLATION_MARKERS = ['[no-translation]', '[lunaria-ignore]'];
const NO_TRANSLATION_TRAILER = /^Translation:\s*none\s*$/im;

/** True when a commit message says its change needs no translation. */
export const isMarked = (message: string): boolean =>
  NO_TRANSLATION_MARKERS.some((marker) => message.includes(marker)) || NO_TRANSLATION_TRAILER.test(message);

/** The content and data folders that have twins, and where the twins are. */
const FILE_PAIRS: readonly { kind: PairKind; dir: string; twinDir: string; ext: string }[] = [
  { kind: 'content', dir: 'src/content/services', twinDir: 'src/content/ar/services', ext: '.mdx' },
  { kind: 'content', dir: 'src/content/pages', twinDir: 'src/content/ar/pages', ext: '.mdx' },
  // Who does the work: none in the repository until the company supplies them (docs/content.md).
  { kind: 'content', dir: 'src/content/team', twinDir: 'src/content/ar/team', ext: '.yaml' },
  { kind: 'content', dir: 'src/content/credentials', twinDir: 'src/content/ar/credentials', ext: '.yaml' },
  { kind: 'content', dir: 'src/content/cases', twinDir: 'src/content/ar/cases', ext: '.yaml' },
  { kind: 'data', dir: 'src/data', twinDir: 'src/data/ar', ext: '.ts' },
];
/** Data modules with no words to translate (they bind the others): never listed as missing. */
const DATA_WITHOUT_WORDS = new Set([
  'src/data/site.ts',
  // Code over the YAML data files, whose words are followed entry by entry (SIDE_BY_SIDE).
  'src/data/standards.ts',
  'src/data/navigation.ts',
  'src/data/company.ts',
  'src/data/carousels.ts',
]);
const STRINGS = { english: 'src/i18n/en.ts', twin: 'src/i18n/ar.ts' };

/** Runs git in `cwd`; returns stdout, or throws with git's message. */
export function git(cwd: string, args: string[], { allowFailure = false }: { allowFailure?: boolean } = {}): string | undefined {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0 && !allowFailure) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.status === 0 ? result.stdout : undefined;
}

const exists = (cwd: string, ref: string, file: string): boolean =>
  git(cwd, ['cat-file', '-e', `${ref}:${file}`], { allowFailure: true }) !== undefined;
const shown = new Map<string, string | undefined>();
/** A commit's full hash: what it names never changes (a branch or HEAD does). */
const isHash = (ref: string): boolean => /^[0-9a-f]{40}$/.test(ref);
/** A file's text at a commit (remembered by hash: the same versions are read again for each key). */
const show = (cwd: string, ref: string, file: string): string | undefined => {
  const read = () => git(cwd, ['show', `${ref}:${file}`], { allowFailure: true });
  if (!isHash(ref)) return read();
  const key = `${cwd}\0${ref}\0${file}`;
  if (!shown.has(key)) shown.set(key, read());
  return shown.get(key);
};

/**
 * Whether `commit` changed what `valueAt` reads: its value differs from the one at each of its
 * parents. A merge that takes a branch's change made none of its own (the change is the branch's
 * commit), so commits on parallel branches are never compared with each other.
 */
function changedIn<T>(commit: Commit, valueAt: (hash: string) => T): boolean {
  const value = valueAt(commit.hash);
  const parents = commit.parents ?? [];
  if (parents.length === 0) return value !== undefined;
  return parents.every((parent) => valueAt(parent) !== value);
}
const isAncestor = (cwd: string, a: string, b: string): boolean =>
  spawnSync('git', ['merge-base', '--is-ancestor', a, b], { cwd }).status === 0;

/** The trailer a translator writes when a twin was checked and needs no change. */
const REVIEWED_TRAILER = /^Translation-reviewed:[ \t]*(.+)$/gim;
const reviewsAt = new Map<string, Map<string, Commit>>();

/**
 * What the commits up to `ref` say a translator checked against the English and found right
 * (trailer "Translation-reviewed: src/content/ar/pages/about.mdx, admin.list.title"): each named
 * twin file, string key or `file#entry`, with the newest commit that names it.
 */
function reviews(cwd: string, ref: string): Map<string, Commit> {
  const head = git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { allowFailure: true })?.trim() ?? ref;
  const cached = reviewsAt.get(`${cwd}\0${head}`);
  if (cached) return cached;
  const out = git(cwd, ['log', '--format=%H%x1f%P%x1f%cs%x1f%B%x1e', '--grep=^Translation-reviewed:', ref]) ?? '';
  const named = new Map<string, Commit>();
  for (const record of out.split('\x1e')) {
    const [hash = '', parents = '', date = '', message = ''] = record.replace(/^\n/, '').split('\x1f');
    if (!hash) continue;
    const commit = { hash, parents: parents.split(' ').filter(Boolean), date, message: message.trim() };
    for (const [, items = ''] of message.matchAll(REVIEWED_TRAILER))
      for (const item of items.split(/[,\s]+/).filter(Boolean)) if (!named.has(item)) named.set(item, commit);
  }
  reviewsAt.set(`${cwd}\0${head}`, named);
  return named;
}

/** Whether a translator reviewed `item` after the English `change` (a commit that includes it). */
function reviewedAfter(cwd: string, ref: string, item: string, change: Commit): boolean {
  const review = reviews(cwd, ref).get(item);
  return review !== undefined && isAncestor(cwd, change.hash, review.hash);
}

/** The commits that touched `file` up to `ref`, newest first: hash, date and message. */
function commitsTouching(cwd: string, ref: string, file: string): Commit[] {
  const out = git(cwd, ['log', '--format=%H%x1f%P%x1f%cs%x1f%B%x1e', ref, '--', file]) ?? '';
  return out
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record.includes('\x1f'))
    .map((record) => {
      const [hash = '', parents = '', date = '', message = ''] = record.split('\x1f');
      return { hash, parents: parents.split(' ').filter(Boolean), date, message: message.trim() };
    });
}

/** Every file under `dir` at `ref` ending in `ext`, not in its subfolder `exclude`. */
function filesAt(cwd: string, ref: string, dir: string, ext: string, exclude: string): string[] {
  const out = git(cwd, ['ls-tree', '-r', '--name-only', ref, '--', dir], { allowFailure: true }) ?? '';
  return out
    .split('\n')
    .filter((file) => file.endsWith(ext) && !(exclude && file.startsWith(`${exclude}/`)))
    .sort();
}

const short = (hash: string): string => hash.slice(0, 7);

/**
 * A data module's string literals, in order, comments and code left out: '…', "…" and `…`
 * (a template's ${…} kept as written). `value` when the literal is data, a property's value or an
 * array's item, not a function's argument (a validation message) or an expression's operand.
 * A small scanner: `//` inside a string is no comment.
 */
function stringLiterals(code: string): { text: string; line: number; value: boolean }[] {
  const found: { text: string; line: number; value: boolean }[] = [];
  const brackets: string[] = [];
  let line = 1;
  let previous = '';
  for (let i = 0; i < code.length; i++) {
    const c = code[i] ?? '';
    if (c === '\n') line++;
    if (/\s/.test(c)) continue;
    if (c === '/' && code[i + 1] === '/') {
      while (i < code.length && code[i + 1] !== '\n') i++;
    } else if (c === '/' && code[i + 1] === '*') {
      const end = code.indexOf('*/', i + 2);
      const stop = end < 0 ? code.length : end + 2;
      line += code.slice(i, stop).split('\n').length - 1;
      i = stop - 1;
    } else if (c === "'" || c === '"' || c === '`') {
      const start = line;
      let text = '';
      for (i++; i < code.length && code[i] !== c; i++) {
        if (code[i] === '\\') text += code[++i] ?? '';
        else {
          if (code[i] === '\n') line++;
          text += code[i];
        }
      }
      const value = previous === ':' || previous === '[' || (previous === ',' && brackets.at(-1) === '[');
      found.push({ text, line: start, value: value && !text.includes('${') });
      previous = c;
    } else {
      if ('([{'.includes(c)) brackets.push(c);
      else if (')]}'.includes(c)) brackets.pop();
      previous = c;
    }
  }
  return found;
}

/**
 * True when a data string is words a translator translates: letters, and a space or a capital
 * ("Quality management", "LinkedIn"); not an id, a path, an address, an e-mail or a phone number.
 */
function isWords(text: string): boolean {
  const value = text.trim();
  if (!/\p{L}/u.test(value)) return false;
  if (/^(https?:|mailto:|tel:|\.{0,2}\/|#)/.test(value) || /^\S+@\S+$/.test(value)) return false;
  return /\s/.test(value) || /^\p{Lu}/u.test(value) || /[^\p{Script=Latin}\P{L}]/u.test(value);
}

/** YAML's lines without comments (a whole-line `# …`, or ` # …` after a value) and blank lines. */
const yamlWords = (lines: readonly string[]): string[] =>
  lines
    .filter((line) => !/^\s*#/.test(line))
    .map((line) => line.replace(/\s+#\s.*$/, '').trim())
    .filter(Boolean);

/** What an editor wrote in a file, for comparing two versions: comments, code and spacing left out. */
function wordsOf(file: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (file.endsWith('.ts'))
    // As a set: moving an entry, or the code around it, needs no translation.
    return [
      ...new Set(
        stringLiterals(text)
          .filter((literal) => literal.value && isWords(literal.text))
          .map((literal) => literal.text),
      ),
    ]
      .sort()
      .join('\n');
  if (file.endsWith('.yaml')) return yamlWords(text.split('\n')).join('\n');
  const lines = text.split('\n');
  const end = lines[0] === '---' ? lines.indexOf('---', 1) : -1;
  const body = lines
    .slice(end + 1)
    .join('\n')
    .replace(/\{\/\*[\s\S]*?\*\/\}/g, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .split('\n')
    .filter((line) => !/^(import|export)\s/.test(line))
    .map((line) => line.trim())
    .filter(Boolean);
  return [...yamlWords(end > 0 ? lines.slice(1, end) : []), '---', ...body].join('\n');
}

/** `text` without the front matter's courses `ids` (each `  - id: x` item and its lines). */
function withoutCourses(text: string | undefined, ids: readonly string[]): string | undefined {
  return ids.reduce<string | undefined>(
    (rest, id) => rest?.replace(new RegExp(`^( *)- id: ${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\n(?:\\1 {2}.*\n)*`, 'm'), ''),
    text,
  );
}

/**
 * The commits (newest first) that changed the words of `file` (wordsOf), not only its comments or
 * code; leaving out the courses `pending` (the ones the twin lacks, listed as missing on their own).
 */
function wordChanges(cwd: string, ref: string, file: string, pending: readonly string[] = []): Commit[] {
  const commits = commitsTouching(cwd, ref, file);
  return commits.filter((commit) => changedIn(commit, (hash) => wordsOf(file, withoutCourses(show(cwd, hash, file), pending))));
}

/** The status of one pair of files at `ref`. */
function filePairStatus(cwd: string, ref: string, kind: PairKind, english: string, twin: string): PairStatus {
  const base = { kind, english, twin };
  if (!exists(cwd, ref, twin)) return { ...base, status: 'missing' };
  // A course the twin lacks is "missing" on its own line: adding it does not make the whole page outdated.
  const own = courseIds(show(cwd, ref, twin));
  const pending = courseIds(show(cwd, ref, english)).filter((id) => !own.includes(id));
  const changes = wordChanges(cwd, ref, english, pending).filter((commit) => !isMarked(commit.message));
  const translated = wordChanges(cwd, ref, twin)[0] ?? commitsTouching(cwd, ref, twin)[0];
  if (changes.length === 0 || !translated) return { ...base, status: 'up to date' };
  const newest = changes[0];
  if (!newest || isAncestor(cwd, newest.hash, translated.hash) || reviewedAfter(cwd, ref, twin, newest))
    return { ...base, status: 'up to date', since: translated };
  const behind = changes.filter((commit) => !isAncestor(cwd, commit.hash, translated.hash));
  const diff = git(cwd, ['diff', translated.hash, ref, '--', english]) ?? '';
  return { ...base, status: 'outdated', since: translated, commits: behind, diff };
}

/**
 * An interface dictionary's entries, key by key, as written ("'footer.blurb': 'Globaq …',"):
 * a key and the text of its value, comments left out.
 */
export function parseDictionary(text: string | undefined): Map<string, string> {
  const entries = new Map<string, string>();
  let key: string | undefined;
  for (const line of (text ?? '').split('\n')) {
    const match = /^\s*'([^']+)':\s*(.*)$/.exec(line);
    if (match) {
      key = match[1] ?? '';
      entries.set(key, (match[2] ?? '').trim());
    } else if (key !== undefined && !/^\s*(\/\/|\/\*|\*)/.test(line) && !/^\s*\}/.test(line) && line.trim() !== '') {
      entries.set(key, `${entries.get(key) ?? ''} ${line.trim()}`.trim());
    } else if (/^\s*\}/.test(line)) {
      key = undefined;
    }
  }
  for (const [k, value] of entries) entries.set(k, value.replace(/,$/, ''));
  return entries;
}

/**
 * For each key of a dictionary at `ref`, the newest commit that changed its value (added it, or
 * changed its text); with `skipMarked`, commits marked as needing no translation are passed over.
 */
function keyChanges(
  cwd: string,
  ref: string,
  file: string,
  { skipMarked = false }: { skipMarked?: boolean } = {},
): { values: Map<string, string>; changes: Map<string, KeyChange> } {
  const commits = commitsTouching(cwd, ref, file);
  const dictionaries = new Map<string, Map<string, string>>();
  const at = (hash: string): Map<string, string> => {
    if (!dictionaries.has(hash)) dictionaries.set(hash, parseDictionary(show(cwd, hash, file)));
    return dictionaries.get(hash) ?? new Map<string, string>();
  };
  const changes = new Map<string, KeyChange>();
  const current = commits[0] ? at(commits[0].hash) : new Map<string, string>();
  for (const key of current.keys()) {
    const commit = commits.find(
      (candidate) => !(skipMarked && isMarked(candidate.message)) && changedIn(candidate, (hash) => at(hash).get(key)),
    );
    if (!commit) continue;
    const parent = commit.parents?.[0];
    changes.set(key, { commit, value: at(commit.hash).get(key), before: parent ? at(parent).get(key) : undefined });
  }
  return { values: current, changes };
}

/** The status of every interface string at `ref`, key by key. */
function stringStatuses(cwd: string, ref: string): PairStatus[] {
  if (!exists(cwd, ref, STRINGS.english)) return [];
  const english = keyChanges(cwd, ref, STRINGS.english, { skipMarked: true });
  const twin = exists(cwd, ref, STRINGS.twin)
    ? keyChanges(cwd, ref, STRINGS.twin)
    : { values: new Map<string, string>(), changes: new Map<string, KeyChange>() };
  return [...english.values.keys()].map((key): PairStatus => {
    const base = { kind: 'string' as const, english: `${STRINGS.english} ${key}`, twin: `${STRINGS.twin} ${key}`, key };
    if (!twin.values.has(key)) return { ...base, status: 'missing' };
    const changed = english.changes.get(key);
    const translated = twin.changes.get(key);
    if (
      !changed ||
      !translated ||
      isAncestor(cwd, changed.commit.hash, translated.commit.hash) ||
      reviewedAfter(cwd, ref, key, changed.commit)
    )
      return { ...base, status: 'up to date' };
    const was = keyChanges(cwd, translated.commit.hash, STRINGS.english).values.get(key);
    const diff = `- ${was ?? '(no such key)'}\n+ ${english.values.get(key) ?? ''}\n`;
    return { ...base, status: 'outdated', since: translated.commit, commits: [changed.commit], diff };
  });
}

/**
 * True when a text meant to be Arabic is English: no Arabic letter, and at least four Latin words
 * with lower-case letters (codes and names, "ISO/IEC 17025:2017", "HACCP", stay Latin in Arabic).
 */
function isEnglishText(text: string): boolean {
  if (/\p{Script=Arabic}/u.test(text) || !/\s/.test(text.trim()) || /^[[{]/.test(text.trim())) return false;
  const prose = text.replace(/\]\([^)]*\)/g, ']').replace(/https?:\/\/\S+/g, '');
  return (prose.match(/\p{Script=Latin}*\p{Ll}\p{Script=Latin}*/gu) ?? []).filter((word) => word.length > 1).length >= 4;
}

/** The places of an Arabic file's text that is English: line and first words. */
function englishTextIn(file: string, text: string): { line: number; words: string }[] {
  const found: { line: number; words: string }[] = [];
  const add = (line: number, words: string) => found.push({ line, words: words.trim().replace(/\s+/g, ' ').slice(0, 60) });
  if (file.endsWith('.ts')) {
    for (const literal of stringLiterals(text))
      if (literal.value && isWords(literal.text) && isEnglishText(literal.text)) add(literal.line, literal.text);
    return found;
  }
  const lines = text.split('\n');
  const end = file.endsWith('.yaml') ? lines.length : lines[0] === '---' ? lines.indexOf('---', 1) : 0;
  let fenced = false;
  let block: { line: number; text: string } | undefined;
  const flush = () => {
    if (block && isEnglishText(block.text)) add(block.line, block.text);
    block = undefined;
  };
  lines.forEach((line, i) => {
    if (i <= end) {
      // Front matter, or a YAML file: each value on its own line.
      const value = /^\s*(?:-\s+)?[A-Za-z_][\w-]*:\s+(.+)$/.exec(line)?.[1] ?? /^\s*-\s+(.+)$/.exec(line)?.[1];
      if (value && isEnglishText(value.replace(/^["']|["']$/g, ''))) add(i + 1, value.replace(/^["']|["']$/g, ''));
      return;
    }
    if (/^\s*```/.test(line)) fenced = !fenced;
    if (fenced || /^(import|export)\s/.test(line) || /^\s*[<{]/.test(line) || line.trim() === '') return flush();
    block = block ? { line: block.line, text: `${block.text} ${line}` } : { line: i + 1, text: line };
  });
  flush();
  return found;
}

/** A YAML front matter's courses' ids (or none). */
function courseIds(text: string | undefined): string[] {
  const lines = (text ?? '').split('\n');
  if (lines[0] !== '---') return [];
  const end = lines.indexOf('---', 1);
  try {
    const data = parseYaml(lines.slice(1, end).join('\n')) as { courses?: { id?: unknown }[] } | null;
    return (data?.courses ?? []).map((course) => String(course.id));
  } catch {
    return [];
  }
}

/** An entry's words in each language, by the entry's key, as one file of the site's data writes them. */
type EntryWords = Map<string, { en: string; ar: string | undefined; arTexts: string[] }>;

const wordsJson = (value: unknown): string | undefined => (value === undefined ? undefined : JSON.stringify(value));
const textsOf = (value: unknown): string[] =>
  typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(textsOf) : [];

/** A menu's entries, depth first: a link by its href, a group by its page or else its English label. */
function menuEntries(entries: unknown, into: EntryWords = new Map()): EntryWords {
  for (const entry of Array.isArray(entries) ? (entries as Record<string, unknown>[]) : []) {
    const label = (entry.label ?? {}) as { en?: unknown; ar?: unknown };
    const key = String(entry.href ?? entry.page ?? `group "${String(label.en)}"`);
    into.set(key, { en: wordsJson(label.en) ?? '', ar: wordsJson(label.ar), arTexts: textsOf(label.ar) });
    if (entry.items) menuEntries(entry.items, into);
  }
  return into;
}

/**
 * Every `en:`/`ar:` pair of a data file, by its path ("vision", "qualityPolicy.5",
 * "hero.hero/audits.svg.alt"): a list's entry named by its `image`, else by its place from 1.
 * Numbers, addresses and names written once (a phone, an e-mail) are no words to follow.
 */
function wordEntries(value: unknown, at = '', into: EntryWords = new Map()): EntryWords {
  if (!value || typeof value !== 'object') return into;
  const record = value as Record<string, unknown>;
  if (typeof record.en === 'string') {
    into.set(at, { en: wordsJson(record.en) ?? '', ar: wordsJson(record.ar), arTexts: textsOf(record.ar) });
    return into;
  }
  const entries = Array.isArray(value)
    ? value.map((item: unknown, i): [string, unknown] => [String((item as { image?: unknown } | null)?.image ?? i + 1), item])
    : Object.entries(record);
  for (const [key, item] of entries) wordEntries(item, at ? `${at}.${key}` : key, into);
  return into;
}

/**
 * The data files with English and Arabic side by side (`en:` and `ar:` per entry), followed entry
 * by entry: what the entry is called, and how to read its words.
 */
const SIDE_BY_SIDE = [
  {
    file: 'src/data/standards.yaml',
    what: 'standard',
    entries: (data: unknown): EntryWords =>
      new Map(
        (Array.isArray(data) ? (data as Record<string, unknown>[]) : []).map((entry) => [
          String(entry.id),
          { en: wordsJson(entry.en) ?? '', ar: wordsJson(entry.ar), arTexts: textsOf(entry.ar) },
        ]),
      ),
  },
  { file: 'src/data/navigation.yaml', what: 'menu entry', entries: (data: unknown): EntryWords => menuEntries(data) },
  { file: 'src/data/company.yaml', what: 'detail', entries: (data: unknown): EntryWords => wordEntries(data) },
  { file: 'src/data/home.yaml', what: 'text', entries: (data: unknown): EntryWords => wordEntries(data) },
  { file: 'src/data/carousels.yaml', what: 'picture', entries: (data: unknown): EntryWords => wordEntries(data) },
] as const;

/** A side-by-side file's entries at `ref`, or none when it is not there or not YAML. */
function entryWordsAt(cwd: string, ref: string, file: string, entries: (data: unknown) => EntryWords): EntryWords {
  const text = show(cwd, ref, file);
  if (text === undefined) return new Map();
  try {
    return entries(parseYaml(text));
  } catch {
    return new Map();
  }
}

/**
 * Each entry of the side-by-side data files at `ref`: missing when it has no `ar` words, in
 * English when they are English, outdated when its `en` words changed in a commit that the
 * newest change of its `ar` words does not include. The words are compared, not the lines: a
 * comment, a reordering or a change of an id, a path or a code never makes an entry outdated.
 */
export function sideBySideStatuses(cwd: string, ref: string): PairStatus[] {
  return SIDE_BY_SIDE.flatMap(({ file, what, entries }) => {
    const commits = commitsTouching(cwd, ref, file);
    const states = new Map<string, EntryWords>();
    const at = (hash: string): EntryWords => {
      if (!states.has(hash)) states.set(hash, entryWordsAt(cwd, hash, file, entries));
      return states.get(hash) ?? new Map();
    };
    const current = entryWordsAt(cwd, ref, file, entries);
    /** The newest commit that changed the entry's words in `lang` (an addition counts). */
    const changedWords = (key: string, lang: 'en' | 'ar', skipMarked: boolean) =>
      commits.find(
        (commit) => !(skipMarked && isMarked(commit.message)) && changedIn(commit, (hash) => at(hash).get(key)?.[lang]),
      );
    return [...current].map(([key, words]): PairStatus => {
      const base = { kind: 'entry' as const, english: `${file} ${what} ${key}`, twin: `${file} ${what} ${key} (ar)`, key };
      if (words.ar === undefined) return { ...base, status: 'missing' };
      const english = words.arTexts.find((text) => isEnglishText(text));
      if (english) return { ...base, status: 'in English', detail: english.slice(0, 60) };
      const changed = changedWords(key, 'en', true);
      const translated = changedWords(key, 'ar', false);
      if (
        !changed ||
        !translated ||
        isAncestor(cwd, changed.hash, translated.hash) ||
        reviewedAfter(cwd, ref, `${file}#${key}`, changed)
      )
        return { ...base, status: 'up to date' };
      const was = at(translated.hash).get(key)?.en;
      return {
        ...base,
        status: 'outdated',
        since: translated,
        commits: [changed],
        diff: `- ${was ?? '(no such entry)'}\n+ ${words.en}\n`,
      };
    });
  });
}

/** The entries the English lists and its twin lacks (courses, standards, menu entries), each missing. */
function entryStatuses(cwd: string, ref: string, pairs: readonly { english: string; twin: string }[]): PairStatus[] {
  const missing = (english: string, twin: string, what: string, ids: readonly string[], own: readonly string[]) =>
    ids
      .filter((id) => !own.includes(id))
      .map((id): PairStatus => ({
        kind: 'entry',
        english: `${english} ${what} ${id}`,
        twin: `${twin} ${what} ${id}`,
        key: id,
        status: 'missing',
      }));
  const courses = pairs
    .filter(({ english, twin }) => english.endsWith('.mdx') && exists(cwd, ref, twin))
    .flatMap(({ english, twin }) =>
      missing(english, twin, 'course', courseIds(show(cwd, ref, english)), courseIds(show(cwd, ref, twin))),
    );
  return courses;
}

/** The Arabic files' text that is English (englishTextIn), one entry per place. */
function englishStatuses(cwd: string, ref: string, pairs: readonly { english: string; twin: string }[]): PairStatus[] {
  return pairs.flatMap(({ english, twin }) => {
    const text = show(cwd, ref, twin);
    if (text === undefined) return [];
    return englishTextIn(twin, text).map(({ line, words }): PairStatus => ({
      kind: 'entry',
      english: `${english} (English in ${twin}:${line})`,
      twin: `${twin}:${line}`,
      status: 'in English',
      detail: words,
    }));
  });
}

const ORDER: Record<Status, number> = { missing: 0, 'in English': 1, outdated: 2, 'up to date': 3 };

/** Every pair's status at `ref` (default HEAD), missing and outdated first. */
export function translationStatus(cwd: string, ref = 'HEAD'): PairStatus[] {
  const pairs = FILE_PAIRS.flatMap(({ kind, dir, twinDir, ext }) =>
    filesAt(cwd, ref, dir, ext, twinDir)
      .filter(
        (english) =>
          !(
            kind === 'data' &&
            (DATA_WITHOUT_WORDS.has(english) || !exists(cwd, ref, `${twinDir}/${english.slice(dir.length + 1)}`))
          ),
      )
      .map((english) => ({ kind, english, twin: `${twinDir}/${english.slice(dir.length + 1)}` })),
  );
  const files = pairs.map(({ kind, english, twin }) => filePairStatus(cwd, ref, kind, english, twin));
  return [
    ...files,
    ...entryStatuses(cwd, ref, pairs),
    ...sideBySideStatuses(cwd, ref),
    ...englishStatuses(cwd, ref, pairs),
    ...stringStatuses(cwd, ref),
  ].sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.english.localeCompare(b.english));
}

/** What a pull request changed: entries missing or outdated at `head` that were not at `base`. */
export function introducedBy(before: PairStatus[], after: PairStatus[]): PairStatus[] {
  const was = new Map(before.map((entry) => [entry.english, entry.status]));
  return after.filter((entry) => entry.status !== 'up to date' && was.get(entry.english) !== entry.status);
}

/** The status as a plain-text table: missing and outdated in full, up-to-date ones counted. */
export function formatTable(entries: PairStatus[], { ref = 'HEAD' }: { ref?: string } = {}): string {
  const behind = entries.filter((entry) => entry.status !== 'up to date');
  const current = entries.filter((entry) => entry.status === 'up to date');
  const width = Math.max(10, ...behind.map((entry) => entry.twin.length));
  const lines = [
    `Arabic translations at ${ref}: ${count(entries, 'missing')} missing, ${count(entries, 'in English')} in English, ${count(entries, 'outdated')} outdated, ${current.length} up to date`,
    '',
  ];
  for (const entry of behind) {
    const why =
      entry.status === 'missing'
        ? entry.kind === 'entry'
          ? `not in the Arabic file yet: /ar shows the English ${entry.english.split(' ').slice(1, -1).join(' ')} meanwhile`
          : `no Arabic twin of ${entry.english}: /ar shows the English meanwhile`
        : entry.status === 'in English'
          ? `English text where Arabic is expected: "${entry.detail ?? ''}"`
          : `English changed in ${(entry.commits ?? []).map((c) => short(c.hash)).join(', ')} since the twin's ${short(entry.since?.hash ?? '')} (${entry.since?.date ?? ''})`;
    lines.push(`  ${entry.status.padEnd(10)} ${entry.twin.padEnd(width)}  ${why}`);
  }
  if (behind.length > 0) lines.push('');
  const files = current.filter((entry) => entry.kind !== 'string');
  for (const entry of files) lines.push(`  ${'up to date'.padEnd(10)} ${entry.twin}`);
  const strings = current.length - files.length;
  if (strings > 0) lines.push(`  ${'up to date'.padEnd(10)} ${strings} interface strings in ${STRINGS.twin}`);
  return `${lines.join('\n')}\n`;
}

const count = (entries: PairStatus[], status: Status): number => entries.filter((entry) => entry.status === status).length;

/** The pull request comment: what it made missing or outdated, then the totals. */
export function formatComment(
  introduced: PairStatus[],
  entries: PairStatus[],
  { marker = '<!-- globaq-translations -->', pageUrl }: { marker?: string; pageUrl?: string } = {},
): string {
  const lines = [marker, '### Arabic translations', ''];
  if (introduced.length === 0) {
    lines.push('This pull request leaves no Arabic twin behind.');
  } else {
    lines.push(
      'This pull request leaves these Arabic twins behind (the English change can land first; the Arabic site shows the English text meanwhile):',
      '',
    );
    lines.push('| Status | Arabic twin | English |', '|---|---|---|');
    for (const entry of introduced) lines.push(`| ${entry.status} | \`${entry.twin}\` | \`${entry.english}\` |`);
  }
  lines.push(
    '',
    `In all: ${count(entries, 'missing')} missing, ${count(entries, 'outdated')} outdated, ${count(entries, 'up to date')} up to date.`,
  );
  if (pageUrl) lines.push(`Each pair's English diff: ${pageUrl}`);
  lines.push('', 'A change that needs no translation says `[no-translation]` in its commit message (docs/content.md).');
  return `${lines.join('\n')}\n`;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escape = (text: unknown): string => String(text).replace(/[&<>"]/g, (c) => ENTITIES[c] ?? c);

/** The status page of a preview build: every pair, and each outdated one's English diff. Never indexed. */
export function formatPage(entries: PairStatus[], { ref = 'HEAD' }: { ref?: string } = {}): string {
  const rows = entries
    .map((entry) => {
      const detail =
        entry.status === 'outdated'
          ? `<details><summary>English diff since ${escape(short(entry.since?.hash ?? ''))} (${escape(entry.since?.date ?? '')})</summary><pre>${escape(entry.diff)}</pre></details>`
          : entry.status === 'missing'
            ? 'No Arabic twin yet: /ar shows the English.'
            : entry.status === 'in English'
              ? `English text where Arabic is expected: ${escape(entry.detail ?? '')}`
              : '';
      return `<tr class="${entry.status.replace(/ /g, '-')}"><td>${escape(entry.status)}</td><td><code>${escape(entry.twin)}</code></td><td><code>${escape(entry.english)}</code>${detail}</td></tr>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Arabic translation status</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem}table{border-collapse:collapse;width:100%}td{border-top:1px solid #ddd;padding:.4rem;vertical-align:top}pre{white-space:pre-wrap;background:#f5f7fa;padding:.5rem}.missing td:first-child{color:#b42318;font-weight:700}.outdated td:first-child{color:#b54708;font-weight:700}</style>
</head>
<body>
<h1>Arabic translation status</h1>
<p>At ${escape(ref)}: ${count(entries, 'missing')} missing, ${count(entries, 'outdated')} outdated, ${count(entries, 'up to date')} up to date. A preview page: not part of the site.</p>
<table>
<thead><tr><th>Status</th><th>Arabic twin</th><th>English</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`;
}
