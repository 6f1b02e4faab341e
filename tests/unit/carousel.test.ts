/** The carousels' rules and content (docs/requirements.md §4, §11.3, §12): src/lib/carousel.ts, src/data/carousels.ts. */
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

  test('the stylesheet uses the same breakpoints', () => {
    const css = fs.readFileSync(path.join(ROOT, 'src/components/islands/carousel.css'), 'utf8');
    const found = [...css.matchAll(/@media \(min-width: (\d+)px\)\s*\{\s*\.carousel--logos \.carousel__slide \{\s*flex-basis: ([^;]+);/g)].map(
      (m) => [Number(m[1]), (m[2] ?? '').trim()],
    );
    expect(found).toEqual([
      [640, '50%'],
      [1024, 'calc(100% / 3)'],
    ]);
    expect(LOGO_BREAKPOINTS.filter((b) => b.minWidth > 0).map((b) => b.minWidth).sort()).toEqual([1024, 640].sort());
  });

  test('no carousel layout is left to inline styles or physical directions', () => {
    const css = fs.readFileSync(path.join(ROOT, 'src/components/islands/carousel.css'), 'utf8');
    expect(css).not.toMatch(/\b(margin|padding|border)-(left|right)\b|\b(left|right)\s*:/);
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

  test('docs/requirements.md §4: 5 client logos, every one named', () => {
    expect(clientLogos).toHaveLength(5);
    for (const { name } of clientLogos) expect(name.trim().length).toBeGreaterThan(2);
    expect(new Set(clientLogos.map((l) => l.name)).size).toBe(5);
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
