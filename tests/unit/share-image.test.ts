/**
 * The share images' Arabic: satori draws Arabic's optional marks (shadda, tanween,
 * harakat) where the font's default puts them, inside or across the letters, so the images draw
 * headlines without them, as Arabic headlines are normally written; letters and hamza stay.
 */
import { describe, expect, test } from 'vitest';
import { renderShareImage, shareImageText } from '../../src/lib/images';

const SHIELD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#f28c28"/></svg>';
const draw = (title: string, tagline: string) =>
  renderShareImage(title, { company: 'Globaq', tagline, iconSvg: SHIELD, dir: 'rtl' });

describe('shareImageText', () => {
  test('drops shadda, tanween, harakat and the dagger alif', () => {
    expect(shareImageText('التميّز')).toBe('التميز');
    expect(shareImageText('كن شريكًا')).toBe('كن شريكا');
    expect(shareImageText('تعذّر الإرسال')).toBe('تعذر الإرسال');
    expect(shareImageText('مُدَرَّبٌ هٰذا')).toBe('مدرب هذا');
  });

  test('keeps every letter, hamza included, Latin text and digits', () => {
    for (const text of ['الإرسال أو المؤسسة والهيئة', 'ISO/IEC 17025', 'Schedule Q: 2026', 'تقييم الجودة وفق Schedule Q']) {
      expect(shareImageText(text)).toBe(text);
    }
  });
});

test('an Arabic share image with marks in its title and tagline draws exactly what the same words without them draw', async () => {
  const [marked, bare] = await Promise.all([
    draw('كن شريكًا', 'التميّز في ضمان الجودة'),
    draw('كن شريكا', 'التميز في ضمان الجودة'),
  ]);
  expect(marked.equals(bare)).toBe(true);
  // And the drawing is of the words: another title draws another picture.
  expect((await draw('من نحن', 'التميز في ضمان الجودة')).equals(bare)).toBe(false);
}, 30_000);
