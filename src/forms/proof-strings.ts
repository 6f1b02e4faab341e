/**
 * The proof-of-work widget's words in the page's language, taken at build time from the widget's
 * own translations (`altcha/i18n/<code>`) and handed to the island as props: no script carries a
 * language's words (the islands get theirs from the page). English is the widget's own.
 */
import 'altcha/i18n/ar';

/** Where the widget asks the site's own receiver for a challenge (src/pages/api/challenge.ts). */
export const CHALLENGE_PATH = '/api/challenge';

interface AltchaI18n {
  get(name: string): Record<string, string> | undefined;
}

/** The widget's strings for a language other than English; undefined for English. */
export function proofStrings(language: string): Readonly<Record<string, string>> | undefined {
  if (language === 'en') return undefined;
  const i18n = (globalThis as unknown as { $altcha?: { i18n: AltchaI18n } }).$altcha?.i18n;
  const strings = i18n?.get(language);
  if (!strings) return undefined;
  // The footer's attribution (a link to a third party) is hidden; the rest is the widget's words.
  const { footer: _footer, ariaLinkLabel: _link, ...rest } = strings;
  return rest;
}
