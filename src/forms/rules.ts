/**
 * Building blocks of the form schemas, in `zod/mini` so one schema validates in the island (small bundle) and the
 * receiver. Every issue message is a code from ISSUE_CODES: the island words it from src/i18n, the receiver reports it.
 */
import * as z from 'zod/mini';

const ISSUE_CODES = [
  'required',
  'tooLong',
  'invalidEmail',
  'invalidUrl',
  'invalidPhone',
  'invalidNumber',
  'invalidOption',
  /** A field the form does not have. */
  'unknownField',
  /** A value of the wrong type (an object where text belongs, say). */
  'invalidValue',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

/**
 * A length limit that stops the checks after it when it fails: every pattern below runs only on
 * text within its limit, so the time a check takes is bounded by the limit, not by the body.
 */
const atMost = (max: number) => z.maxLength(max, { error: 'tooLong', abort: true });

/** Upper bound for free text: long answers fit, a 1 MB paste does not. */
export const LONG_TEXT_MAX = 5000;
export const SHORT_TEXT_MAX = 200;
/** The longest e-mail address (RFC 5321's path), telephone number and web address taken. */
export const EMAIL_MAX = 254;
export const PHONE_MAX = 40;
export const URL_MAX = 500;

/**
 * Characters that are there but show nothing: white space, control and format characters
 * (zero-width space and joiners, direction marks, the byte-order mark), combining marks on
 * their own, and the filler letters some scripts have (Hangul fillers, the braille blank).
 */
const INVISIBLE = /[\s\p{Cc}\p{Cf}\p{M}\p{Z}\u115F\u1160\u3164\uFFA0\u2800]/gu;

/** True when the text has a character a reader can see: zero-width spaces are no answer, text with direction marks is. */
export function hasVisibleText(text: string): boolean {
  return text.replace(INVISIBLE, '') !== '';
}

/**
 * Visitor text without the control characters that mean something to a terminal or a mail header (staff read leads in
 * terminals, mail and spreadsheets). A one-line answer loses its line breaks and tabs (a run becomes one space); a long
 * one keeps them (CRLF and CR become LF). Bidirectional embeddings, overrides and isolates go too: a right-to-left
 * override reverses a name in the inbox, the classic disguise of a name, link or file; the marks (U+200E, U+200F) stay.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;
export function cleanVisitorText(text: string, multiline: boolean): string {
  if (multiline)
    return text
      .replace(/\r\n?/g, '\n')
      .replace(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '')
      .replace(BIDI_CONTROLS, '');
  return text
    .replace(/[\t\n\r\v\f]+/g, ' ')
    .replace(/[\u0000-\u001F\u007F-\u009F]/g, '')
    .replace(BIDI_CONTROLS, '');
}

/** Cleaned, trimmed, and '' when nothing visible is left (see hasVisibleText). */
const visitorText = (multiline: boolean) =>
  z.string().check(
    z.overwrite((value) => cleanVisitorText(value, multiline).trim()),
    z.overwrite((value) => (hasVisibleText(value) ? value : '')),
  );

/** Optional text, cleaned and trimmed; '' when left empty. Answers longer than a line keep their line breaks. */
export const optionalText = (max: number = SHORT_TEXT_MAX) => visitorText(max > SHORT_TEXT_MAX).check(atMost(max));

/** Required text, cleaned and trimmed, with something visible in it. */
export const requiredText = (max: number = SHORT_TEXT_MAX) => visitorText(false).check(atMost(max), z.minLength(1, 'required'));

export const requiredEmail = () =>
  visitorText(false).check(atMost(EMAIL_MAX), z.minLength(1, 'required'), z.email('invalidEmail'));

/** A web address with its scheme, as an `<input type="url">` accepts it. */
export const requiredUrl = () =>
  visitorText(false).check(
    atMost(URL_MAX),
    z.minLength(1, 'required'),
    z.refine((value) => value === '' || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value), 'invalidUrl'),
  );

/**
 * A web address as people type it, with `https://` put in front when the scheme is left out ("globaq.com"), so the
 * browser's URL check does not turn them away. One with a scheme, or not looking like a host name, is left as is.
 */
export function withScheme(value: string): string {
  const trimmed = value.trim();
  if (/^[a-z][a-z\d+.-]*:(?!\d)/i.test(trimmed) || !/^[^\s/?#:@]+\.[a-z\p{L}]{2,}(?:[:/?#]\S*)?$/iu.test(trimmed)) return value;
  return `https://${trimmed}`;
}

/**
 * A telephone number as people write it: digits (Western or Arabic-Indic), spaces, +, -, /, ( ) and dots, 6 to 20 digits,
 * optionally an extension ("ext. 12", "x12", "#12"). Lenient on purpose: a partner must not be turned away over how they
 * write their number. Linear: the number and the extension's keyword share no character, so a text splits one way only.
 */
const PHONE = /^(\+?[\p{Nd}\s().\-/]*)(?:(?:ext\.?|extension|x|#)\s*\p{Nd}{1,6})?$/iu;
export const requiredPhone = () =>
  visitorText(false).check(
    atMost(PHONE_MAX),
    z.minLength(1, 'required'),
    z.refine((value) => {
      if (value === '') return true;
      const number = PHONE.exec(value)?.[1];
      const digits = number?.match(/\p{Nd}/gu)?.length ?? 0;
      return digits >= 6 && digits <= 20;
    }, 'invalidPhone'),
  );

/** A whole number from 0 (docs/requirements.md §8.6); `null` when left empty. */
export const countOrNull = () =>
  z.nullable(
    z.number('invalidNumber').check(z.int('invalidNumber'), z.minimum(0, 'invalidNumber'), z.maximum(1_000_000, 'invalidNumber')),
  );

/** One of `options`; '' counts as missing when `required`. */
export const choice = <const T extends readonly string[]>(options: T, required: boolean) =>
  z.string().check(
    z.refine((value) => !required || value !== '', 'required'),
    z.refine((value) => value === '' || options.includes(value), 'invalidOption'),
  );

/** Several of `options`, each at most once. */
export const choices = <const T extends readonly string[]>(options: T) =>
  z.array(z.string()).check(
    z.maxLength(options.length, 'invalidOption'),
    z.refine((values) => values.every((v) => options.includes(v)) && new Set(values).size === values.length, 'invalidOption'),
  );

export interface FieldIssue {
  /** The field's name, as in the payload. */
  readonly field: string;
  readonly code: IssueCode;
}

const isIssueCode = (message: string): message is IssueCode => (ISSUE_CODES as readonly string[]).includes(message);

/** The first issue of each field, in the order the fields were checked. */
export function fieldIssues(error: z.core.$ZodError): FieldIssue[] {
  const out: FieldIssue[] = [];
  const seen = new Set<string>();
  const add = (field: string, code: IssueCode) => {
    if (seen.has(field)) return;
    seen.add(field);
    out.push({ field, code });
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(key, 'unknownField');
      continue;
    }
    add(issue.path.map(String).join('.'), isIssueCode(issue.message) ? issue.message : 'invalidValue');
  }
  return out;
}
