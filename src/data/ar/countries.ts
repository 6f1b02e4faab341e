/**
 * Arabic country names where the Unicode data's short name is not the one Saudi readers know
 * (src/forms/country-list.ts uses the Unicode data's name for every other country).
 */
import type { CountryCode } from '../../forms/countries';

export const arabicCountryNames: Readonly<Partial<Record<CountryCode, string>>> = {
  PS: 'فلسطين',
  MM: 'ميانمار',
  CG: 'جمهورية الكونغو',
  CD: 'جمهورية الكونغو الديمقراطية',
  VA: 'الكرسي الرسولي (الفاتيكان)',
};
