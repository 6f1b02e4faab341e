/**
 * The contact form (docs/requirements.md §7): its fields, described once (see fields.ts), its schema and
 * the body it sends. Shared by the island (src/components/islands) and the receiver (src/server).
 */
import * as z from 'zod/mini';
import type { UiKey } from '../i18n/index.ts';
import { LONG_TEXT_MAX, requiredText } from './rules.ts';
import {
  bodyFromForm,
  buildPayload,
  completeBody,
  emptyValues,
  fieldNames,
  fieldShapes,
  missingFields,
  type FieldSpec,
  type FormValues,
} from './fields.ts';

/** The visitor's fields, in form order, required or not (docs/requirements.md §7.1). */
export const CONTACT_FORM = {
  firstName: { kind: 'text', required: true, max: 100, autocomplete: 'given-name', inMail: true },
  lastName: { kind: 'text', required: true, max: 100, autocomplete: 'family-name', inMail: true },
  email: { kind: 'email', required: true, autocomplete: 'email', inMail: true, wide: true },
  country: { kind: 'text', max: 100, autocomplete: 'country-name', inMail: true },
  city: { kind: 'text', max: 100, autocomplete: 'address-level2', inMail: true },
  company: { kind: 'text', max: 200, autocomplete: 'organization', inMail: true, wide: true },
  message: { kind: 'longText', max: LONG_TEXT_MAX, inMail: true, wide: true },
} as const satisfies Record<string, FieldSpec>;

export type ContactField = keyof typeof CONTACT_FORM;
export type ContactValues = FormValues<typeof CONTACT_FORM>;

export const CONTACT_FIELDS: readonly ContactField[] = fieldNames(CONTACT_FORM);

export const isContactField = (name: string): name is ContactField => Object.hasOwn(CONTACT_FORM, name);

/** The JSON body, exactly the fields of docs/requirements.md §7.3: the visitor's, then the moment of sending. */
export const contactSchema = z.strictObject({
  ...fieldShapes(CONTACT_FORM),
  /** ISO 8601 timestamp of sending. */
  submissionDate: z.iso.datetime({ offset: true, message: 'invalidValue' }),
  /** The same moment as the visitor's browser formats it. */
  submissionTimestamp: requiredText(100),
});

type ContactPayload = z.infer<typeof contactSchema>;

export const emptyContact = (): ContactValues => emptyValues(CONTACT_FORM);

/** docs/requirements.md §7.3: on sending, submissionDate (ISO) and submissionTimestamp (locale-formatted) are added. */
export function buildContactPayload(values: ContactValues, now: Date = new Date(), locale?: string): ContactPayload {
  return {
    ...buildPayload(CONTACT_FORM, values),
    submissionDate: now.toISOString(),
    submissionTimestamp: now.toLocaleString(locale),
  };
}

export const missingContactFields = (values: ContactValues): ContactField[] => missingFields(CONTACT_FORM, values);

/** completeBody, and a message without the browser's time (docs/requirements.md §7.3) gets the server's time of receipt. */
export function completeContactBody(body: Record<string, unknown>, now: Date): Record<string, unknown> {
  const out = completeBody(CONTACT_FORM, body);
  if (!Object.hasOwn(out, 'submissionDate')) out['submissionDate'] = now.toISOString();
  if (!Object.hasOwn(out, 'submissionTimestamp')) out['submissionTimestamp'] = now.toUTCString();
  return out;
}

/** A url-encoded form post (JavaScript off) as the JSON body the island would send, stamped with the server's time. */
export const contactValuesFromForm = (form: URLSearchParams, now: Date = new Date()): Record<string, unknown> =>
  completeContactBody(bodyFromForm(CONTACT_FORM, form), now);

/** The dictionary key of a field's label; every field has one (the type checker holds the dictionary to it). */
export const contactLabelKey = (field: ContactField) => `contact.field.${field}` as const satisfies UiKey;
