/**
 * The menu tree in Arabic: the labels written under `ar` in src/data/navigation.yaml, with the
 * English entries' hrefs (unprefixed) and nesting. An entry without its `ar` label is left out
 * here; mergeNavigation() (src/lib/nav-twins.ts) shows the English one in its place, marked.
 * Where the English menu names a page by its title, this one names it by the Arabic page's title
 * (tests/unit/data-ar.test.ts); proper names (ISO, Schedule Q, Schedule D) stay Latin.
 */
import { navigationIn, type NavEntry } from '../navigation.ts';

export const navigation: readonly NavEntry[] = navigationIn('ar');
