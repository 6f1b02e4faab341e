/**
 * A form described once: a table of its fields, in the order the form shows and sends them, from which the
 * island, the shared schema, the body, a url-encoded post, a saved draft and the failure e-mail are derived.
 * Adding a field is one entry in the table plus its label in each dictionary (src/i18n): the type checker names a missing label.
 */
import * as z from 'zod/mini';
import { MAX_FILES } from './files.ts';
import {
  EMAIL_MAX,
  LONG_TEXT_MAX,
  PHONE_MAX,
  SHORT_TEXT_MAX,
  URL_MAX,
  choice,
  choices,
  countOrNull,
  hasVisibleText,
  optionalText,
  requiredEmail,
  requiredPhone,
  requiredText,
  requiredUrl,
} from './rules.ts';

/** An offered answer: `value` is sent and stored (the specification's words), `key` names its label in each dictionary. */
export interface FieldOption<K extends string = string> {
  readonly key: K;
  readonly value: string;
}

type FieldKind =
  | 'text'
  | 'email'
  | 'tel'
  | 'url'
  | 'longText'
  /** A whole number from 0, or empty (docs/requirements.md §8.1). */
  | 'count'
  | 'select'
  /** One of the countries (src/forms/countries.ts), from a drop-down list. */
  | 'country'
  | 'radio'
  | 'checkboxes'
  /** Chosen files: only their names are sent, joined by ", " (docs/requirements.md §8.7). */
  | 'files';

export interface FieldSpec<K extends string = string, S extends string = string, L extends string = string> {
  readonly kind: FieldKind;
  /** The form section it belongs to (a fieldset with its legend); forms without sections leave it out. */
  readonly section?: S;
  /** docs/requirements.md §7.2, §8.5: the required-fields alert names it when empty. */
  readonly required?: boolean;
  /** The longest answer accepted, in characters (text kinds). */
  readonly max?: number;
  readonly autocomplete?: string;
  readonly options?: readonly FieldOption<K>[];
  /** A follow-up question: shown and sent only while `field`'s answer is one of `answers` (option keys). */
  readonly askedWhen?: { readonly field: string; readonly answers: readonly K[] };
  /** Its answer goes into the e-mail a visitor is offered when sending keeps failing. */
  readonly inMail?: boolean;
  /** Spans the whole width of the form's grid. */
  readonly wide?: boolean;
  /** The dictionary key of its placeholder (a select's "choose one" line), or for a follow-up, one per answer that asks it. */
  readonly placeholder?: L | { readonly byAnswer: Partial<Readonly<Record<K, L>>> };
}

export type FormTable = Readonly<Record<string, FieldSpec>>;

/** The form's fields that hold typed or chosen answers (files are held apart, as File objects). */
type AnswerField<T extends FormTable> = { [F in keyof T & string]: T[F]['kind'] extends 'files' ? never : F }[keyof T & string];

/** What the form holds while the visitor types: text everywhere, a list for checkbox groups. */
export type FormValues<T extends FormTable> = { [F in AnswerField<T>]: T[F]['kind'] extends 'checkboxes' ? string[] : string };

type PayloadValue<S extends FieldSpec> = S['kind'] extends 'count'
  ? number | null
  : S['kind'] extends 'checkboxes'
    ? string[]
    : string;

/** The body sent: every field, numbers as numbers (or null), lists for checkbox groups, file names as one text. */
export type FormPayload<T extends FormTable> = { [F in keyof T & string]: PayloadValue<T[F]> };

export const fieldNames = <T extends FormTable>(table: T): (keyof T & string)[] => Object.keys(table);

function emptyAnswer(spec: FieldSpec): string | string[] | number | null {
  if (spec.kind === 'checkboxes') return [];
  if (spec.kind === 'count') return null;
  return '';
}

