/**
 * The ISO standards, read from src/data/standards.yaml (where an editor changes them, English
 * and Arabic side by side) and checked against its schema. Pages name the standards they cover
 * by `id` in their front matter; the menu and the pages render code, title and summary from here.
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
  /**
   * What using it leads to: a management system certified by a certification body, a body
   * accredited by an accreditation body, or guidance that is not certified at all; measurement:
   * requirements for measuring performance, not for a management system.
   */
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
 * A standard as a page in `language` shows it: the id, code and kind of every language, the title
 * and summary in that language. In Arabic, one without its `ar` words is the English entry,
 * `pending` (shown in English under a notice, warned of by the build); an English edition note
 * is not shown on an Arabic page.
 */
export function getStandard(id: IsoStandardId, language: 'en' | 'ar' = 'en'): IsoStandard {
  const entry = STANDARD_ENTRIES.find((s) => s.id === id);
  if (!entry) throw new Error(`Unknown ISO standard "${id}"`);
  const { code, kind, en, ar } = entry;
  if (language === 'en') return { id, code, kind, ...en };
  return ar ? { id, code, kind, ...ar } : { id, code, kind, ...en, pending: true };
}
