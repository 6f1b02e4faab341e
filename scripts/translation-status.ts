/**
 * Which Arabic twins are behind their English originals, read from git history (no network, no
 * dependency): content (src/content → src/content/ar), data (src/data → src/data/ar) and
 * interface strings (src/i18n/en.ts → ar.ts, key by key). `npm run translations` prints it
 * (scripts/translations.mjs); docs/content.md explains it to editors.
 *
 * A twin is
 * - missing: the Arabic file (or string key) does not exist;
 * - outdated: its English original changed in a commit that the twin's last change does not
 *   include (the English commit is not an ancestor of the twin's last commit); the English diff
 *   since the twin's last change says what to translate;
 * - up to date: otherwise.
 *
 * A commit that needs no translation (a typo fixed in English only, a reformat) says so in its
 * message, with "[no-translation]" (or Lunaria's "[lunaria-ignore]"), or the trailer
 * "Translation: none"; it then never makes a twin outdated.
 *
 * Status is of committed history at a ref (HEAD by default): uncommitted edits do not count.
 */
import { spawnSync } from 'node:child_process';

export interface Commit {
  hash: string;
  date: string;
  message: string;
}
export type Status = 'missing' | 'outdated' | 'up to date';
export type PairKind = 'content' | 'data' | 'string';
export interface PairStatus {
  kind: PairKind;
  english: string;
  twin: string;
  key?: string;
  status: Status;
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
export const NO_TRANSLATION_TRAILER = /^Translation:\s*none\s*$/im;

/** True when a commit message says its change needs no translation. */
export const isMarked = (message: string): boolean =>
  NO_TRANSLATION_MARKERS.some((marker) => message.includes(marker)) || NO_TRANSLATION_TRAILER.test(message);

/** The content and data folders that have twins, and where the twins are. */
export const FILE_PAIRS: readonly { kind: PairKind; dir: string; twinDir: string; ext: string }[] = [
  { kind: 'content', dir: 'src/content/services', twinDir: 'src/content/ar/services', ext: '.mdx' },
  { kind: 'content', dir: 'src/content/pages', twinDir: 'src/content/ar/pages', ext: '.mdx' },
  // Who does the work: none in the repository until the company supplies them (docs/content.md).
  { kind: 'content', dir: 'src/content/team', twinDir: 'src/content/ar/team', ext: '.yaml' },
  { kind: 'content', dir: 'src/content/credentials', twinDir: 'src/content/ar/credentials', ext: '.yaml' },
  { kind: 'content', dir: 'src/content/cases', twinDir: 'src/content/ar/cases', ext: '.yaml' },
  { kind: 'data', dir: 'src/data', twinDir: 'src/data/ar', ext: '.ts' },
];
/** Data modules with no words to translate (they bind the others): never listed as missing. */
export const DATA_WITHOUT_WORDS = new Set(['src/data/site.ts']);
export const STRINGS = { english: 'src/i18n/en.ts', twin: 'src/i18n/ar.ts' };

/** Runs git in `cwd`; returns stdout, or throws with git's message. */
export function git(cwd: string, args: string[], { allowFailure = false }: { allowFailure?: boolean } = {}): string | undefined {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0 && !allowFailure) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.status === 0 ? result.stdout : undefined;
}

const exists = (cwd: string, ref: string, file: string): boolean =>
  git(cwd, ['cat-file', '-e', `${ref}:${file}`], { allowFailure: true }) !== undefined;
const show = (cwd: string, ref: string, file: string): string | undefined =>
  git(cwd, ['show', `${ref}:${file}`], { allowFailure: true });
const isAncestor = (cwd: string, a: string, b: string): boolean =>
  spawnSync('git', ['merge-base', '--is-ancestor', a, b], { cwd }).status === 0;

/** The commits that touched `file` up to `ref`, newest first: hash, date and message. */
export function commitsTouching(cwd: string, ref: string, file: string): Commit[] {
  const out = git(cwd, ['log', '--format=%H%x1f%cs%x1f%B%x1e', ref, '--', file]) ?? '';
  return out
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record.includes('\x1f'))
    .map((record) => {
      const [hash = '', date = '', message = ''] = record.split('\x1f');
      return { hash, date, message: message.trim() };
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

/** The status of one pair of files at `ref`. */
function filePairStatus(cwd: string, ref: string, kind: PairKind, english: string, twin: string): PairStatus {
  const base = { kind, english, twin };
  if (!exists(cwd, ref, twin)) return { ...base, status: 'missing' };
  const changes = commitsTouching(cwd, ref, english).filter((commit) => !isMarked(commit.message));
  const translated = commitsTouching(cwd, ref, twin)[0];
  if (changes.length === 0 || !translated) return { ...base, status: 'up to date' };
  const newest = changes[0];
  if (!newest || isAncestor(cwd, newest.hash, translated.hash)) return { ...base, status: 'up to date', since: translated };
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
export function keyChanges(
  cwd: string,
  ref: string,
  file: string,
  { skipMarked = false }: { skipMarked?: boolean } = {},
): { values: Map<string, string>; changes: Map<string, KeyChange> } {
  const commits = commitsTouching(cwd, ref, file);
  const states = commits.map((commit) => parseDictionary(show(cwd, commit.hash, file)));
  const changes = new Map<string, KeyChange>();
  const current = states[0] ?? new Map<string, string>();
  for (const key of current.keys()) {
    for (const [i, commit] of commits.entries()) {
      const before = states[i + 1]?.get(key);
      const value = states[i]?.get(key);
      if (value === before) continue;
      if (skipMarked && isMarked(commit.message)) continue;
      changes.set(key, { commit, value, before });
      break;
    }
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
    if (!changed || !translated || isAncestor(cwd, changed.commit.hash, translated.commit.hash))
      return { ...base, status: 'up to date' };
    const was = keyChanges(cwd, translated.commit.hash, STRINGS.english).values.get(key);
    const diff = `- ${was ?? '(no such key)'}\n+ ${english.values.get(key) ?? ''}\n`;
    return { ...base, status: 'outdated', since: translated.commit, commits: [changed.commit], diff };
  });
}

const ORDER: Record<Status, number> = { missing: 0, outdated: 1, 'up to date': 2 };

/** Every pair's status at `ref` (default HEAD), missing and outdated first. */
export function translationStatus(cwd: string, ref = 'HEAD'): PairStatus[] {
  const files = FILE_PAIRS.flatMap(({ kind, dir, twinDir, ext }) =>
    filesAt(cwd, ref, dir, ext, twinDir)
      .filter(
        (english) =>
          !(
            kind === 'data' &&
            (DATA_WITHOUT_WORDS.has(english) || !exists(cwd, ref, `${twinDir}/${english.slice(dir.length + 1)}`))
          ),
      )
      .map((english) => filePairStatus(cwd, ref, kind, english, `${twinDir}/${english.slice(dir.length + 1)}`)),
  );
  return [...files, ...stringStatuses(cwd, ref)].sort(
    (a, b) => ORDER[a.status] - ORDER[b.status] || a.english.localeCompare(b.english),
  );
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
    `Arabic translations at ${ref}: ${count(entries, 'missing')} missing, ${count(entries, 'outdated')} outdated, ${current.length} up to date`,
    '',
  ];
  for (const entry of behind) {
    const why =
      entry.status === 'missing'
        ? `no Arabic twin of ${entry.english}: /ar shows the English meanwhile`
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