export function emptyValues<T extends FormTable>(table: T): FormValues<T> {
  const values: Record<string, string | string[]> = {};
  for (const [field, spec] of Object.entries(table))
    if (spec.kind !== 'files') values[field] = spec.kind === 'checkboxes' ? [] : '';
  return values as FormValues<T>;
}

function optionOf(table: FormTable, field: string, answer: string): FieldOption | undefined {
  return table[field]?.options?.find((option) => option.value === answer);
}

/** Whether `field` is asked given the other answers: always, or for a follow-up, when its question's answer calls for it. */
export function isAsked(table: FormTable, field: string, values: Readonly<Record<string, unknown>>): boolean {
  const asked = table[field]?.askedWhen;
  if (!asked) return true;
  const answer = values[asked.field];
  const key = typeof answer === 'string' ? optionOf(table, asked.field, answer)?.key : undefined;
  return key !== undefined && asked.answers.includes(key);
}

/** The dictionary key of a field's placeholder given the answers so far, if it has one. */
export function placeholderOf<L extends string>(
  spec: FieldSpec<string, string, L>,
  table: FormTable,
  values: Readonly<Record<string, unknown>>,
): L | undefined {
  const placeholder = spec.placeholder;
  if (placeholder === undefined || typeof placeholder === 'string') return placeholder;
  const asked = spec.askedWhen;
  const answer = asked ? values[asked.field] : undefined;
  const key = asked && typeof answer === 'string' ? optionOf(table, asked.field, answer)?.key : undefined;
  for (const [answerKey, label] of Object.entries(placeholder.byAnswer)) if (answerKey === key) return label;
  return undefined;
}

/** Arabic-Indic (٠–٩) and Extended Arabic-Indic (۰–۹) digits as the Western digits they stand for. */
export function westernDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (digit) => String((digit.codePointAt(0) ?? 0) & 0xf));
}

/** A count's text as the body carries it: a number, null when empty, NaN (refused) otherwise; Arabic-Indic digits too. */
function toCount(text: string): number | null {
  const trimmed = westernDigits(text.trim());
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed === '' ? null : Number.NaN;
}

/** The body to send: trimmed text, numbers as numbers, follow-ups not asked left empty, file names joined. */
export function buildPayload<T extends FormTable>(
  table: T,
  values: FormValues<T>,
  fileNames: readonly string[] = [],
): FormPayload<T> {
  const answers = values as Readonly<Record<string, string | string[]>>;
  const out: Record<string, unknown> = {};
  for (const [field, spec] of Object.entries(table)) {
    const answer = answers[field];
    if (spec.kind === 'files') out[field] = fileNames.join(', ');
    else if (!isAsked(table, field, answers)) out[field] = emptyAnswer(spec);
    else if (Array.isArray(answer)) out[field] = [...answer];
    else if (spec.kind === 'count') out[field] = toCount(answer ?? '');
    else out[field] = (answer ?? '').trim();
  }
  return out as FormPayload<T>;
}

/** The longest answer a field takes once cleaned: its own `max`, or its kind's (a line of text bounds counts and choices). */
function answerMax(spec: FieldSpec): number {
  switch (spec.kind) {
    case 'longText':
    case 'files':
      return spec.max ?? LONG_TEXT_MAX;
    case 'email':
      return EMAIL_MAX;
    case 'tel':
      return PHONE_MAX;
    case 'url':
      return URL_MAX;
    default:
      return spec.max ?? SHORT_TEXT_MAX;
  }
}

