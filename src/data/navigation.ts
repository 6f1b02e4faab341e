/**
 * The menu tree (docs/requirements.md §3), the one source of the menus, the footer and the sitemap checks, read from
 * src/data/navigation.yaml and checked. `href`s are spelled as the specification spells them.
 */
import { readDataFile } from './data-file.ts';
import { NAVIGATION_FILE, navigationFileSchema, type NavEntryData } from './schemas.ts';

export { NAVIGATION_FILE } from './schemas.ts';

interface NavLink {
  readonly label: string;
  readonly href: string;
}

export interface NavGroup {
  readonly label: string;
  readonly items: readonly NavEntry[];
  /** The group's own page (its service page), which breadcrumbs link; the menus keep the group a button. */
  readonly page?: string;
}

export type NavEntry = NavLink | NavGroup;

export function isNavGroup(entry: NavEntry): entry is NavGroup {
  return 'items' in entry;
}

export const HOME_HREF = '/';
export const ABOUT_HREF = '/AboutUs';
/** The specification has the mobile menu link this spelling of the About page. */
export const ABOUT_MOBILE_HREF = '/Aboutus';
export const CONTACT_HREF = '/ContactUs';
export const PARTNER_HREF = '/Partner';
/** The privacy notice (src/content/pages/privacy.mdx), linked from the footer and beside each form's submit button. */
export const PRIVACY_HREF = '/Privacy';
export const THANKS_HREF = '/ThanksPage';

export const serviceHref = (slug: string): string => `/services/${slug}`;


/** The menu as written, both languages. */
export const NAVIGATION_ENTRIES: readonly NavEntryData[] = readDataFile(NAVIGATION_FILE, navigationFileSchema);

/** The tree in one language: English whole; Arabic only the entries whose label is translated. */
export function navigationIn(locale: 'en' | 'ar', entries: readonly NavEntryData[] = NAVIGATION_ENTRIES): NavEntry[] {
  return entries.flatMap((entry): NavEntry[] => {
    const label = entry.label[locale];
    if (label === undefined) return [];
    if (entry.href !== undefined) return [{ label, href: entry.href }];
    return [{ label, items: navigationIn(locale, entry.items ?? []), ...(entry.page ? { page: entry.page } : {}) }];
  });
}

export const navigation: readonly NavEntry[] = navigationIn('en');

/** Every link of the tree, depth first, in menu order. */
export function flattenNavigation(entries: readonly NavEntry[] = navigation): NavLink[] {
  return entries.flatMap((entry) => (isNavGroup(entry) ? flattenNavigation(entry.items) : [entry]));
}
