/** The carousels' rules and content (docs/requirements.md §4, §11.3, §12): src/lib/carousel.ts, src/data/carousels.yaml. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { fillTemplate } from '../../src/i18n/template';
import { LOGO_BREAKPOINTS, isBrokenImage, isRotating, logosPerView } from '../../src/lib/carousel';
import { CLIENT_INTERVAL_MS, HERO_INTERVAL_MS, clientLogos, heroImages } from '../../src/data/carousels';
import { en } from '../../src/i18n/en';
import { ROOT } from '../helpers/content';

describe('carousel rules', () => {
  test('slide names follow "N of 7"', () => {
    expect(fillTemplate(en['carousel.slideLabel'], { index: 3, count: 7 })).toBe('3 of 7');
    expect(() => fillTemplate('{index} of {count}', { index: 1 })).toThrow('Missing value "count"');
  });

  test('rotation runs unless the visitor stopped it or the pointer is over the carousel', () => {
    expect(isRotating({ stoppedByVisitor: false, pointerOver: false })).toBe(true);
    expect(isRotating({ stoppedByVisitor: true, pointerOver: false })).toBe(false);
    expect(isRotating({ stoppedByVisitor: false, pointerOver: true })).toBe(false);
    expect(isRotating({ stoppedByVisitor: true, pointerOver: true })).toBe(false);
  });

  test('an image is broken when its request finished without a picture', () => {
    expect(isBrokenImage({ complete: true, naturalWidth: 0 })).toBe(true);
    expect(isBrokenImage({ complete: true, naturalWidth: 1200 })).toBe(false);
    // Still loading, or lazy and not started: not (yet) broken.
    expect(isBrokenImage({ complete: false, naturalWidth: 0 })).toBe(false);
  });

  test('1, 2 or 3 logos by width: below 640 px, from 640 px, from 1024 px', () => {
    expect([320, 639, 640, 1023, 1024, 1920].map(logosPerView)).toEqual([1, 1, 2, 2, 3, 3]);
  });

  test('the stylesheet uses the same breakpoints, and sizes the slides by them', () => {
    const css = fs.readFileSync(path.join(ROOT, 'src/components/islands/carousel.css'), 'utf8');
    const found = [
      ...css.matchAll(/@media \(min-width: (\d+)px\)\s*\{\s*\.carousel--logos \{\s*--carousel-per-view: (\d+);/g),
    ].map((m) => ({
      minWidth: Number(m[1]),
      perView: Number(m[2]),
    }));
    const base = /\.carousel \{[^}]*--carousel-per-view: (\d+);/.exec(css)?.[1];
    expect([...found.reverse(), { minWidth: 0, perView: Number(base) }]).toEqual(LOGO_BREAKPOINTS.map((b) => ({ ...b })));
    // One slide is 100% / per-view of the strip.
    expect(css).toMatch(/\.carousel__slide \{\s*flex: 0 0 calc\(100% \/ var\(--carousel-per-view\)\);/);
  });

  // Physical directions in its stylesheet are stylelint's (npm run lint).
  test('no carousel layout is left to inline styles', () => {
    const tsx = fs.readFileSync(path.join(ROOT, 'src/components/islands/Carousel.tsx'), 'utf8');
    expect(tsx).not.toMatch(/\bstyle=\{/);
  });
});

describe('carousel content', () => {
  test('docs/requirements.md §4: 7 hero images, every one described', () => {
    expect(heroImages).toHaveLength(7);
    for (const { image, alt } of heroImages) {
      expect(alt.length, image.src).toBeGreaterThan(20);
      expect(image.width / image.height).toBeCloseTo(1.5, 2);
    }
    expect(new Set(heroImages.map((i) => i.alt)).size).toBe(7);
  });

  test('docs/requirements.md §4: the client logos, every one named, each name once', () => {
    // As many as src/data/carousels.yaml lists: the five samples give way to real clients' logos.
    expect(clientLogos.length).toBeGreaterThan(0);
    for (const { name } of clientLogos) expect(name.trim().length).toBeGreaterThan(2);
    expect(new Set(clientLogos.map((l) => l.name)).size).toBe(clientLogos.length);
  });

  test('docs/requirements.md §12: the intervals', () => {
    expect(HERO_INTERVAL_MS).toBe(1500);
    expect(CLIENT_INTERVAL_MS).toBe(3000);
  });

  test('docs/requirements.md §11.3: the placeholders say what the specification says', () => {
    expect(en['home.imageUnavailable']).toBe('Image not available');
    expect(en['home.logoUnavailable']).toBe('Logo not available');
  });
});