function fieldSchema(spec: FieldSpec, countries: readonly string[]) {
  const required = spec.required === true;
  const values = (spec.options ?? []).map((option) => option.value);
  switch (spec.kind) {
    case 'text':
    case 'longText':
      return required ? requiredText(answerMax(spec)) : optionalText(answerMax(spec));
    case 'email':
      return required ? requiredEmail() : optionalText(EMAIL_MAX);
    case 'tel':
      return required ? requiredPhone() : optionalText(PHONE_MAX);
    case 'url':
      return required ? requiredUrl() : optionalText(URL_MAX);
    case 'count': {
      const count = required ? countOrNull().check(z.refine((value) => value !== null, 'required')) : countOrNull();
      // A count may arrive as the text of its digits ("7", " ١٢ "), as the original form and any
      // page cached before a change send it: read as a url-encoded post reads it (toCount).
      return z.pipe(
        z.transform((value: unknown) => (typeof value === 'string' ? toCount(value) : value)),
        count,
      );
    }
    case 'select':
    case 'radio':
      return choice(values, required);
    case 'country':
      return choice(countries, required);
    case 'checkboxes':
      return choices(values);
    case 'files':
      return optionalText(answerMax(spec));
  }
}

/**
 * The body's schema, one entry per field, typed by kind (Object.fromEntries cannot carry that, hence the cast the unit
 * tests hold to the table). Only a form with a 'country' field passes the countries, so the others do not carry the list.
 */
export function fieldShapes<T extends FormTable>(
  table: T,
  countries: readonly string[] = [],
): { [F in keyof T & string]: z.ZodMiniType<PayloadValue<T[F]>, unknown> } {
  const shapes: Record<string, z.ZodMiniType> = Object.fromEntries(
    Object.entries(table).map(([field, spec]) => [field, fieldSchema(spec, countries)]),
  );
  return shapes as { [F in keyof T & string]: z.ZodMiniType<PayloadValue<T[F]>, unknown> };
}

export const requiredFields = <T extends FormTable>(table: T): (keyof T & string)[] =>
  fieldNames(table).filter((field) => table[field]?.required === true);

/** Required fields (docs/requirements.md §7.2, §8.5) left empty, in form order; text with nothing visible counts as empty. */
export function missingFields<T extends FormTable>(table: T, values: FormValues<T>): (keyof T & string)[] {
  const answers = values as Readonly<Record<string, string | string[]>>;
  return requiredFields(table).filter((field) => {
    const answer = answers[field];
    return Array.isArray(answer) ? answer.length === 0 : !hasVisibleText(answer ?? '');
  });
}

/** A body completed before validation: a field left out (a hidden follow-up, a page cached before a change) is empty. */
export function completeBody(table: FormTable, body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out = { ...body };
  for (const [field, spec] of Object.entries(table)) if (!Object.hasOwn(out, field)) out[field] = emptyAnswer(spec);
  return out;
}

/**
 * A url-encoded post (a visitor without JavaScript) as the body the island would send: checkbox groups become lists,
 * counts numbers, file names one text. Unknown keys are kept, so the schema refuses them.
 */
export function bodyFromForm(table: FormTable, form: URLSearchParams): Record<string, unknown> {
  const byKey = new Map<string, string[]>();
  for (const [key, value] of form) {
    const values = byKey.get(key);
    if (values) values.push(value);
    else byKey.set(key, [value]);
  }
  const out: Record<string, unknown> = {};
  for (const [key, all] of byKey) {
    const kind = Object.hasOwn(table, key) ? table[key]?.kind : undefined;
    if (kind === 'checkboxes') out[key] = all;
    else if (kind === 'count') out[key] = toCount(all[0] ?? '');
    // A file input in a url-encoded post sends each chosen file's name, never its contents.
    else if (kind === 'files') out[key] = all.filter((name) => name !== '').join(', ');
    else out[key] = all.length === 1 ? all[0] : all;
  }
  return completeBody(table, out);
}

/** Keys a body may carry beside its answers: the proof of work, the honeypot, the two times of sending, and spares. */
export const SPARE_KEYS = 8;

/** The most keys (pairs, parts, JSON keys and list items) a body may carry: one per field, option of a checkbox group or file. */
export function maxBodyKeys(table: FormTable): number {
  let keys = SPARE_KEYS;
  for (const spec of Object.values(table))
    keys += spec.kind === 'checkboxes' ? (spec.options?.length ?? 0) : spec.kind === 'files' ? MAX_FILES : 1;
  return keys;
}

