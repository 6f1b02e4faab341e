/**
 * The partner application (docs/requirements.md §8): its fields, described once (see fields.ts), and
 * what is derived from them. Shared by the island and the receiver.
 */
import * as z from 'zod/mini';
import type { FormKey, UiKey } from '../i18n/index.ts';
import { COUNTRIES } from './countries.ts';
import { LONG_TEXT_MAX } from './rules.ts';
import {
  bodyFromForm,
  buildPayload,
  completeBody,
  emptyValues,
  fieldNames,
  fieldShapes,
  isAsked,
  missingFields,
  placeholderOf,
  requiredFields,
  valuesFromDraft,
  type FieldSpec,
  type FormPayload,
  type FormValues,
} from './fields.ts';

/** docs/requirements.md §8.2, exact: what is sent. The keys name the labels (`partner.option.<key>`). */
export const OWNERSHIP_OPTIONS = [
  { key: 'corporation', value: 'Corporation (publicly held)' },
  { key: 'privatelyHeld', value: 'Privately held company' },
  { key: 'subsidiary', value: 'Subsidiary (please specify name of parent company)' },
  { key: 'university', value: 'University (please specify if private or public)' },
  { key: 'other', value: 'Other' },
] as const;
const SERVICE_TYPES = [
  { key: 'trainingCourses', value: 'Training Courses' },
  { key: 'certificationServices', value: 'Certification Services' },
  { key: 'inspectionServices', value: 'Inspection Services' },
] as const;
const TARGET_MARKETS = [
  { key: 'manufacturing', value: 'Manufacturing' },
  { key: 'service', value: 'Service' },
  { key: 'education', value: 'Education' },
  { key: 'healthcare', value: 'Healthcare' },
  { key: 'government', value: 'Government' },
  { key: 'other', value: 'Other' },
] as const;
const YES_NO = [
  { key: 'yes', value: 'Yes' },
  { key: 'no', value: 'No' },
] as const;

/** docs/requirements.md §8.1 names the six sections and their order; the labels are `partner.section.<id>`. */
export const PARTNER_SECTIONS = ['basic', 'company', 'interest', 'training', 'business', 'competition'] as const;
type Section = (typeof PARTNER_SECTIONS)[number];
export type PartnerOptionKey = (
  typeof OWNERSHIP_OPTIONS | typeof SERVICE_TYPES | typeof TARGET_MARKETS | typeof YES_NO
)[number]['key'];
/** A placeholder is one of the form's own strings (the island is handed those only). */
type PartnerFieldSpec = FieldSpec<PartnerOptionKey, Section, FormKey<'partner'>>;

const long = { kind: 'longText', max: LONG_TEXT_MAX, wide: true } as const;

/**
 * Every field, in the order the form shows and sends it; as the specification does not place fields in sections
 * (docs/requirements.md §8.1), a reader's order: who you are, your company, what you want to do, whether you can train,
 * your market, your competitors. Required fields and follow-up questions: docs/requirements.md §8.5, §8.4.
 */
export const PARTNER_FORM = {
  name: { kind: 'text', section: 'basic', required: true, autocomplete: 'name', inMail: true },
  jobTitle: { kind: 'text', section: 'basic', required: true, autocomplete: 'organization-title', inMail: true },
  email: { kind: 'email', section: 'basic', required: true, autocomplete: 'email', inMail: true },
  phoneNumber: { kind: 'tel', section: 'basic', required: true, autocomplete: 'tel', inMail: true },
  country: {
    kind: 'country',
    section: 'basic',
    required: true,
    autocomplete: 'country-name',
    inMail: true,
    placeholder: 'partner.placeholder.country',
  },
  cityName: { kind: 'text', section: 'basic', required: true, max: 100, autocomplete: 'address-level2', inMail: true },

  organization: { kind: 'text', section: 'company', required: true, autocomplete: 'organization', inMail: true },
  companyWebsite: { kind: 'url', section: 'company', required: true, autocomplete: 'url', inMail: true },
  presidentName: { kind: 'text', section: 'company' },
  yearsInBusiness: { kind: 'count', section: 'company', required: true },
  numberOfSites: { kind: 'count', section: 'company' },
  numberOfEmployees: { kind: 'count', section: 'company' },
  // Radio buttons, not a drop-down list: a closed list cuts its longest option at phone width
  // ("Subsidiary (please specify name o…"); each answer here reads whole in both languages.
  formOfOwnership: { kind: 'radio', section: 'company', required: true, options: OWNERSHIP_OPTIONS, wide: true },
  ownershipSpecification: {
    kind: 'text',
    section: 'company',
    askedWhen: { field: 'formOfOwnership', answers: ['subsidiary', 'other'] },
    placeholder: { byAnswer: { subsidiary: 'partner.placeholder.subsidiary', other: 'partner.placeholder.other' } },
  },

  servicesTypes: { kind: 'checkboxes', section: 'interest', options: SERVICE_TYPES },
  targetMarkets: { kind: 'checkboxes', section: 'interest', options: TARGET_MARKETS },
  interestReason: { ...long, section: 'interest' },
  topThreeReasons: { ...long, section: 'interest' },

  classroomAvailable: { kind: 'radio', section: 'training', options: YES_NO },
  futureClassroomPlans: { ...long, section: 'training', askedWhen: { field: 'classroomAvailable', answers: ['no'] } },
  trainersAvailable: { kind: 'radio', section: 'training', options: YES_NO },
  uploadedFiles: { kind: 'files', section: 'training', wide: true },
  qualityFamiliarity: { kind: 'radio', section: 'training', options: YES_NO },
  customerSatisfactionMeasured: { kind: 'radio', section: 'training', options: YES_NO },

  salesMarketingCapabilities: { ...long, section: 'business' },
  demandAnticipation: { ...long, section: 'business' },
  marketPotential: { ...long, section: 'business' },

  localCompetition: { ...long, section: 'competition' },
  competitorEncounters: { ...long, section: 'competition' },
  competitorAnalysis: { ...long, section: 'competition' },
} as const satisfies Record<string, PartnerFieldSpec>;

