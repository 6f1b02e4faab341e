/**
 * Course facts: every training page says how long it runs, its level, language, delivery,
 * assessment and certificate, on the page and as schema.org Course data, in both languages; a
 * page listing courses gives each its own level (the page's unless the course says otherwise);
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
    courses?: { id: string; level?: string }[];
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
    const levels = new Map(frontmatter('src/content/pages', page).courses?.map((course) => [course.id, course.level]));
    for (const course of frontmatter('src/content/ar/pages', page).courses ?? [])
      expect(course.level, course.id).toBe(levels.get(course.id));
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
      /** The words for a listed course's level (the page's when it gives none), or the page's. */
      const levelOf = (id?: string) => {
        const level = String(facts.courses?.find((listed) => listed.id === id)?.level ?? facts.course?.['level']);
        return strings[`course.level.${level}` as 'course.level.introductory'];
      };
      const box = document.querySelector('.course-facts');
      const text = box?.textContent?.replace(/\s+/g, ' ') ?? '';
      for (const key of ['course.languages', 'course.delivery', 'course.assessment', 'course.certificate'] as const)
        expect(text, key).toContain(strings[key]);
      expect(text).toContain(String(facts.course?.['certificate']));
      // One course: its level in the box; several: each under its own name, in the list.
      if (!facts.courses) expect(text).toContain(strings['course.level']);
      if (!facts.courses) expect(text).toContain(levelOf());
      for (const { id } of facts.courses ?? [])
        expect(document.getElementById(id)?.textContent?.replace(/\s+/g, ' ')).toContain(
          `${strings['course.level']}: ${levelOf(id)}`,
        );
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
        expect(course['educationalLevel']).toBe(levelOf(new URL(String(course['url'])).hash.slice(1) || undefined));
        const instance = course['hasCourseInstance'] as Record<string, unknown>;
        expect(instance['courseMode']).toEqual(expect.arrayContaining(['onsite']));
        if (typeof days === 'number') expect(instance['courseWorkload']).toBe(`P${days}D`);
      }
    },
  );
});
