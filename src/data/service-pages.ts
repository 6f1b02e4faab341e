/**
 * The content pages listed on each service page under "What this service covers": its menu group's pages, then those
 * below that the menu places elsewhere. Each route must be a content page in each language, or the build stops.
 */
import { flattenNavigation, isNavGroup, navigation, serviceHref } from './navigation';

export const SERVICE_PAGES_FILE = 'src/data/service-pages.ts';

/** Pages that serve a service beyond its menu group, by service slug. */
const ALSO_SERVES: Readonly<Record<string, readonly string[]>> = {
  'iso-consultancy': ['/ISOConsultancy'],
  // A visitor looking for ISO/IEC 17025 courses under Trainings finds the laboratory's.
  trainings: ['/LaboratoryQualityManagementSystemServices/Training'],
};

/** The routes ("/Trainings/OtherTrainings") of the pages serving the service `slug`, in menu order. */
export function pagesServing(slug: string): string[] {
  const group = navigation.find((entry) => isNavGroup(entry) && entry.page === serviceHref(slug));
  const own = group && isNavGroup(group) ? flattenNavigation(group.items).map((link) => link.href) : [];
  return [...new Set([...own, ...(ALSO_SERVES[slug] ?? [])])];
}
