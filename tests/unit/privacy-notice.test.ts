/**
 * The privacy notice says what the system does: the periods it gives in both languages are the
 * receiver's default for held spam (HELD_PURGE_DAYS), the nightly script's purge and backup age in
 * docs/deploy.md, and the two languages give the same numbers. It has, in both languages, the
 * parts Article 13 of the PDPL and its regulation ask for, and the Arabic the law's own terms.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { loadCollection } from '../helpers/content';
import { DEFAULT_PROOF } from '../../src/server/config';
import { ar } from '../../src/i18n/ar';
import { en } from '../../src/i18n/en';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const english = read('src/content/pages/privacy.mdx');
const arabic = read('src/content/ar/pages/privacy.mdx');
const deploy = read('docs/deploy.md');
const numbers = (text: string) => [...text.matchAll(/\d+/g)].map((m) => Number(m[0]));

describe('the privacy notice against the settings it describes', () => {
  test("held spam: the receiver's HELD_PURGE_DAYS default, in both languages", () => {
    expect(english).toContain(`erased after ${DEFAULT_PROOF.heldPurgeDays} days`);
    expect(arabic).toContain(`تُتلف بعد ${DEFAULT_PROOF.heldPurgeDays} يومًا`);
  });

  test('leads: the nightly purge of docs/deploy.md, in both languages', () => {
    const months = Number(/globaq-submissions purge --older-than (\d+)m/.exec(deploy)?.[1]);
    expect(months).toBeGreaterThan(0);
    expect(english).toContain(`up to ${months} months`);
    expect(arabic).toContain(`حتى ${months} شهرًا`);
  });

  test("backups: the nightly script's age, in both languages", () => {
    const days = Number(/-name 'nightly-\*' -mtime \+(\d+)/.exec(deploy)?.[1]);
    expect(days).toBeGreaterThan(0);
    expect(english).toContain(`with the backups, after ${days} days`);
    expect(arabic).toContain(`مع تلك النسخ بعد ${days} يومًا`);
  });

  test('the two languages give the same numbers', () => {
    const body = (text: string) => text.slice(text.indexOf('\n---', 3));
    expect(numbers(body(arabic)).sort()).toEqual(numbers(body(english)).sort());
  });
});

/** The notice in one language: its front matter through the real schema, and its `##` sections by heading. */
function notice(collection: 'pages' | 'arPages', dir: string) {
  const page = loadCollection(collection, dir).find((entry) => entry.data.route === 'Privacy');
  if (!page) throw new Error(`no privacy notice in src/content/${dir}`);
  const sections = page.body.split(/^## /m).slice(1);
  /** The one section whose heading matches `heading`, heading included. */
  const section = (heading: RegExp) => {
    const found = sections.filter((text) => heading.test(text.split('\n')[0]!));
    expect(found, String(heading)).toHaveLength(1);
    return found[0]!;
  };
  return { page, section };
}

describe.each([
  {
    code: 'en',
    ...notice('pages', 'pages'),
    careers: en['footer.careers'],
    terms: {
      controller: /controller/i,
      basis: /legal basis/i,
      consent: /consent/i,
      interest: /legitimate interest/i,
      abroad: /outside Saudi Arabia/i,
      whatsapp: /WhatsApp/,
      withdrawal: /withdraw/i,
      jobs: /CVs? .*jobs?/i,
      months: /\d+ months/,
      leaveOut: /Iqama/,
    },
  },
  {
    code: 'ar',
    ...notice('arPages', 'ar/pages'),
    careers: ar['footer.careers'],
    terms: {
      controller: /جهة التحكم/,
      basis: /مسوغ\S* النظامي/,
      consent: /موافقة/,
      interest: /مصلحتنا المشروعة/,
      abroad: /خارج المملكة/,
      whatsapp: /واتساب/,
      withdrawal: /العدول عن الموافقة/,
      jobs: /السير الذاتية .*للتوظيف/,
      months: /\d+ شهرًا/,
      leaveOut: /إقامتك/,
    },
  },
])('the privacy notice in $code has the parts the PDPL asks for', ({ page, section, careers, terms }) => {
  test('the controller, its identity rendered from src/data/company.yaml, not written in the text', () => {
    expect(section(terms.controller)).toContain('<PrivacyController />');
  });

  test("the legal basis of each processing: consent for the trainers' CVs, legitimate interest among the others", () => {
    expect(section(terms.basis)).toMatch(terms.consent);
    expect(section(terms.basis)).toMatch(terms.interest);
  });

  test('whether data leaves the Kingdom, WhatsApp included', () => {
    expect(section(terms.abroad)).toMatch(terms.whatsapp);
  });

  test("how to withdraw the consent the trainers' CVs rely on", () => {
    expect(section(terms.withdrawal)).toMatch(/\(\/(ar\/)?ContactUs\)/);
  });

  test("the CVs the footer's Careers link mails: how long they are kept, and what to leave out of them", () => {
    const jobs = section(terms.jobs);
    expect(jobs).toContain(careers);
    expect(jobs).toMatch(terms.months);
    expect(jobs).toMatch(terms.leaveOut);
  });

  test('the day it last changed, in its front matter, not in the future', () => {
    expect(page.data.updated).toBeInstanceOf(Date);
    expect(page.data.updated!.getTime()).toBeLessThanOrEqual(Date.now());
  });
});

test("the Arabic notice calls the controller «جهة التحكم», the law's term, never «الجهة المسؤولة»", () => {
  expect(arabic).toContain('جهة التحكم');
  expect(arabic).not.toContain('الجهة المسؤولة');
});
