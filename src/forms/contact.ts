/**
 * The contact form (spec §3, §5, §7): its fields, its schema and the body it sends.
 * Shared by the island (src/components/islands) and the receiver (src/pages/api).
 */
import * as z from 'zod/mini';
import { LONG_TEXT_MAX, hasVisibleText, optionalText, requiredEmail, requiredText } from './rules';

/** The visitor's fields, in form order. */
export const CONTACT_FIELDS = ['firstName', 'lastName', 'email', 'country', 'city', 'company', 'message'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const isContactField = (name: string): name is ContactField => (CONTACT_FIELDS as readonly string[]).includes(name);

/** Spec §5: required fields. */
export const CONTACT_REQUIRED: readonly ContactField[] = ['firstName', 'lastName', 'email'];

export type ContactValues = Record<ContactField, string>;

/** The JSON body, exactly the fields of spec §7. */
export const contactSchema = z.strictObject({
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: requiredEmail(),
  country: optionalText(100),
  city: optionalText(100),
  company: optionalText(200),
  message: optionalText(LONG_TEXT_MAX),
  /** ISO 8601 timestamp of sending. */
  submissionDate: z.iso.datetime({ offset: true, message: 'invalidValue' }),
  /** The same moment as the visitor's browser formats it. */
  submissionTimestamp: requiredText(100),
});

export type ContactPayload = z.infer<typeof contactSchema>;

export const emptyContact = (): ContactValues => ({ firstName: '', lastName: '', email: '', country: '', city: '', company: '', message: '' });

/** Spec §3: on sending, submissionDate (ISO) and submissionTimestamp (locale-formatted) are added. */
export function buildContactPayload(values: ContactValues, now: Date = new Date(), locale?: string): ContactPayload {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    country: values.country.trim(),
    city: values.city.trim(),
    company: values.company.trim(),
    message: values.message.trim(),
    submissionDate: now.toISOString(),
    submissionTimestamp: now.toLocaleString(locale),
  };
}

/** Required fields left empty, in form order. */
export function missingContactFields(values: ContactValues): ContactField[] {
  return CONTACT_REQUIRED.filter((field) => !hasVisibleText(values[field]));
}

/**
 * A body as the receiver completes it before validation: a field left out is an empty answer
 * (a page cached before a form change, or another client, may not send every optional field),
 * and a message without the browser's time (spec §7: the browser adds it) gets the time the
 * server received it. Fields that are there are left as they are, for the schema to judge.
 */
export function completeContactBody(body: Record<string, unknown>, now: Date): Record<string, unknown> {
  const out = { ...body };
  for (const field of CONTACT_FIELDS) if (!Object.hasOwn(out, field)) out[field] = '';
  if (!Object.hasOwn(out, 'submissionDate')) out['submissionDate'] = now.toISOString();
  if (!Object.hasOwn(out, 'submissionTimestamp')) out['submissionTimestamp'] = now.toUTCString();
  return out;
}

/** A url-encoded form post (JavaScript off) as the JSON body the island would send, stamped with the server's time. */
export function contactValuesFromForm(form: URLSearchParams, now: Date = new Date()): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const all = form.getAll(key);
    out[key] = all.length === 1 ? all[0] : all;
  }
  return completeContactBody(out, now);
}
