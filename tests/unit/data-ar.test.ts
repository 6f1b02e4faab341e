/**
 * The site data's Arabic words (src/data/*.yaml, English and Arabic side by side): each has the
 * shape of its English original (same keys, same counts, same hrefs and nesting, same standard
 * ids), and every string a visitor reads is written in Arabic, with Latin letters only in names.
 */
import { describe, expect, test } from 'vitest';
import { englishLeft, hasArabic } from '../helpers/arabic';
import { readContentDir } from '../helpers/frontmatter';
import { readDataFile } from '../../src/data/data-file';
import { CAROUSELS_FILE, HOME_FILE, carouselsFileSchema, homeFileSchema } from '../../src/data/schemas';
import {
  NAVIGATION_FILE,
  flattenNavigation,
  isNavGroup,
  navigation,
  navigationIn,
  type NavEntry,
} from '../../src/data/navigation';
import { ISO_STANDARDS, STANDARD_ENTRIES, getStandard } from '../../src/data/standards';
import { companyFile } from '../../src/data/company';
import { mergeNavigation, pendingEntries } from '../../src/lib/nav-twins';
import { siteWords } from '../../src/data/site';
import { locales } from '../../src/i18n';

/** The Arabic menu as written: the entries with their `ar` label. */
const arNavigation = navigationIn('ar');

/** Every string in the value, named by its path ("clients.cta", "qualityPolicy.2"). */
function stringsOf(value: unknown, path = ''): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, v]) => stringsOf(v, path ? `${path}.${key}` : key));
  }
  return [];
}

/** The strings (by path) that are empty, have no Arabic letter or keep English words. */
function notArabic(value: unknown): string[] {
  return stringsOf(value)
    .filter(([, text]) => text.trim() === '' || !hasArabic(text) || englishLeft(text).length > 0)
    .map(([path, text]) => `${path}: ${JSON.stringify(text)}`);
}

/** The Arabic words of a side-by-side data file, by the path of their `en:`/`ar:` pair. */
function arabicWords(value: unknown, path = ''): Record<string, unknown> {
  if (!value || typeof value !== 'object') return {};
  const record = value as Record<string, unknown>;
  if (typeof record['en'] === 'string') return { [path]: record['ar'] };
  return Object.assign({}, ...Object.entries(record).map(([key, v]) => arabicWords(v, path ? `${path}.${key}` : key)));
}

const home = readDataFile(HOME_FILE, homeFileSchema);
const carousels = readDataFile(CAROUSELS_FILE, carouselsFileSchema);

/** The tree without its labels: hrefs and nesting only. */
const treeOf = (entries: readonly NavEntry[]): unknown[] =>
  entries.map((entry) => (isNavGroup(entry) ? { items: treeOf(entry.items) } : { href: entry.href }));

/** Every label of the tree, depth first. */
const labelsOf = (entries: readonly NavEntry[]): string[] =>
  entries.flatMap((entry) => [entry.label, ...(isNavGroup(entry) ? labelsOf(entry.items) : [])]);

describe('englishLeft', () => {
  test('sets aside the kept names, abbreviations, links and addresses, and finds English words', () => {
    expect(englishLeft('تقييم Schedule Q لأرامكو السعودية وفق ISO/IEC 17025:2017 وESG لدى Globaq')).toEqual([]);
    expect(englishLeft('تدريب Internal Audit على ISO 9001')).toEqual(['Internal', 'Audit']);
    expect(englishLeft('[تواصل معنا](/ContactUs) أو info@globaq.com أو https://globaq.example/ar')).toEqual([]);
    expect(englishLeft('مؤشرات KPIs ومبادئ HACCP')).toEqual([]);
    expect(englishLeft('Contact Us')).toEqual(['Contact', 'Us']);
    expect(englishLeft('منصة LinkedIn')).toEqual(['LinkedIn']);
  });
});

describe('Arabic home text and hero descriptions (src/data/home.yaml, carousels.yaml)', () => {
  // A text not yet translated shows in English, marked (tests/unit/editor-edits.test.ts).
  test('every Arabic text is in Arabic, and no two hero descriptions are the same', () => {
    expect(notArabic(arabicWords(home))).toEqual([]);
    const alts = Object.values(arabicWords(carousels)).filter((alt) => alt !== undefined);
    expect(notArabic(alts)).toEqual([]);
    expect(new Set(alts).size).toBe(alts.length);
  });
});

