/**
 * `npm run translations`: which Arabic twins are missing or behind their English originals
 * (scripts/translation-status.ts; docs/content.md explains the statuses and how to mark a
 * change that needs no translation).
 *
 *   npm run translations                      the table, missing and outdated first; exits 0
 *   npm run translations -- --check           exits 1 when a twin is missing (release builds)
 *   npm run translations -- --base origin/main --comment status.md
 *                                             also writes the pull request comment: what the
 *                                             commits since the base made missing or outdated
 *   npm run translations -- --page dist/client/translation-status.html
 *                                             also writes the preview's status page, with each
 *                                             outdated pair's English diff (never indexed)
 *   npm run translations -- --json            the statuses as JSON
 *
 * The English change never waits for the translator: only --check fails, and only on a missing
 * twin or entry, or English text in an Arabic file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { formatComment, formatPage, formatTable, git, introducedBy, translationStatus } from './translation-status.ts';

// The repository it reads: the current directory (npm runs scripts at the project's root).
const root = process.cwd();

function option(name) {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const ref = option('--ref') ?? 'HEAD';
const entries = translationStatus(root, ref);

if (process.argv.includes('--json')) {
  console.log(JSON.stringify(entries, null, 2));
} else {
  process.stdout.write(formatTable(entries, { ref }));
}

const commentFile = option('--comment');
if (commentFile) {
  const base = option('--base');
  let before = [];
  if (base) {
    const mergeBase = git(root, ['merge-base', base, ref]).trim();
    before = translationStatus(root, mergeBase);
  }
  fs.writeFileSync(commentFile, formatComment(introducedBy(before, entries), entries, { pageUrl: option('--page-url') }));
}

const pageFile = option('--page');
if (pageFile) {
  fs.mkdirSync(path.dirname(pageFile), { recursive: true });
  fs.writeFileSync(pageFile, formatPage(entries, { ref }));
}

if (process.argv.includes('--check')) {
  const missing = entries.filter((entry) => entry.status === 'missing');
  const english = entries.filter((entry) => entry.status === 'in English');
  if (missing.length > 0) {
    console.error(
      `\n${missing.length} Arabic twin${missing.length === 1 ? ' is' : 's are'} missing: translate ${missing.length === 1 ? 'it' : 'them'} before a release (docs/content.md).`,
    );
    process.exitCode = 1;
  }
  if (english.length > 0) {
    console.error(
      `\n${english.length} place${english.length === 1 ? '' : 's'} in the Arabic files ${english.length === 1 ? 'holds' : 'hold'} English text: translate ${english.length === 1 ? 'it' : 'them'} before a release (docs/content.md).`,
    );
    process.exitCode = 1;
  }
}
