/**
 * What the inbox's search looks for, worked out once and asked of either database by the same query
 * (../store/lead-list-queries.ts). Every word must occur in the lead's answers, case aside; a word
 * that names a country or a city also finds its spellings in the other language (the partner form
 * stores the English country whatever the page's language); text that reads as a telephone number
 * is looked for as its national number, so however it was typed and stored it finds the same lead.
 */
import { COUNTRIES } from '../../forms/countries.ts';
import { localCountryName } from '../../forms/country-names.ts';
import { placeAlternatives } from './places.ts';

export const PHONE_FIELDS = ['phoneNumber', 'phone'] as const;

export const PHONE_PUNCTUATION = [' ', '-', '(', ')', '.', '/', '\u00A0'] as const;
/** Arabic-Indic (U+0660…) and Eastern Arabic-Indic (U+06F0…) digits, read as 0 to 9. */
export const ARABIC_DIGITS: readonly (readonly [string, string])[] = Array.from({ length: 10 }, (_, d) => [
  [String.fromCharCode(0x0660 + d), String(d)],
  [String.fromCharCode(0x06f0 + d), String(d)],
]).flat() as [string, string][];

/** A phone number as the search compares it: Western digits and a leading +, nothing else. */
export function phoneDigits(text: string): string {
  let out = text;
  for (const [from, to] of ARABIC_DIGITS) out = out.replaceAll(from, to);
  for (const mark of PHONE_PUNCTUATION) out = out.replaceAll(mark, '');
  return out;
}

interface SearchPlan {
  /** Each word with the other ways it may be written (lower case): a lead matches when its text holds any. */
  readonly words: readonly (readonly string[])[];
  readonly phone: string | undefined;
}

const MAX_WORDS = 8;
const MAX_COUNTRIES = 5;
/** Words that many Arabic country names share: not what tells one country from another. */
const GENERIC_ARABIC = new Set([
  'المملكة',
  'العربية',
  'المتحدة',
  'جمهورية',
  'الجمهورية',
  'دولة',
  'سلطنة',
  'الديمقراطية',
  'الشعبية',
  'جزر',
  'الاتحادية',
  'الإسلامية',
  'الكرسي',
  'الرسولي',
]);

/** Without the definite article: "السعودية" is found in "سعودية" and "السعودية" alike. */
const bare = (word: string) => (word.length > 4 && word.startsWith('ال') ? word.slice(2) : word);

const COUNTRY_NAMES = COUNTRIES.map((country) => {
  const arabic = localCountryName(country.key, 'ar') ?? '';
  // How an Arabic speaker may write it: the full name, and its telling words ("الإمارات", "السعودية").
  const arabicWords = arabic
    .replace(/[()]/g, '')
    .split(/\s+/)
    .filter((word) => word.length >= 4 && !GENERIC_ARABIC.has(word))
    .map(bare);
  return { english: country.value.toLowerCase(), arabic, arabicForms: [...new Set([arabic, ...arabicWords].filter(Boolean))] };
});

/** The other language's ways of writing the countries a word names. */
export function countryAlternatives(word: string): string[] {
  const lower = word.toLowerCase();
  const key = bare(lower);
  if (key.length < 3) return [];
  const found = COUNTRY_NAMES.filter((country) => country.english.includes(key) || country.arabic.includes(key)).slice(
    0,
    MAX_COUNTRIES,
  );
  const alternatives = found.flatMap((country) => (country.english.includes(key) ? country.arabicForms : [country.english]));
  return [...new Set(alternatives)].filter((alternative) => alternative !== lower);
}

/** Calling codes of the Gulf, the Arab world and the countries most staff and applicants come from. */
export const CALLING_CODES_BY_COUNTRY = new Map(
  'SA966 AE971 BH973 QA974 KW965 OM968 YE967 JO962 LB961 SY963 IQ964 PS970 EG20 SD249 LY218 TN216 DZ213 MA212 TR90 IN91 PK92 AF93 LK94 BD880 NP977 PH63 ID62 MY60 GB44 DE49 FR33 US1'
    .split(' ')
    .map((entry) => [entry.slice(0, 2), entry.slice(2)]),
);
const CALLING_CODES = [...CALLING_CODES_BY_COUNTRY.values()];
/** Fewer digits than this after the code are not a national number yet: "+973" stays "+973". */
const MIN_NATIONAL = 6;

/** The number without its country code or trunk "0", when it has enough digits to be one. */
function nationalNumber(digits: string): string {
  const international = digits.startsWith('+') ? digits.slice(1) : digits.startsWith('00') ? digits.slice(2) : undefined;
  if (international !== undefined) {
    const code = CALLING_CODES.filter((c) => international.startsWith(c)).sort((a, b) => b.length - a.length)[0];
    const rest = code ? international.slice(code.length).replace(/^0+/, '') : '';
    return rest.length >= MIN_NATIONAL ? rest : `+${international}`;
  }
  return digits.replace(/^0+/, '');
}

const PHONE_LIKE = /^\+?[\d\u0660-\u0669\u06F0-\u06F9\s().\-/\u00A0]+$/u;

export function searchPlan(text: string): SearchPlan {
  const trimmed = text.trim();
  const words = trimmed
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, MAX_WORDS)
    .map((word) => [...new Set([word.toLowerCase(), ...countryAlternatives(word), ...placeAlternatives(word)])]);
  const digits = nationalNumber(phoneDigits(trimmed));
  const phone = PHONE_LIKE.test(trimmed) && digits.replace('+', '').length >= 3 ? digits : undefined;
  return { words, phone };
}
