/**
 * The Arabic dictionary (src/i18n/ar.ts, not yet served): every English
 * key, the same placeholders, and no English interface string left in it.
 */
import { describe, expect, test } from 'vitest';
import { ar } from '../../src/i18n/ar';
import { en } from '../../src/i18n/en';
import { fillTemplate } from '../../src/i18n/template';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/** Latin words an Arabic string may keep: names of the company, of standards, of programmes, and units. */
const NAMES =
  /[\w.]+@[\w.]+|Globaq|SQLite|(?:Google|Microsoft) Authenticator|1Password|ISO(?:\/IEC)?|Schedule [QD]|ESG|CSR|ERP|IT|AI|SASO|JPG|PDF|DOC|https?(?::\/\/\S+)?|example\.com|Saudi Aramco|\+?\d[\d\s]*|[A-Z]{2,}/g;

describe('Arabic dictionary', () => {
  test('has every key of the English one, in the same order, and no other', () => {
    expect(Object.keys(ar)).toEqual(Object.keys(en));
  });

  test('each string has the same placeholders as its English one, and fills', () => {
    const strings: Record<string, string> = ar;
    for (const [key, english] of Object.entries(en)) {
      expect(placeholders(strings[key] ?? ''), key).toEqual(placeholders(english));
      const values = Object.fromEntries(placeholders(english).map((name) => [name, 'x']));
      expect(() => fillTemplate(strings[key] ?? '', values), key).not.toThrow();
    }
  });

  test('no string is left in English: each is written in Arabic, Latin letters only in names', () => {
    const leftovers = Object.entries(ar).filter(([, text]) => {
      const rest = text.replace(/\{\w+\}/g, '').replace(NAMES, '');
      // Latin words beyond names, or Latin text with no Arabic at all (a name or a figure alone is fine).
      return /[A-Za-z]{3,}/.test(rest) || (/[A-Za-z]/.test(rest) && !/[\u0600-\u06FF]/.test(text));
    });
    expect(leftovers.map(([key]) => key)).toEqual([]);
  });
});
