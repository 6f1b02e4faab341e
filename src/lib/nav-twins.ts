/**
 * The translated menu as the site shows it: the English tree in the English order, each entry's translated label where
 * the translation has it, else the English entry marked `pending`. Links pair by `href`, groups by `page` or their place
 * among the groups without one; a translated entry with no English twin is a mistake mergeNavigation() names.
 */
import { isNavGroup, type NavEntry, type NavGroup } from '../data/navigation.ts';

/** A menu entry in the merged tree: `pending` when it is the English entry standing in for its translation. */
export type MergedNavEntry = (NavEntry & { readonly pending?: boolean }) | (NavGroup & { readonly pending?: boolean });

/** Why a translated menu cannot be paired with the English one: the entry's label and path. */
export class MenuTwinError extends Error {}

const pendingCopy = (entry: NavEntry): MergedNavEntry =>
  isNavGroup(entry) ? { ...entry, pending: true, items: entry.items.map(pendingCopy) } : { ...entry, pending: true };

function twinOf(english: NavEntry, englishSiblings: readonly NavEntry[], translated: readonly NavEntry[]): NavEntry | undefined {
  if (!isNavGroup(english)) return translated.find((entry) => !isNavGroup(entry) && entry.href === english.href);
  if (english.page) return translated.find((entry) => isNavGroup(entry) && entry.page === english.page);
  const place = englishSiblings.filter((entry) => isNavGroup(entry) && !entry.page).indexOf(english);
  return translated.filter((entry) => isNavGroup(entry) && !entry.page)[place];
}

/** The translated tree over the English one (see the module's comment); `file` names the translation in errors. */
export function mergeNavigation(
  english: readonly NavEntry[],
  translated: readonly NavEntry[],
  file: string,
  under = '',
): MergedNavEntry[] {
  const used = new Set<NavEntry>();
  const merged = english.map((entry): MergedNavEntry => {
    const twin = twinOf(entry, english, translated);
    if (!twin) return pendingCopy(entry);
    used.add(twin);
    if (isNavGroup(entry) && isNavGroup(twin)) {
      return { ...entry, label: twin.label, items: mergeNavigation(entry.items, twin.items, file, `${under}"${twin.label}" > `) };
    }
    return { ...entry, label: twin.label };
  });
  const orphan = translated.find((entry) => !used.has(entry));
  if (orphan) {
    const what = isNavGroup(orphan) ? `the group ${under}"${orphan.label}"` : `${under}"${orphan.label}" (${orphan.href})`;
    throw new MenuTwinError(
      `${file}: ${what} has no twin in the English menu (src/data/navigation.yaml): a translated entry keeps its English entry's href, or its group's page and place`,
    );
  }
  return merged;
}

/** The labels of the entries shown in English in the merged tree, with their hrefs where they have one. */
export function pendingEntries(entries: readonly MergedNavEntry[]): string[] {
  return entries.flatMap((entry) => [
    ...(entry.pending ? [isNavGroup(entry) ? `the group "${entry.label}"` : `"${entry.label}" (${entry.href})`] : []),
    ...(isNavGroup(entry) && !entry.pending ? pendingEntries(entry.items) : []),
  ]);
}
