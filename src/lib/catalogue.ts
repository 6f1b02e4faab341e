/**
 * Rules over the content collections that one entry's schema cannot express: the catalogue's order, unique routes,
 * "other services", twins. Pure functions over plain data, so unit tests run them without a build.
 */

interface ServiceSummary {
  readonly slug: string;
  readonly order: number;
  readonly title: string;
  /** Where the entry came from, for error messages. */
  readonly filePath?: string | undefined;
}

interface PageSummary {
  readonly route: string;
  readonly filePath?: string | undefined;
}

/** How many other services a service page links at its bottom (docs/requirements.md §5.2, §12). */
const OTHER_SERVICES_COUNT = 3;

const SERVICE_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

function where(entry: { filePath?: string | undefined }, fallback: string): string {
  return entry.filePath ?? fallback;
}

/** The catalogue in definition order; throws, naming the files, on a shared `order` or a file name that is no slug. */
export function orderServices<T extends ServiceSummary>(services: readonly T[]): T[] {
  for (const service of services) {
    if (!SERVICE_SLUG.test(service.slug)) {
      throw new Error(
        `${where(service, service.slug)}: the file name "${service.slug}" is not a valid service slug (lower-case words joined by hyphens)`,
      );
    }
  }
  const byOrder = new Map<number, T>();
  for (const service of services) {
    const clash = byOrder.get(service.order);
    if (clash) {
      throw new Error(
        `${where(service, service.slug)}: field "order" is ${service.order}, already used by ${where(clash, clash.slug)}`,
      );
    }
    byOrder.set(service.order, service);
  }
  return [...services].sort((a, b) => a.order - b.order);
}

/** The first `count` services other than `slug`, in catalogue order (docs/requirements.md §5.2). */
export function otherServices<T extends ServiceSummary>(ordered: readonly T[], slug: string, count = OTHER_SERVICES_COUNT): T[] {
  return ordered.filter((service) => service.slug !== slug).slice(0, count);
}

/** Throws, naming both files, when two pages claim the same route (in any letter case). */
export function assertUniqueRoutes(pages: readonly PageSummary[]): void {
  const seen = new Map<string, PageSummary>();
  for (const page of pages) {
    const key = page.route.toLowerCase();
    const clash = seen.get(key);
    if (clash) {
      throw new Error(
        `${where(page, page.route)}: field "route" is "${page.route}", which clashes with "${clash.route}" in ${where(clash, clash.route)} (routes must differ in more than letter case)`,
      );
    }
    seen.set(key, page);
  }
}

/** An entry of a translated collection, or of its original, as the twin check sees it. */
interface TwinSummary {
  /** What pairs an entry with its twin: a service's slug, a page's route. */
  readonly key: string;
  /** Facts that are the same in every language, by field name (`order`, `standards`). */
  readonly facts: Readonly<Record<string, unknown>>;
  readonly filePath?: string | undefined;
}

/**
 * Throws, naming the file and field, when a translation's entry has no original (same slug or route) or differs from
 * it in a fact every language shares (order, standards, course anchors). A translation may lack entries.
 */
export function assertTwins(originals: readonly TwinSummary[], translations: readonly TwinSummary[], keyName: string): void {
  const byKey = new Map(originals.map((original) => [original.key, original]));
  for (const translation of translations) {
    const original = byKey.get(translation.key);
    if (!original) {
      throw new Error(
        `${where(translation, translation.key)}: field "${keyName}" is "${translation.key}", which no English entry has (a translation needs its English twin)`,
      );
    }
    for (const [field, value] of Object.entries(original.facts)) {
      const own = translation.facts[field];
      if (JSON.stringify(own) !== JSON.stringify(value)) {
        throw new Error(
          `${where(translation, translation.key)}: field "${field}" is ${JSON.stringify(own)}, but its English twin ${where(original, original.key)} has ${JSON.stringify(value)}`,
        );
      }
    }
  }
}
