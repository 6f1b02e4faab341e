/**
 * The English webfont's fallback (src/styles/fonts.css, 'Cairo Fallback') is matched to Cairo's
 * own metrics, so text drawn before the font arrives takes the room it will take in Cairo. The
 * figures are recomputed here from Cairo's Latin file and Arial's metrics (the fallback's local
 * faces are Arial and its metric twins), as Capsize and the browsers' own fallback tools do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { fromFile } from '@capsizecss/unpack/fs';
import arial from '@capsizecss/metrics/arial';
import { ROOT } from '../helpers/content';

const css = fs.readFileSync(path.join(ROOT, 'src/styles/fonts.css'), 'utf8');
const face = /@font-face\s*{[^}]*font-family:\s*'Cairo Fallback';[^}]*}/.exec(css)?.[0] ?? '';
const percent = (name: string) => Number(new RegExp(`${name}:\\s*([\\d.]+)%`).exec(face)?.[1] ?? NaN) / 100;

describe('the metric-matched fallback of the English font', () => {
  test('its size, ascent, descent and line gap are Cairo’s, computed from the font file', async () => {
    expect(face).not.toBe('');
    const cairo = await fromFile(path.join(ROOT, 'node_modules/@fontsource-variable/cairo/files/cairo-latin-wght-normal.woff2'));
    const sizeAdjust = cairo.xWidthAvg / cairo.unitsPerEm / (arial.xWidthAvg / arial.unitsPerEm);
    const em = cairo.unitsPerEm * sizeAdjust;
    expect(percent('size-adjust')).toBeCloseTo(sizeAdjust, 4);
    expect(percent('ascent-override')).toBeCloseTo(cairo.ascent / em, 4);
    expect(percent('descent-override')).toBeCloseTo(Math.abs(cairo.descent) / em, 4);
    expect(percent('line-gap-override')).toBeCloseTo(cairo.lineGap / em, 4);
  });

  test('it draws with Arial or a metric twin of Arial, Latin only, and leads the site’s font stack, right after Cairo once the browser holds Cairo', () => {
    expect(face).toMatch(/src:\s*local\('Arial'\)/);
    expect(face).toMatch(/local\('Liberation Sans'\)/);
    expect(face).toMatch(/unicode-range:\s*U\+0000-00FF/);
    const global = fs.readFileSync(path.join(ROOT, 'src/styles/global.css'), 'utf8');
    const stacks = [...global.matchAll(/--font-sans:\s*([^;]+);/g)].map((m) => m[1]);
    expect(stacks).toHaveLength(2);
    expect(stacks[0]).toMatch(/^'Cairo Fallback',/);
    // The second is under the mark the head script sets (src/lib/cairo-cache.ts).
    expect(global).toMatch(/:root\[data-cairo\]\s*\{\s*--font-sans:\s*'Cairo Variable', 'Cairo Fallback',/);
    expect(stacks[1]).toBe(`'Cairo Variable', ${stacks[0]}`);
  });
});
