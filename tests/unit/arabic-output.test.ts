/**
 * The Arabic site as built, read from dist/client: every Arabic page is a file at its
 * path under /ar, right to left, with no English left in what a visitor reads or hears but proper
 * names; the language switch links each page to its twin both ways; search engines learn of the
 * twins (hreflang, the sitemap, Open Graph); no page preloads a font (Cairo only from the cache);
 * no island carries the Arabic dictionary; and the static-host rules serve /ar. Needs
 * `astro build` first (npm test runs it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT, loadPages, loadServices } from '../helpers/content';
import { parseHtml } from '../helpers/dom';
import { englishLeft, hasArabic } from '../helpers/arabic';
import { en } from '../../src/i18n/en';
import { ar } from '../../src/i18n/ar';
import { clientLogos } from '../../src/data/carousels';
import { pendingArabicPaths } from '../../src/integrations/content-rules';

const CLIENT = path.join(ROOT, 'dist/client');
const fileFor = (route: string) => path.join(CLIENT, route === '/' ? 'index.html' : `${route}.html`);
const read = (route: string) => fs.readFileSync(fileFor(route), 'utf8');
/** Each page parsed once (jsdom is slow): never change what it returns. */
const parsed = new Map<string, Document>();
const documentOf = (route: string): Document => {
  let document = parsed.get(route);
  if (!document) parsed.set(route, (document = parseHtml(read(route))));
  return document;
};
const arabic = (route: string) => (route === '/' ? '/ar' : `/ar${route}`);

/** Every page that has an Arabic twin, by its English path; the error pages apart. */
const TWINNED = [
  '/',
  '/ContactUs',
  '/Partner',
  '/ThanksPage',
  ...loadPages().map((p) => `/${p.data.route}`),
  ...loadServices().map((s) => `/services/${s.id}`),
];
const ERROR_PAGES = ['/ar/404', '/ar/services/404'];
const ARABIC_ROUTES = [...TWINNED.map(arabic), ...ERROR_PAGES];
/**
 * Arabic routes that show an English page until its twin is written (none when every twin
 * exists): in the Arabic layout, but their text is English (tests/unit/malformed-content.test.ts
 * checks them), so the checks of Arabic wording and of twins' alternates leave them out.
 */
const PENDING = pendingArabicPaths(ROOT);
const TRANSLATED = TWINNED.filter((route) => !PENDING.has(arabic(route)));
const WORDED = ARABIC_ROUTES.filter((route) => !PENDING.has(route));

/**
 * What a visitor reads or hears on a page: its title, description and share texts, the body's
 * text (hidden text for screen readers included), and the names and alternatives of elements;
 * but not what is marked as another language (the switch's "English").
 */
const texts = new Map<string, string>();
function visibleText(route: string): string {
  const cached = texts.get(route);
  if (cached !== undefined) return cached;
  const document = documentOf(route);
  // Node environment: no DOM globals, so elements are told by their nodeType (1).
  const own = (node: Node) =>
    !(node.nodeType === 1 ? (node as Element) : node.parentElement)?.closest('[lang]:not([lang|="ar"]), script, style, template');
  const metas = [
    ...document.querySelectorAll(
      'meta[name="description"], meta[property="og:title"], meta[property="og:description"], meta[property="og:image:alt"]',
    ),
  ].map((meta) => meta.getAttribute('content') ?? '');
  const spoken = ['aria-label', 'aria-roledescription', 'alt', 'title', 'placeholder'];
  const names = [...document.querySelectorAll(spoken.map((a) => `[${a}]`).join(', '))]
    .filter(own)
    .map((el) => spoken.map((a) => el.getAttribute(a) ?? '').join(' '));
  // Text node by text node: the HTML is compressed, so neighbouring elements' words would run together.
  const walker = document.createTreeWalker(document.body, 4 /* NodeFilter.SHOW_TEXT */);
  const body: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if (own(node)) body.push(node.textContent ?? '');
  const text = [document.title, ...metas, ...names, ...body].join('\n');
  texts.set(route, text);
  return text;
}

/** Names the Arabic pages keep in Latin letters besides those of tests/helpers/arabic.ts: the client logos' names (sample companies, src/data/carousels.ts). */
const CLIENT_NAMES = new Set(clientLogos.flatMap((logo) => logo.name.split(' ')));

/** The page's language switch links (header and mobile menu). */
const switches = (route: string) =>
  [...documentOf(route).querySelectorAll('a[hreflang]')].map((a) => ({
    href: a.getAttribute('href'),
    lang: a.getAttribute('lang'),
    hreflang: a.getAttribute('hreflang'),
    text: a.textContent,
  }));
