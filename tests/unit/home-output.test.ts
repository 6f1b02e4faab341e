/**
 * The built home page (dist/client/index.html) as the browser first receives it: the first view
 * is all there before any script runs. Needs `astro build` first (npm test runs it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';
import { parseHtml } from '../helpers/dom';
import { clientLogos } from '../../src/data/carousels';

const CLIENT = path.join(ROOT, 'dist/client');
let html = '';

/** The server-rendered markup of the island whose carousel has this class. */
function island(variant: 'hero' | 'logos'): string {
  // Attribute order is the renderer's choice: find the section by its class wherever it stands.
  const start = html.search(new RegExp(`<section [^>]*class="carousel carousel--${variant}"`));
  const end = html.indexOf('</section>', start);
  expect(start, variant).toBeGreaterThan(0);
  return html.slice(start, end);
}

beforeAll(() => {
  const file = path.join(CLIENT, 'index.html');
  if (!fs.existsSync(file)) throw new Error('dist/client/index.html is missing: run `npm run build` first (npm test does).');
  html = fs.readFileSync(file, 'utf8');
});

describe('home page HTML', () => {
  test('has the title and the tagline in its heading', () => {
    const h1 = html.match(/<h1[\s\S]*?<\/h1>/)?.[0];
    expect(h1).toMatch(/^<h1[^>]*>Globaq<span class="hero__tagline"[^>]*>Quality Assurance Excellence<\/span><\/h1>$/);
  });

  test('the hero carousel is server-rendered: 7 slides named "N of 7", the first picture eager and high priority', () => {
    const hero = island('hero');
    const labels = [...hero.matchAll(/aria-roledescription="slide" aria-label="([^"]+)"/g)].map((m) => m[1]);
    expect(labels).toEqual(['1 of 7', '2 of 7', '3 of 7', '4 of 7', '5 of 7', '6 of 7', '7 of 7']);
    const imgs = [...hero.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
    expect(imgs).toHaveLength(7);
    expect(imgs[0]).toMatch(/loading="eager"/);
    expect(imgs[0]).toMatch(/fetchpriority="high"/i);
    for (const img of imgs.slice(1)) {
      expect(img).toMatch(/loading="lazy"/);
      expect(img).not.toMatch(/fetchpriority/i);
    }
    for (const img of imgs) {
      expect(img).toMatch(/width="\d+" height="\d+"/);
      expect(img).toMatch(/alt="[^"]{20,}"/);
      expect(img).toMatch(/srcset="[^"]*\.webp \d+w, [^"]*\.webp \d+w/i);
      expect(img).toMatch(/sizes="[^"]+"/);
    }
    const avif = [...hero.matchAll(/<source type="image\/avif" srcset="([^"]+)"/gi)].map((m) => m[1] ?? '');
    expect(avif).toHaveLength(7);
    expect(avif[0]?.split(',').length).toBeGreaterThanOrEqual(3);
  });

  test('every picture file it names was built', () => {
    const urls = new Set([...html.matchAll(/\/_astro\/[\w.-]+\.(?:avif|webp|svg)/g)].map((m) => m[0]));
    expect(urls.size).toBeGreaterThan(7 * 2 * 3);
    for (const url of urls) expect(fs.existsSync(path.join(CLIENT, url)), url).toBe(true);
  });

  test('the client carousel is server-rendered with the named logos of src/data/carousels.yaml, and the rotation control first', () => {
    const names = clientLogos.map((logo) => logo.name);
    const slides = [...parseHtml(island('logos')).querySelectorAll('[aria-roledescription="slide"]')];
    const alts = (list: Element[]) => list.map((slide) => slide.querySelector('img')?.getAttribute('alt'));
    // Each logo once to screen readers; with too few to fill the loop, copies follow, hidden and inert.
    const seen = slides.filter((slide) => slide.getAttribute('aria-hidden') !== 'true');
    expect(alts(seen)).toEqual(names);
    const copies = slides.slice(seen.length);
    expect(copies.every((slide) => slide.getAttribute('aria-hidden') === 'true' && slide.hasAttribute('inert'))).toBe(true);
    expect(alts(copies)).toEqual(copies.map((_, i) => names[i % names.length]));
    for (const variant of ['hero', 'logos'] as const) {
      expect(island(variant).match(/<button[^>]*>/)?.[0]).toMatch(/carousel__rotation/);
    }
  });

  test('no inline style attributes (the content security policy blocks them)', () => {
    expect(html.match(/<[^>]+\sstyle="[^"]*"/)?.[0]).toBeUndefined();
  });

  test('both carousel islands start on intent or after the load event: no island script competes with the first view', () => {
    const islands = [...html.matchAll(/<astro-island [^>]*>/g)].map((m) => m[0]);
    const directive = (tag: string) => /client="(\w+)"/.exec(tag)?.[1];
    const component = (tag: string) => /&quot;name&quot;:&quot;(\w+)&quot;/.exec(tag)?.[1];
    // The two header menus wait for the visitor; the carousels start by themselves once the page has loaded.
    expect(islands.map((tag) => [component(tag), directive(tag), /afterLoad/.test(tag)])).toEqual([
      ['DesktopNav', 'intent', false],
      ['MobileNav', 'intent', false],
      ['Carousel', 'intent', true],
      ['Carousel', 'intent', true],
    ]);
    // No module preload: nothing of an island is asked for before the page has loaded.
    expect(html).not.toMatch(/rel="modulepreload"/);
  });

  test('the hero picture, the largest paint: high priority, eager, its size written, AVIF and WebP for the width it is shown at', () => {
    const hero = island('hero');
    const first = /<picture>([\s\S]*?)<\/picture>/.exec(hero)?.[1] ?? '';
    const img = /<img [^>]*>/.exec(first)?.[0] ?? '';
    expect(img).toMatch(/fetchpriority="high"/i);
    expect(img).not.toMatch(/loading="lazy"/);
    expect(img).toMatch(/width="\d+" height="\d+"/);
    // Shown across the container on phones and tablets, beside the text from 60rem: sizes says so.
    const sizes = '(min-width: 72rem) 38rem, (min-width: 60rem) 52vw, calc(100vw - 2rem)';
    expect(img).toContain(`sizes="${sizes}"`);
    // AVIF where the browser takes it, else the image's own WebP set.
    const sources = [...first.matchAll(/<source [^>]*>/g)].map((m) => m[0]);
    expect(sources.map((source) => /type="([^"]+)"/.exec(source)?.[1])).toEqual(['image/avif']);
    for (const source of sources) expect(source).toContain(`sizes="${sizes}"`);
    expect(img).toMatch(/srcset="(?:[^"]*\.webp \d+w, )+[^"]*\.webp \d+w"/i);
    // A 390 px phone shows it 358 px wide: at 2x and 3x the set has a file of 720 px and one of at least 1074 px.
    const widths = [...(/srcset="([^"]+)"/i.exec(sources[0] ?? '')?.[1] ?? '').matchAll(/ (\d+)w/g)].map((m) => Number(m[1]));
    expect(widths).toContain(720);
    expect(Math.max(...widths)).toBeGreaterThanOrEqual(1074);
    expect(Math.min(...widths)).toBeLessThanOrEqual(480);
  });
});
