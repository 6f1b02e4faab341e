/**
 * How staff name a lead's parts, for the inbox and the staff command (run by Node directly: every
 * import names its file with its extension, as for the forms' modules it reaches;
 * tests/unit/lead-columns.test.ts holds the orders and labels to the forms' own tables).
 */
import { en } from '../../i18n/en.ts';
import { t, type Locale, type UiKey } from '../../i18n/index.ts';
import { COUNTRIES } from '../../forms/countries.ts';
import { localCountryName } from '../../forms/country-names.ts';
import type { LeadStatus } from './inbox-store.ts';
import type { FormName } from '../store/store.ts';

/** In English, the words the staff command, the exports and the audit log write (the web inbox shows the `admin.status.*` keys in its language). */
export const STATUS_LABELS: Readonly<Record<LeadStatus, string>> = {
  new: en['admin.status.new'],
  in_progress: en['admin.status.in_progress'],
  answered: en['admin.status.answered'],
  closed: en['admin.status.closed'],
  spam: en['admin.status.spam'],
};

export const FORM_LABELS = { contact: en['admin.form.contact'], partner: en['admin.form.partner'] } as const satisfies Record<
  FormName,
  string
>;
export const FORM_FILE_NAMES = { contact: 'contact-messages', partner: 'partner-applications' } as const satisfies Record<
  FormName,
  string
>;

export const LANGUAGE_LABELS = { en: en['mail.language.en'], ar: en['mail.language.ar'] } as const;

/** The contact form's answers in its order (src/forms/contact.ts's CONTACT_FIELDS). */
export const CONTACT_ANSWERS = ['firstName', 'lastName', 'email', 'country', 'city', 'company', 'message'] as const;
/** The partner form's answers in its order (src/forms/partner.ts's PARTNER_FIELD_ORDER). */
export const PARTNER_ANSWERS = [
  'name',
  'jobTitle',
  'email',
  'phoneNumber',
  'country',
  'cityName',
  'organization',
  'companyWebsite',
  'presidentName',
  'yearsInBusiness',
  'numberOfSites',
  'numberOfEmployees',
  'formOfOwnership',
  'ownershipSpecification',
  'servicesTypes',
  'targetMarkets',
  'interestReason',
  'topThreeReasons',
  'classroomAvailable',
  'futureClassroomPlans',
  'trainersAvailable',
  'uploadedFiles',
  'qualityFamiliarity',
  'customerSatisfactionMeasured',
  'salesMarketingCapabilities',
  'demandAnticipation',
  'marketPotential',
  'localCompetition',
  'competitorEncounters',
  'competitorAnalysis',
] as const;

const CONTACT_CLOCK = [
  { name: 'submissionDate', label: 'Sent (visitor’s clock, UTC)' },
  { name: 'submissionTimestamp', label: 'Sent (visitor’s clock, as text)' },
] as const;

export function answerColumns(form: FormName): { name: string; label: string }[] {
  if (form === 'contact')
    return [...CONTACT_ANSWERS.map((name) => ({ name, label: en[`contact.field.${name}`] })), ...CONTACT_CLOCK];
  return PARTNER_ANSWERS.map((name) => ({ name, label: en[`partner.field.${name}`] }));
}

/** The partner form's answers chosen from its options (src/forms/partner.ts's fields with `options`). */
export const CHOSEN_ANSWERS: ReadonlySet<string> = new Set(
  'formOfOwnership servicesTypes targetMarkets classroomAvailable trainersAvailable qualityFamiliarity customerSatisfactionMeasured'.split(
    ' ',
  ),
);
/** The dictionary keys of the partner form's options, by the English it stores. */
const OPTION_KEYS = new Map<string, UiKey>(
  Object.entries(en)
    .filter(([key]) => key.startsWith('partner.option.'))
    .map(([key, text]) => [text, key as UiKey]),
);

/** A stored answer in `locale`'s words: options and a country (stored in English) translated, typed text as typed. */
export function answerIn(form: FormName, name: string, value: unknown, locale: Locale): string {
  const word = (item: unknown): string => {
    const text = typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item ?? '').trim();
    if (locale.code === 'en') return text;
    const country = name === 'country' ? COUNTRIES.find((entry) => entry.value === text) : undefined;
    if (country) return localCountryName(country.key, locale.code) || text;
    const option = form === 'partner' && CHOSEN_ANSWERS.has(name) ? OPTION_KEYS.get(text) : undefined;
    return option ? t(option, {}, locale) : text;
  };
  return Array.isArray(value) ? value.map(word).join(t('form.listSeparator', {}, locale)) : word(value);
}

/** A lead's answers in `locale`, unanswered ones included, then any the form no longer asks under its stored name. */
export function labelledFields(
  lead: { readonly form: FormName; readonly fields: Readonly<Record<string, unknown>> },
  locale: Locale,
): { name: string; label: string; text: string }[] {
  const known: [string, UiKey][] =
    lead.form === 'contact'
      ? [
          ...CONTACT_ANSWERS.map((name): [string, UiKey] => [name, `contact.field.${name}`]),
          ['submissionDate', 'admin.lead.clockUtc'],
          ['submissionTimestamp', 'admin.lead.clockText'],
        ]
      : PARTNER_ANSWERS.map((name): [string, UiKey] => [name, `partner.field.${name}`]);
  const names = new Set(known.map(([name]) => name));
  return [
    ...known.map(([name, key]) => ({ name, label: t(key, {}, locale) })),
    ...Object.keys(lead.fields)
      .filter((name) => !names.has(name))
      .map((name) => ({ name, label: name })),
  ].map((field) => ({ ...field, text: answerIn(lead.form, field.name, lead.fields[field.name], locale) }));
}
