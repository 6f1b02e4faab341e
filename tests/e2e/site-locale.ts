/**
 * The language a spec runs in.
 *
 * playwright.config.ts runs the behaviour specs as the project `en`, and again as the project `ar`:
 * the whole-site sweeps whole, of the others the tests tagged `@rtl` (what can behave otherwise
 * right to left) or `@content` (BILINGUAL_SPECS there says which is which); a spec that
 * imports `test` from here gets `lang`, the site in the project's language: its paths, its
 * interface strings (the same dictionaries the pages are built from), its menu tree and its
 * digits. A spec written against `lang` says once what must hold, in whichever language runs it.
 */
import { test as base } from '@playwright/test';
import { locales, t as translate, type Locale, type LocaleCode, type UiKey } from '../../src/i18n';
import { localizePath } from '../../src/lib/paths';
import {
  NAVIGATION_FILE,
  navigation as englishNavigation,
  flattenNavigation,
  isNavGroup,
  navigationIn,
  type NavEntry,
} from '../../src/data/navigation';
import { mergeNavigation } from '../../src/lib/nav-twins';
import { companyFile } from '../../src/data/company';
import { siteLinks } from '../../src/data/company';
import { site } from './site-data';

export { expect } from '@playwright/test';

export interface SiteLanguage {
  readonly code: LocaleCode;
  readonly locale: Locale;
  readonly dir: 'ltr' | 'rtl';
  /** A page of the specification ("/AboutUs", "/#services") at its address in this language. */
  path(path: string): string;
  /** A URL matcher for `path` in this language, anchored at the end of the address. */
  url(path: string): RegExp;
  /** An interface string, as the pages show it. */
  t(key: UiKey, values?: Record<string, string | number>): string;
  /**
   * The menu tree in this language (the same hrefs, unprefixed, in both), as the site shows it:
   * an entry not yet translated is the English one.
   */
  readonly navigation: readonly NavEntry[];
  /** The label the menu gives the link or group at `href` / named `english` in English. */
  label(english: string): string;
  /** A whole number as this language writes it (Western digits in both: one choice per language, everywhere). */
  number(value: number): string;
  /** The company's address line as the page shows it. */
  readonly addressLine: string;
}

/** `text` as a regular expression matches it, its special characters escaped. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The English label → this language's label, walking both menu trees side by side (merged, they have one shape). */
function labelMap(from: readonly NavEntry[], to: readonly NavEntry[], into = new Map<string, string>()): Map<string, string> {
  from.forEach((entry, index) => {
    const twin = to[index];
    if (!twin) throw new Error(`The menu trees differ at "${entry.label}"`);
    into.set(entry.label, twin.label);
    if (isNavGroup(entry) && isNavGroup(twin)) labelMap(entry.items, twin.items, into);
  });
  return into;
}

export function siteLanguage(code: LocaleCode): SiteLanguage {
  const locale = locales[code];
  const navigation = code === 'ar' ? mergeNavigation(englishNavigation, navigationIn('ar'), NAVIGATION_FILE) : englishNavigation;
  const labels = labelMap(englishNavigation, navigation);
  const numbers = new Intl.NumberFormat(locale.formatLocale, { useGrouping: false });
  return {
    code,
    locale,
    dir: locale.dir,
    path: (path) => localizePath(path, locale),
    url: (path) => new RegExp(`${escapeRegExp(localizePath(path, locale))}$`),
    t: (key, values = {}) => translate(key, values, locale),
    navigation,
    label: (english) => {
      const label = labels.get(english);
      if (label === undefined) throw new Error(`No menu entry "${english}"`);
      return label;
    },
    number: (value) => numbers.format(value),
    addressLine:
      code === 'ar' ? `${companyFile.address.locality.ar}، ${companyFile.address.country.ar}` : siteLinks(site).addressLine,
  };
}

/** Every link of this language's menu, depth first, in menu order. */
export const menuLinks = (lang: SiteLanguage) => flattenNavigation(lang.navigation);

/** The project option that picks the language (playwright.config.ts). */
export interface SiteLocaleOptions {
  siteLocale: LocaleCode;
}

export const test = base.extend<{ lang: SiteLanguage }, SiteLocaleOptions>({
  siteLocale: ['en', { option: true, scope: 'worker' }],
  lang: async ({ siteLocale }, use) => {
    await use(siteLanguage(siteLocale));
  },
});
