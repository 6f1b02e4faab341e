/**
 * The content collections as the pages use them, in each language: ordered, cross-checked,
 * and joined with the navigation tree.
 */
import { getCollection, type CollectionEntry } from 'astro:content';
import { assertTwins, assertUniqueRoutes, orderServices } from './catalogue';
import { localizePath } from './paths';
import { slugify, type ResolvedNavEntry } from './menu';
import { isNavGroup, navigation, navigationIn, type NavEntry } from '../data/navigation';
import { getStandard } from '../data/standards';
import { defaultLocale, t, type Locale, type LocaleCode } from '../i18n';
import { trustKindsWithEntries, TRUST_ROUTES } from './trust';
import { mergeNavigation, type MergedNavEntry } from './nav-twins';

export type ServiceEntry = CollectionEntry<'services'> | CollectionEntry<'arServices'>;
export type PageEntry = CollectionEntry<'pages'> | CollectionEntry<'arPages'>;

/** Each locale's menu tree: the same hrefs (unprefixed) and nesting, its own labels. */
const NAVIGATION: Readonly<Record<LocaleCode, readonly NavEntry[]>> = { en: navigation, ar: navigationIn('ar') };

async function orderedServices(code: LocaleCode): Promise<ServiceEntry[]> {
  const entries: ServiceEntry[] = code === 'ar' ? await getCollection('arServices') : await getCollection('services');
  const ordered = orderServices(
    entries.map((entry) => ({
      slug: entry.id,
      order: entry.data.order,
      title: entry.data.title,
      filePath: entry.filePath,
      entry,
    })),
  );
  return ordered.map((s) => s.entry);
}

/** Whether `entry` is the English original standing in for a translation not yet written (shown with TranslationPending). */
export function isPendingTranslation(entry: ServiceEntry | PageEntry, locale: Locale): boolean {
  return locale.code !== defaultLocale.code && (entry.collection === 'services' || entry.collection === 'pages');
}

/**
 * The service catalogue in `locale`, in the English order; a service not yet translated is there in English, so every
 * language's menus, cards and routes list the whole catalogue.
 */
export async function getServices(locale: Locale = defaultLocale): Promise<ServiceEntry[]> {
  const services = await orderedServices(locale.code);
  if (locale.code === defaultLocale.code) return services;
  const originals = await orderedServices(defaultLocale.code);
  const summary = (s: ServiceEntry) => ({ key: s.id, facts: { order: s.data.order }, filePath: s.filePath });
  assertTwins(originals.map(summary), services.map(summary), 'slug');
  const translated = new Map(services.map((service) => [service.id, service]));
  return originals.map((original) => translated.get(original.id) ?? original);
}

async function uniquePages(code: LocaleCode): Promise<PageEntry[]> {
  const entries: PageEntry[] = code === 'ar' ? await getCollection('arPages') : await getCollection('pages');
  assertUniqueRoutes(entries.map((entry) => ({ route: entry.data.route, filePath: entry.filePath })));
  return entries;
}

/** The static content pages in `locale`; one not yet translated is there in English (isPendingTranslation). */
export async function getPages(locale: Locale = defaultLocale): Promise<PageEntry[]> {
  const pages = await uniquePages(locale.code);
  if (locale.code === defaultLocale.code) return pages;
  const originals = await uniquePages(defaultLocale.code);
  const originalOf = new Map(originals.map((original) => [original.data.route, original]));
  const withPendingCourses = pages.map((page) => {
    const original = originalOf.get(page.data.route);
    return withEnglishFacts(withEnglishCourses(page, original), original);
  });
  const summary = (p: PageEntry) => ({
    key: p.data.route,
    facts: {
      standards: p.data.standards,
      courses: p.data.courses?.map((course) => course.id),
      'courses.level': p.data.courses?.map((course) => course.level ?? p.data.course?.level),
      // How a training runs is one fact in both languages; only its words are translated.
      ...(p.data.course && {
        'course.days': p.data.course.days,
        'course.level': p.data.course.level,
        'course.languages': p.data.course.languages,
        'course.delivery': p.data.course.delivery,
      }),
    },
    filePath: p.filePath,
  });
  assertTwins(originals.map(summary), withPendingCourses.map(summary), 'route');
  const translated = new Map(withPendingCourses.map((page) => [page.data.route, page]));
  return originals.map((original) => translated.get(original.data.route) ?? original);
}

/** A translated training page without the course facts yet takes its English twin's: how a course runs never waits. */
function withEnglishFacts(page: PageEntry, original: PageEntry | undefined): PageEntry {
  const facts = original?.data.course;
  if (page.data.course || !facts) return page;
  return { ...page, data: { ...page.data, course: facts } } as PageEntry;
}

/** A course as a page lists it; `pending` when it is the English course standing in for its translation. */
type ListedCourse = NonNullable<PageEntry['data']['courses']>[number] & { readonly pending?: boolean };

/**
 * A translated page with the courses its English twin has added since, in the English order, each marked `pending`
 * (shown in English under a note). A course only the translation has is left for assertTwins to name.
 */
function withEnglishCourses(page: PageEntry, original: PageEntry | undefined): PageEntry {
  const english = original?.data.courses;
  // A twin without a `courses:` of its own yet lists every course in English.
  const own = page.data.courses ?? [];
  if (!english || english.every((course) => own.some((mine) => mine.id === course.id))) return page;
  if (own.some((mine) => !english.some((course) => course.id === mine.id))) return page;
  const courses: ListedCourse[] = english.map(
    (course) => own.find((mine) => mine.id === course.id) ?? { ...course, pending: true },
  );
  return { ...page, data: { ...page.data, courses } } as PageEntry;
}