const alternates = (route: string) =>
  Object.fromEntries(
    [...documentOf(route).querySelectorAll('link[rel="alternate"][hreflang]')].map((link) => [
      link.getAttribute('hreflang'),
      new URL(link.getAttribute('href') ?? '').pathname,
    ]),
  );

beforeAll(() => {
  if (!fs.existsSync(CLIENT)) throw new Error('dist/client is missing: run `npm run build` first (npm test does).');
});

describe('the Arabic pages', () => {
  test('every page has an Arabic twin at /ar with the same rest of the path, the two forms too', () => {
    for (const route of ARABIC_ROUTES) expect(fs.existsSync(fileFor(route)), route).toBe(true);
    expect(fs.existsSync(path.join(CLIENT, 'ar.html'))).toBe(true);
  });

  test('each is Arabic, right to left, and lists the same things as its English twin in the same order', () => {
    for (const route of ARABIC_ROUTES) {
      expect(read(route), route).toMatch(/<html lang="ar" dir="rtl"[\s>]/);
    }
    // Home cards, footer, "other services" and the menu follow the catalogue and menu order.
    const cards = (route: string) =>
      [...documentOf(route).querySelectorAll('.service-card a')].map((a) => a.getAttribute('href'));
    expect(cards('/ar')).toEqual(cards('/').map((href) => `/ar${href}`));
    const others = (route: string) => [...documentOf(route).querySelectorAll('.others a')].map((a) => a.getAttribute('href'));
    expect(others('/ar/services/trainings')).toEqual(others('/services/trainings').map((href) => `/ar${href}`));
  });

  test('no English is left in what a visitor reads or hears, but proper names and abbreviations', () => {
    const leftovers: string[] = [];
    for (const route of WORDED) {
      const text = visibleText(route);
      expect(hasArabic(text), route).toBe(true);
      const words = [...new Set(englishLeft(text))].filter((word) => !CLIENT_NAMES.has(word));
      if (words.length > 0) leftovers.push(`${route}: ${words.join(' ')}`);
    }
    expect(leftovers).toEqual([]);
  });

  test('no English interface string from the dictionary appears on an Arabic page', () => {
    // The English strings an Arabic page could show by mistake: those the Arabic dictionary words differently.
    const strings = Object.entries(en)
      .filter(([key, value]) => ar[key as keyof typeof ar] !== value && /[A-Za-z]{3}/.test(value))
      .map(
        ([key, value]) =>
          [
            key,
            value
              .split(/\{\w+\}/)
              .reduce((a, b) => (b.length > a.length ? b : a))
              .trim(),
          ] as const,
      )
      .filter(([, longest]) => longest.length >= 4);
    expect(strings.length).toBeGreaterThan(150);
    const found: string[] = [];
    for (const route of WORDED) {
      const text = visibleText(route).replace(/\s+/g, ' ');
      for (const [key, value] of strings) if (text.includes(value)) found.push(`${route}: ${key} "${value}"`);
    }
    expect(found).toEqual([]);
  });

  test('links stay in Arabic: every internal link of an Arabic page goes to an Arabic page', () => {
    const outside: string[] = [];
    for (const route of ARABIC_ROUTES) {
      for (const a of documentOf(route).querySelectorAll('a[href^="/"]:not([hreflang])')) {
        const href = a.getAttribute('href') ?? '';
        const pathname = href.split('#')[0] ?? '';
        if (pathname === '/ar' || pathname.startsWith('/ar/')) continue;
        outside.push(`${route}: ${href}`);
      }
    }
    expect(outside).toEqual([]);
  });

  test('the menus link /ar pages, the mobile one the About page as /ar/Aboutus, with the same element ids as in English', () => {
    const document = documentOf('/ar/AboutUs');
    const desktop = [...document.querySelectorAll('.desktop-nav a[href]')].map((a) => a.getAttribute('href'));
    const mobile = [...document.querySelectorAll('.mobile-nav .nav-list a[href]')].map((a) => a.getAttribute('href'));
    expect(desktop).toContain('/ar/AboutUs');
    expect(mobile).toContain('/ar/Aboutus');
    expect(desktop).toContain('/ar/Trainings/ISOTrainings/InternalAuditTraining#iso-9001-2015');
    const keys = (page: string) =>
      [...documentOf(page).querySelectorAll('[data-nav-key]')].map((el) => el.getAttribute('data-nav-key'));
    expect(keys('/ar/AboutUs')).toEqual(keys('/AboutUs'));
    expect(document.querySelector('.desktop-nav a[aria-current="page"]')?.getAttribute('href')).toBe('/ar/AboutUs');
  });

  test("one choice of digits: the Arabic site writes Western digits everywhere, as its content does (2030, 17025), the footer's year too", () => {
    const footer = documentOf('/ar').querySelector('footer');
    expect(footer?.querySelector('[data-current-year]')?.textContent).toMatch(/^[0-9]{4}$/);
    expect(footer?.textContent).toContain('الخبر، المملكة العربية السعودية');
    // The script that brings the year up to date writes it the same way.
    const format = footer?.querySelector('[data-current-year]')?.getAttribute('data-current-year') ?? '';
    expect(new Intl.NumberFormat(format || 'en', { useGrouping: false }).format(2031)).toBe('2031');
    const indic = /[\u0660-\u0669\u06F0-\u06F9]/;
    expect(ARABIC_ROUTES.filter((route) => indic.test(visibleText(route)))).toEqual([]);
  });
});

