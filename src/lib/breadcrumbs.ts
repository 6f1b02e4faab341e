import { isNavGroup, navigation, type NavEntry } from '../data/navigation';
import { defaultLocale, t, type Locale } from '../i18n';
import { localizePath } from './paths';

export interface Crumb {
  readonly label: string;
  readonly href?: string | undefined;
}

/**
 * The trail from Home to the page at `href` (unprefixed) through the menu groups that contain it, a group with a page of
 * its own a link; empty when the menu lacks the page. Given another locale's menu tree, the trail is in its words.
 */
export function breadcrumbsFor(href: string, entries: readonly NavEntry[] = navigation, locale: Locale = defaultLocale): Crumb[] {
  const walk = (list: readonly NavEntry[], trail: Crumb[]): Crumb[] | undefined => {
    for (const entry of list) {
      if (isNavGroup(entry)) {
        const crumb: Crumb =
          entry.page === undefined ? { label: entry.label } : { label: entry.label, href: localizePath(entry.page, locale) };
        const found = walk(entry.items, [...trail, crumb]);
        if (found) return found;
      } else if (entry.href === href) {
        // A group named like its only page (ISO Consultancy) adds nothing to the trail.
        return trail.filter((crumb) => crumb.label !== entry.label);
      }
    }
    return undefined;
  };
  const trail = walk(entries, []);
  return trail ? [{ label: t('nav.home', {}, locale), href: localizePath('/', locale) }, ...trail] : [];
}
