/**
 * The partner form's country list as a visitor reads it, built on the server (the page hands it
 * to the island): the same answers in every language (each country's English name is what is
 * sent and stored, src/forms/countries.ts), labelled and sorted for the page's language.
 *
 * Built once on the server so the names and their order never depend on the visitor's browser
 * (its Unicode data may differ from the server's and would break hydration), and no island
 * bundles another language's names.
 */
import { COUNTRIES, PREFERRED_COUNTRIES, type CountryCode } from './countries';

/**
 * Names a language keeps for itself, where the Unicode data's short name is not the one its
 * readers know; every other name comes from the Unicode data (ICU). They live here, beside the
 * list they label, and not in ./countries.ts: that module goes into the partner form's island (its
 * schema checks the answer), and no island carries another language's names.
 */
const OWN_NAMES: Readonly<Record<string, Readonly<Partial<Record<CountryCode, string>>>>> = {
  ar: {
    PS: 'فلسطين',
    MM: 'ميانمار',
    CG: 'جمهورية الكونغو',
    CD: 'جمهورية الكونغو الديمقراطية',
    VA: 'الكرسي الرسولي (الفاتيكان)',
  },
};

export interface CountryOption {
  readonly value: string;
  readonly label: string;
}

export interface CountryList {
  /** Offered first, before the whole list (Saudi Arabia). */
  readonly preferred: readonly CountryOption[];
  /** Every country, in the language's order. */
  readonly all: readonly CountryOption[];
}

/** A country's name for a reader of `lang`: the list's English name in English. */
export function countryName(country: (typeof COUNTRIES)[number], lang: string): string {
  if (lang === 'en') return country.value;
  const own = OWN_NAMES[lang]?.[country.key];
  if (own) return own;
  return new Intl.DisplayNames([lang], { type: 'region', fallback: 'none' }).of(country.key) ?? country.value;
}

/**
 * The key a name is sorted by. Arabic readers look a country up by its name without the
 * definite article: "المغرب" under م, "السعودية" under س (as Arabic indexes and directories do).
 */
export function sortKey(name: string, lang: string): string {
  if (lang !== 'ar') return name;
  return name
    .split(' ')
    .map((word) => (word.length > 3 && word.startsWith('ال') ? word.slice(2) : word))
    .join(' ');
}

export function countryList(lang: string): CountryList {
  const collator = new Intl.Collator(lang);
  const labelled = COUNTRIES.map((country) => ({ key: country.key as CountryCode, value: country.value, label: countryName(country, lang) }));
  // English keeps the list's own order (alphabetical, with "Türkiye" where English readers look).
  const all = lang === 'en' ? labelled : [...labelled].sort((a, b) => collator.compare(sortKey(a.label, lang), sortKey(b.label, lang)));
  const option = ({ value, label }: CountryOption): CountryOption => ({ value, label });
  return {
    preferred: PREFERRED_COUNTRIES.flatMap((code) => labelled.filter((country) => country.key === code)).map(option),
    all: all.map(option),
  };
}
