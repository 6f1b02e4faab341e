/**
 * The partner form's country list as a visitor reads it, labelled and sorted for the page's language on the server (the
 * English name is what is sent), so hydration never depends on the browser's Unicode data and no island bundles names.
 */
import { COUNTRIES, PREFERRED_COUNTRIES, type CountryCode } from './countries.ts';
import { localCountryName } from './country-names.ts';

interface CountryOption {
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
  return localCountryName(country.key, lang) ?? country.value;
}

/**
 * The key a name is sorted by. Arabic readers look a country up by its name without the
 * definite article: "المغرب" under م, "السعودية" under س (as Arabic indexes and directories do).
 */
function sortKey(name: string, lang: string): string {
  if (lang !== 'ar') return name;
  return name
    .split(' ')
    .map((word) => (word.length > 3 && word.startsWith('ال') ? word.slice(2) : word))
    .join(' ');
}

export function countryList(lang: string): CountryList {
  const collator = new Intl.Collator(lang);
  const labelled = COUNTRIES.map((country) => ({
    key: country.key as CountryCode,
    value: country.value,
    label: countryName(country, lang),
  }));
  const all = [...labelled].sort((a, b) => collator.compare(sortKey(a.label, lang), sortKey(b.label, lang)));
  const option = ({ value, label }: CountryOption): CountryOption => ({ value, label });
  return {
    preferred: PREFERRED_COUNTRIES.flatMap((code) => labelled.filter((country) => country.key === code)).map(option),
    all: all.map(option),
  };
}
