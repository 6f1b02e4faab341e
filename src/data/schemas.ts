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

/** A link or a group as src/data/navigation.yaml writes it. */
export type NavEntryData =
  | { id?: string | undefined; label: { en: string; ar?: string | undefined }; href: string }
  | { id?: string | undefined; label: { en: string; ar?: string | undefined }; page?: string | undefined; items: NavEntryData[] };

const pathSchema = z.string().regex(/^\/[^\s]*$/, 'write the page’s path, starting with "/", e.g. "/AboutUs"');

/** One menu entry: a link (`href`) or a group (`items`, and `page` when it has one). */
export const navEntrySchema: z.ZodType<NavEntryData> = z.lazy(() =>
  z.union([
    z.strictObject({ id: z.string().optional(), label: labelSchema, href: pathSchema }),
    z.strictObject({ id: z.string().optional(), label: labelSchema, page: pathSchema.optional(), items: z.array(navEntrySchema).min(1) }),
  ]),
);

/** The whole file: the top-level entries in menu order, each with its own id (the content collection's key). */
export const navigationFileSchema = z.array(
  z.intersection(z.object({ id: z.string().min(1, 'give the entry a short id, unique in the file') }), navEntrySchema),
);

/** The file an editor changes; error messages name it. */
export const NAVIGATION_FILE = 'src/data/navigation.yaml';

/** Every data file and its schema, for the build's first check. */
export const DATA_FILES = [
  { file: STANDARDS_FILE, schema: standardsFileSchema },
  { file: NAVIGATION_FILE, schema: navigationFileSchema },
] as const;
