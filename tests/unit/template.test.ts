/**
 * A file's name inside an alert (src/i18n/template.ts, `isolate`): marked off with invisible
 * isolates only when its letters run the other way from the page, so an English alert about a
 * Latin name is the specification's text to the character.
 */
import { describe, expect, test } from 'vitest';
import { fillTemplate, isolate } from '../../src/i18n/template';
import { en } from '../../src/i18n/en';
import { ar } from '../../src/i18n/ar';

const FSI = '\u2068';
const PDI = '\u2069';

describe('isolate', () => {
  test('a Latin name on an English page is left as it is: the alert is the specification’s text', () => {
    expect(isolate('big-cv.pdf', 'ltr')).toBe('big-cv.pdf');
    expect(fillTemplate(en['partner.files.tooLarge'], { file: isolate('big-cv.pdf', 'ltr') })).toBe(
      'File "big-cv.pdf" is too large. Maximum size is 2MB.',
    );
    expect(fillTemplate(en['partner.files.invalidType'], { file: isolate('2024 CV.exe', 'ltr') })).toBe(
      'File "2024 CV.exe" is not a valid type. Please upload JPG, PDF, or DOC files.',
    );
  });

  test('an Arabic or Hebrew name on an English page is isolated', () => {
    expect(isolate('السيرة الذاتية.pdf', 'ltr')).toBe(`${FSI}السيرة الذاتية.pdf${PDI}`);
    expect(isolate('קורות חיים.pdf', 'ltr')).toBe(`${FSI}קורות חיים.pdf${PDI}`);
  });

  test('a Latin name on an Arabic page is isolated; an Arabic one (with its Latin extension) is not', () => {
    expect(fillTemplate(ar['partner.files.tooLarge'], { file: isolate('2024 CV.pdf', 'rtl') })).toContain(
      `«${FSI}2024 CV.pdf${PDI}»`,
    );
    expect(isolate('السيرة الذاتية.docx', 'rtl')).toBe('السيرة الذاتية.docx');
  });

  test('the first letter decides, as the isolate mark itself would; a name without letters is left alone', () => {
    expect(isolate('CV سيرة.pdf', 'ltr')).toBe('CV سيرة.pdf');
    expect(isolate('سيرة CV.pdf', 'ltr')).toBe(`${FSI}سيرة CV.pdf${PDI}`);
    expect(isolate('2024.١٢', 'rtl')).toBe('2024.١٢');
  });
});
