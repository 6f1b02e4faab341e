/**
 * Every content collection, with its schema (src/lib/content-schemas.ts). A content file that
 * does not match its schema fails `astro build` (and `astro check`) with the file and the field named.
 */
import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { pageSchema, serviceSchema } from './lib/content-schemas';

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

export const collections = { services, pages, arServices, arPages };