/** The unprefixed menu tree of `locale`, in the English order, an untranslated entry in English (src/lib/nav-twins.ts). */
export function navigationOf(locale: Locale = defaultLocale): readonly MergedNavEntry[] {
  if (locale.code === defaultLocale.code) return NAVIGATION[locale.code];
  return mergeNavigation(NAVIGATION[defaultLocale.code], NAVIGATION[locale.code], 'src/data/navigation.yaml');
}

/**
 * The menu tree in `locale`, its hrefs in that locale ("/ar/AboutUs"). Every entry carries its English twin's key
 * (slugify() keeps Latin letters only), so the menus' element ids are the same in both languages.
 */
export async function getNavigation(locale: Locale = defaultLocale): Promise<ResolvedNavEntry[]> {
  const pages = await getPages(locale);
  const byHref = new Map(pages.map((page) => [`/${page.data.route}`, page]));
  const translated = locale.code !== defaultLocale.code;
  // The merged tree has the English tree's shape: entry by entry, each English entry is its twin.
  const resolve = (entry: MergedNavEntry, english: NavEntry): ResolvedNavEntry => {
    const key = translated ? { key: slugify(english.label) } : {};
    const lang = translated && entry.pending ? { lang: defaultLocale.lang } : {};
    // A group with one destination is that destination: a link in both menus, not a button
    // that opens a list of one (ISO Consultancy).
    if (isNavGroup(entry) && isNavGroup(english) && entry.items.length === 1 && english.items.length === 1) {
      const [only] = entry.items;
      if (only !== undefined && !isNavGroup(only)) return resolve(only, english.items[0]!);
    }
    if (isNavGroup(entry) && isNavGroup(english))
      return { label: entry.label, ...key, ...lang, items: entry.items.map((item, i) => resolve(item, english.items[i]!)) };
    if (isNavGroup(entry)) throw new Error(`navigationOf(): "${entry.label}" is a group where English has a link`);
    const href = localizePath(entry.href, locale);
    const standards = byHref.get(entry.href)?.data.standards ?? [];
    const children = standards.map((id) => ({ label: getStandard(id).code, href: `${href}#${id}` }));
    return { label: entry.label, href, ...key, ...lang, ...(children.length >= 2 && { children }) };
  };
  const english = NAVIGATION[defaultLocale.code];
  return navigationOf(locale).map((entry, i) => resolve(entry, english[i]!));
}

/** A public page: its path, title and description (home, fixed pages, content pages, services). */
interface PublicPage {
  readonly path: string;
  readonly title: string;
  readonly description: string;
}

/** Every page search engines and sharing should know in `locale`, in menu-like order, at its path in that locale. */
export async function getPublicPages(
  strings: { home: [string, string]; contact: [string, string]; partner: [string, string] },
  locale: Locale = defaultLocale,
): Promise<PublicPage[]> {
  const [pages, services, trust] = await Promise.all([getPages(locale), getServices(locale), trustKindsWithEntries()]);
  const at = (path: string) => localizePath(path, locale);
  return [
    { path: at('/'), title: strings.home[0], description: strings.home[1] },
    ...pages.map((page) => ({ path: at(`/${page.data.route}`), title: page.data.title, description: page.data.description })),
    ...services.map((service) => ({
      path: at(`/services/${service.id}`),
      title: service.data.title,
      description: service.data.description,
    })),
    // Who does the work: only the collections with entries have a page.
    ...trust.map((kind) => ({
      path: at(`/${TRUST_ROUTES[kind]}`),
      title: t(`trust.${kind}.title`, {}, locale),
      description: t(`trust.${kind}.description`, {}, locale),
    })),
    { path: at('/ContactUs'), title: strings.contact[0], description: strings.contact[1] },
    { path: at('/Partner'), title: strings.partner[0], description: strings.partner[1] },
  ];
}

/** The unprefixed paths of the pages that exist in `locale` as well as in English (translated or pending). */
export async function getTranslatedPaths(locale: Locale): Promise<ReadonlySet<string>> {
  if (locale.code === defaultLocale.code) return new Set();
  const [pages, services, trust] = await Promise.all([getPages(locale), getServices(locale), trustKindsWithEntries()]);
  const paths = [
    ...trust.map((kind) => `/${TRUST_ROUTES[kind]}`),
    '/',
    '/ContactUs',
    '/Partner',
    '/ThanksPage',
    ...pages.map((page) => `/${page.data.route}`),
    ...services.map((service) => `/services/${service.id}`),
  ];
  return new Set(paths);
}

/**
 * The unprefixed paths whose page in `locale` shows the English text until translated. Search engines are told of the
 * English page only: no hreflang alternate, an English canonical address, no sitemap entry.
 */
export async function getPendingPaths(locale: Locale): Promise<ReadonlySet<string>> {
  if (locale.code === defaultLocale.code) return new Set();
  const [pages, services] = await Promise.all([getPages(locale), getServices(locale)]);
  return new Set([
    ...pages.filter((page) => isPendingTranslation(page, locale)).map((page) => `/${page.data.route}`),
    ...services.filter((service) => isPendingTranslation(service, locale)).map((service) => `/services/${service.id}`),
  ]);
}
