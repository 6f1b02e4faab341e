/**
 * Each standard says what it leads to (certification of a management system,
 * accreditation, or guidance that is never certified) and what has changed since the edition the
 * requirements list, in both languages; the built ISO Consultancy pages show both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ISO_STANDARDS, getStandard } from '../../src/data/standards';
import { en } from '../../src/i18n/en';
import { ar } from '../../src/i18n/ar';
import { ROOT, loadCollection } from '../helpers/content';
import { parseHtml } from '../helpers/dom';

const kinds = Object.fromEntries(ISO_STANDARDS.map((standard) => [standard.code, standard.kind]));

describe('the standards', () => {
  test('guidance is never offered for certification, and 17025 and 17020 lead to accreditation', () => {
    // The standards of docs/requirements.md §6.1; one an editor adds says what it leads to as well.
    expect(kinds).toMatchObject({
      'ISO/IEC 17025:2017': 'accreditation',
      'ISO/IEC 17020:2012': 'accreditation',
      'ISO 9001:2015': 'certification',
      'ISO 14001:2015': 'certification',
      'ISO 45001:2018': 'certification',
      'ISO 22000:2018': 'certification',
      'ISO 55001:2014': 'certification',
      'ISO 31000:2018': 'guidance',
      'ISO 59004:2024': 'guidance',
      'ISO 59010:2024': 'guidance',
      'ISO 59020:2024': 'measurement',
    });
  });

  test('the newer editions and amendments are named, in English and in Arabic alike', () => {
    expect(getStandard('iso-55001-2014').update).toContain('ISO 55001:2024');
    expect(getStandard('iso-55001-2014', 'ar').update).toContain('ISO 55001:2024');
    for (const id of ['iso-9001-2015', 'iso-14001-2015', 'iso-45001-2018', 'iso-22000-2018'] as const) {
      expect(getStandard(id).update, id).toContain('Amendment 1:2024');
      expect(getStandard(id, 'ar').update, id).toContain('1:2024');
    }
    for (const { id } of ISO_STANDARDS) {
      expect(Boolean(getStandard(id, 'ar').update), `${id}: an edition note in one language only`).toBe(
        Boolean(getStandard(id).update),
      );
    }
  });
});

describe('standards the content cites', () => {
  test('ISO 19011 is always cited with its edition, in both languages', () => {
    const files = fs
      .readdirSync(path.join(ROOT, 'src/content'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.mdx'));
    const undated = files.flatMap((file) =>
      fs
        .readFileSync(path.join(ROOT, 'src/content', file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/ISO 19011(?!:\d{4})/.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(undated).toEqual([]);
  });
});

describe('the built ISO Consultancy pages', () => {
  for (const [file, strings] of [
    ['ISOConsultancy.html', en],
    ['ar/ISOConsultancy.html', ar],
  ] as const) {
    test(`${file}: each standard under its kind's heading, which says what it leads to; what has changed`, () => {
      const page = path.join(ROOT, 'dist/client', file);
      if (!fs.existsSync(page)) throw new Error('dist/client is missing: run `npm run build` first (npm test does).');
      const document = parseHtml(fs.readFileSync(page, 'utf8'));
      const item = (id: string) => document.getElementById(id);
      const text = (id: string) => item(id)?.textContent?.replace(/\s+/g, ' ') ?? '';
      const [collection, dir] = file.startsWith('ar/') ? (['arPages', 'ar/pages'] as const) : (['pages', 'pages'] as const);
      const listed = loadCollection(collection, dir).find((page) => page.data.route === 'ISOConsultancy')?.data.standards ?? [];
      const kinds = [...new Set(listed.map((id) => getStandard(id, 'en').kind))];
      expect(kinds.length).toBeGreaterThan(1);
      // One group per kind, in the order the page first lists each, its heading a level below the list's.
      const groups = [...document.querySelectorAll('.standards__group')];
      expect(groups.map((group) => group.querySelector(':scope > h3')?.textContent?.trim())).toEqual(
        kinds.map((kind) => strings[`standards.group.${kind}`]),
      );
      for (const id of listed) {
        const group = item(id)?.closest('.standards__group');
        const kind = getStandard(id, 'en').kind;
        expect(group?.querySelector(':scope > h3')?.textContent?.trim(), id).toBe(strings[`standards.group.${kind}`]);
        expect(group?.querySelector('.standards__kind')?.textContent?.trim(), id).toBe(strings[`standards.kind.${kind}`]);
        expect(item(id)?.querySelector('h4 .standards__code')?.textContent, id).toBe(getStandard(id, 'en').code);
      }
      expect(text('iso-55001-2014')).toContain(strings['standards.update']);
      expect(text('iso-55001-2014')).toContain('ISO 55001:2024');
      expect(text('iso-31000-2018')).not.toContain(strings['standards.update']);
    });
  }
});

describe('a replaced edition, wherever the built site lists it', () => {
  test('every page whose content names ISO 55001:2014 says, from the standards list, that ISO 55001:2024 replaced it', () => {
    const dist = path.join(ROOT, 'dist/client');
    if (!fs.existsSync(dist)) throw new Error('dist/client is missing: run `npm run build` first (npm test does).');
    const pages = fs
      .readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.html'))
      .map((file) => {
        const main = parseHtml(fs.readFileSync(path.join(dist, file), 'utf8')).querySelector('main');
        return { file, text: main?.textContent?.replace(/\s+/g, ' ') ?? '' };
      })
      .filter(({ text }) => text.includes('ISO 55001:2014'));
    // The three pages with the standards' list, and the ISO Consultancy service with its short list, in each language.
    expect(pages.length).toBeGreaterThanOrEqual(8);
    for (const { file, text } of pages) {
      const update = getStandard('iso-55001-2014', file.startsWith('ar/') ? 'ar' : 'en').update ?? 'an edition note';
      expect(text, file).toContain(update.replace(/\s+/g, ' '));
    }
  });
});
