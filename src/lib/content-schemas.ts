/**
 * The content collections' schemas (src/content.config.ts), in a module of their own: the build's
 * content checks (src/integrations/content-checks.ts) run them over every file before Astro does,
 * to name a mistake by file, line and field, with "did you mean" for a misspelled field.
 */
import { z } from 'astro/zod';
import { ISO_STANDARD_IDS } from '../data/standards.ts';

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

const metaDescription = text(50, 170, {
  min: 'so search engines show a useful summary: write one or two full sentences',
  max: 'so search engines do not cut it off: shorten it',
});

const anchorId = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'lower-case words joined by hyphens, e.g. "root-cause-analysis"');

/** A date written YYYY-MM-DD (YAML reads it as a date; the build's checks as text). */
const day = z.coerce.date({ error: 'a date written YYYY-MM-DD, e.g. 2025-03-31' });

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
const COURSE_DELIVERY = ['classroom', 'in-house', 'online'] as const;
const COURSE_LANGUAGES = ['en', 'ar'] as const;

/**
 * A training's facts: shown on its page and given to search engines as schema.org `Course`
 * data. `days` is left out on a page whose courses each say their own duration.
 */
export const courseFactsSchema = z
  .object({
    days: z.number().int().min(1).max(30).optional(),
    /** On a page listing courses: the level of each course that does not give its own. */
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
            /** Its level, when it is not the page's (`course.level`). */
            level: z.enum(COURSE_LEVELS).optional(),
          })
          .strict(),
      )
      .nonempty()
      .optional(),
    coursesHeading: text(3).optional(),
    /** A training page's facts (for a page listing courses: how they all run). */
    course: courseFactsSchema.optional(),
    /** The day the page's text last changed, shown under its title; the privacy notice must say it (PDPL). */
    updated: day.optional(),
  })
  .strict()
  .refine((page) => page.route !== 'Privacy' || page.updated, {
    message: 'updated is required on the privacy notice: the day (YYYY-MM-DD) its text last changed',
    path: ['updated'],
  })
  .refine((page) => !page.standards || page.standardsHeading, {
    message: 'standardsHeading is required when standards are listed',
    path: ['standardsHeading'],
  })
  .refine((page) => !page.courses || page.coursesHeading, {
    message: 'coursesHeading is required when courses are listed',
    path: ['coursesHeading'],
  })
  .refine((page) => page.course?.days !== undefined || !page.courses?.some((course) => !course.duration), {
    message: 'duration is required for each course when the page\'s course: gives no days ("2 days")',
    path: ['courses'],
  });

// ---------------------------------------------------------------------------------------------
// Who does the work: the team, the company's credentials and its case studies. One YAML file per
// entry (src/content/team, credentials, cases; Arabic twins under src/content/ar). The repository
// ships none: each collection's places on the site appear only once it has an entry.

const registrationNumber = z
  .string()
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9 ./-]*[A-Za-z0-9])?$/,
    'the number as its issuer writes it: letters, digits, spaces, "-", "/" or "."',
  );

/**
 * A team member. `photo` is the image schema in src/content.config.ts (Astro's `image()`: a
 * path relative to the YAML file, made into AVIF and WebP by the build); the build's own checks
 * pass a plain string.
 */
export const teamSchema = <Photo extends z.ZodType>(photo: Photo) =>
  z
    .object({
      /** Position on the team page and the About page: each number once. */
      order: z.number().int().min(1),
      name: text(3, 80),
      role: text(3, 80),
      qualifications: z
        .array(
          z
            .object({
              /** e.g. "ISO 9001:2015 Lead Auditor". */
              title: text(3, 120),
              /** The body that registers or certifies it, e.g. "CQI-IRCA", "Exemplar Global". */
              body: text(2, 80),
              /** The registration number the body's public register shows. */
              number: registrationNumber.optional(),
            })
            .strict(),
        )
        .nonempty(),
      /** The languages the person works in, in the file's language ("English", "العربية"). */
      languages: z.array(text(2, 30)).nonempty(),
      photo: z
        .object({ src: photo, alt: text(3, 200) })
        .strict()
        .optional(),
    })
    .strict();

/** What a credential is: each kind has its name in src/i18n (trust.kind.*). */
const CREDENTIAL_KINDS = ['commercial-registration', 'vat', 'training-licence', 'certificate', 'accreditation'] as const;

/** A credential of the company: its commercial registration, VAT number, a licence, a certificate. */
export const credentialSchema = z
  .object({
    order: z.number().int().min(1),
    kind: z.enum(CREDENTIAL_KINDS),
    /** A name of its own, e.g. "ISO 9001:2015 certificate"; the kind's name when there is none. */
    title: text(3, 120).optional(),
    issuer: text(2, 120),
    number: registrationNumber,
    validFrom: day.optional(),
    validUntil: day.optional(),
    /** What it covers, as the document says. */
    scope: text(10, 400).optional(),
    /** A copy of the document: a path of the site ("/documents/x.pdf", from public/) or an https address. */
    document: z
      .string()
      .regex(/^(?:\/[^/\s]|https:\/\/)\S*$/, 'a path of the site such as "/documents/cr.pdf" or an https:// address')
      .optional(),
  })
  .strict()
  .refine((c) => !c.validFrom || !c.validUntil || c.validFrom <= c.validUntil, {
    message: 'validUntil is before validFrom',
    path: ['validUntil'],
  });

const CLIENT_PERMISSION_RULE =
  'a client is named only with its written permission: add "permission: true" once the client has agreed, or remove "client"';

/** A case study: what the client needed, what was done, what came of it. */
export const caseSchema = z
  .object({
    order: z.number().int().min(1),
    title: text(3, 100),
    /** e.g. "Oil and gas", "Food manufacturing". */
    sector: text(2, 60),
    standards: z.array(z.enum(ISO_STANDARD_IDS)).nonempty(),
    year: z.number().int().min(2000).max(2100),
    challenge: text(20, 700),
    work: text(20, 900),
    outcome: text(20, 700),
    /** Named only with the client's written permission (`permission: true`); otherwise describe it in `sector`. */
    client: text(2, 100).optional(),
    permission: z.boolean().optional(),
  })
  .strict()
  .refine((c) => c.client === undefined || c.permission === true, { message: CLIENT_PERMISSION_RULE, path: ['client'] });
