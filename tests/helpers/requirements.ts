/**
 * What the specification names, entry by entry: the services, the trainings and the ISO
 * standards. Tests check that each is on the site; only tests/unit/content-inventory.test.ts
 * counts them. Content added since (a 13th service, a 16th course) is welcome everywhere.
 */

/** docs/requirements.md §5.1: the service catalogue, in its order. */
export const SPEC_SERVICE_SLUGS = [
  'ms-audits',
  'trainings',
  'audit-assistance',
  'laboratory-management',
  'iso-consultancy',
  'ccc-consultancy',
  'ai-solutions',
  'erp-solutions',
  'it-solutions',
  'sustainability-esg',
  'circular-economy',
  'csr-solutions',
] as const;

/** docs/requirements.md §13, Other Trainings: each training's name, as its title spells it in part or in full. */
export const SPEC_TRAININGS = [
  'Six Sigma',
  'Lean Six Sigma',
  '5S',
  'ESG',
  'SDGs',
  'Circular Economy',
  'Risk Assessment',
  'Root Cause Analysis',
  'HACCP',
  'HIRAC',
  'Saudi Aramco Schedule Q Awareness Training',
  'Saudi Aramco Schedule D Awareness Training',
  'Saudi Aramco Construction Safety Manual (CSM) Awareness Training',
  '(CSAR) Awareness Training',
  '(WSSM) Awareness Training',
] as const;

/** docs/requirements.md §6.1: the ISO standards, in the order the pages list them. */
export const SPEC_STANDARDS = [
  'ISO/IEC 17025:2017',
  'ISO/IEC 17020:2012',
  'ISO 9001:2015',
  'ISO 14001:2015',
  'ISO 45001:2018',
  'ISO 22000:2018',
  'ISO 55001:2014',
  'ISO 31000:2018',
  'ISO 59004:2024',
  'ISO 59010:2024',
  'ISO 59020:2024',
] as const;
