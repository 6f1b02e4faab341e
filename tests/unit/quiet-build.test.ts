/**
 * A quiet build: the bundler's known harmless warnings are dropped by name
 * (src/integrations/quiet-build.ts), and `npm run build` (scripts/build.mjs) prints one line of
 * counts in place of Astro's file-by-file listing. Anything else still shows; the whole build is
 * run once in tests/unit/malformed-content.test.ts, which checks it fits on a screen.
 */
import { describe, expect, test } from 'vitest';
import { HARMLESS_WARNINGS, isHarmless } from '../../src/integrations/quiet-build';
import { isListingLine, listingKind } from '../../scripts/build-output.ts';

describe('known harmless warnings', () => {
  test("Astro's own MDX directive is dropped, by its code and its name", () => {
    expect(
      isHarmless({
        code: 'MODULE_LEVEL_DIRECTIVE',
        message:
          'The semantics of the module level directive "use astro:head-inject" in "src/content/services/a.mdx?astroPropagatedAssets" may not be preserved when bundling.',
      }),
    ).toBe(true);
  });

  test('any other warning shows: another directive, another code', () => {
    expect(
      isHarmless({
        code: 'MODULE_LEVEL_DIRECTIVE',
        message: 'The semantics of the module level directive "use client" in "x.ts" may not be preserved',
      }),
    ).toBe(false);
    expect(isHarmless({ code: 'CIRCULAR_DEPENDENCY', message: 'use astro:head-inject' })).toBe(false);
    expect(isHarmless({ message: 'something new' })).toBe(false);
  });

  test('each says why it is harmless', () => {
    for (const known of HARMLESS_WARNINGS) expect(known.why.length, known.name).toBeGreaterThan(40);
  });
});

describe("the build's file listing", () => {
  test('the lines listing written pages, files and images are counted, not printed', () => {
    const lines = [
      '07:54:26   ├─ /AboutUs.html (+5ms) ',
      '\x1b[2m07:54:26\x1b[22m   \x1b[34m└─\x1b[39m /ar/services/ai-solutions.html \x1b[2m(+9ms)\x1b[22m',
      '07:54:26   ├─ /og/AboutUs.png (+60ms) ',
      '07:54:08   ▶ /_astro/industrial.Ccai3WU-_YM9VV.avif (reused cache entry) (+1ms) (58/71)',
    ];
    expect(lines.map(isListingLine)).toEqual([true, true, true, true]);
    expect(lines.map(listingKind)).toEqual(['pages', 'pages', 'other', 'images']);
  });

  test('everything else is printed: steps, warnings, errors', () => {
    for (const line of [
      '07:54:26 [build] Building server entrypoints...',
      '07:54:26 [WARN] [globaq:content-checks] src/content/ar/services/x.mdx is missing: /ar shows src/content/services/x.mdx in English',
      '  src/content/services/x.mdx:12: the link "/Nowhere" goes to no page of the site',
      ' prerendering static routes ',
    ]) {
      expect(isListingLine(line), line).toBe(false);
    }
  });
});
