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
import { localCountryName } from './country-names';

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
