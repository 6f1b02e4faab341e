/**
 * Course facts: every training page says how long it runs, its level, language, delivery,
 * assessment and certificate, on the page and as schema.org Course data, in both languages;
 * Arabic durations take the language's plural forms; the Arabic page runs the course as the
 * English one does.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { courseFactsSchema } from '../../src/lib/content-schemas';
import { daysText } from '../../src/lib/course';
import { locales } from '../../src/i18n';
import { en } from '../../src/i18n/en';
import { ar } from '../../src/i18n/ar';
import { ROOT } from '../helpers/content';
import { splitFrontmatter } from '../helpers/frontmatter';
import { parseHtml } from '../helpers/dom';

const TRAININGS = [
  'trainings/internal-audit-training',
  'trainings/iso-awareness-training',
  'trainings/iso-implementation-training',
  'trainings/other-trainings',
  'laboratory/training',
];

const frontmatter = (dir: string, page: string) =>
  splitFrontmatter(fs.readFileSync(path.join(ROOT, dir, `${page}.mdx`), 'utf8')).frontmatter as {
    route: string;
    course?: Record<string, unknown>;
    courses?: { id: string }[];
  };

describe('durations in words', () => {
  test('English: one day, two days', () => {
    expect(daysText(1, locales.en)).toBe('1 day');
    expect(daysText(2, locales.en)).toBe('2 days');
  });

  test('Arabic: the singular, the dual, the plural of 3-10 and of 11 and more', () => {
    expect(daysText(1, locales.ar)).toBe('يوم واحد');
    expect(daysText(2, locales.ar)).toBe('يومان');
    expect(daysText(3, locales.ar)).toBe('3 أيام');
    expect(daysText(11, locales.ar)).toBe('11 يومًا');
  });
});

describe('the training pages carry their facts', () => {
  test.each(TRAININGS)('%s: facts in both languages, the same in both but the words', (page) => {
    const english = frontmatter('src/content/pages', page).course;
    const arabic = frontmatter('src/content/ar/pages', page).course;
    expect(courseFactsSchema.safeParse(english).success).toBe(true);
    expect(courseFactsSchema.safeParse(arabic).success).toBe(true);
    const shape = (facts: Record<string, unknown> | undefined) => ({ ...facts, assessment: 0, certificate: 0 });
    expect(shape(arabic)).toEqual(shape(english));
  });

  test('a level or a way of delivery the site has no words for is refused', () => {
    const good = frontmatter('src/content/pages', 'trainings/iso-awareness-training').course;
    expect(courseFactsSchema.safeParse({ ...good, level: 'expert' }).success).toBe(false);
    expect(courseFactsSchema.safeParse({ ...good, delivery: ['webinar'] }).success).toBe(false);
    expect(courseFactsSchema.safeParse({ ...good, days: 0 }).success).toBe(false);
  });

  test.each(TRAININGS.flatMap((page) => [[page, 'en'] as const, [page, 'ar'] as const]))(
    '%s (%s): the built page lists the facts and describes each course as schema.org Course',
    (page, code) => {
      const facts = frontmatter(code === 'en' ? 'src/content/pages' : 'src/content/ar/pages', page);
      const english = frontmatter('src/content/pages', page);
      const file = path.join(ROOT, 'dist/client', code === 'en' ? '' : 'ar', `${english.route}.html`);
      if (!fs.existsSync(file)) throw new Error('dist/client is missing: run `npm run build` first (npm test does).');
      const document = parseHtml(fs.readFileSync(file, 'utf8'));
      const strings = code === 'en' ? en : ar;
      const box = document.querySelector('.course-facts');
      const text = box?.textContent?.replace(/\s+/g, ' ') ?? '';
      for (const key of [
        'course.level',
        'course.languages',
        'course.delivery',
        'course.assessment',
        'course.certificate',
      ] as const)
        expect(text, key).toContain(strings[key]);
      expect(text).toContain(String(facts.course?.['certificate']));
      const level = String(facts.course?.['level']) as 'introductory';
      expect(text).toContain(strings[`course.level.${level}`]);
      const days = facts.course?.['days'];
      expect(text).toContain(typeof days === 'number' ? daysText(days, locales[code]) : strings['course.daysVary']);

      const data = [...document.querySelectorAll('script[type="application/ld+json"]')].flatMap((script) => {
        const parsed = JSON.parse(script.textContent ?? 'null') as unknown;
        return Array.isArray(parsed) ? parsed : [parsed];
      }) as Record<string, unknown>[];
      const courses = data.filter((item) => item['@type'] === 'Course');
      expect(courses.length).toBe(english.courses ? english.courses.length : 1);
      expect(data.some((item) => item['@type'] === 'Service')).toBe(false);
      for (const course of courses) {
        expect(course['educationalCredentialAwarded']).toBe(facts.course?.['certificate']);
        const instance = course['hasCourseInstance'] as Record<string, unknown>;
        expect(instance['courseMode']).toEqual(expect.arrayContaining(['onsite']));
        if (typeof days === 'number') expect(instance['courseWorkload']).toBe(`P${days}D`);
      }
    },
  );
});
