/** Every page of the built site, with the heading it must show, read from the content files. */
import { readContentDir, type RawEntry } from '../helpers/frontmatter';
import { ar } from '../../src/i18n/ar';
import type { LocaleCode } from '../../src/i18n';

export interface RouteCase {
  readonly path: string;
  readonly heading: string;
}

/**
 * The pages or services a language's site shows: each English file, or its Arabic twin once
 * written (paired by route, or by file name for services); the English stands in until then.
 */
export function contentIn(kind: 'pages' | 'services', code: LocaleCode): RawEntry[] {
  const english = readContentDir(kind);
  if (code === 'en') return english;
  const key = (entry: RawEntry) => (kind === 'pages' ? String(entry.frontmatter['route']) : entry.id);
  const twins = new Map(readContentDir(`ar/${kind}`).map((entry) => [key(entry), entry]));
  return english.map((entry) => twins.get(key(entry)) ?? entry);
}

export const PAGE_ROUTES: readonly RouteCase[] = [
  { path: '/', heading: 'Globaq' },
  { path: '/AboutUs', heading: 'About Us' },
  { path: '/Aboutus', heading: 'About Us' },
  { path: '/ContactUs', heading: 'Contact Us' },
  { path: '/Partner', heading: 'Become a Partner' },
  { path: '/ThanksPage', heading: 'Thank You' },
  ...readContentDir('services').map((s) => ({ path: `/services/${s.id}`, heading: String(s.frontmatter['title']) })),
  ...readContentDir('pages')
    .filter((p) => p.frontmatter['route'] !== 'AboutUs')
    .map((p) => ({ path: `/${String(p.frontmatter['route'])}`, heading: String(p.frontmatter['title']) })),
];

/**
 * Every Arabic page: the twin of each English page under /ar, with its Arabic heading, or with the
 * English one while the page is not yet translated (shown in English under a notice).
 */
export const ARABIC_ROUTES: readonly RouteCase[] = [
  { path: '/ar', heading: 'Globaq' },
  { path: '/ar/ThanksPage', heading: ar['thanks.title'] },
  { path: '/ar/ContactUs', heading: ar['contact.title'] },
  { path: '/ar/Partner', heading: ar['partner.title'] },
  ...contentIn('pages', 'ar').map((p) => ({
    path: `/ar/${String(p.frontmatter['route'])}`,
    heading: String(p.frontmatter['title']),
  })),
  ...contentIn('services', 'ar').map((s) => ({ path: `/ar/services/${s.id}`, heading: String(s.frontmatter['title']) })),
];

/**
 * A page of each kind, as the specification spells its path: the pages that are no content file
 * (home, the forms, thanks, /Aboutus), a service, a content page with standards, one with courses,
 * a plain one, and Coming Soon. What differs between pages of a kind is their words, which the
 * checks on every page's HTML cover (tests/unit/site-pages.test.ts); the layout is the kind's. The
 * kinds are the same in both languages: the Arabic content files have the English ones' routes and
 * front matter keys.
 */
export const PAGE_KINDS: readonly string[] = (() => {
  const content = readContentDir('pages');
  const routeOf = (page: RawEntry | undefined) => `/${String(page?.frontmatter['route'])}`;
  return [
    ...PAGE_ROUTES.filter((r) => !r.path.startsWith('/services/') && !content.some((p) => routeOf(p) === r.path)).map(
      (r) => r.path,
    ),
    PAGE_ROUTES.find((r) => r.path.startsWith('/services/'))!.path,
    routeOf(content.find((p) => 'standards' in p.frontmatter)),
    routeOf(content.find((p) => 'courses' in p.frontmatter)),
    routeOf(
      content.find(
        (p) => !('standards' in p.frontmatter) && !('courses' in p.frontmatter) && p.frontmatter['route'] !== 'AboutUs',
      ),
    ),
    '/services/not-yet-a-service',
  ];
})();