describe('the language switch', () => {
  test('each English page with a twin links it in the header and the mobile menu, named "العربية" in Arabic; and back', () => {
    for (const route of TWINNED) {
      expect(switches(route), route).toEqual(Array(2).fill({ href: arabic(route), lang: 'ar', hreflang: 'ar', text: 'العربية' }));
      expect(switches(arabic(route)), arabic(route)).toEqual(
        Array(2).fill({ href: route, lang: 'en', hreflang: 'en', text: 'English' }),
      );
    }
  });

  test('the error pages switch to the other home page', () => {
    expect(switches('/404').map((s) => s.href)).toEqual(['/ar', '/ar']);
    expect(switches('/services/404').map((s) => s.href)).toEqual(['/ar', '/ar']);
    expect(switches('/ar/404').map((s) => s.href)).toEqual(['/', '/']);
    expect(switches('/ar/services/404').map((s) => s.href)).toEqual(['/', '/']);
  });
});

describe('search engines and sharing', () => {
  test('twins name each other (hreflang en, ar and x-default) and their Open Graph locales; other pages name none', () => {
    for (const route of TRANSLATED.filter((r) => r !== '/ThanksPage')) {
      const expected = { en: route, ar: arabic(route), 'x-default': route };
      for (const page of [route, arabic(route)]) {
        const html = read(page);
        expect(alternates(page), page).toEqual(expected);
        expect(html, page).toContain(`<meta property="og:locale" content="${page === route ? 'en_US' : 'ar_SA'}">`);
        expect(html, page).toContain(`<meta property="og:locale:alternate" content="${page === route ? 'ar_SA' : 'en_US'}">`);
      }
    }
    for (const route of ['/ThanksPage', '/ar/ThanksPage', '/404', ...ERROR_PAGES]) expect(alternates(route), route).toEqual({});
    // A page whose twin is not written yet names no alternate: search engines know its English page only.
    for (const route of TWINNED.filter((r) => PENDING.has(arabic(r)))) {
      expect(alternates(route), route).toEqual({});
      expect(alternates(arabic(route)), arabic(route)).toEqual({});
    }
  });

  test('JSON-LD and the share image are in the page’s language', () => {
    const html = read('/ar/services/ms-audits');
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
      (m) => JSON.parse(m[1] ?? '') as Record<string, unknown>,
    );
    const org = blocks.find((b) => b['@type'] === 'ProfessionalService') as {
      legalName: string;
      address: { addressLocality: string };
    };
    expect(org.legalName).toBe('Globaq لضمان الجودة والاستشارات');
    expect(org.address.addressLocality).toBe('الخبر');
    const service = blocks.find((b) => b['@type'] === 'Service');
    expect(service?.['url']).toMatch(/\/ar\/services\/ms-audits$/);
    expect(hasArabic(String(service?.['name']))).toBe(true);
    const crumbs = blocks.find((b) => b['@type'] === 'BreadcrumbList') as { itemListElement: { name: string; item: string }[] };
    expect(crumbs.itemListElement[0]).toMatchObject({ name: 'الرئيسية' });
    expect(new URL(crumbs.itemListElement[0]?.item ?? '').pathname).toBe('/ar');
    expect(html).toMatch(/<meta property="og:image" content="[^"]+\/og\/ar\/services\/ms-audits\.png">/);
    expect(fs.existsSync(path.join(CLIENT, 'og/ar/services/ms-audits.png'))).toBe(true);
    expect(fs.existsSync(path.join(CLIENT, 'og/ar.png'))).toBe(true);
  });

  test('the sitemap lists both languages, each twin with both addresses as alternates, and no error or thanks page', () => {
    const xml = fs.readFileSync(path.join(CLIENT, 'sitemap-0.xml'), 'utf8');
    const entries = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((m) => ({
      loc: new URL(/<loc>([^<]+)<\/loc>/.exec(m[1] ?? '')?.[1] ?? '').pathname,
      links: Object.fromEntries(
        [...(m[1] ?? '').matchAll(/<xhtml:link rel="alternate" hreflang="([^"]+)" href="([^"]+)"\s*\/>/g)].map((l) => [
          l[1],
          new URL(l[2] ?? '').pathname,
        ]),
      ),
    }));
    const byLoc = new Map(entries.map((entry) => [entry.loc, entry.links]));
    for (const route of TWINNED.filter((r) => PENDING.has(arabic(r))))
      expect(byLoc.has(arabic(route)), arabic(route)).toBe(false);
    for (const route of TRANSLATED.filter((r) => r !== '/ThanksPage')) {
      expect(byLoc.get(route), route).toEqual({ en: route, ar: arabic(route) });
      expect(byLoc.get(arabic(route)), arabic(route)).toEqual({ en: route, ar: arabic(route) });
    }
    for (const route of ['/ar/ThanksPage', ...ERROR_PAGES]) expect(byLoc.has(route), route).toBe(false);
  });
});

