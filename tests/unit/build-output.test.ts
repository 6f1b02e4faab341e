/**
 * The built site as a plain static host sees it (dist/client): every route of the
 * specification is a file at its exact spelling, nothing relies on letter case alone, and the
 * sitemap lists exactly the public pages. Needs `astro build` first (npm test runs it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT, loadPages, loadServices } from '../helpers/content';
import { parseHtml } from '../helpers/dom';
import { createSite } from '../../src/data/company';
import { TRUST_DIRS, emptyTrustDirs, pendingArabicPaths } from '../../src/integrations/content-rules';
import { TRUST_ROUTES } from '../../src/lib/trust';

const CLIENT = path.join(ROOT, 'dist/client');
const SPEC_ROUTES = [
  '/',
  '/ContactUs',
  '/Partner',
  '/ThanksPage',
  ...loadServices().map((s) => `/services/${s.id}`),
  ...loadPages().map((p) => `/${p.data.route}`),
  // The page of each trust collection with entries (src/content/{team,credentials,cases}).
  ...TRUST_DIRS.filter((dir) => !emptyTrustDirs(ROOT).includes(dir)).map((dir) => `/${TRUST_ROUTES[dir]}`),
];

function listFiles(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const rel = `${prefix}/${d.name}`;
    return d.isDirectory() ? [rel, ...listFiles(path.join(dir, d.name), rel)] : [rel];
  });
}

/** The Arabic twins: every route, the two forms too, under /ar. */
const ARABIC_ROUTES = SPEC_ROUTES.map((r) => (r === '/' ? '/ar' : `/ar${r}`));

const fileFor = (route: string) => path.join(CLIENT, route === '/' ? 'index.html' : `${route}.html`);
const read = (file: string) => fs.readFileSync(path.join(CLIENT, file), 'utf8');

beforeAll(() => {
  if (!fs.existsSync(CLIENT)) throw new Error('dist/client is missing: run `npm run build` first (npm test does).');
});

