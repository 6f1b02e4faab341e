/**
 * Impartiality (ISO/IEC 17021-1): a consultancy that helps a client build its management system
 * must not certify it. No page, in either language, offers certification: the site prepares
 * clients for certification and says it is not a certification body. The partner form's
 * "Certification Services" option is the specification's wording of what a partner may offer,
 * and the only place the phrase appears.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { en } from '../../src/i18n/en';
import { ar } from '../../src/i18n/ar';

const ROOT = path.resolve(import.meta.dirname, '../..');

function contentFiles(dir: string): { file: string; text: string }[] {
  return fs.readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true }).flatMap((entry) =>
    entry.isFile() && entry.name.endsWith('.mdx')
      ? [
          {
            file: path.relative(ROOT, path.join(entry.parentPath, entry.name)),
            text: fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'),
          },
        ]
      : [],
  );
}

const OPTION_KEY = 'partner.option.certificationServices';
const strings = (dictionary: Record<string, string>) =>
  Object.entries(dictionary)
    .filter(([key]) => key !== OPTION_KEY)
    .map(([key, text]) => ({ file: `i18n ${key}`, text }));

const english = [...contentFiles('src/content/pages'), ...contentFiles('src/content/services'), ...strings(en)];
const arabic = [...contentFiles('src/content/ar'), ...strings(ar)];

/** Each sentence of `text` matching `claim` and not `denial`. */
function claims(texts: { file: string; text: string }[], claim: RegExp, denial: RegExp): string[] {
  return texts.flatMap(({ file, text }) =>
    text
      .split(/(?<=[.!?؟])\s+|\n+/)
      .filter((sentence) => claim.test(sentence) && !denial.test(sentence))
      .map((sentence) => `${file}: ${sentence.trim()}`),
  );
}

describe('no page offers to certify, in either language', () => {
  test('English: "certify" only where the site says it does not, and no certification or inspection services', () => {
    expect(claims(english, /\bcertif(y|ies|ying)\b/i, /\b(do not|does not|never|not a) /i)).toEqual([]);
    expect(claims(english, /certification (and inspection )?services/i, /$^/)).toEqual([]);
  });

  test('Arabic: «نمنح الشهادات» only where the site says it does not, and no «خدمات منح الشهادات»', () => {
    expect(claims(arabic, /نمنح (الشهادات|الشهادة)/, /(لا|لسنا) /)).toEqual([]);
    expect(claims(arabic, /خدمات (التدريب و)?منح الشهادات/, /$^/)).toEqual([]);
  });

  test('the certification audits page says Globaq is not a certification body, in both languages', () => {
    const page = (dir: string) =>
      fs.readFileSync(path.join(ROOT, dir, 'management-system-audits/management-system-certification-audits.mdx'), 'utf8');
    expect(page('src/content/pages')).toContain('Globaq is not a certification body.');
    expect(page('src/content/ar/pages')).toContain('Globaq ليست جهة لمنح الشهادات.');
  });

  test('the Schedule Q and Schedule D assessments say the contract sets them and Globaq is not Saudi Aramco, in both languages', () => {
    const read = (dir: string, name: string) => fs.readFileSync(path.join(ROOT, dir, 'management-system-audits', name), 'utf8');
    for (const name of ['schedule-q-quality-assessment.mdx', 'schedule-d-safety-assessment.mdx']) {
      const english = read('src/content/pages', name);
      const arabic = read('src/content/ar/pages', name);
      expect(english, name).toMatch(/We are not Saudi Aramco and do not act on its behalf/);
      expect(english, name).toMatch(/The contractor commissions us as an independent assessor/);
      expect(arabic, name).toMatch(/لسنا أرامكو السعودية ولا نعمل نيابة عنها/);
      expect(arabic, name).toMatch(/يكلّفنا المقاول بصفتنا جهة تقييم مستقلة/);
    }
    // The assessments' timing comes from the contract, not from Globaq's own practice.
    const q = read('src/content/pages', 'schedule-q-quality-assessment.mdx');
    expect(q).toMatch(/Your contract and its Schedule Q set when/);
    expect(read('src/content/ar/pages', 'schedule-q-quality-assessment.mdx')).toMatch(
      /العقد وملحقه Schedule Q هما اللذان يحددان/,
    );
  });

  test('at a certification audit our consultant only observes, with the certification body agreeing, in both languages', () => {
    const page = (dir: string) => fs.readFileSync(path.join(ROOT, dir, 'audit-assistance/iso-third-party-audits.mdx'), 'utf8');
    for (const text of [
      page('src/content/pages'),
      ...english.filter((e) => /services\/audit-assistance/.test(e.file)).map((e) => e.text),
    ]) {
      expect(text).toMatch(/with your certification body's agreement[^.]*as an observer; we do not answer for you/i);
      expect(text).not.toMatch(/adviser during the audit|clarify the context of findings|respond to auditor requests/);
    }
    for (const text of [
      page('src/content/ar/pages'),
      ...arabic.filter((e) => /services\/audit-assistance/.test(e.file)).map((e) => e.text),
    ]) {
      expect(text).toMatch(/بموافقة جهة منح الشهادات/);
      expect(text).toMatch(/بصفة مراقب[^.]*ولا نجيب نيابةً عنك/);
      expect(text).not.toMatch(/مراقب ومستشار|توضيح سياق النتائج/);
    }
  });

  test('no Schedule Q assessment or outsourced internal audit of a system our own consultants built, in both languages', () => {
    const pages = [
      'management-system-audits/schedule-q-quality-assessment.mdx',
      'laboratory/third-party-internal-audit.mdx',
      'audit-assistance/iso-internal-audits.mdx',
    ];
    const service = (texts: typeof english) => texts.filter((e) => /services\/ms-audits\.mdx$/.test(e.file));
    const en = [...english.filter((e) => pages.some((p) => e.file.endsWith(`pages/${p}`))), ...service(english)];
    const ar = [...arabic.filter((e) => pages.some((p) => e.file.endsWith(`pages/${p}`))), ...service(arabic)];
    expect([en.length, ar.length]).toEqual([pages.length + 1, pages.length + 1]);
    for (const { file, text } of en)
      expect(text, file).toMatch(
        /(do not|Nor do we) (assess|carry out the internal audit of) a[^.]*system our own consultants built/,
      );
    for (const { file, text } of ar) expect(text, file).toMatch(/ولا (نقيّم|نُجري التدقيق الداخلي ل)[^.]*بناه استشاريونا/);
  });

  test("the partner form keeps the specification's option, in both languages", () => {
    expect(en[OPTION_KEY]).toBe('Certification Services');
    expect(ar[OPTION_KEY]).toBe('خدمات منح الشهادات');
  });
});
