/**
 * The content pages that serve each catalogue service, listed on its service page under "What this
 * service covers": the pages of its menu group (src/data/navigation.yaml, the group whose `page` is the
 * service), then the ones below, which the menu places elsewhere. Every route named here must be a
 * content page in each language: the build stops naming this file and the route otherwise.
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
