/**
 * Every page of the built site (dist/client) as HTML, in both languages, checked without a
 * browser: each internal link and #anchor resolves to a built page, a link into the other
 * language is that page's language switch, every page is reachable from its language's home page,
 * the sitemap names only such pages with alternates that exist; each page has its language and
 * direction, one heading with its content file's title, the content security policy and the
 * footer's address. What needs a browser (axe, layout, the policy blocking nothing, the server's
 * answers) is tests/e2e/a11y.spec.ts's one walk. Needs `astro build` first (npm test runs it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';
import { parseHtml } from '../helpers/dom';
import { ARABIC_ROUTES, PAGE_ROUTES, contentIn, type RouteCase } from '../e2e/routes';
import { site } from '../e2e/site-data';
import { locales, t, type LocaleCode, type UiKey } from '../../src/i18n';
import { companyFile, siteLinks } from '../../src/data/company';
import { splitWholeNames, WHOLE_NAME_CLASS } from '../../src/lib/whole-names';
import { localizePath } from '../../src/lib/paths';
import { ABOUT_HREF, ABOUT_MOBILE_HREF, flattenNavigation, navigation } from '../../src/data/navigation';
import { pagesServing } from '../../src/data/service-pages';
import { readContentDir } from '../helpers/frontmatter';

const CLIENT = path.join(process.env['SITE_DIST'] ?? path.join(ROOT, 'dist'), 'client');

interface BuiltPage {
  readonly path: string;
  readonly document: Document;
  readonly ids: ReadonlySet<string>;
  readonly links: readonly { href: string; hreflang: string | null }[];
}

const isArabicPath = (pathname: string) => pathname === locales.ar.pathPrefix || pathname.startsWith(`${locales.ar.pathPrefix}/`);
const languageOf = (pathname: string): LocaleCode => (isArabicPath(pathname) ? 'ar' : 'en');

/** The paths a static host serves with another page (the `200` rules of the build's _redirects). */
function aliases(): Map<string, string> {
  const rules = fs.readFileSync(path.join(CLIENT, '_redirects'), 'utf8').split('\n');
  return new Map(
    rules
      .map((line) => line.trim().split(/\s+/))
      .filter((parts) => parts.length === 3 && parts[2] === '200' && !parts[0]!.includes('*'))
      .map(([from, to]) => [from!, to!]),
  );
}

/** The HTML file that serves `pathname` on a static host, or undefined. */
function htmlFileOf(pathname: string, alias: ReadonlyMap<string, string>): string | undefined {
  const target = alias.get(pathname) ?? pathname;
  const file = target === '/' ? '/index.html' : `${target}.html`;
  return fs.existsSync(path.join(CLIENT, file)) ? file : undefined;
}

let pages: Map<string, BuiltPage>;
let alias: Map<string, string>;

/** The page at `pathname` (an alias reads its page), parsed once. */
function pageAt(pathname: string): BuiltPage | undefined {
  const file = htmlFileOf(pathname, alias);
  if (!file) return undefined;
  const key = file;
  let page = pages.get(key);
  if (!page) {
    const document = parseHtml(fs.readFileSync(path.join(CLIENT, file), 'utf8'));
    page = {
      path: pathname,
      document,
      ids: new Set([...document.querySelectorAll('[id]')].map((element) => element.id)),
      links: [...document.querySelectorAll('a[href]')].map((a) => ({
        href: a.getAttribute('href') ?? '',
        hreflang: a.getAttribute('hreflang'),
      })),
    };
    pages.set(key, page);
  }
  return page;
}

/** A link's path and anchor when it stays on the site (a path or an anchor), else undefined. */
function internal(href: string, from: string): { pathname: string; hash: string } | undefined {
  if (!href.startsWith('/') && !href.startsWith('#')) return undefined;
  if (href.startsWith('//')) return undefined;
  const url = new URL(href, `http://site.invalid${from}`);
  return { pathname: url.pathname, hash: decodeURIComponent(url.hash.slice(1)) };
}

/** Walks the links of a language from its home page: the pages reached, and what is broken. */
function crawl(code: LocaleCode): { reached: Set<string>; broken: string[] } {
  const home = code === 'ar' ? locales.ar.pathPrefix : '/';
  const other = code === 'ar' ? locales.en.lang : locales.ar.lang;
  const queue: string[] = [home];
  const reached = new Set<string>();
  const broken: string[] = [];
  while (queue.length > 0) {
    const from = queue.shift()!;
    if (reached.has(from)) continue;
    const page = pageAt(from);
    if (!page) {
      broken.push(`${from} has no page`);
      continue;
    }
    reached.add(from);
    for (const { href, hreflang } of page.links) {
      const link = internal(href, from);
      if (!link) continue;
      const target = pageAt(link.pathname);
      if (!target) {
        broken.push(`${from} links ${href}, which no page serves`);
        continue;
      }
      if (link.hash && !target.ids.has(link.hash)) broken.push(`${from} links ${href}, whose page has no id "${link.hash}"`);
      if (languageOf(link.pathname) !== code) {
        // The other language is reached only through the language switch, which names it.
        if (hreflang !== other) broken.push(`${from} links ${href} in the other language without hreflang="${other}"`);
        if (link.hash) broken.push(`${from} links ${href}: an anchor in the other language`);
        continue;
      }
      if (!reached.has(link.pathname)) queue.push(link.pathname);
    }
  }
  return { reached, broken };
}

