/**
 * Every content collection, with its schema (src/lib/content-schemas.ts). A content file that
 * does not match its schema fails `astro build` (and `astro check`) with the file and the field named.
 */
import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { file, glob, type Loader } from 'astro/loaders';
import fs from 'node:fs';
import { caseSchema, credentialSchema, pageSchema, serviceSchema, teamSchema } from './lib/content-schemas';
import { NAVIGATION_FILE, STANDARDS_FILE, navEntrySchema, standardEntrySchema } from './data/schemas';

const services = defineCollection({ loader: glob({ pattern: '*.mdx', base: './src/content/services' }), schema: serviceSchema });
const pages = defineCollection({ loader: glob({ pattern: '**/*.mdx', base: './src/content/pages' }), schema: pageSchema });

/**
 * The Arabic twins: the same files at the same paths under src/content/ar/, with the
 * same schemas. `order`, `route`, `standards` and the course ids are the English twin's
 * (src/lib/content.ts checks it when building); the words are Arabic. Served under /ar.
 */
const arServices = defineCollection({
  loader: glob({ pattern: '*.mdx', base: './src/content/ar/services' }),
  schema: serviceSchema,
});
const arPages = defineCollection({ loader: glob({ pattern: '**/*.mdx', base: './src/content/ar/pages' }), schema: pageSchema });

/**
 * A trust collection's YAML entries (src/content/{team,credentials,cases}, their twins under
 * src/content/ar): read by glob() once the folder has one, and none before. glob() would warn of
 * the missing or empty folder on every build; the repository ships none of these entries, and the
 * build says so in one line of its own (src/integrations/content-checks.ts). An editor who adds
 * the first entry under `astro dev` restarts it.
 */
const yamlCount = (base: string) =>
  fs.existsSync(base) ? fs.readdirSync(base).filter((name) => name.endsWith('.yaml')).length : 0;
function entriesIn(base: string): Loader {
  const inner = glob({ pattern: '*.yaml', base });
  return {
    name: 'globaq:entries-if-any',
    load: async (context) => {
      if (yamlCount(base) > 0) await inner.load(context);
      else context.store.clear();
    },
  };
}

/** Each trust collection's folder. */
const TRUST_FOLDERS = {
  team: './src/content/team',
  credentials: './src/content/credentials',
  cases: './src/content/cases',
  arTeam: './src/content/ar/team',
  arCredentials: './src/content/ar/credentials',
  arCases: './src/content/ar/cases',
} as const;

/**
 * How many entries each trust collection has, as one entry (`count`): src/lib/trust.ts reads a
 * collection only when it has one, since getCollection() warns of an empty collection on every page.
 */
const trustCounts = defineCollection({
  loader: () => [
    { id: 'count', ...Object.fromEntries(Object.entries(TRUST_FOLDERS).map(([name, base]) => [name, yamlCount(base)])) },
  ],
  schema: z.object(
    Object.fromEntries(Object.keys(TRUST_FOLDERS).map((name) => [name, z.number().int().min(0)])) as Record<
      keyof typeof TRUST_FOLDERS,
      z.ZodNumber
    >,
  ),
});

const team = defineCollection({ loader: entriesIn(TRUST_FOLDERS.team), schema: ({ image }) => teamSchema(image()) });
const credentials = defineCollection({ loader: entriesIn(TRUST_FOLDERS.credentials), schema: credentialSchema });
const cases = defineCollection({ loader: entriesIn(TRUST_FOLDERS.cases), schema: caseSchema });
const arTeam = defineCollection({ loader: entriesIn(TRUST_FOLDERS.arTeam), schema: ({ image }) => teamSchema(image()) });
const arCredentials = defineCollection({ loader: entriesIn(TRUST_FOLDERS.arCredentials), schema: credentialSchema });
const arCases = defineCollection({ loader: entriesIn(TRUST_FOLDERS.arCases), schema: caseSchema });

/**
 * The site's data files (src/data/*.yaml), one entry per standard or top-level menu entry, English
 * and Arabic side by side: the same files and schemas src/data/standards.ts and navigation.ts read
 * (src/data/data-file.ts), which name a malformed entry by file, entry and field before Astro does.
 */
const standards = defineCollection({ loader: file(STANDARDS_FILE), schema: standardEntrySchema });
const navigation = defineCollection({ loader: file(NAVIGATION_FILE), schema: navEntrySchema });

export const collections = {
  standards,
  navigation,
  services,
  pages,
  arServices,
  arPages,
  trustCounts,
  team,
  credentials,
  cases,
  arTeam,
  arCredentials,
  arCases,
};
