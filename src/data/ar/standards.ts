/**
 * The ISO standards' titles and summaries in Arabic, by id: each standard's `ar` words in
 * src/data/standards.yaml. The code ("ISO 9001:2015") is the same in both languages. A standard
 * without its `ar` words is shown in English on the Arabic pages, marked as not yet translated;
 * the build warns of it and `npm run translations` lists it as missing.
 */
import { ISO_STANDARD_IDS, STANDARD_ENTRIES, getStandard, type IsoStandard, type IsoStandardId } from '../standards';

export type IsoStandardText = Pick<IsoStandard, 'title' | 'summary' | 'update'>;

export const standardTexts: Readonly<Record<IsoStandardId, IsoStandardText>> = Object.fromEntries(
  STANDARD_ENTRIES.flatMap(({ id, ar }) => (ar ? [[id, ar]] : [])),
);

/**
 * A standard as the Arabic pages show it: the English entry's id and code, the Arabic title and
 * summary; without them, the English entry, `pending`.
 */
export function getArabicStandard(id: IsoStandardId): IsoStandard {
  const text = standardTexts[id];
  if (!text) return { ...getStandard(id), pending: true };
  // No English edition note on an Arabic page: a note not yet translated is left out.
  return { ...getStandard(id), update: undefined, ...text };
}

/** The standards with no Arabic text yet, in the English order. */
export const standardsWithoutArabic = (): IsoStandardId[] => ISO_STANDARD_IDS.filter((id) => !standardTexts[id]);
