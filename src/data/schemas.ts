/**
 * The schemas of the data files (src/data/*.yaml): what each entry may hold and what to write when it is wrong, shared
 * by the content collections, the modules that read the files and the build's first check. Reads no file itself.
 */
import { z } from 'astro/zod';

/** A standard's words in one language. */
const standardWordsSchema = z.strictObject({
  title: z.string().min(1, 'write the standard’s subject, short'),
  summary: z.string().min(1, 'write one sentence on what the standard covers'),
  update: z.string().min(1).optional(),
});

/** One entry of src/data/standards.yaml: the schema its content collection uses too. */
export const standardEntrySchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9-]+$/, 'write lower-case letters, digits and hyphens, e.g. "iso-9001-2015"'),
  code: z.string().min(1, 'write the designation and edition, e.g. "ISO 9001:2015"'),
  kind: z.enum(['certification', 'accreditation', 'guidance', 'measurement']),
  en: standardWordsSchema,
  ar: standardWordsSchema.optional(),
});
export type StandardEntry = z.infer<typeof standardEntrySchema>;

/** The file an editor changes; error messages name it. */
export const STANDARDS_FILE = 'src/data/standards.yaml';

/** The whole file: standards in order, each id once. */
export const standardsFileSchema = z.array(standardEntrySchema).superRefine((entries, context) => {
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    if (seen.has(entry.id)) context.addIssue({ code: 'custom', path: [i, 'id'], message: 'another standard has this id: each id once' });
    seen.add(entry.id);
  });
});

/** A label's words: English always, Arabic once translated. */
const labelSchema = z.strictObject({
  en: z.string().min(1, 'write the English label'),
  ar: z.string().min(1, 'write the Arabic label, or leave `ar` out until it is translated').optional(),
});

/** A link (`href`) or a group (`items`, and `page` when it has one) as src/data/navigation.yaml writes it. */
export interface NavEntryData {
  id?: string | undefined;
  label: { en: string; ar?: string | undefined };
  href?: string | undefined;
  page?: string | undefined;
  items?: NavEntryData[] | undefined;
}

const pathSchema = z.string().regex(/^\/[^\s]*$/, 'write the page’s path, starting with "/", e.g. "/AboutUs"');

/** One menu entry, its fields checked; whether it is a link or a group is checked over the file (navigationFileSchema). */
export const navEntrySchema = z.strictObject({
  id: z.string().min(1).optional(),
  label: labelSchema,
  href: pathSchema.optional(),
  page: pathSchema.optional(),
  get items(): z.ZodOptional<z.ZodArray<typeof navEntrySchema>> {
    return z.array(navEntrySchema).min(1, 'list the group’s entries, or make it a link with `href`').optional();
  },
});

/** Each entry a link or a group, never both; each top-level entry with an id of its own. */
function checkEntries(entries: readonly NavEntryData[], context: z.RefinementCtx, at: (string | number)[]): void {
  const ids = new Set<string>();
  entries.forEach((entry, i) => {
    const path = [...at, i];
    if (at.length === 0) {
      if (!entry.id) context.addIssue({ code: 'custom', path: [...path, 'id'], message: 'give the entry a short id, unique in the file, e.g. "about"' });
      else if (ids.has(entry.id)) context.addIssue({ code: 'custom', path: [...path, 'id'], message: 'another entry has this id: each id once' });
      if (entry.id) ids.add(entry.id);
    }
    if (entry.href === undefined && entry.items === undefined)
      context.addIssue({ code: 'custom', path: [...path, 'href'], message: 'a link needs `href` (the page’s path); a group needs `items`' });
    if (entry.href !== undefined && (entry.items !== undefined || entry.page !== undefined))
      context.addIssue({ code: 'custom', path: [...path, 'href'], message: 'an entry is a link (`href`) or a group (`items`, and `page`), not both' });
    if (entry.items) checkEntries(entry.items, context, [...path, 'items']);
  });
}

/** The whole file: the top-level entries in menu order, each with its own id (the content collection's key). */
export const navigationFileSchema = z.array(navEntrySchema).superRefine((entries, context) => checkEntries(entries, context, []));

/** The file an editor changes; error messages name it. */
export const NAVIGATION_FILE = 'src/data/navigation.yaml';