describe('the Arabic font and the scripts', () => {
  const preloads = (route: string) => [...read(route).matchAll(/<link rel="preload" href="([^"]+)" as="font"/g)].map((m) => m[1]);
  /** The layout's stylesheet as the page has it: linked, or inline in a page beyond a first flight (src/lib/first-flight.ts). */
  const stylesheet = (route: string) => {
    const html = read(route);
    const href = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
    return href
      ? fs.readFileSync(path.join(CLIENT, href), 'utf8')
      : [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
  };
  /** The files the head script fetches and checks for (src/lib/cairo-cache.ts), by name without their hash. */
  const cairoFiles = (route: string) => {
    const html = read(route);
    const script = /<script>(\(function rememberCairo[\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const files = JSON.parse(/\}\)\((\[[^\]]*\])/.exec(script)?.[1] ?? '[]') as string[];
    return { html, script, files, names: files.map((file) => path.basename(file).replace(/\.[\w-]+\.woff2$/, '')) };
  };

  test('no page preloads a font: Arabic pages fetch Cairo’s Arabic and Latin files, English pages the Latin one and the switch’s face cut to «العربية», after their load event, for the pages after them', () => {
    for (const route of ['/', '/AboutUs', '/Partner', '/ar', '/ar/AboutUs']) expect(preloads(route)).toEqual([]);
    expect(cairoFiles('/ar').names).toEqual(['cairo-arabic-wght-normal', 'cairo-latin-wght-normal']);
    expect(cairoFiles('/ar/AboutUs').names).toEqual(['cairo-arabic-wght-normal', 'cairo-latin-wght-normal']);
    expect(cairoFiles('/AboutUs').names).toEqual(['cairo-latin-wght-normal', 'cairo-language-name']);
    expect(cairoFiles('/').names).toEqual(['cairo-latin-wght-normal', 'cairo-language-name']);
    // The files are the ones the stylesheet's @font-face rules load (else they would be fetched twice).
    for (const route of ['/ar', '/AboutUs']) {
      const css = stylesheet(route);
      for (const file of cairoFiles(route).files) expect(css).toContain(`url(${file})`);
    }
    // The cut face is a fifth of the Arabic subset or less.
    const [arabic] = cairoFiles('/ar').files;
    const cut = cairoFiles('/AboutUs').files[1];
    expect(fs.statSync(path.join(CLIENT, cut ?? '')).size).toBeLessThan(fs.statSync(path.join(CLIENT, arabic ?? '')).size / 5);
  });

  test('the head script runs before the stylesheet is asked for, and the page’s content security policy allows it by its hash', async () => {
    const { createHash } = await import('node:crypto');
    for (const route of ['/', '/ContactUs', '/ar/AboutUs', '/404', '/Partner', '/ar']) {
      const { html, script } = cairoFiles(route);
      expect(script).not.toBe('');
      const sheet = html.includes('<link rel="stylesheet"') ? html.indexOf('<link rel="stylesheet"') : html.indexOf('<style>');
      expect(sheet).toBeGreaterThan(0);
      expect(html.indexOf(script)).toBeLessThan(sheet);
      const policy = /<meta http-equiv="content-security-policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
      expect(policy).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    }
  });

  test('the stylesheet names Cairo only under the head script’s mark; without it, the metric-matched fallback', () => {
    const css = stylesheet('/AboutUs');
    expect(css).toMatch(/:root\[data-cairo\]\s*\{\s*--font-sans:\s*"?'?Cairo Variable/);
    // Outside the mark no font stack names Cairo (the @font-face rules themselves aside).
    const rules = css
      .replace(/@font-face\s*\{[^}]*\}/g, '')
      .replace(/:root\[data-cairo\]\s*\{[^}]*\}/g, '')
      .replace(/:root:lang\(en\)\[data-cairo\] a\[lang=(['"]?)ar\1\]\s*\{[^}]*\}/g, '');
    expect(rules).not.toMatch(/Cairo (Variable|Language Name)/);
    expect(rules).toMatch(/--font-sans:\s*["']?Cairo Fallback/);
  });

  test('no script the browser loads carries an Arabic string: the islands get their words from the page', () => {
    const withArabic = fs
      .readdirSync(path.join(CLIENT, '_astro'))
      .filter((file) => file.endsWith('.js'))
      .filter((file) => hasArabic(fs.readFileSync(path.join(CLIENT, '_astro', file), 'utf8')));
    expect(withArabic).toEqual([]);
  });

  test('nor the English dictionary: the form islands are handed their words by the page', () => {
    const scripts = fs
      .readdirSync(path.join(CLIENT, '_astro'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => fs.readFileSync(path.join(CLIENT, '_astro', file), 'utf8'))
      .join('\n');
    // The forms' own sentences, which the islands showed from a bundled dictionary before (an
    // option's English words are also the answer sent, src/forms/partner.ts: those stay).
    const sentences = Object.entries(en).filter(
      ([key, value]) => /^(form|contact|partner)\./.test(key) && !key.startsWith('partner.option.') && value.length >= 30,
    );
    expect(sentences.length).toBeGreaterThan(10);
    expect(sentences.filter(([, value]) => scripts.includes(JSON.stringify(value).slice(1, -1)))).toEqual([]);
  });
});

describe('static hosts: public/_redirects serves the Arabic paths', () => {
  /**
   * A host that reads _redirects, as Netlify documents it: a path's own file answers first
   * (/x is x.html or x/index.html), then the first rule that matches, `/dir/*` covering what is
   * under /dir.
   */
  function serve(pathname: string): { status: number; file: string } | undefined {
    const own = [pathname, `${pathname}.html`, `${pathname}/index.html`].find(
      (f) => f !== '/' && fs.existsSync(path.join(CLIENT, f)) && fs.statSync(path.join(CLIENT, f)).isFile(),
    );
    if (own) return { status: 200, file: own };
    const rules = fs
      .readFileSync(path.join(CLIENT, '_redirects'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'))
      .map((line) => line.trim().split(/\s+/) as [string, string, string]);
    for (const [from, to, status] of rules) {
      const matches = from.endsWith('/*') ? pathname.startsWith(from.slice(0, -1)) : pathname === from;
      if (!matches) continue;
      return {
        status: Number(status),
        file:
          [to, `${to}.html`].find((f) => fs.existsSync(path.join(CLIENT, f)) && fs.statSync(path.join(CLIENT, f)).isFile()) ?? '',
      };
    }
    return undefined;
  }

  test('/ar, /ar/AboutUs and /ar/Aboutus answer 200 with their page; unknown Arabic paths the Arabic error pages, 404', () => {
    expect(serve('/ar')).toEqual({ status: 200, file: '/ar.html' });
    expect(serve('/ar/AboutUs')).toEqual({ status: 200, file: '/ar/AboutUs.html' });
    expect(serve('/ar/Aboutus')).toEqual({ status: 200, file: '/ar/AboutUs.html' });
    expect(serve('/ar/services/quantum-audits')).toEqual({ status: 404, file: '/ar/services/404.html' });
    expect(serve('/ar/no-such-page')).toEqual({ status: 404, file: '/ar/404.html' });
    expect(serve('/Aboutus')).toEqual({ status: 200, file: '/AboutUs.html' });
    expect(serve('/services/quantum-audits')).toEqual({ status: 404, file: '/services/404.html' });
  });
});
