/**
 * The partner application (spec §3, §5, §7): fields, sections, schema and the body it sends.
 * Shared by the island and the receiver.
 */
import * as z from 'zod/mini';
import { COUNTRIES } from './countries';
import { LONG_TEXT_MAX, choice, choices, countOrNull, hasVisibleText, optionalText, requiredEmail, requiredPhone, requiredText, requiredUrl } from './rules';

/** Spec §3, exact. */
export const OWNERSHIP_OPTIONS = [
  'Corporation (publicly held)',
  'Privately held company',
  'Subsidiary (please specify name of parent company)',
  'University (please specify if private or public)',
  'Other',
] as const;
export const SERVICE_TYPES = ['Training Courses', 'Certification Services', 'Inspection Services'] as const;
export const TARGET_MARKETS = ['Manufacturing', 'Service', 'Education', 'Healthcare', 'Government', 'Other'] as const;
export const YES_NO = ['Yes', 'No'] as const;

export const PARTNER_TEXT_FIELDS = [
  'name',
  'organization',
  'jobTitle',
  'cityName',
  'email',
  'phoneNumber',
  'companyWebsite',
  'ownershipSpecification',
  'interestReason',
  'salesMarketingCapabilities',
  'demandAnticipation',
  'marketPotential',
  'topThreeReasons',
  'localCompetition',
  'competitorEncounters',
  'competitorAnalysis',
  'presidentName',
  'futureClassroomPlans',
] as const;
export const PARTNER_NUMBER_FIELDS = ['yearsInBusiness', 'numberOfSites', 'numberOfEmployees'] as const;
export const PARTNER_YES_NO_FIELDS = ['classroomAvailable', 'trainersAvailable', 'customerSatisfactionMeasured', 'qualityFamiliarity'] as const;
export const PARTNER_MULTI_FIELDS = ['servicesTypes', 'targetMarkets'] as const;

export type PartnerTextField = (typeof PARTNER_TEXT_FIELDS)[number];
export type PartnerNumberField = (typeof PARTNER_NUMBER_FIELDS)[number];
export type PartnerYesNoField = (typeof PARTNER_YES_NO_FIELDS)[number];
export type PartnerMultiField = (typeof PARTNER_MULTI_FIELDS)[number];
export type PartnerField = PartnerTextField | PartnerNumberField | PartnerYesNoField | PartnerMultiField | 'country' | 'formOfOwnership';

/** Spec §5: required fields, in form order. */
export const PARTNER_REQUIRED = [
  'name',
  'organization',
  'jobTitle',
  'country',
  'cityName',
  'email',
  'phoneNumber',
  'companyWebsite',
  'yearsInBusiness',
  'formOfOwnership',
] as const satisfies readonly PartnerField[];

/**
 * Spec §3 names the six sections and their order but not which field goes where; this is the
 * mapping a reader finds natural: who you are, your company, what you want to do, whether you
 * can train, your market, your competitors. The CV upload sits in Training & Capabilities.
 */
export const PARTNER_SECTIONS = [
  { id: 'basic', fields: ['name', 'jobTitle', 'email', 'phoneNumber', 'country', 'cityName'] },
  {
    id: 'company',
    fields: ['organization', 'companyWebsite', 'presidentName', 'yearsInBusiness', 'numberOfSites', 'numberOfEmployees', 'formOfOwnership', 'ownershipSpecification'],
  },
  { id: 'interest', fields: ['servicesTypes', 'targetMarkets', 'interestReason', 'topThreeReasons'] },
  { id: 'training', fields: ['classroomAvailable', 'futureClassroomPlans', 'trainersAvailable', 'qualityFamiliarity', 'customerSatisfactionMeasured'] },
  { id: 'business', fields: ['salesMarketingCapabilities', 'demandAnticipation', 'marketPotential'] },
  { id: 'competition', fields: ['localCompetition', 'competitorEncounters', 'competitorAnalysis'] },
] as const satisfies readonly { id: string; fields: readonly PartnerField[] }[];

/** Spec §4: ownershipSpecification is asked only for these forms of ownership. */
export function ownershipNeedsSpecification(formOfOwnership: string): boolean {
  return formOfOwnership.includes('Subsidiary') || formOfOwnership === 'Other';
}

