/**
 * A top-level entry of a data file (src/data/standards.yaml, navigation.yaml) as it is now, found by
 * its id, never by its place or its words: tests that break an entry on purpose name it as the
 * checks do, wherever an editor has put it and however they have worded it.
 */

/** How the checks name the entry `id` of `entries` (the file's, in its order): "entry 3 (iso-9001-2015)". */
export const entryName = (entries: readonly { id?: string | undefined }[], id: string, named = id): string =>
  `entry ${entries.findIndex((entry) => entry.id === id) + 1} (${named})`;

/** The text of the entry `id` in the file's `text`: its `- id:` line and the indented lines under it. */
export const entryText = (text: string, id: string): string =>
  new RegExp(`^- id: ${id}\\n(?: .*\\n)*`, 'm').exec(text)?.[0] ?? '';

/** `text` with the entry `id` edited by `edit`; unchanged when the file has no such entry. */
export const editEntry = (text: string, id: string, edit: (entry: string) => string): string => {
  const entry = entryText(text, id);
  return entry ? text.replace(entry, () => edit(entry)) : text;
};
