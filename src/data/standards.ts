/**
 * The ISO standards, read from src/data/standards.yaml (English and Arabic side by side) and checked. Pages name the
 * ones they cover by `id`; the menu and the pages render code, title and summary from here.
 */
import { readDataFile } from './data-file.ts';
import { STANDARDS_FILE, standardsFileSchema, type StandardEntry } from './schemas.ts';

interface IsoStandard {
  /** Stable identifier, also the in-page anchor of the standard on every page that lists it. */
  readonly id: string;
  /** The standard's designation and edition, e.g. "ISO 9001:2015". */
  readonly code: string;
  /** The standard's subject, short. */
  readonly title: string;
  /** One sentence on what the standard covers, for the pages that list it. */
  readonly summary: string;
  /** What using it leads to: certification, accreditation, guidance not certified, or measurement requirements. */
  readonly kind: 'certification' | 'accreditation' | 'guidance' | 'measurement';
  /** What has changed since the edition listed (an amendment, a newer edition), and the help offered. */
  readonly update?: string | undefined;
  /** On a translated page: the English entry, standing in for a translation not written yet. */
  readonly pending?: boolean | undefined;
}

/** The standards as written, both languages. */
export const STANDARD_ENTRIES: readonly StandardEntry[] = readDataFile(STANDARDS_FILE, standardsFileSchema);

/** The standards in English, in the file's order. */
export const ISO_STANDARDS: readonly IsoStandard[] = STANDARD_ENTRIES.map(({ id, code, kind, en }) => ({ id, code, kind, ...en }));

export type IsoStandardId = string;

export const ISO_STANDARD_IDS = ISO_STANDARDS.map((s) => s.id) as [IsoStandardId, ...IsoStandardId[]];

/**
 * A standard as a page in `language` shows it: id, code and kind, title and summary in that language. In Arabic, one
 * without `ar` words is the English entry, `pending`; an English edition note is not shown on an Arabic page.
 */
export function getStandard(id: IsoStandardId, language: 'en' | 'ar' = 'en'): IsoStandard {
  const entry = STANDARD_ENTRIES.find((s) => s.id === id);
  if (!entry) throw new Error(`Unknown ISO standard "${id}"`);
  const { code, kind, en, ar } = entry;
  if (language === 'en') return { id, code, kind, ...en };
  return ar ? { id, code, kind, ...ar } : { id, code, kind, ...en, pending: true };
}
