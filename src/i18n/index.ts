import { en } from './en.ts';
import { ar } from './ar.ts';
import { fillTemplate, templateParts } from './template.ts';
import { numberFormat } from '../lib/intl-formats.ts';

export type UiKey = keyof typeof en;
export type UiStrings = Record<UiKey, string>;

/** The site's languages: English at the specification's paths, Arabic under /ar. */
export type LocaleCode = 'en' | 'ar';

export interface Locale {
  /** The locale's code, also the first path segment of its pages (none for the default). */
  readonly code: LocaleCode;
  /** BCP 47 tag for `<html lang>`. */
  readonly lang: string;
  /** Writing direction for `<html dir>`. */
  readonly dir: 'ltr' | 'rtl';
  /** Open Graph's `og:locale` (language_TERRITORY). */
  readonly ogLocale: string;
  /** The tag numbers and dates are formatted with (the copyright year): Western digits in both languages, as all the content writes them (one choice of digits per language). */
  readonly formatLocale: string;
  /** What the locale's paths start with: "" for English, "/ar" for Arabic. */
  readonly pathPrefix: '' | `/${string}`;
  readonly strings: UiStrings;
}

/**
 * The default locale stands on its own (not read out of `locales`): an island that imports `t`
 * for English (the forms) then bundles the English dictionary only, and never the Arabic one.
 */
export const defaultLocale: Locale = {
  code: 'en',
  lang: 'en',
  dir: 'ltr',
  ogLocale: 'en_US',
  formatLocale: 'en',
  pathPrefix: '',
  strings: en,
};

export const locales: Readonly<Record<LocaleCode, Locale>> = {
  en: defaultLocale,
  ar: { code: 'ar', lang: 'ar', dir: 'rtl', ogLocale: 'ar_SA', formatLocale: 'ar-SA-u-nu-latn', pathPrefix: '/ar', strings: ar },
};

export const LOCALE_CODES = Object.keys(locales) as LocaleCode[];

/** The locale of a code such as `Astro.currentLocale`; the default one for anything else. */
export function getLocale(code: string | undefined): Locale {
  return code !== undefined && Object.hasOwn(locales, code) ? locales[code as LocaleCode] : defaultLocale;
}

/** True when `key` names an interface string: for names that come from outside (a refused field's name). */
export function isUiKey(key: string, locale: Locale = defaultLocale): key is UiKey {
  return Object.hasOwn(locale.strings, key);
}

/**
 * The interface string `key` in `locale` (the default one unless given), with `{name}`
 * placeholders filled from `values`. A placeholder without a value is an error, so a broken
 * string never ships.
 */
export function t(key: UiKey, values: Record<string, string | number> = {}, locale: Locale = defaultLocale): string {
  try {
    return fillTemplate(locale.strings[key], values);
  } catch (error) {
    throw new Error(`UI string "${key}": ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The interface string `key` cut at its `{name}` placeholders (see `templateParts`), for a
 * component that puts an element (a link, say) in each.
 */
export function tParts(key: UiKey, locale: Locale = defaultLocale): (string | { readonly slot: string })[] {
  return templateParts(locale.strings[key]);
}

/** The strings a form island shows: the shared `form.*` ones and its own form's. */
export type FormOfStrings = 'contact' | 'partner';
/** The keys of form `F`'s strings; `FormKey<never>` the shared `form.*` keys alone. */
export type FormKey<F extends FormOfStrings = FormOfStrings> = Extract<UiKey, `form.${string}` | `${F}.${string}`>;
export type FormStrings<F extends FormOfStrings> = Readonly<Record<FormKey<F>, string>>;

/**
 * The strings of form `form` in `locale`, handed to its island as a prop: an island never
 * imports a dictionary, so each language's page carries its own words and no script bundles
 * either language's whole dictionary.
 */
export function formStrings<F extends FormOfStrings>(form: F, locale: Locale = defaultLocale): FormStrings<F> {
  const picked = Object.entries(locale.strings).filter(([key]) => key.startsWith('form.') || key.startsWith(`${form}.`));
  return Object.fromEntries(picked) as FormStrings<F>;
}

/** `n` as the locale writes it, without grouping (a year: 2026, in Arabic too). */
export function formatNumber(n: number, locale: Locale = defaultLocale): string {
  return numberFormat(locale.formatLocale, { useGrouping: false }).format(n);
}
