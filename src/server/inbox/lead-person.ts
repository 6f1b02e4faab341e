/** What identifies a person in a lead, a lead's other leads, and a short preview of what a lead says. */
import { locales, t, type LocaleCode } from '../../i18n/index.ts';
import { COUNTRIES } from '../../forms/countries.ts';
import { localCountryName } from '../../forms/country-names.ts';
import type { SubmissionFields } from '../store/store.ts';
import { PHONE_FIELDS, phoneDigits } from './lead-search.ts';
import { placeAlternatives } from './places.ts';
import type { InboxLead, InboxStore, PersonLookup, PersonMatch } from './inbox-store.ts';

const text = (value: unknown): string =>
  Array.isArray(value) ? value.map(String).join(', ') : typeof value === 'string' ? value.trim() : '';

/** Name and company, each isolated (U+2068 … U+2069) so a name keeps its order in a line of the other direction. */
export function leadName(lead: Pick<InboxLead, 'form' | 'fields'>, code: LocaleCode = 'en'): string {
  const f = lead.fields;
  const name = lead.form === 'partner' ? text(f['name']) : `${text(f['firstName'])} ${text(f['lastName'])}`;
  const company = text(f[lead.form === 'partner' ? 'organization' : 'company']);
  return [name, company]
    .map((part) => part.replace(/\s+/g, ' ').trim().slice(0, 80))
    .filter(Boolean)
    .map((part) => `\u2068${part}\u2069`)
    .join(t('form.listSeparator', {}, locales[code]));
}

/** The answers that name a person or point to them: who, where, which company, how to reach them. */
const PERSON_FIELDS = [
  'name',
  'firstName',
  'lastName',
  'email',
  'company',
  'organization',
  'city',
  'cityName',
  'presidentName',
  'companyWebsite',
  'ownershipSpecification',
] as const;

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');
const lowerText = (value: unknown) => textOf(value).trim().toLowerCase();

/** The words that name a person in a lead: each identifying answer whole and its words of 3 letters or more. */
export function personTokens(fields: SubmissionFields): string[] {
  // The country and the city in each language staff may search them in, besides as written.
  const country = COUNTRIES.find((one) => one.value.toLowerCase() === lowerText(fields['country']));
  const wholes = [
    ...PERSON_FIELDS.map((field) => lowerText(fields[field])),
    `${lowerText(fields['firstName'])} ${lowerText(fields['lastName'])}`.trim(),
    ...(country ? [country.value.toLowerCase(), localCountryName(country.key, 'ar') ?? ''] : []),
    ...['city', 'cityName'].flatMap((field) => placeAlternatives(lowerText(fields[field]))),
  ].filter(Boolean);
  const tokens = new Set<string>();
  for (const whole of wholes) {
    tokens.add(whole);
    for (const part of whole.split(/[\s,]+/)) if ([...part].length >= 3) tokens.add(part);
  }
  return [...tokens];
}

/** A telephone number as erasure compares it: Western digits only, without a leading "+", "00" or trunk "0". */
export function bareDigits(text: string): string {
  return phoneDigits(text)
    .replace(/[^0-9]/g, '')
    .replace(/^0+/, '');
}

/** A telephone number as a person is matched by: E.164; '' for a number without its country code, which could be anyone's. */
export function phoneE164(text: string): string {
  const digits = /^(?:\+|00)([1-9]\d{6,14})$/.exec(phoneDigits(text.trim()))?.[1];
  return digits ? `+${digits}` : '';
}

export const leadPhones = (fields: SubmissionFields): string[] =>
  PHONE_FIELDS.map((field) => phoneE164(textOf(fields[field]))).filter(Boolean);

export const personEmail = (text: string): string => text.trim().toLowerCase();

export const leadEmail = (fields: SubmissionFields): string => lowerText(fields['email']);

export const leadOfEmail = (fields: SubmissionFields, email: string): boolean =>
  email !== '' && leadEmail(fields) === personEmail(email);

export const personPhones = (fields: SubmissionFields): string[] => [
  ...new Set(PHONE_FIELDS.map((field) => bareDigits(textOf(fields[field]))).filter((digits) => digits.length >= 3)),
];

/** The runs of a text that read as a number (digits, Arabic-Indic too, with the punctuation people group them by). */
const NUMBER_RUNS = /[+\d\u0660-\u0669\u06F0-\u06F9][\d\u0660-\u0669\u06F0-\u06F9\s().\-/\u00A0]*/gu;

/** Whether a search names the person (their words, or part of their telephone); here, not in SQL, so both databases agree. */
export function searchNamesPerson(searched: string, tokens: readonly string[], phones: readonly string[]): boolean {
  const text = searched.trim().toLowerCase();
  if (!text) return false;
  if (tokens.some((token) => text.includes(token))) return true;
  const words = text.split(/\s+/).filter((word) => [...word].length >= 2);
  if (words.some((word) => tokens.some((token) => token.includes(word)))) return true;
  const numbers = [...text.matchAll(NUMBER_RUNS)].map((run) => bareDigits(run[0])).filter((digits) => digits.length >= 3);
  return numbers.some((digits) => phones.some((phone) => phone.includes(digits) || digits.includes(phone)));
}

function personOfLead(lead: Pick<InboxLead, 'fields'>): PersonLookup {
  return {
    email: text(lead.fields['email']),
    phone: PHONE_FIELDS.map((field) => text(lead.fields[field])).find(Boolean) ?? '',
  };
}

/** The person's other leads, newest first, held ones included (the page marks them). */
export const otherLeads = async (inbox: Pick<InboxStore, 'personMatches'>, lead: InboxLead): Promise<PersonMatch[]> =>
  (await inbox.personMatches(personOfLead(lead))).filter((match) => match.lead.id !== lead.id).reverse();

export const PREVIEW_MAX = 120;

/** The first words of what a lead says, for the list, cut at a word near PREVIEW_MAX. */
export function leadPreview(lead: Pick<InboxLead, 'form' | 'fields'>): string {
  const f = lead.fields;
  const source =
    lead.form === 'contact'
      ? text(f['message'])
      : text(f['interestReason']) || text(f['servicesTypes']) || text(f['organization']);
  const flat = source.replace(/\s+/g, ' ').trim();
  if (flat.length <= PREVIEW_MAX) return flat;
  const cut = flat.slice(0, PREVIEW_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > PREVIEW_MAX * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