/** Words a visitor reads: English always, Arabic once translated (until then the English shows). */
const wordsSchema = z.strictObject({
  en: z.string().min(1, 'write the English words'),
  ar: z.string().min(1, 'write the Arabic words, or leave `ar` out until they are translated').optional(),
});
export type Words = z.infer<typeof wordsSchema>;

/** A social profile's address: empty until the company confirms the account. */
const profileSchema = z.string().nullish();

/** A figure the site states that only the company can confirm: `confirmed: false` until it has (npm run launch-check). */
const figureSchema = z.strictObject({ confirmed: z.boolean() });

/** src/data/company.yaml's shape; createSite() (src/data/company.ts) checks the values, overrides included. */
export const companyFileSchema = z.strictObject({
  name: z.string().min(1, 'write the company name'),
  /** `sample: true` while it is the template's wording, not the commercial registration's. */
  legalName: wordsSchema.extend({ sample: z.literal(true).optional() }),
  /** The registration details: each shown in the footer and the privacy notice once written. */
  commercialRegistration: z.coerce.string().regex(/^\d{10}$/, 'write the 10 digits of the commercial registration number').nullish(),
  vatNumber: z.coerce.string().regex(/^3\d{13}3$/, 'write the 15 digits of the VAT registration number, which start and end with 3').nullish(),
  nationalAddress: wordsSchema.nullish(),
  privacyNoticeReviewed: z.iso.date('write the date as YYYY-MM-DD, e.g. "2026-05-31"').nullish(),
  figures: z.strictObject({ privacyPeriods: figureSchema, trainingFacts: figureSchema, aramcoDocuments: figureSchema }),
  mission: wordsSchema,
  vision2030: wordsSchema,
  phone: z.string(),
  email: z.string(),
  address: z.strictObject({ locality: wordsSchema, country: wordsSchema, countryCode: z.string() }),
  whatsapp: z.strictObject({ number: z.string().nullish(), greeting: wordsSchema }),
  social: z.strictObject({ linkedin: profileSchema, x: profileSchema, instagram: profileSchema, facebook: profileSchema }),
  socialLabels: z.strictObject({ linkedin: wordsSchema, x: wordsSchema, instagram: wordsSchema, facebook: wordsSchema }),
});
export type CompanyFile = z.infer<typeof companyFileSchema>;
export const COMPANY_FILE = 'src/data/company.yaml';

/** A picture of src/assets/: its path there; the build checks the file is there (src/integrations/data-files.ts). */
const assetSchema = z.string().regex(/^[\w./-]+\.(svg|png|jpe?g|webp|avif)$/i, 'write the picture’s path in src/assets/, e.g. "clients/my-client.svg"');

/** src/data/carousels.yaml: the hero pictures with their descriptions, and the client logos with the clients’ names. */
export const carouselsFileSchema = z.strictObject({
  hero: z.array(z.strictObject({ image: assetSchema, alt: wordsSchema })).min(1),
  /** `sample: true` marks a logo drawn for the template, not a client's (npm run launch-check lists it). */
  clients: z
    .array(z.strictObject({ image: assetSchema, name: z.string().min(1, 'write the client’s name'), sample: z.boolean().optional() }))
    .min(1),
});
export type CarouselsFile = z.infer<typeof carouselsFileSchema>;
export const CAROUSELS_FILE = 'src/data/carousels.yaml';

/** src/data/home.yaml: the home page's words beyond the service catalogue. */
export const homeFileSchema = z.strictObject({
  vision: wordsSchema,
  mission: wordsSchema,
  customSolution: z.strictObject({ title: wordsSchema, text: wordsSchema, cta: wordsSchema }),
  clients: z.strictObject({ text: wordsSchema, cta: wordsSchema }),
  /** docs/requirements.md §4: five policy points, in this order. */
  qualityPolicy: z.array(wordsSchema).length(5, 'list the five points of the quality policy (docs/requirements.md §4)'),
});
export const HOME_FILE = 'src/data/home.yaml';

/** Every data file and its schema, for the build's first check. */
export const DATA_FILES = [
  { file: STANDARDS_FILE, schema: standardsFileSchema },
  { file: NAVIGATION_FILE, schema: navigationFileSchema },
  { file: COMPANY_FILE, schema: companyFileSchema },
  { file: CAROUSELS_FILE, schema: carouselsFileSchema },
  { file: HOME_FILE, schema: homeFileSchema },
] as const;
