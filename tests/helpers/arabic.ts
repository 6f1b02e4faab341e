/**
 * What an Arabic text may keep in Latin letters. Proper names stay Latin (src/i18n/ar.ts): the
 * company's name, Schedule Q and Schedule D, SABER's certificates (PCoC, SCoC), and abbreviations
 * and numbered names (ISO, ESG, ISO/IEC 17025); links, web addresses and e-mail addresses are not
 * words of the text.
 */

/** Latin words an Arabic text keeps as they are. */
export const KEPT_NAMES: ReadonlySet<string> = new Set(['Globaq', 'Schedule', 'Q', 'D', 'PCoC', 'SCoC']);

/** An abbreviation, possibly plural: ISO, ESG, IEC, HACCP, KPIs. */
const ABBREVIATION = /^[A-Z0-9/&-]{2,}s?$/;

/** The Latin words left in `text` once links, addresses, the kept names and abbreviations are set aside. */
export function englishLeft(text: string): string[] {
  const withoutLinks = text.replace(/\]\([^)]*\)/g, ']').replace(/https?:\/\/\S+|[\w.+-]+@[\w.-]+/g, '');
  // Words start with a letter or a digit ("5S" is one word, an abbreviation), and have a letter.
  return (withoutLinks.match(/[A-Za-z0-9][A-Za-z0-9'’-]*/g) ?? []).filter(
    (word) => /[A-Za-z]/.test(word) && !KEPT_NAMES.has(word) && !ABBREVIATION.test(word),
  );
}

/** True when `text` has at least one Arabic letter. */
export const hasArabic = (text: string): boolean => /[\u0600-\u06FF]/.test(text);