/** Spec §4: futureClassroomPlans is asked only when there is no classroom. */
export function classroomPlansAsked(classroomAvailable: string): boolean {
  return classroomAvailable === 'No';
}

/** The JSON body: every partner field plus uploadedFiles (names only, spec §7). */
export const partnerSchema = z.strictObject({
  name: requiredText(),
  organization: requiredText(),
  jobTitle: requiredText(),
  country: choice(COUNTRIES, true),
  cityName: requiredText(100),
  email: requiredEmail(),
  phoneNumber: requiredPhone(),
  companyWebsite: requiredUrl(),
  yearsInBusiness: countOrNull().check(z.refine((value) => value !== null, 'required')),
  numberOfSites: countOrNull(),
  numberOfEmployees: countOrNull(),
  formOfOwnership: choice(OWNERSHIP_OPTIONS, true),
  ownershipSpecification: optionalText(),
  servicesTypes: choices(SERVICE_TYPES),
  targetMarkets: choices(TARGET_MARKETS),
  interestReason: optionalText(LONG_TEXT_MAX),
  salesMarketingCapabilities: optionalText(LONG_TEXT_MAX),
  demandAnticipation: optionalText(LONG_TEXT_MAX),
  marketPotential: optionalText(LONG_TEXT_MAX),
  topThreeReasons: optionalText(LONG_TEXT_MAX),
  localCompetition: optionalText(LONG_TEXT_MAX),
  competitorEncounters: optionalText(LONG_TEXT_MAX),
  competitorAnalysis: optionalText(LONG_TEXT_MAX),
  presidentName: optionalText(),
  classroomAvailable: choice(YES_NO, false),
  trainersAvailable: choice(YES_NO, false),
  customerSatisfactionMeasured: choice(YES_NO, false),
  qualityFamiliarity: choice(YES_NO, false),
  futureClassroomPlans: optionalText(LONG_TEXT_MAX),
  /** The chosen CV files' names, joined by ", ". Never their contents. */
  uploadedFiles: optionalText(LONG_TEXT_MAX),
});

export type PartnerPayload = z.infer<typeof partnerSchema>;

/** What the form holds while the visitor types: text everywhere, arrays for the multi-selects. */
export type PartnerValues = Record<PartnerTextField | PartnerNumberField | PartnerYesNoField | 'country' | 'formOfOwnership', string> &
  Record<PartnerMultiField, string[]>;

export function emptyPartner(): PartnerValues {
  const values = {} as Record<string, string | string[]>;
  for (const field of [...PARTNER_TEXT_FIELDS, ...PARTNER_NUMBER_FIELDS, ...PARTNER_YES_NO_FIELDS, 'country', 'formOfOwnership']) values[field] = '';
  for (const field of PARTNER_MULTI_FIELDS) values[field] = [];
  return values as PartnerValues;
}

/** A number field's text as the payload carries it: a number, or null when empty or not a whole number. */
function toCount(text: string): number | null {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed === '' ? null : Number.NaN;
}

/** The body to send: trimmed text, numbers as numbers, hidden follow-up answers dropped, file names joined. */
export function buildPartnerPayload(values: PartnerValues, fileNames: readonly string[]): PartnerPayload {
  const text = (field: PartnerTextField) => values[field].trim();
  return {
    name: text('name'),
    organization: text('organization'),
    jobTitle: text('jobTitle'),
    country: values.country,
    cityName: text('cityName'),
    email: text('email'),
    phoneNumber: text('phoneNumber'),
    companyWebsite: text('companyWebsite'),
    yearsInBusiness: toCount(values.yearsInBusiness),
    numberOfSites: toCount(values.numberOfSites),
    numberOfEmployees: toCount(values.numberOfEmployees),
    formOfOwnership: values.formOfOwnership,
    ownershipSpecification: ownershipNeedsSpecification(values.formOfOwnership) ? text('ownershipSpecification') : '',
    servicesTypes: [...values.servicesTypes],
    targetMarkets: [...values.targetMarkets],
    interestReason: text('interestReason'),
    salesMarketingCapabilities: text('salesMarketingCapabilities'),
    demandAnticipation: text('demandAnticipation'),
    marketPotential: text('marketPotential'),
    topThreeReasons: text('topThreeReasons'),
    localCompetition: text('localCompetition'),
    competitorEncounters: text('competitorEncounters'),
    competitorAnalysis: text('competitorAnalysis'),
    presidentName: text('presidentName'),
    classroomAvailable: values.classroomAvailable,
    trainersAvailable: values.trainersAvailable,
    customerSatisfactionMeasured: values.customerSatisfactionMeasured,
    qualityFamiliarity: values.qualityFamiliarity,
    futureClassroomPlans: classroomPlansAsked(values.classroomAvailable) ? text('futureClassroomPlans') : '',
    uploadedFiles: fileNames.join(', '),
  };
}

