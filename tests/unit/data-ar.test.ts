/**
 * The Arabic twins of the site data (src/data/ar/*.ts, not yet served): each has the
 * shape of its English original (same keys, same counts, same hrefs and nesting, same standard
 * ids), and every string a visitor reads is written in Arabic, with Latin letters only in names.
 */
import { describe, expect, test } from 'vitest';
import { englishLeft, hasArabic } from '../helpers/arabic';
import { readContentDir } from '../helpers/frontmatter';
import { home } from '../../src/data/home';
import { heroImages } from '../../src/data/carousels';
import { flattenNavigation, isNavGroup, navigation, type NavEntry } from '../../src/data/navigation';
import { ISO_STANDARDS, ISO_STANDARD_IDS, getStandard, type IsoStandardId } from '../../src/data/standards';
import { createSite } from '../../src/data/company';
import { home as arHome } from '../../src/data/ar/home';
import { heroAlts } from '../../src/data/ar/carousels';
import { navigation as arNavigation } from '../../src/data/ar/navigation';
import { getArabicStandard, standardTexts, standardsWithoutArabic } from '../../src/data/ar/standards';
import { mergeNavigation, pendingEntries } from '../../src/lib/nav-twins';
import { addressLine as arAddressLine, company as arCompany } from '../../src/data/ar/company';

/** The value with every string replaced by "string": two values have the same shape when these are equal. */
function shapeOf(value: unknown): unknown {
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return value.map(shapeOf);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shapeOf(v)]));
  return value;
}

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

describe('Arabic home text (src/data/ar/home.ts)', () => {
  test('has the shape of the English: every key, five policy points', () => {
    expect(shapeOf(arHome)).toEqual(shapeOf(home));
    expect(arHome.qualityPolicy).toHaveLength(5);
  });

  test('every string is in Arabic', () => {
    expect(notArabic(arHome)).toEqual([]);
  });
});

describe('Arabic hero alternatives (src/data/ar/carousels.ts)', () => {
  test('one for each hero image, in the same order', () => {
    expect(heroAlts).toHaveLength(heroImages.length);
  });

  test('each describes its picture in Arabic, and no two are the same', () => {
    expect(notArabic(heroAlts)).toEqual([]);
    expect(new Set(heroAlts).size).toBe(heroAlts.length);
  });
});

describe('Arabic navigation (src/data/ar/navigation.ts)', () => {
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
    const merged = mergeNavigation(navigation, arNavigation, 'src/data/ar/navigation.ts');
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

describe('Arabic ISO standards (src/data/ar/standards.ts)', () => {
  test('a title and a summary for each standard id, in the same order, and no other; one not yet translated is shown in English', () => {
    const pending = standardsWithoutArabic();
    expect(Object.keys(standardTexts)).toEqual(ISO_STANDARD_IDS.filter((id) => !pending.includes(id)));
    for (const id of pending) expect(getArabicStandard(id)).toEqual({ ...getStandard(id), pending: true });
    for (const [id, text] of Object.entries(standardTexts)) {
      // An edition note where the English has one (tests/unit/standards.test.ts), nothing else.
      const expected = getStandard(id as IsoStandardId).update ? ['summary', 'title', 'update'] : ['summary', 'title'];
      expect(Object.keys(text).sort(), id).toEqual(expected);
    }
  });

  test('every title and summary is in Arabic', () => {
    expect(notArabic(standardTexts)).toEqual([]);
  });

  test('a standard keeps its id and code in Arabic', () => {
    for (const standard of ISO_STANDARDS) {
      const arabic = getArabicStandard(standard.id);
      expect(arabic).toMatchObject({ id: standard.id, code: standard.code, ...standardTexts[standard.id] });
    }
  });
});

describe('Arabic company words (src/data/ar/company.ts)', () => {
  const site = createSite({});
  const englishWords = {
    legalName: site.legalName,
    mission: site.mission,
    vision2030: site.vision2030,
    address: { locality: site.address.locality, country: site.address.country },
    whatsappGreeting: site.whatsapp.greeting,
    socialLabels: Object.fromEntries(site.social.map((profile) => [profile.network, profile.label])),
  };

  test('a twin for each word of the English details, and for each social network', () => {
    expect(shapeOf(arCompany)).toEqual(shapeOf(englishWords));
  });

  test('every word is in Arabic, with Globaq kept in Latin letters in the legal name', () => {
    expect(notArabic(arCompany)).toEqual([]);
    expect(arCompany.legalName).toContain('Globaq');
    expect(arAddressLine).toBe('الخبر، المملكة العربية السعودية');
  });
});
