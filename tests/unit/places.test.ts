/**
 * The search's gazetteer (src/data/places.json): the Kingdom's main cities are there in both
 * languages, and a file that breaks the rules is refused when loaded.
 */
import { describe, expect, test } from 'vitest';
import { PLACES, parsePlaces, placeAlternatives } from '../../src/server/inbox/places';

const SAUDI = [
  ['Riyadh', 'الرياض'],
  ['Jeddah', 'جدة'],
  ['Makkah', 'مكة'],
  ['Madinah', 'المدينة المنورة'],
  ['Dammam', 'الدمام'],
  ['Al-Khobar', 'الخبر'],
  ['Dhahran', 'الظهران'],
  ['Jubail', 'الجبيل'],
  ['Taif', 'الطائف'],
  ['Tabuk', 'تبوك'],
  ['Abha', 'أبها'],
  ['Khamis Mushait', 'خميس مشيط'],
  ['Hail', 'حائل'],
  ['Buraidah', 'بريدة'],
  ['Najran', 'نجران'],
  ['Jazan', 'جازان'],
  ['Yanbu', 'ينبع'],
  ['Al-Ahsa', 'الأحساء'],
  ['Hofuf', 'الهفوف'],
  ['Qatif', 'القطيف'],
  ['Hafr Al-Batin', 'حفر الباطن'],
  ['Al-Kharj', 'الخرج'],
  ['Arar', 'عرعر'],
  ['Sakaka', 'سكاكا'],
  ['Al-Baha', 'الباحة'],
  ['Unaizah', 'عنيزة'],
  ['Ras Tanura', 'رأس تنورة'],
  ['Rabigh', 'رابغ'],
  ['Al-Qunfudhah', 'القنفذة'],
  ['Abqaiq', 'بقيق'],
] as const;

describe('the places the search knows', () => {
  test.each(SAUDI)('%s and %s name each other', (english, arabic) => {
    expect(placeAlternatives(english)).toContain(arabic);
    expect(placeAlternatives(arabic)).toContain(english.toLowerCase());
  });

  test('the Gulf and Arab capitals, typed with or without the article, hamza or tā\u2019 marbūṭa', () => {
    for (const [typed, expected] of [
      ['Doha', 'الدوحة'],
      ['Manama', 'المنامة'],
      ['Muscat', 'مسقط'],
      ['Dubai', 'دبي'],
      ['Abu Dhabi', 'أبوظبي'],
      ['Cairo', 'القاهرة'],
      ['القاهره', 'cairo'],
      ['طائف', 'taif'],
      ['Al Khobar', 'الخبر'],
      ['alkhobar', 'الخبر'],
      ['Mushait', 'خميس مشيط'],
      ['الاحساء', 'al-ahsa'],
    ])
      expect(placeAlternatives(typed!), typed).toContain(expected);
    expect(placeAlternatives('city')).toEqual([]);
    expect(placeAlternatives('al')).toEqual([]);
    expect(PLACES.length).toBeGreaterThanOrEqual(50);
  });

  test('a file with a spelling in the wrong script, a place with no Arabic, or a spelling shared by two places is refused', () => {
    const good = Array.from({ length: 30 }, (_, i) => ({ en: [`Town ${'x'.repeat(i + 1)}`], ar: ['مدينة' + 'ب'.repeat(i + 1)] }));
    expect(parsePlaces({ about: '', places: good })).toHaveLength(30);
    expect(() => parsePlaces({ about: '', places: [...good, { en: ['الخبر'], ar: ['الخبر'] }] })).toThrow();
    expect(() => parsePlaces({ about: '', places: [...good, { en: ['Khobar'], ar: [] }] })).toThrow();
    expect(() => parsePlaces({ about: '', places: [...good, { en: ['Khobar'], ar: ['Khobar'] }] })).toThrow();
    expect(() =>
      parsePlaces({ about: '', places: [...good, { en: ['Khobar'], ar: ['الخبر'] }, { en: ['Al-Khobar'], ar: ['خبر'] }] }),
    ).toThrow(/two places/);
  });
});
