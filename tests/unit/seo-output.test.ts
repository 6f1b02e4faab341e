/**
 * Search engines and sharing, read from the built HTML: each page has its own title and
 * description, a canonical address, a share image that exists, and JSON-LD that parses.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT, loadPages, loadServices } from '../helpers/content';
import { companyFile } from '../../src/data/company';

const CLIENT = path.join(ROOT, 'dist/client');
const sitemap = fs.existsSync(path.join(CLIENT, 'sitemap-0.xml'))
  ? fs.readFileSync(path.join(CLIENT, 'sitemap-0.xml'), 'utf8')
  : '';
const pages = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] ?? '').pathname);
const htmlOf = (page: string) => fs.readFileSync(path.join(CLIENT, page === '/' ? 'index.html' : `${page}.html`), 'utf8');
const meta = (html: string, attr: 'name' | 'property', key: string) =>
  new RegExp(`<meta ${attr}="${key.replace(/[:]/g, '\\:')}" content="([^"]*)"`).exec(html)?.[1];
const decode = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');
/** An Arabic page's path without /ar: the rules below hold for both twins. */
const isArabic = (page: string) => page === '/ar' || page.startsWith('/ar/');
const unprefixed = (page: string) => (isArabic(page) ? page.slice(3) || '/' : page);
/** The pages that describe a service or a course: each service's, each content page's but About's. */
const described = new Set([
  ...loadServices().map((service) => `/services/${service.id}`),
  ...loadPages()
    .map((page) => `/${page.data.route}`)
    .filter((route) => route !== '/AboutUs'),
]);

describe('every page of the sitemap', () => {
  test('the sitemap was built', () => expect(pages.length).toBeGreaterThanOrEqual(30 + 30));

  test('has a unique title and meta description', () => {
    const titles = new Map<string, string>();
    const descriptions = new Map<string, string>();
    for (const page of pages) {
      const html = htmlOf(page);
      const title = /<title>([^<]+)<\/title>/.exec(html)?.[1];
      const description = meta(html, 'name', 'description');
      expect(title, page).toBeTruthy();
      expect(description?.length ?? 0, page).toBeGreaterThanOrEqual(50);
      expect(titles.get(title ?? ''), `${page} shares its title`).toBeUndefined();
      expect(descriptions.get(description ?? ''), `${page} shares its description`).toBeUndefined();
      titles.set(title ?? '', page);
      descriptions.set(description ?? '', page);
    }
  });

  test('names its canonical address, with lang and dir on <html>', () => {
    for (const page of pages) {
      const html = htmlOf(page);
      const lang = isArabic(page) ? '<html lang="ar" dir="rtl"' : '<html lang="en" dir="ltr"';
      expect(new RegExp(`${lang}[\\s>]`).test(html), page).toBe(true);
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
      expect(new URL(canonical ?? '').pathname, page).toBe(page);
    }
  });

  test('has OpenGraph and Twitter tags with a share image that was generated', () => {
    for (const page of pages) {
      const html = htmlOf(page);
      for (const key of ['og:title', 'og:description', 'og:url', 'og:image', 'og:type'])
        expect(meta(html, 'property', key), `${page} ${key}`).toBeTruthy();
      expect(meta(html, 'name', 'twitter:card')).toBe('summary_large_image');
      const image = new URL(meta(html, 'property', 'og:image') ?? '').pathname;
      const file = path.join(CLIENT, image);
      expect(fs.existsSync(file), `${page}: ${image}`).toBe(true);
      // A PNG, 1200x630.
      const png = fs.readFileSync(file);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    }
  });

  test('carries the company as JSON-LD; service pages a Service, training pages a Course; nested pages a BreadcrumbList', () => {
    for (const page of pages) {
      const path = unprefixed(page);
      const blocks = [...htmlOf(page).matchAll(/<script type="application\/ld\+json">([^<]*)<\/script>/g)].map(
        (m) => JSON.parse(decode(m[1] ?? '')) as Record<string, unknown>,
      );
      const types = blocks.map((b) => b['@type']);
      expect(types, page).toContain('ProfessionalService');
      const org = blocks.find((b) => b['@type'] === 'ProfessionalService') as { address: { addressLocality: string } };
      const { locality } = companyFile.address;
      expect(org.address.addressLocality).toBe(isArabic(page) ? (locality.ar ?? locality.en) : locality.en);
      if (described.has(path)) {
        // A training page describes its course (src/lib/seo.ts courseLd), any other a service.
        const kind = htmlOf(page).includes('class="course-facts"') ? 'Course' : 'Service';
        expect(types, page).toContain(kind);
      }
      if (path.split('/').length > 2) expect(types, page).toContain('BreadcrumbList');
    }
  });
});

test('robots.txt allows crawling and points at the sitemap; the manifest names the icons', () => {
  const robots = fs.readFileSync(path.join(CLIENT, 'robots.txt'), 'utf8');
  expect(robots).toMatch(/^Sitemap: https?:\/\/.+\/sitemap-index\.xml$/m);
  expect(robots).toMatch(/^Allow: \/$/m);
  const manifest = JSON.parse(fs.readFileSync(path.join(CLIENT, 'manifest.webmanifest'), 'utf8')) as {
    icons: { src: string }[];
    theme_color: string;
  };
  expect(manifest.theme_color).toBe('#0b2545');
  for (const icon of manifest.icons) expect(fs.existsSync(path.join(CLIENT, icon.src)), icon.src).toBe(true);
  const ico = fs.readFileSync(path.join(CLIENT, 'favicon.ico'));
  expect(ico.readUInt16LE(2)).toBe(1);
});

test('a page carries its small icon in its HTML (no request for it), the same drawing /favicon.svg serves', () => {
  const svg = fs.readFileSync(path.join(CLIENT, 'favicon.svg'), 'utf8');
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  for (const page of ['index.html', 'AboutUs.html', 'ar.html']) {
    const html = fs.readFileSync(path.join(CLIENT, page), 'utf8');
    const icons = [...html.matchAll(/<link rel="icon" href="([^"]+)"/g)].map((m) => m[1] ?? '');
    const inline = icons.find((href) => href.startsWith('data:image/svg+xml,'));
    expect(inline && decodeURIComponent(inline.slice('data:image/svg+xml,'.length))).toBe(svg.trim());
    expect(icons).not.toContain('/favicon.svg');
    // Nor does it link the web manifest: src/scripts/site.ts links it once the page has loaded.
    expect(html).not.toMatch(/<link[^>]*rel="manifest"/);
  }
});