describe('Arabic navigation (the `ar` labels of src/data/navigation.yaml)', () => {
  test('the same tree: the same hrefs, unprefixed, in the same nesting and order, less entries not yet translated', () => {
    // An entry the English menu has added is shown in English until translated (src/lib/nav-twins.ts).
    const translated = new Set(flattenNavigation(arNavigation).map((link) => link.href));
    const prune = (entries: readonly NavEntry[]): NavEntry[] =>
      entries.flatMap((entry): NavEntry[] => {
        if (!isNavGroup(entry)) return translated.has(entry.href) ? [entry] : [];
        const items = prune(entry.items);
        return items.length > 0 ? [{ ...entry, items }] : [];
      });
    expect(treeOf(arNavigation)).toEqual(treeOf(prune(navigation)));
    const merged = mergeNavigation(navigation, arNavigation, NAVIGATION_FILE);
    expect(treeOf(merged)).toEqual(treeOf(navigation));
    expect(pendingEntries(merged)).toHaveLength(
      flattenNavigation(navigation).filter((link) => !translated.has(link.href)).length,
    );
  });

  test('every label is in Arabic', () => {
    expect(notArabic(labelsOf(arNavigation))).toEqual([]);
  });

  test('siblings have distinct labels, and the markers of the English labels are kept', () => {
    const check = (entries: readonly NavEntry[]): void => {
      const labels = entries.map((entry) => entry.label);
      expect(new Set(labels).size, labels.join(' | ')).toBe(labels.length);
      for (const entry of entries) if (isNavGroup(entry)) check(entry.items);
    };
    check(arNavigation);
    const english = labelsOf(navigation);
    const arabic = labelsOf(arNavigation);
    expect(arabic[english.indexOf('Other Audits (Coming Soon)')]).toMatch(/\(قريبًا\)$/);
    expect(arabic[english.indexOf('Laboratory Management Services (17025)')]).toMatch(/\(17025\)$/);
  });

  test('where the English menu names a page by its title, the Arabic menu names it by the Arabic title', () => {
    const titles = (dir: string) =>
      new Map(readContentDir(dir).map((page) => [`/${String(page.frontmatter['route'])}`, String(page.frontmatter['title'])]));
    const [englishTitles, arabicTitles] = [titles('pages'), titles('ar/pages')];
    const arabicLabels = new Map(flattenNavigation(arNavigation).map((link) => [link.href, link.label]));
    const named = flattenNavigation(navigation).flatMap((link) =>
      englishTitles.get(link.href) === link.label && arabicLabels.has(link.href)
        ? [{ href: link.href, label: arabicLabels.get(link.href) }]
        : [],
    );
    // The spec's menu names most pages by their titles (Vendor Assessment, ISO Internal Audits, ...).
    expect(named.length).toBeGreaterThanOrEqual(10);
    expect(named.filter(({ href, label }) => arabicTitles.get(href) !== label)).toEqual([]);
  });
});

describe('Arabic ISO standards (the `ar` words of src/data/standards.yaml)', () => {
  /** The Arabic words of each standard that has them, by id. */
  const standardTexts = Object.fromEntries(STANDARD_ENTRIES.flatMap(({ id, ar }) => (ar ? [[id, ar]] : [])));

  test('a title and a summary for each translated standard, and no other field; one not yet translated is shown in English', () => {
    for (const { id, en, ar } of STANDARD_ENTRIES) {
      if (!ar) {
        expect(getStandard(id, 'ar')).toEqual({ ...getStandard(id), pending: true });
        continue;
      }
      // An edition note where the English has one (tests/unit/standards.test.ts), nothing else.
      expect(Object.keys(ar).sort(), id).toEqual(en.update ? ['summary', 'title', 'update'] : ['summary', 'title']);
    }
  });

  test('every title and summary is in Arabic', () => {
    expect(notArabic(standardTexts)).toEqual([]);
  });

  test('a standard keeps its id, code and kind in Arabic, with its Arabic words', () => {
    for (const standard of ISO_STANDARDS) {
      const words = standardTexts[standard.id];
      if (!words) continue;
      expect(getStandard(standard.id, 'ar')).toEqual({ id: standard.id, code: standard.code, kind: standard.kind, ...words });
    }
  });
});

describe('Arabic company words (src/data/company.yaml)', () => {
  test('every Arabic word is in Arabic, with Globaq kept in Latin letters in the legal name', () => {
    expect(notArabic(arabicWords(companyFile))).toEqual([]);
    expect(companyFile.legalName.ar).toContain('Globaq');
    expect(siteWords(locales.ar).addressLine).toBe('الخبر، المملكة العربية السعودية');
  });
});
