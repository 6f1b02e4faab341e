/**
 * The ISO standards the company trains and consults on, in the order the specification lists
 * them. Pages name the standards they cover by `id` in their front matter; the menu and the
 * pages render code, title and summary from here.
 */
export interface IsoStandard {
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

export const ISO_STANDARDS = [
  {
    id: 'iso-iec-17025-2017',
    code: 'ISO/IEC 17025:2017',
    title: 'Testing and calibration laboratories',
    summary:
      'General requirements for the competence, impartiality and consistent operation of testing and calibration laboratories, the basis of laboratory accreditation.',
    kind: 'accreditation',
  },
  {
    id: 'iso-iec-17020-2012',
    code: 'ISO/IEC 17020:2012',
    title: 'Inspection bodies',
    summary:
      'Requirements for the competence of bodies performing inspection and for the impartiality and consistency of their inspection activities.',
    kind: 'accreditation',
  },
  {
    id: 'iso-9001-2015',
    code: 'ISO 9001:2015',
    title: 'Quality management systems',
    summary:
      'A process-based, risk-based quality management system that consistently delivers products and services meeting customer and regulatory requirements.',
    kind: 'certification',
    update:
      'Amendment 1:2024 adds climate change to the context of the organization and its interested parties, and a new edition is due; we help you address both in your system.',
  },
  {
    id: 'iso-14001-2015',
    code: 'ISO 14001:2015',
    title: 'Environmental management systems',
    summary:
      'A framework to control environmental aspects, meet compliance obligations and improve environmental performance across the life cycle.',
    kind: 'certification',
    update:
      'Amendment 1:2024 adds climate change to the context of the organization and its interested parties, and a new edition is due; we help you address both in your system.',
  },
  {
    id: 'iso-45001-2018',
    code: 'ISO 45001:2018',
    title: 'Occupational health and safety management systems',
    summary:
      'Requirements to eliminate hazards, reduce occupational health and safety risks and provide safe and healthy workplaces with worker participation.',
    kind: 'certification',
    update:
      'Amendment 1:2024 adds climate change to the context of the organization and its interested parties; we help you address it in your system.',
  },
  {
    id: 'iso-22000-2018',
    code: 'ISO 22000:2018',
    title: 'Food safety management systems',
    summary:
      'Food safety management for every organization in the food chain, combining HACCP principles, prerequisite programs and interactive communication.',
    kind: 'certification',
    update:
      'Amendment 1:2024 adds climate change to the context of the organization and its interested parties; we help you address it in your system.',
  },
  {
    id: 'iso-55001-2014',
    code: 'ISO 55001:2014',
    title: 'Asset management systems',
    summary:
      'A management system to realise value from physical and other assets through their whole life, balancing cost, risk and performance.',
    kind: 'certification',
    update:
      'ISO 55001:2024 replaced this edition; we support the transition to the 2024 requirements.',
  },
  {
    id: 'iso-31000-2018',
    code: 'ISO 31000:2018',
    title: 'Risk management guidelines',
    summary:
      'Principles, a framework and a process for managing risk in any organization, integrated into governance, strategy and decision-making.',
    kind: 'guidance',
  },
  {
    id: 'iso-59004-2024',
    code: 'ISO 59004:2024',
    title: 'Circular economy: vocabulary, principles and guidance',
    summary:
      'The vocabulary and principles of the circular economy and guidance for organizations moving from linear to circular ways of working.',
    kind: 'guidance',
  },
  {
    id: 'iso-59010-2024',
    code: 'ISO 59010:2024',
    title: 'Circular economy: business models and value networks',
    summary:
      'Guidance on transitioning business models and value networks to circular ones, with practical steps and examples.',
    kind: 'guidance',
  },
  {
    id: 'iso-59020-2024',
    code: 'ISO 59020:2024',
    title: 'Circular economy: measuring and assessing circularity',
    summary:
      'Requirements and guidance for measuring and assessing the circularity performance of an organization, a value network or a product system.',
    kind: 'measurement',
  },
] as const satisfies readonly IsoStandard[];

export type IsoStandardId = (typeof ISO_STANDARDS)[number]['id'];

export const ISO_STANDARD_IDS = ISO_STANDARDS.map((s) => s.id) as [IsoStandardId, ...IsoStandardId[]];

export function getStandard(id: IsoStandardId): IsoStandard {
  const standard = ISO_STANDARDS.find((s) => s.id === id);
  if (!standard) throw new Error(`Unknown ISO standard "${id}"`);
  return standard;
}