/**
 * The longest text a key may arrive with before cleaning: twice its answerMax (line breaks arrive as CRLF, cleaning takes
 * out spaces and control characters), or twice a long answer's for a key outside the table.
 */
function arrivingTextMax(table: FormTable, key: string): number {
  const spec = Object.hasOwn(table, key) ? table[key] : undefined;
  return 2 * (spec ? answerMax(spec) : LONG_TEXT_MAX);
}

/** Why a body is refused for its shape (the JSON answer's `error`, with what it names). */
export type ShapeProblem =
  | { readonly error: 'tooManyFields'; readonly maxFields: number }
  | { readonly error: 'repeatedField'; readonly field: string }
  | { readonly error: 'tooLong'; readonly field: string };

/**
 * Why a body is refused for its shape, before its answers are read: too many keys, a repeated key that is not a checkbox
 * group's or a file input's, or a text too long. `entries`: a form post's pairs, or jsonEntries(body).
 */
export function shapeProblem(table: FormTable, entries: Iterable<readonly [string, unknown]>): ShapeProblem | undefined {
  const maxFields = maxBodyKeys(table);
  const seen = new Set<string>();
  let count = 0;
  for (const [key, value] of entries) {
    count += 1;
    if (count > maxFields) return { error: 'tooManyFields', maxFields };
    if (seen.has(key)) {
      const kind = Object.hasOwn(table, key) ? table[key]?.kind : undefined;
      if (kind !== 'checkboxes' && kind !== 'files') return { error: 'repeatedField', field: key };
    } else seen.add(key);
    if (typeof value === 'string' && value.length > arrivingTextMax(table, key)) return { error: 'tooLong', field: key };
  }
  return undefined;
}

/** A JSON body's keys as a form post sends them: a list's items each under its key (a list is how JSON repeats a key). */
export function* jsonEntries(body: Readonly<Record<string, unknown>>): Generator<readonly [string, unknown]> {
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (Array.isArray(value)) for (const item of value as unknown[]) yield [key, item];
    else yield [key, value];
  }
}

/** A saved draft read back: only the form's fields of the right shape, so a stale or tampered entry never breaks the form. */
export function valuesFromDraft<T extends FormTable>(table: T, raw: string | null): FormValues<T> | undefined {
  if (!raw) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const source = parsed as Record<string, unknown>;
  const values: Record<string, string | string[]> = { ...emptyValues(table) };
  let any = false;
  for (const [field, spec] of Object.entries(table)) {
    if (spec.kind === 'files' || !Object.hasOwn(source, field)) continue;
    const value = source[field];
    if (spec.kind === 'checkboxes') {
      if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
        values[field] = value;
        any ||= value.length > 0;
      }
    } else if (typeof value === 'string') {
      values[field] = value;
      any ||= value !== '';
    }
  }
  return any ? (values as FormValues<T>) : undefined;
}

/** The failure e-mail's lines: "Label: answer" for each short answer marked for it, then each long one as a paragraph. */
export function mailLines<T extends FormTable>(
  table: T,
  values: FormValues<T>,
  labelOf: (field: keyof T & string) => string,
): string[] {
  const answers = values as Readonly<Record<string, string | string[]>>;
  const short: string[] = [];
  const long: string[] = [];
  for (const field of fieldNames(table)) {
    const spec = table[field];
    const answer = answers[field];
    const text = Array.isArray(answer) ? answer.join(', ') : (answer ?? '').trim();
    if (!spec?.inMail || text === '' || !isAsked(table, field, answers)) continue;
    if (spec.kind === 'longText') long.push('', `${labelOf(field)}:`, text);
    else short.push(`${labelOf(field)}: ${text}`);
  }
  return [...short, ...long];
}
