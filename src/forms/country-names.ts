/**
 * The countries' names in another language than the list's English (./countries.ts): the names a
 * language keeps for itself, where the Unicode data's short name is not the one its readers know,
 * and the Unicode data (ICU) for every other country. The partner form's list (./country-list.ts)
 * and the inbox's search (src/server/inbox/lead-search.ts) both read them here.
 *
 * Not in ./countries.ts: that module goes into the partner form's island (its schema checks the
 * answer), and no island carries another language's names.
 */
import type { CountryCode } from './countries.ts';

const OWN_NAMES: Readonly<Record<string, Readonly<Partial<Record<CountryCode, string>>>>> = {
  ar: {
    PS: 'فلسطين',
    MM: 'ميانمار',
    CG: 'جمهورية الكونغو',
    CD: 'جمهورية الكونغو الديمقراطية',
    VA: 'الكرسي الرسولي (الفاتيكان)',
  },
};

const displayNames = new Map<string, Intl.DisplayNames>();

/** A country's name for a reader of `lang` (not English), or undefined when neither source has one. */
export function localCountryName(code: CountryCode, lang: string): string | undefined {
  const own = OWN_NAMES[lang]?.[code];
  if (own) return own;
  let names = displayNames.get(lang);
  if (!names) {
    names = new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' });
    displayNames.set(lang, names);
  }
  return names.of(code);
}
