/**
 * The locale plumbing of the Arabic site: the registered locales, paths in each
 * language, the twin check between a translated collection and the English one, Arabic
 * breadcrumbs and menu keys, and the content collections' Arabic twins against their schemas.
 */
import { describe, expect, test } from 'vitest';
import { defaultLocale, formatNumber, getLocale, locales, t } from '../../src/i18n';
import { localizePath, pagePath, unlocalizePath } from '../../src/lib/paths';
import { assertTwins } from '../../src/lib/catalogue';
import { breadcrumbsFor } from '../../src/lib/breadcrumbs';
import { slugify, toMenuNodes, type MenuNode } from '../../src/lib/menu';
import { mergeNavigation } from '../../src/lib/nav-twins';
import { NAVIGATION_FILE, isNavGroup, navigation, navigationIn, type NavEntry } from '../../src/data/navigation';
import { ROOT, loadCollection, loadPages, loadServices } from '../helpers/content';
import { missingTwins, twinPath } from '../../src/integrations/content-rules';

/** The Arabic menu as written: the entries with their `ar` label. */
const arNavigation = navigationIn('ar');

describe('locales', () => {
  test('English is the default, left to right; Arabic is registered, right to left, under /ar', () => {
    expect(defaultLocale).toBe(locales.en);
    expect(locales.en).toMatchObject({ lang: 'en', dir: 'ltr', pathPrefix: '', ogLocale: 'en_US' });
    expect(locales.ar).toMatchObject({ lang: 'ar', dir: 'rtl', pathPrefix: '/ar', ogLocale: 'ar_SA' });
    expect(getLocale('ar')).toBe(locales.ar);
    expect(getLocale('en')).toBe(locales.en);
    expect(getLocale(undefined)).toBe(defaultLocale);
    expect(getLocale('fr')).toBe(defaultLocale);
  });

  test('t() reads the locale it is given, and English by default', () => {
    expect(t('nav.home')).toBe('Home');
    expect(t('nav.home', {}, locales.ar)).toBe('الرئيسية');
    expect(t('footer.copyright', { year: 2031 }, locales.ar)).toBe('© 2031 Globaq. جميع الحقوق محفوظة.');
  });

  test('numbers are written with Western digits in both languages, as the Arabic content writes them', () => {
    expect(formatNumber(2026)).toBe('2026');
    expect(formatNumber(2026, locales.ar)).toBe('2026');
  });
});

describe('paths in each language', () => {
  test('the Arabic twin of a path has the same rest of the path under /ar', () => {
    expect(localizePath('/', locales.ar)).toBe('/ar');
    expect(localizePath('/AboutUs', locales.ar)).toBe('/ar/AboutUs');
    expect(localizePath('/#services', locales.ar)).toBe('/ar#services');
    expect(localizePath('/ISOConsultancy#iso-9001-2015', locales.ar)).toBe('/ar/ISOConsultancy#iso-9001-2015');
    expect(localizePath('/AboutUs', locales.en)).toBe('/AboutUs');
  });

  test('and back', () => {
    expect(unlocalizePath('/ar', locales.ar)).toBe('/');
    expect(unlocalizePath('/ar/services/ms-audits', locales.ar)).toBe('/services/ms-audits');
    expect(unlocalizePath('/AboutUs', locales.en)).toBe('/AboutUs');
  });

  test('build.format "file": /ar.html is the page /ar', () => {
    expect(pagePath(new URL('https://x.example/ar.html'))).toBe('/ar');
    expect(pagePath(new URL('https://x.example/ar/AboutUs.html'))).toBe('/ar/AboutUs');
  });

  test("links to the forms go to their twin in the page's language", () => {
    expect(localizePath('/ContactUs', locales.ar)).toBe('/ar/ContactUs');
    expect(localizePath('/Partner', locales.ar)).toBe('/ar/Partner');
    expect(localizePath('/Partner', locales.en)).toBe('/Partner');
  });
});