export type PartnerField = keyof typeof PARTNER_FORM;
export type PartnerValues = FormValues<typeof PARTNER_FORM>;
type PartnerPayload = FormPayload<typeof PARTNER_FORM>;

/** The spec of one field, with its options' keys typed (for label lookups). */
export const partnerField = (field: PartnerField): PartnerFieldSpec => PARTNER_FORM[field];

export const partnerPlaceholder = (field: PartnerField, values: PartnerValues): FormKey<'partner'> | undefined =>
  placeholderOf(partnerField(field), PARTNER_FORM, values);

export const PARTNER_FIELD_ORDER: readonly PartnerField[] = fieldNames(PARTNER_FORM);

/** docs/requirements.md §8.5: required fields, in form order. */
export const PARTNER_REQUIRED: readonly PartnerField[] = requiredFields(PARTNER_FORM);

export const isPartnerField = (name: string): name is PartnerField => Object.hasOwn(PARTNER_FORM, name);

export const sectionFields = (section: Section): PartnerField[] =>
  PARTNER_FIELD_ORDER.filter((field) => partnerField(field).section === section);

/** The body: every field, with uploadedFiles holding the chosen files' names only (docs/requirements.md §8.7). */
export const partnerSchema = z.strictObject(
  fieldShapes(
    PARTNER_FORM,
    COUNTRIES.map((country) => country.value),
  ),
);

export const emptyPartner = (): PartnerValues => emptyValues(PARTNER_FORM);

export const buildPartnerPayload = (values: PartnerValues, fileNames: readonly string[]): PartnerPayload =>
  buildPayload(PARTNER_FORM, values, fileNames);

/** Required fields (docs/requirements.md §8.5) left empty, in the order the form shows them. */
export const missingPartnerFields = (values: PartnerValues): PartnerField[] => missingFields(PARTNER_FORM, values);

/** docs/requirements.md §8.4: whether a follow-up question is asked, given the answers so far. */
export const partnerAsks = (field: PartnerField, values: PartnerValues): boolean => isAsked(PARTNER_FORM, field, values);

export const partnerValuesFromForm = (form: URLSearchParams): Record<string, unknown> => bodyFromForm(PARTNER_FORM, form);

export const completePartnerBody = (body: Record<string, unknown>): Record<string, unknown> => completeBody(PARTNER_FORM, body);

export const restorePartnerDraft = (raw: string | null): PartnerValues | undefined => valuesFromDraft(PARTNER_FORM, raw);

/** The dictionary key of a field's label; every field has one (the type checker holds the dictionary to it). */
export const partnerLabelKey = (field: PartnerField) => `partner.field.${field}` as const satisfies UiKey;

export const partnerOptionKey = (key: PartnerOptionKey) => `partner.option.${key}` as const satisfies UiKey;

/** docs/requirements.md §10.1, §12: success is shown only after an extra 2 seconds. */
export const PARTNER_SUCCESS_DELAY_MS = 2000;

/** Where the partner form keeps the visitor's answers while they type (this browser only). */
export const PARTNER_DRAFT_KEY = 'globaq:partner-draft:v1';
