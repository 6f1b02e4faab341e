/**
 * The content collections' schemas (src/content.config.ts), in a module of their own: the build's
 * content checks (src/integrations/content-checks.ts) run them over every file before Astro does,
 * to name a mistake by file, line and field, with "did you mean" for a misspelled field.
 */
import { z } from 'astro/zod';
import { ISO_STANDARD_IDS } from '../data/standards';

/**
 * A string of `min` to `max` characters; when it is not, the message gives its length and the
 * limit ("227 characters, at most 170") and why the limit is there.
 */
const text = (min: number, max?: number, why?: { min?: string; max?: string }) => {
  const say = (input: unknown, limit: string, reason?: string) =>
    `${String(input ?? '').length} characters, ${limit}${reason ? `, ${reason}` : ''}`;
  const atLeast = z.string().min(min, { error: (issue) => say(issue.input, `at least ${min}`, why?.min) });
  return max === undefined ? atLeast : atLeast.max(max, { error: (issue) => say(issue.input, `at most ${max}`, why?.max) });
};

/** A meta description search engines show in full. */
const metaDescription = text(50, 170, {
  min: 'so search engines show a useful summary: write one or two full sentences',
  max: 'so search engines do not cut it off: shorten it',
});

/** An in-page anchor: lower-case words joined by hyphens. */
const anchorId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case words joined by hyphens, e.g. "root-cause-analysis"');

/**
 * The service catalogue: one MDX file per service, named after its slug
 * (`src/content/services/ms-audits.mdx` is served at /services/ms-audits).
 * The MDX body is the service's full description (its "Service Overview").
 */
export const serviceSchema = z
  .object({
    /** Position in the catalogue: home cards, menus and "other services" follow it. */
    order: z.number().int().min(1),
    title: text(3, 60),
    /** One or two sentences for the home page card. */
    shortDescription: text(40, 220),
    description: metaDescription,
  })
  .strict();

/** How a course runs, in the words of the page's language where words are needed. */
export const COURSE_LEVELS = ['introductory', 'intermediate', 'advanced'] as const;
export const COURSE_DELIVERY = ['classroom', 'in-house', 'online'] as const;
export const COURSE_LANGUAGES = ['en', 'ar'] as const;

/**
 * A training's facts: shown on its page and given to search engines as schema.org `Course`
 * data. `days` is left out on a page whose courses each say their own duration.
 */
export const courseFactsSchema = z
  .object({
    days: z.number().int().min(1).max(30).optional(),
    level: z.enum(COURSE_LEVELS),
    languages: z.array(z.enum(COURSE_LANGUAGES)).nonempty(),
    delivery: z.array(z.enum(COURSE_DELIVERY)).nonempty(),
    assessment: text(10, 300),
    certificate: text(10, 300),
  })
  .strict();

/**
 * Static pages: one MDX file per menu destination, the About page and the privacy notice (linked
 * from the footer). `route` is the page's
 * path exactly as the specification spells it, without the leading slash.
 */
export const pageSchema = z
  .object({
    route: z
      .string()
      .regex(
        /^[A-Za-z0-9]+(?:\/[A-Za-z0-9]+)*$/,
        'a path such as "MangementSystemAudits/VendorAssessment" (letters and digits, segments joined by "/", no leading or trailing slash)',
      ),
    title: text(3, 80),
    description: metaDescription,
    /** Short text under the title. */
    lead: text(20, 400),
    /** Standards the page covers, listed with anchors; the menu lists them under the page. */
    standards: z.array(z.enum(ISO_STANDARD_IDS)).nonempty().optional(),
    /** Heading above the standards list. */
    standardsHeading: text(3).optional(),
    /** Courses or programmes the page lists, each with its own in-page anchor. */
    courses: z
      .array(
        z
          .object({
            id: anchorId,
            title: text(3),
            summary: text(20),
            duration: text(2).optional(),
          })
          .strict(),
      )
      .nonempty()
      .optional(),
    /** Heading above the courses list. */
    coursesHeading: text(3).optional(),
    /** A training page's facts (for a page listing courses: how they all run). */
    course: courseFactsSchema.optional(),
  })
  .strict()
  .refine((page) => !page.standards || page.standardsHeading, {
    message: 'standardsHeading is required when standards are listed',
    path: ['standardsHeading'],
  })
  .refine((page) => !page.courses || page.coursesHeading, {
    message: 'coursesHeading is required when courses are listed',
    path: ['coursesHeading'],
  });
