import { en } from './en';
import { fillTemplate } from './template';

export type UiKey = keyof typeof en;
export type UiStrings = Record<UiKey, string>;

export interface Locale {
  /** BCP 47 tag for `<html lang>`. */
  readonly lang: string;
  /** Writing direction for `<html dir>`. */
  readonly dir: 'ltr' | 'rtl';
  readonly strings: UiStrings;
}

export const locales = {
  en: { lang: 'en', dir: 'ltr', strings: en },
} as const satisfies Record<string, Locale>;

export const defaultLocale: Locale = locales.en;

/** True when `key` names an interface string: for names that come from outside (a refused field's name). */
export function isUiKey(key: string, locale: Locale = defaultLocale): key is UiKey {
  return Object.hasOwn(locale.strings, key);
}

/**
 * The interface string `key` in the default locale, with `{name}` placeholders filled from
 * `values`. A placeholder without a value is an error, so a broken string never ships.
 */
export function t(key: UiKey, values: Record<string, string | number> = {}, locale: Locale = defaultLocale): string {
  try {
    return fillTemplate(locale.strings[key], values);
  } catch (error) {
    throw new Error(`UI string "${key}": ${(error as Error).message}`);
  }
}

/**
 * The interface string `key` cut at its `{name}` placeholders, for a component that puts an
 * element (a link, say) in each: `"Call {phone}."` gives `["Call ", { slot: "phone" }, "."]`.
 * The words around the slots stay in the locale's order.
 */
export function tParts(key: UiKey, locale: Locale = defaultLocale): (string | { readonly slot: string })[] {
  return locale.strings[key]
    .split(/(\{\w+\})/)
    .filter((part) => part !== '')
    .map((part) => (/^\{\w+\}$/.test(part) ? { slot: part.slice(1, -1) } : part));
}
