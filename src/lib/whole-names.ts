/**
 * Names that must never break across lines ("Al-" / "Khobar"). The text stays as written (plain hyphens and spaces, for
 * search engines, find-in-page and tests); every page built ahead gets each name wrapped in `<span class="nowrap">`
 * (src/middleware.ts), so no component needs to remember it.
 */

/** Names kept whole in both languages' content, and Saudi Vision 2030 in Arabic, whose year would otherwise fall alone. */
export const WHOLE_NAMES: readonly string[] = [
  'Al-Khobar',
  'Schedule Q',
  'Schedule D',
  'Saudi Aramco',
  'Saudi Vision 2030',
  'Vision 2030',
  'السعودية 2030',
];

/** Standard codes: ISO 9001:2015, ISO/IEC 17025:2017, ISO/IEC 17025. */
const STANDARD = String.raw`ISO(?:\/IEC)? \d+(?::\d{4})?`;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every name of the list, and the standard codes, as whole words. */
const NAMES = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:${[...WHOLE_NAMES]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')}|${STANDARD})(?![\p{L}\p{N}])`,
  'gu',
);

/** A text cut into its runs: the names to keep whole, and the text between them. */
interface TextRun {
  readonly text: string;
  readonly whole: boolean;
}

export function splitWholeNames(text: string): TextRun[] {
  const runs: TextRun[] = [];
  let at = 0;
  for (const match of text.matchAll(NAMES)) {
    // A name that cannot break anyway (no space or hyphen in it) needs no span.
    if (!/[\s-]/.test(match[0])) continue;
    if (match.index > at) runs.push({ text: text.slice(at, match.index), whole: false });
    runs.push({ text: match[0], whole: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) runs.push({ text: text.slice(at), whole: false });
  return runs;
}

/** The class that keeps a name on one line. */
export const WHOLE_NAME_CLASS = 'nowrap';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * What is never wrapped: whole elements whose text is not prose (code, scripts and styles, whose
 * CSS may hold a `<`; islands, whose markup must stay React's own), and every other tag.
 */
const UNTOUCHED = /<(code|pre|script|style|textarea|title|astro-island|astro-slot)\b[\s\S]*?<\/\1\s*>|<[^>]*>/gi;

const wrapText = (text: string) =>
  splitWholeNames(text)
    .map((run) => (run.whole ? `<span class="${WHOLE_NAME_CLASS}">${escapeHtml(run.text)}</span>` : run.text))
    .join('');

/** Rendered HTML with each name in its text wrapped in `<span class="nowrap">`; the rest left as it is. */
export function wrapWholeNamesInHtml(html: string): string {
  let out = '';
  let at = 0;
  for (const match of html.matchAll(UNTOUCHED)) {
    out += wrapText(html.slice(at, match.index)) + match[0];
    at = match.index + match[0].length;
  }
  return out + wrapText(html.slice(at));
}