beforeAll(() => {
  if (!fs.existsSync(CLIENT)) throw new Error('dist/client is missing: run `npm run build` first (npm test does).');
  pages = new Map();
  alias = aliases();
});

const LANGUAGES: readonly { code: LocaleCode; routes: readonly RouteCase[]; address: string }[] = [
  { code: 'en', routes: PAGE_ROUTES, address: siteLinks(site).addressLine },
  {
    code: 'ar',
    routes: ARABIC_ROUTES,
    address: `${companyFile.address.locality.ar}، ${companyFile.address.country.ar}`,
  },
];

describe.each(LANGUAGES)('the built pages in $code', ({ code, routes, address }) => {
  test('every internal link and #anchor reaches a page, and the other language only through its switch @content', () => {
    expect(crawl(code).broken).toEqual([]);
  });

  test('every page but the thanks page is reachable by links from the home page @content', () => {
    const { reached } = crawl(code);
    const thanks = code === 'ar' ? '/ar/ThanksPage' : '/ThanksPage';
    const unreached = routes.filter((route) => route.path !== thanks && !reached.has(route.path)).map((route) => route.path);
    expect(unreached).toEqual([]);
    expect(reached.size).toBeGreaterThanOrEqual(routes.length - 1);
  });

  test('every page: its language and direction, one heading with its title, the security policy, the address in the footer @content', () => {
    const locale = locales[code];
    const wrong: string[] = [];
    for (const route of routes) {
      const page = pageAt(route.path);
      if (!page) {
        wrong.push(`${route.path}: no page`);
        continue;
      }
      const { document } = page;
      const html = document.documentElement;
      if (html.getAttribute('lang') !== locale.lang) wrong.push(`${route.path}: lang="${html.getAttribute('lang')}"`);
      if (html.getAttribute('dir') !== locale.dir) wrong.push(`${route.path}: dir="${html.getAttribute('dir')}"`);
      const headings = document.querySelectorAll('h1');
      if (headings.length !== 1) wrong.push(`${route.path}: ${headings.length} h1`);
      const heading = (headings[0]?.textContent ?? '').replace(/\s+/g, ' ');
      if (!heading.includes(route.heading)) wrong.push(`${route.path}: h1 "${heading.trim()}", not "${route.heading}"`);
      if (document.querySelectorAll('meta[http-equiv="content-security-policy"]').length !== 1)
        wrong.push(`${route.path}: no single content-security-policy meta`);
      if (!(document.querySelector('footer')?.textContent ?? '').replace(/\s+/g, ' ').includes(address))
        wrong.push(`${route.path}: the footer lacks "${address}"`);
    }
    expect(wrong).toEqual([]);
  });

  test('every page: each name of src/lib/whole-names.ts in its text is kept on one line @content', () => {
    const broken: string[] = [];
    for (const route of routes) {
      const page = pageAt(route.path);
      if (!page) continue;
      const { document } = page;
      // Text outside islands (their markup is React's own) and outside scripts and styles.
      const walker = document.createTreeWalker(document.body, 4 /* NodeFilter.SHOW_TEXT */);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || parent.closest('astro-island, script, style, noscript')) continue;
        for (const run of splitWholeNames(node.textContent ?? ''))
          if (run.whole && !parent.classList.contains(WHOLE_NAME_CLASS))
            broken.push(`${route.path}: "${run.text}" in <${parent.localName}>`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('the sitemap names pages reachable by links, each with alternates that exist and name it @content', () => {
    const { reached } = crawl(code);
    const sitemap = fs.readFileSync(path.join(CLIENT, 'sitemap-0.xml'), 'utf8');
    const wrong: string[] = [];
    let entries = 0;
    for (const [, entry = ''] of sitemap.matchAll(/<url>([\s\S]*?)<\/url>/g)) {
      const pathname = new URL(/<loc>([^<]+)<\/loc>/.exec(entry)?.[1] ?? '').pathname;
      if (languageOf(pathname) !== code) continue;
      entries += 1;
      if (!reached.has(pathname)) wrong.push(`${pathname} is in the sitemap but linked from nowhere`);
      const alternates = [...entry.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map(
        ([, hreflang, href]) => ({ hreflang, pathname: new URL(href ?? '').pathname }),
      );
      if (alternates.length > 0 && !alternates.some((a) => a.hreflang === locales[code].lang && a.pathname === pathname))
        wrong.push(`${pathname}: its alternates do not name it`);
      for (const alternate of alternates)
        if (!pageAt(alternate.pathname))
          wrong.push(`${pathname}: its ${alternate.hreflang} alternate ${alternate.pathname} has no page`);
    }
    expect(wrong).toEqual([]);
    expect(entries).toBeGreaterThan(0);
  });

  /** A page of this language, parsed; `route` as the English site spells it. */
  const built = (route: string): Document => {
    const page = pageAt(localizePath(route, locales[code]));
    expect(page, route).toBeDefined();
    return page!.document;
  };
  const say = (key: UiKey, values: Record<string, string> = {}) => t(key, values, locales[code]);
  const words = (value: string) => value.replace(/\s+/g, ' ').trim();
  const text = (element: Element | null | undefined) => words(element?.textContent ?? '');

  // docs/requirements.md §4: each card's link goes to its own page (its heading there: above).
  test('every home service card links "Learn More" to its own service page @content', () => {
    // In Arabic, a service not yet translated is there in English.
    const services = contentIn('services', code);
    const cards = [...built('/').querySelectorAll('.service-card')];
    // One card per service in the catalogue, however many there are (content-inventory.test.ts counts the specification's).
    expect(cards).toHaveLength(services.length);
    for (const card of cards) {
      const title = text(card.querySelector('h3'));
      const service = services.find((entry) => entry.frontmatter['title'] === title);
      expect(service, title).toBeDefined();
      // "Learn More", then " about {title}" for screen readers and search engines (hidden on screen).
      const name = words(`${say('service.learnMore')}${say('service.learnMoreAbout', { title })}`);
      const links = [...card.querySelectorAll('a[href]')].filter((a) => text(a) === name);
      expect(
        links.map((a) => a.getAttribute('href')),
        title,
      ).toEqual([localizePath(`/services/${service?.id}`, locales[code])]);
    }
  });

  test('every menu destination is a real link in the HTML of both menus @content', () => {
    const page = built('/Partner');
    const hrefs = (selector: string) => [...page.querySelectorAll(selector)].map((a) => a.getAttribute('href'));
    const desktop = hrefs('.desktop-nav a[href]');
    // The menu's destinations; the language switch at the end of the panel is not one.
    const mobile = hrefs('.mobile-nav a[href]:not([hreflang])');
    // The same destinations in both languages (an entry not yet translated shows in English).
    for (const link of flattenNavigation(navigation)) {
      expect(desktop).toContain(localizePath(link.href, locales[code]));
      expect(mobile).toContain(localizePath(link.href === ABOUT_HREF ? ABOUT_MOBILE_HREF : link.href, locales[code]));
    }
    // The standards each ISO training and consultancy page lists are in the menus too.
    const standardsInMenu = readContentDir('pages')
      .map((entry) => (entry.frontmatter['standards'] as unknown[] | undefined)?.length ?? 0)
      .filter((count) => count >= 2)
      .reduce((sum, count) => sum + count, 0);
    expect(desktop.filter((href) => href?.includes('#'))).toHaveLength(standardsInMenu);
    expect(mobile).toHaveLength(desktop.length);
  });

  test('the privacy notice names the controller by its legal name and says the day it last changed @content', () => {
    const notice = contentIn('pages', code).find((entry) => entry.frontmatter['route'] === 'Privacy')?.frontmatter;
    const page = built('/Privacy');
    expect(text(page.querySelector('main .privacy-controller dt'))).toBe(say('privacy.legalName'));
    expect(text(page.querySelector('main .privacy-controller dd'))).toBe(companyFile.legalName[code] ?? companyFile.legalName.en);
    const updated = String(notice?.['updated']);
    const day = page.querySelector('.page-header time');
    expect(day?.getAttribute('datetime')).toBe(updated);
    const longDate = new Intl.DateTimeFormat(locales[code].formatLocale, {
      dateStyle: 'long',
      calendar: 'gregory',
      timeZone: 'UTC',
    });
    expect(text(day)).toBe(longDate.format(new Date(updated)));
  });

  // src/data/service-pages.ts: each catalogue service page lists the content pages that serve it;
  // Schedule Q is one click from the audits service, the laboratory's courses from Trainings.
  test('each service page links each page that serves it, in order; Other Trainings links the laboratory courses @content', () => {
    let serving = 0;
    for (const service of readContentDir('services').map((entry) => entry.id)) {
      const routes = pagesServing(service);
      const section = built(`/services/${service}`).querySelector('section[aria-labelledby="service-pages"]');
      if (routes.length === 0) {
        expect(section, service).toBeNull();
        continue;
      }
      serving += 1;
      expect(text(section?.querySelector('#service-pages')), service).toBe(say('service.pages'));
      const links = [...(section?.querySelectorAll('a[href]') ?? [])].map((a) => a.getAttribute('href'));
      expect(links, service).toEqual(routes.map((route) => localizePath(route, locales[code])));
    }
    expect(serving).toBeGreaterThan(0);
    expect(pagesServing('ms-audits')).toContain('/MangementSystemAudits/ScheduleQQualityAssessment');
    const lab = localizePath('/LaboratoryQualityManagementSystemServices/Training', locales[code]);
    expect(built('/Trainings/OtherTrainings').querySelector(`main a[href="${lab}"]`)).not.toBeNull();
  });
});