describe('twins: a translated collection against the English one (assertTwins)', () => {
  const english = [
    { key: 'ms-audits', facts: { order: 1 }, filePath: 'src/content/services/ms-audits.mdx' },
    { key: 'trainings', facts: { order: 2 }, filePath: 'src/content/services/trainings.mdx' },
  ];

  test('the same keys and facts pass; a missing translation is allowed', () => {
    expect(() => assertTwins(english, [{ key: 'trainings', facts: { order: 2 } }], 'slug')).not.toThrow();
  });

  test('a translation without an English twin fails, naming its file and field', () => {
    expect(() =>
      assertTwins(english, [{ key: 'quantum', facts: { order: 3 }, filePath: 'src/content/ar/services/quantum.mdx' }], 'slug'),
    ).toThrow(/src\/content\/ar\/services\/quantum\.mdx: field "slug" is "quantum"/);
  });

  test('a fact that differs from the English twin fails, naming both files and the field', () => {
    expect(() =>
      assertTwins(
        english,
        [{ key: 'trainings', facts: { order: 5 }, filePath: 'src/content/ar/services/trainings.mdx' }],
        'slug',
      ),
    ).toThrow(
      'src/content/ar/services/trainings.mdx: field "order" is 5, but its English twin src/content/services/trainings.mdx has 2',
    );
  });
});

describe('the Arabic content collections (src/content.config.ts: arServices, arPages)', () => {
  test('every Arabic file passes the English schema, and twins its English entry', () => {
    const arServices = loadCollection('arServices', 'ar/services');
    const arPages = loadCollection('arPages', 'ar/pages');
    // Every English entry has its twin, but those whose translation is pending (the build warns of each).
    const pending = new Set(missingTwins(ROOT).map((twin) => twin.arabic));
    const expected = (entries: { filePath: string }[]) =>
      entries.filter((entry) => !pending.has(twinPath(entry.filePath))).length;
    expect(arServices.map((s) => s.id).sort()).toEqual(
      loadServices()
        .filter((s) => !pending.has(twinPath(s.filePath)))
        .map((s) => s.id)
        .sort(),
    );
    const summary = (facts: Record<string, unknown>, key: string, filePath: string) => ({ key, facts, filePath });
    assertTwins(
      loadServices().map((s) => summary({ order: s.data.order }, s.id, s.filePath)),
      arServices.map((s) => summary({ order: s.data.order }, s.id, s.filePath)),
      'slug',
    );
    // A course the English added is shown in English until translated: the twin's courses are the
    // English ones, in the English order, less those not yet translated.
    const arCourses = new Map(arPages.map((p) => [p.data.route, p.data.courses?.map((c) => c.id) ?? []]));
    const pageFacts = (p: (typeof arPages)[number], own = p.data.courses?.map((c) => c.id) ?? []) => ({
      standards: p.data.standards,
      courses: p.data.courses?.map((c) => c.id).filter((id) => own.includes(id)),
    });
    assertTwins(
      loadPages().map((p) => summary(pageFacts(p, arCourses.get(p.data.route)), p.data.route, p.filePath)),
      arPages.map((p) => summary(pageFacts(p), p.data.route, p.filePath)),
      'route',
    );
    expect(arPages).toHaveLength(expected(loadPages()));
  });
});

describe('Arabic breadcrumbs and menu keys', () => {
  test('the trail follows the Arabic menu groups, home at /ar; a group with a page of its own links its Arabic page', () => {
    const trail = breadcrumbsFor('/Trainings/ISOTrainings/InternalAuditTraining', arNavigation, locales.ar);
    expect(trail).toEqual([
      { label: 'الرئيسية', href: '/ar' },
      { label: 'التدريب', href: '/ar/services/trainings' },
      { label: 'تدريبات ISO' },
    ]);
  });

  test('Arabic labels make no keys of their own; the English labels do, the same in both languages', () => {
    expect(slugify('التدريب')).toBe('');
    // As getNavigation() in src/lib/content.ts does it: the Arabic menu over the English one (an
    // entry not yet translated in English), each entry with its English twin's key.
    const withKeys = (entries: readonly NavEntry[], english: readonly NavEntry[]): NavEntry[] =>
      entries.map((entry, i) => {
        const twin = english[i]!;
        const key = slugify(twin.label);
        return isNavGroup(entry) && isNavGroup(twin)
          ? { ...entry, key, items: withKeys(entry.items, twin.items) }
          : { ...entry, key };
      });
    const keys = (nodes: readonly MenuNode[]): string[] => nodes.flatMap((node) => [node.key, ...keys(node.items ?? [])]);
    const merged = mergeNavigation(navigation, arNavigation, NAVIGATION_FILE);
    expect(keys(toMenuNodes(withKeys(merged, navigation)))).toEqual(keys(toMenuNodes(navigation)));
  });
});
