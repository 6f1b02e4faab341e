/**
 * Reads the content collections straight from src/content and validates each file with the
 * collection's own schema from src/content.config.ts, so unit tests see exactly what the
 * build sees, without a build.
 */
import type { CollectionEntry } from 'astro:content';
import { collections } from '../../src/content.config';
import { readContentDir } from './frontmatter';

export { ROOT } from './frontmatter';

export interface LoadedEntry<T> {
  readonly id: string;
  readonly filePath: string;
  readonly data: T;
  readonly body: string;
}

type DataOf<K extends keyof typeof collections> = CollectionEntry<K>['data'];

export function loadCollection<K extends keyof typeof collections>(name: K, dir: string): LoadedEntry<DataOf<K>>[] {
  const schema = collections[name].schema as unknown as { parse: (v: unknown) => DataOf<K> };
  return readContentDir(dir).map(({ id, filePath, frontmatter, body }) => {
    let data: DataOf<K>;
    try {
      data = schema.parse(frontmatter);
    } catch (error) {
      throw new Error(`${filePath}: ${String(error)}`, { cause: error });
    }
    return { id, filePath, data, body };
  });
}

export const loadServices = () => loadCollection('services', 'services');
export const loadPages = () => loadCollection('pages', 'pages');
