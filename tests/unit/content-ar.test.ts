/**
 * The Arabic content: every English page and service has an Arabic twin at the same
 * path under src/content/ar/, describing the same thing (same route, order, standards, courses and
 * sections) in Arabic, with no English left but proper names and abbreviations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, readContentDir, splitFrontmatter, type RawEntry } from '../helpers/frontmatter';
import { englishLeft, hasArabic } from '../helpers/arabic';

const TEXT_FIELDS = ['title', 'description', 'lead', 'shortDescription', 'standardsHeading', 'coursesHeading'] as const;
/** Facts that are the same in both languages. */
const SHARED_FIELDS = ['route', 'order', 'standards'] as const;

const headings = (body: string) =>
  body
    .split('\n')
    .filter((line) => /^#{2,6} /.test(line))
    .map((line) => line.split(' ')[0]);

function twinOf(entry: RawEntry): { file: string; frontmatter: Record<string, unknown>; body: string } | undefined {
  const file = path.join(ROOT, 'src/content/ar', path.relative(path.join(ROOT, 'src/content'), path.join(ROOT, entry.filePath)));
  if (!fs.existsSync(file)) return undefined;
  return { file: path.relative(ROOT, file), ...splitFrontmatter(fs.readFileSync(file, 'utf8')) };
}

describe('englishLeft', () => {
  it('keeps proper names and abbreviations, finds English words', () => {
    expect(englishLeft('تقييم Schedule Q لأرامكو السعودية وفق ISO/IEC 17025:2017 وESG لدى Globaq')).toEqual([]);
    expect(englishLeft('تدريب Internal Audit على ISO 9001')).toEqual(['Internal', 'Audit']);
    expect(englishLeft('[تواصل معنا](/ContactUs) أو info@globaq.com')).toEqual([]);
    expect(englishLeft('منهجية 5S في 2030، لا 5 Whys')).toEqual(['Whys']);
  });
});

for (const collection of ['services', 'pages'] as const) {
  describe(`Arabic ${collection}`, () => {
    for (const entry of readContentDir(collection)) {
      // A twin not written yet is no failure: the Arabic site shows the English page with a
      // notice, the build warns, and `npm run translations -- --check` fails a release build.
      const pending = twinOf(entry) === undefined;
      it.skipIf(pending)(
        `${entry.filePath} has an Arabic twin that says the same in Arabic${pending ? ' (pending: not translated yet)' : ''}`,
        () => {
          const twin = twinOf(entry);
          expect(twin, `src/content/ar/${path.relative('src/content', entry.filePath)} is missing`).toBeDefined();
          const { frontmatter, body, file } = twin!;
          expect(Object.keys(frontmatter).sort(), file).toEqual(Object.keys(entry.frontmatter).sort());
          for (const field of SHARED_FIELDS) expect(frontmatter[field], `${file}: ${field}`).toEqual(entry.frontmatter[field]);
          for (const field of TEXT_FIELDS) {
            if (!(field in entry.frontmatter)) continue;
            const value = String(frontmatter[field]);
            expect(hasArabic(value), `${file}: ${field} is in Arabic`).toBe(true);
            expect(englishLeft(value), `${file}: English left in ${field}`).toEqual([]);
          }
          const courses = (entry.frontmatter['courses'] ?? []) as { id: string; duration?: string }[];
          const arCourses = (frontmatter['courses'] ?? []) as { id: string; title: string; summary: string; duration?: string }[];
          // A course the English added is listed in English on the Arabic page until translated
          // (src/lib/content.ts): the twin's courses are the English ones, in the English order,
          // less those not translated yet.
          const arIds = arCourses.map((c) => c.id);
          expect(arIds, `${file}: course ids`).toEqual(courses.map((c) => c.id).filter((id) => arIds.includes(id)));
          for (const course of arCourses) {
            for (const text of [course.title, course.summary, course.duration ?? '']) {
              expect(englishLeft(text), `${file}: English left in course ${course.id}`).toEqual([]);
            }
          }
          expect(headings(body), `${file}: the same sections`).toEqual(headings(entry.body));
          expect(hasArabic(body), `${file}: body in Arabic`).toBe(true);
          // MDX code (an import, a component such as <PageStandards route="..." />) is not text a visitor reads.
          const prose = body.replace(/^import .*$/gm, '').replace(/<[A-Z][^>]*\/>/g, '');
          expect(englishLeft(prose), `${file}: English left in the body`).toEqual([]);
        },
      );
    }
  });
}