/** Every field, in the order the form shows it. */
export const PARTNER_FIELD_ORDER: readonly PartnerField[] = PARTNER_SECTIONS.flatMap((section) => section.fields);

export const isPartnerField = (name: string): name is PartnerField => (PARTNER_FIELD_ORDER as readonly string[]).includes(name);

/**
 * Required fields (spec §5) left empty, in the order the form shows them: the alert reads like
 * the page, and focus goes to the first one on screen.
 */
export function missingPartnerFields(values: PartnerValues): (typeof PARTNER_REQUIRED)[number][] {
  return PARTNER_FIELD_ORDER.filter((field): field is (typeof PARTNER_REQUIRED)[number] =>
    (PARTNER_REQUIRED as readonly string[]).includes(field) && !hasVisibleText(values[field as keyof PartnerValues] as string),
  );
}

/**
 * A url-encoded form post (JavaScript off) as the JSON body the island would send: repeated
 * keys become the multi-select arrays, numbers become numbers. Unknown keys are kept, so the
 * schema refuses them.
 */
export function partnerValuesFromForm(form: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key);
    if ((PARTNER_MULTI_FIELDS as readonly string[]).includes(key)) out[key] = all;
    else if ((PARTNER_NUMBER_FIELDS as readonly string[]).includes(key)) out[key] = toCount(all[0] ?? '');
    // A file input in a url-encoded post sends each chosen file's name, never its contents.
    else if (key === 'uploadedFiles') out[key] = all.filter((name) => name !== '').join(', ');
    else out[key] = all.length === 1 ? all[0] : all;
  }
  return completePartnerBody(out);
}

/**
 * A body as the receiver completes it before validation: a field left out (a follow-up
 * question left hidden, a page cached before a form change, another client) is an empty
 * answer. Fields that are there are left as they are, for the schema to judge.
 */
export function completePartnerBody(body: Record<string, unknown>): Record<string, unknown> {
  const out = { ...body };
  const empty = (field: string, value: unknown) => {
    if (!Object.hasOwn(out, field)) out[field] = value;
  };
  for (const field of [...PARTNER_TEXT_FIELDS, ...PARTNER_YES_NO_FIELDS, 'country', 'formOfOwnership', 'uploadedFiles']) empty(field, '');
  for (const field of PARTNER_NUMBER_FIELDS) empty(field, null);
  for (const field of PARTNER_MULTI_FIELDS) empty(field, []);
  return out;
}

/** Spec §4, §9: success is shown only after an extra 2 seconds. */
export const PARTNER_SUCCESS_DELAY_MS = 2000;

/** Where the partner form keeps the visitor's answers while they type (this browser only). */
export const PARTNER_DRAFT_KEY = 'globaq:partner-draft:v1';

/**
 * A saved draft read back: only known fields of the right shape are taken, so a stale or
 * tampered entry can never break the form.
 */
export function restorePartnerDraft(raw: string | null): PartnerValues | undefined {
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const source = parsed as Record<string, unknown>;
  const values = emptyPartner();
  let any = false;
  for (const key of Object.keys(values) as (keyof PartnerValues)[]) {
    const value = source[key];
    if ((PARTNER_MULTI_FIELDS as readonly string[]).includes(key)) {
      if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
        (values as Record<string, unknown>)[key] = value;
        any ||= value.length > 0;
      }
    } else if (typeof value === 'string') {
      (values as Record<string, unknown>)[key] = value;
      any ||= value !== '';
    }
  }
  return any ? values : undefined;
}
