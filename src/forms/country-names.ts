/**
 * The countries' names in a language other than English: a language's own names where the Unicode data's short name is
 * not the one its readers know, else ICU's. Apart from ./countries.ts, which an island carries, so no island carries them.
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
