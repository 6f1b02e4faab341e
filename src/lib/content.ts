/**
 * The content collections as the pages use them: ordered, cross-checked, and joined with the
 * navigation tree.
 */
import { getCollection, type CollectionEntry } from 'astro:content';
import { assertUniqueRoutes, orderServices } from './catalogue';
import { isNavGroup, navigation, type NavEntry } from '../data/navigation';
import { getStandard } from '../data/standards';

export type ServiceEntry = CollectionEntry<'services'>;
export type PageEntry = CollectionEntry<'pages'>;

export async function getServices(): Promise<ServiceEntry[]> {
  const entries = await getCollection('services');
  const ordered = orderServices(
    entries.map((entry) => ({ slug: entry.id, order: entry.data.order, title: entry.data.title, filePath: entry.filePath, entry })),
  );
  return ordered.map((s) => s.entry);
}

export async function getPages(): Promise<PageEntry[]> {
  const entries = await getCollection('pages');
  assertUniqueRoutes(entries.map((entry) => ({ route: entry.data.route, filePath: entry.filePath })));
  return entries;
}

/** A navigation entry with, under each page that lists ISO standards, links to them. */
export interface ResolvedNavLink {
  readonly label: string;
  readonly href: string;
  readonly children?: readonly ResolvedNavLink[];
}
export interface ResolvedNavGroup {
  readonly label: string;
  readonly items: readonly ResolvedNavEntry[];
}
export type ResolvedNavEntry = ResolvedNavLink | ResolvedNavGroup;

export async function getNavigation(): Promise<ResolvedNavEntry[]> {
  const pages = await getPages();
  const byHref = new Map(pages.map((page) => [`/${page.data.route}`, page]));
  const resolve = (entry: NavEntry): ResolvedNavEntry => {
    if (isNavGroup(entry)) return { label: entry.label, items: entry.items.map(resolve) };
    const standards = byHref.get(entry.href)?.data.standards;
    if (!standards || standards.length < 2) return entry;
    return {
      ...entry,
      children: standards.map((id) => ({ label: getStandard(id).code, href: `${entry.href}#${id}` })),
    };
  };
  return navigation.map(resolve);
}

/** A public page: its path, title and description (home, fixed pages, content pages, services). */
export interface PublicPage {
  readonly path: string;
  readonly title: string;
  readonly description: string;
}

/** Every page search engines and sharing should know, in menu-like order. */
export async function getPublicPages(strings: { home: [string, string]; contact: [string, string]; partner: [string, string] }): Promise<PublicPage[]> {
  const [pages, services] = await Promise.all([getPages(), getServices()]);
  return [
    { path: '/', title: strings.home[0], description: strings.home[1] },
    ...pages.map((page) => ({ path: `/${page.data.route}`, title: page.data.title, description: page.data.description })),
    ...services.map((service) => ({ path: `/services/${service.id}`, title: service.data.title, description: service.data.description })),
    { path: '/ContactUs', title: strings.contact[0], description: strings.contact[1] },
    { path: '/Partner', title: strings.partner[0], description: strings.partner[1] },
  ];
}