describe('static output', () => {
  test('every route of the specification is an HTML file at its exact spelling', () => {
    // Home, ContactUs, Partner, ThanksPage; every service; every content page (About included); the trust pages.
    for (const route of SPEC_ROUTES) expect(fs.existsSync(fileFor(route)), route).toBe(true);
  });

  test('no two output files, and no two source files, differ only in letter case', () => {
    for (const [base, files] of [
      ['dist/client', listFiles(CLIENT)],
      ['src', listFiles(path.join(ROOT, 'src'))],
      ['public', listFiles(path.join(ROOT, 'public'))],
    ] as const) {
      const seen = new Map<string, string>();
      for (const file of files) {
        const clash = seen.get(file.toLowerCase());
        expect(clash, `${base}${file} and ${base}${clash ?? ''}`).toBeUndefined();
        seen.set(file.toLowerCase(), file);
      }
    }
  });

  test('each page blocks its first paint on one stylesheet at most: the shared, cached layout one', () => {
    const sheets = new Set<string>();
    for (const route of [...SPEC_ROUTES, ...ARABIC_ROUTES]) {
      const html = fs.readFileSync(fileFor(route), 'utf8');
      const links = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g)].map((m) => /href="([^"]+)"/.exec(m[0])?.[1] ?? '');
      expect(links.length, route).toBeLessThanOrEqual(1);
      for (const href of links) sheets.add(href);
    }
    // The page's own styles (home sections, forms) are inline; every page shares the one file.
    expect(sheets.size).toBe(1);
  });

  test("a page whose HTML fits in a connection's first flight links the layout's stylesheet; a larger one has it inline, allowed by its hash", async () => {
    const { createHash } = await import('node:crypto');
    const { HEADER_BYTES, INITIAL_WINDOW_BYTES, servedBytes } = await import('../../src/lib/first-flight');
    const layoutCss = fs.readdirSync(path.join(CLIENT, '_astro')).filter((file) => /^BaseLayout\.[\w-]+\.css$/.test(file));
    expect(layoutCss).toHaveLength(1);
    const css = fs.readFileSync(path.join(CLIENT, '_astro', layoutCss[0] ?? ''), 'utf8');
    const hash = `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
    const inline: string[] = [];
    for (const route of [...SPEC_ROUTES, ...ARABIC_ROUTES]) {
      const html = fs.readFileSync(fileFor(route), 'utf8');
      const policy = /<meta http-equiv="content-security-policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
      if (html.includes(`<link rel="stylesheet" href="/_astro/${layoutCss[0]}">`)) {
        expect(servedBytes(html) + HEADER_BYTES, route).toBeLessThanOrEqual(INITIAL_WINDOW_BYTES);
        expect(html.includes(`<style>${css}</style>`), route).toBe(false);
      } else {
        expect(html.includes(`<style>${css}</style>`), route).toBe(true);
        expect(policy, route).toContain(hash);
        inline.push(route);
      }
    }
    // Today the partner form in both languages, and the Arabic home page.
    expect(inline).toEqual(expect.arrayContaining(['/Partner', '/ar/Partner']));
  });

  test('the islands run on React DOM, and no script carries Preact', () => {
    const scripts = fs.readdirSync(path.join(CLIENT, '_astro')).filter((file) => file.endsWith('.js'));
    const code = scripts.map((file) => fs.readFileSync(path.join(CLIENT, '_astro', file), 'utf8'));
    // React DOM's client names itself to the developer tools with its package name.
    expect(code.filter((text) => /rendererPackageName:\s*[`'"]react-dom[`'"]/.test(text))).toHaveLength(1);
    expect(scripts.filter((_, i) => /preact/i.test(code[i]!))).toEqual([]);
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const all = { ...manifest.dependencies, ...manifest.devDependencies };
    expect(Object.keys(all).filter((name) => /preact/.test(name))).toEqual([]);
    for (const name of ['@astrojs/react', 'react', 'react-dom'])
      expect(manifest.dependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('no page embeds a frame (the end-to-end axe checks run in the page itself, which sees no frame)', () => {
    const pages = listFiles(CLIENT).filter((file) => file.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(60);
    expect(pages.filter((file) => /<(iframe|frame|object|embed)\b/i.test(read(file)))).toEqual([]);
  });

  test('the Coming Soon page is services/404.html, for hosts that serve the nearest 404.html', () => {
    const html = read('services/404.html');
    expect(html).toMatch(/<h1[^>]*>Coming Soon<\/h1>/);
    expect(html).toMatch(/href="\/"/);
    expect(html).toMatch(/href="\/ContactUs"/);
    expect(html).toContain('name="robots" content="noindex"');
  });

  test('the not-found page is 404.html with a way back', () => {
    const html = read('404.html');
    expect(html).toMatch(/<h1[^>]*>Page not found<\/h1>/);
    expect(html).toMatch(/href="\/"/);
  });

  test('the static-host rules serve /Aboutus and unknown service slugs', () => {
    const redirects = read('_redirects');
    expect(redirects).toMatch(/^\/Aboutus\s+\/AboutUs\s+200$/m);
    expect(redirects).toMatch(/^\/services\/\*\s+\/services\/404\.html\s+404$/m);
  });

  test('the footer shows every social icon with its name, a link only where an address is configured (none by default)', () => {
    // The company data as the build read it (npm test builds with the same environment).
    const { social } = createSite(process.env);
    const configured = Object.entries(process.env).filter(([name, value]) => name.startsWith('PUBLIC_SOCIAL_') && value);
    for (const route of SPEC_ROUTES) {
      const document = parseHtml(fs.readFileSync(fileFor(route), 'utf8'));
      const items = [...document.querySelectorAll('footer .site-footer__social > li')];
      expect(items, route).toHaveLength(social.length);
      expect(document.querySelectorAll('footer .site-footer__social [href]'), route).toHaveLength(configured.length);
      social.forEach((profile, i) => {
        const item = items[i]!;
        expect(item.textContent?.trim(), `${route} ${profile.network}`).toBe('');
        if (profile.url) {
          expect(item.querySelector('a')?.getAttribute('href'), `${route} ${profile.network}`).toBe(profile.url);
        } else {
          expect(item.querySelectorAll('a, [href], [tabindex]'), `${route} ${profile.network}`).toHaveLength(0);
          expect(item.querySelector('[role="img"]')?.getAttribute('aria-label'), `${route} ${profile.network}`).toContain(
            profile.label,
          );
        }
      });
      // Search engines are told only of the profiles that exist.
      const org = [...document.querySelectorAll('script[type="application/ld+json"]')]
        .map((script) => JSON.parse(script.textContent ?? '') as Record<string, unknown>)
        .find((block) => block['@type'] === 'ProfessionalService');
      const sameAs = social.flatMap((profile) => (profile.url ? [profile.url] : []));
      expect(org?.['sameAs'], route).toEqual(sameAs.length > 0 ? sameAs : undefined);
    }
  });

  test('the sitemap lists every public page once, in English and in Arabic, and no error or thanks page', () => {
    const xml = read('sitemap-0.xml');
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
    expect(new Set(locs).size).toBe(locs.length);
    const english = SPEC_ROUTES.filter((r) => r !== '/ThanksPage');
    // A page whose Arabic twin is not written yet is listed in English only (its /ar page's canonical is the English one).
    const arabic = english.map((r) => (r === '/' ? '/ar' : `/ar${r}`)).filter((r) => !pendingArabicPaths(ROOT).has(r));
    expect([...locs].sort()).toEqual([...english, ...arabic].sort());
  });
});
