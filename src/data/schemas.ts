/**
 * The schemas of the site's data files (src/data/*.yaml): what each entry may hold and what to
 * write when it is wrong. The content collections (src/content.config.ts), the modules that read
 * the files (src/data/standards.ts, navigation.ts) and the build's first check
 * (src/integrations/data-files.ts) share them. Reads no file itself.
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

/** Every data file and its schema, for the build's first check. */
export const DATA_FILES = [
  { file: STANDARDS_FILE, schema: standardsFileSchema },
  { file: NAVIGATION_FILE, schema: navigationFileSchema },
] as const;
