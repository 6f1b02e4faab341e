/**
 * Every internal link and #anchor of the built site resolves, in each language: the
 * crawl starts at the language's home page (/ or /ar) and walks that language's pages. A link
 * into the other language is the language switch: it is followed to see that it answers, not
 * crawled (the other language's project crawls those pages).
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test, type SiteLanguage } from './site-locale';
import { ARABIC_ROUTES, PAGE_ROUTES, contentIn } from './routes';
import { locales } from '../../src/i18n';

/** Whether `path` is one of the Arabic pages (/ar and below). */
const isArabicPath = (path: string) => path === locales.ar.pathPrefix || path.startsWith(`${locales.ar.pathPrefix}/`);

/** Whether `path` is a page of the language `lang` (not of the other one). */
const inLanguage = (lang: SiteLanguage, path: string) => isArabicPath(path) === (lang.code === 'ar');

/** The other language's BCP 47 tag: what a language switch's hreflang names. */
const otherLanguageTag = (lang: SiteLanguage) => (lang.code === 'ar' ? locales.en.lang : locales.ar.lang);

/** The status each path answers with, asked once per path. */
function statusChecker(request: APIRequestContext): (path: string) => Promise<number> {
  const statuses = new Map<string, Promise<number>>();
  return (path) => {
    let status = statuses.get(path);
    if (status === undefined) {
      status = request.get(path).then((response) => response.status());
      statuses.set(path, status);
    }
    return status;
  };
}

test('every internal link answers 200 and every #anchor exists on its page @content', async ({
  page,
  request,
  baseURL,
  lang,
}) => {
  test.setTimeout(180_000);
  const origin = new URL(baseURL ?? '').origin;
  const statusOf = statusChecker(request);
  const queue = [lang.path('/')];
  const visited = new Set<string>();
  const ids = new Map<string, Set<string>>();
  const anchors: { from: string; path: string; hash: string }[] = [];
  /** Links into the other language: each must be the language switch, and answer. */
  const switches = new Map<string, { from: string; hreflang: string | null }[]>();
  const broken: string[] = [];

  while (queue.length > 0) {
    const path = queue.shift() ?? lang.path('/');
    if (visited.has(path)) continue;
    visited.add(path);
    const response = await page.goto(path);
    if (response?.status() !== 200) {
      broken.push(`${path} answered ${response?.status()}`);
      continue;
    }
    const found = await page.evaluate(() => ({
      links: [...document.querySelectorAll('a[href]')].map((a) => ({
        href: (a as HTMLAnchorElement).href,
        hreflang: a.getAttribute('hreflang'),
      })),
      ids: [...document.querySelectorAll('[id]')].map((el) => el.id),
    }));
    ids.set(path, new Set(found.ids));
    for (const link of found.links) {
      const url = new URL(link.href);
      if (url.origin !== origin) continue;
      if (!inLanguage(lang, url.pathname)) {
        switches.set(url.pathname, [...(switches.get(url.pathname) ?? []), { from: path, hreflang: link.hreflang }]);
        if (url.hash)
          broken.push(`${path} links ${url.pathname}${url.hash}: an anchor in the other language, which no crawl checks`);
        continue;
      }
      if (url.hash) anchors.push({ from: path, path: url.pathname, hash: decodeURIComponent(url.hash.slice(1)) });
      if (!visited.has(url.pathname)) queue.push(url.pathname);
    }
  }

  for (const anchor of anchors) {
    if (!ids.get(anchor.path)?.has(anchor.hash))
      broken.push(`${anchor.from} links ${anchor.path}#${anchor.hash}, which has no such id`);
  }
  // Each page has its language switch, and the switch leads to a page that answers.
  expect(switches.size, 'links to the other language').toBeGreaterThan(0);
  for (const [path, links] of switches) {
    for (const link of links) {
      if (link.hreflang !== otherLanguageTag(lang))
        broken.push(`${link.from} links ${path} in the other language, not as its language switch (hreflang ${link.hreflang})`);
    }
    const status = await statusOf(path);
    if (status !== 200) broken.push(`${path} (the language switch of ${links[0]?.from}) answered ${status}`);
  }
  expect(broken).toEqual([]);
  // Every page of the language but its thanks page (reached after a submission) is linked from somewhere.
  const routes = lang.code === 'ar' ? ARABIC_ROUTES : PAGE_ROUTES;
  for (const route of routes) if (route.path !== lang.path('/ThanksPage')) expect(visited.has(route.path), route.path).toBe(true);

  // The sitemap (one for both languages) lists only pages that answer 200, and the language's
  // pages in it are linked from somewhere; each page's alternates (its twins) answer too.
  const sitemap = await (await request.get('/sitemap-0.xml')).text();
  let entries = 0;
  for (const [, entry = ''] of sitemap.matchAll(/<url>([\s\S]*?)<\/url>/g)) {
    const path = new URL(/<loc>([^<]+)<\/loc>/.exec(entry)?.[1] ?? '').pathname;
    if (!inLanguage(lang, path)) continue;
    entries += 1;
    expect(await statusOf(path), path).toBe(200);
    expect(visited.has(path), `${path} is in the sitemap but linked from nowhere`).toBe(true);
    const alternates = [...entry.matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\/>/g)].map(
      ([, hreflang, href]) => ({
        hreflang,
        path: new URL(href ?? '').pathname,
      }),
    );
    if (alternates.length === 0) continue;
    // A page's set of alternates names the page itself, in its own language.
    expect(alternates, `${path}: its alternates name it`).toContainEqual({ hreflang: lang.locale.lang, path });
    for (const alternate of alternates)
      expect(await statusOf(alternate.path), `${path}: its ${alternate.hreflang} alternate ${alternate.path}`).toBe(200);
  }
  expect(entries, 'sitemap entries in the language').toBeGreaterThan(0);
});

// docs/requirements.md §4: the crawl above proves the links answer; this proves each card's goes to its own page.
test('every home service card links "Learn More" to its own service page @content', async ({ page, lang }) => {
  // In Arabic, a service not yet translated is there in English.
  const services = contentIn('services', lang.code);
  await page.goto(lang.path('/'));
  const cards = page.locator('.service-card');
  // One card per service in the catalogue, however many there are (tests/unit/content-inventory.test.ts counts the specification's).
  await expect(cards).toHaveCount(services.length);
  for (let i = 0; i < services.length; i += 1) {
    const card = page.locator('.service-card').nth(i);
    const title = (await card.locator('h3').textContent()) ?? '';
    const service = services.find((s) => s.frontmatter['title'] === title);
    expect(service, title).toBeDefined();
    // "Learn More", then " about {title}" for screen readers and search engines (hidden on screen).
    await card
      .getByRole('link', { name: `${lang.t('service.learnMore')}${lang.t('service.learnMoreAbout', { title })}` })
      .click();
    await expect(page).toHaveURL(lang.url(`/services/${service?.id}`));
    await expect(page.locator('h1')).toHaveText(title);
    await page.goBack();
  }
});
