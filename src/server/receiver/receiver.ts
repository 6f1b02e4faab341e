/**
 * The submission receiver: one web Request in, one answer out. Astro's routes
 * (src/pages/api/contact.ts, partner.ts) are thin wrappers around `receive()`.
 *
 * In order, a request is refused with
 *   405  any method but POST (and OPTIONS, the browsers' CORS preflight)
 *   403  an Origin header that is neither the site's own nor configured
 *   415  a body that is neither JSON nor url-encoded (nor, for the partner form, multipart with
 *        its CV files), or not UTF-8
 *   413  a body above the limit
 *   400  an unknown language (`?lang=`, below), malformed JSON or JSON nested deeper than a form's
 *        body ever is (MAX_JSON_DEPTH); a body of the wrong shape (src/forms/fields.ts:
 *        shapeProblem), refused before anything runs over its answers: more keys or parts than
 *        the form has fields (with its checkboxes, files and a few spare; a multipart body's parts
 *        are counted before it is parsed), a key sent twice that is not a checkbox group's or a
 *        file input's, a text over twice its field's limit (not cleaned to be measured);
 *        fields the form's schema refuses (each named), or a CV file the spec's rules refuse
 *        (./uploads.ts: type by content, 2 MB, at most 5 files)
 *   429  a lead from a network that has left its day's budget (./network-budget.ts): of leads
 *        with a valid proof, or of doubtful ones (held, or refused for their shape); Retry-After
 *        says when its day is over; nothing is stored
 *   503  the store failed (nothing is acknowledged unless it is committed)
 * and otherwise stored and answered 201 { id } (JSON; { id, review: true } when it is held for
 * a reason a person's browser can meet, TOLD_HOLDS) or 303 to the thanks page of its language
 * (a form post: /ThanksPage, /ar/ThanksPage); with lead notifications on, the lead's e-mail is
 * stored with it (src/server/mail/lead-mail.ts, outbox.ts).
 *
 * The language: a form on a page of another locale than the default posts with that locale's code
 * in the query (`/api/contact?lang=ar`), with JavaScript on or off; no `lang` is English. The
 * body's field names are the same in every language. The lead is stored with its language.
 *
 * A url-encoded post comes from a form with JavaScript off: its refusals are pages for people, in
 * the form's language (src/pages/SubmissionProblem.astro, src/pages/ar/SubmissionProblem.astro),
 * instead of JSON, so `receive()` returns a FormProblem for the route to render.
 *
 * The honeypot (src/forms/honeypot.ts) and the proof of work (./proof.ts, the `altcha` field):
 * both are taken out before validation. A submission without a valid proof (JavaScript off, an
 * old cached page, another client, a forged, expired or replayed proof), sent too fast, with too
 * many links, with the honeypot filled, or above the client's rate (many posts from one network:
 * a carrier's shared address holds many people) is validated and answered exactly like anyone's,
 * and stored held for review with its reason: no notification is queued for it. The rate limit
 * protects the staff's mailboxes, not the door. What bounds the disk and the mail is each
 * network's daily budget (./network-budget.ts) and the floor of free disk (`filesRoom`).
 */
import { CONTACT_FORM, completeContactBody, contactSchema, contactValuesFromForm } from '../../forms/contact';
import { PARTNER_FORM, completePartnerBody, partnerSchema, partnerValuesFromForm } from '../../forms/partner';
import { HONEYPOT_FIELD } from '../../forms/honeypot';
import { jsonEntries, maxBodyKeys, shapeProblem, type FormTable, type ShapeProblem } from '../../forms/fields';
import { fieldIssues, type FieldIssue } from '../../forms/rules';
import { LANGUAGE_PARAM } from '../../forms/submit';
import { THANKS_HREF } from '../../data/navigation';
import { defaultLocale, locales, type LocaleCode } from '../../i18n';
import { localizePath } from '../../lib/paths';
import type { ReceiverConfig } from '../config.ts';
import { composeLeadNotice } from '../mail/lead-mail.ts';
import { composeAcknowledgement } from '../mail/acknowledgement.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { NetworkBudget } from './network-budget.ts';
import { TOLD_HOLDS, type FormName, type HoldReason, type NewAttachment, type SubmissionStore } from '../store/store.ts';
import { PROOF_FIELD, countLinks, judge, type ProofKeys } from './proof.ts';
import type { WorkQueue } from '../ops/work-queue.ts';
import { MAX_FILES, MEDIA_TYPES, UPLOAD_BODY_LIMIT_BYTES, checkUploads, cleanFileName, type FileProblem } from './uploads.ts';
import type { FileRejection } from '../../forms/files';
import { MIMEType } from 'node:util';

export const ACCEPTED_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;
/** The partner form may also send its CV files with the application (the site's own receiver only). */
export const MULTIPART_TYPE = 'multipart/form-data';
/** The form whose files the receiver keeps. */
const FILES_FIELD = 'uploadedFiles';
export const ALLOWED_METHODS = 'POST, OPTIONS';

type SafeParse = { success: true; data: Record<string, unknown> } | { success: false; error: Parameters<typeof fieldIssues>[0] };

interface FormSpec {
  /** The form's fields (src/forms/fields.ts): what shape its bodies may have. */
  readonly table: FormTable;
  /** Fields that hold a link by design (a website): not counted as links. */
  readonly linkFields: ReadonlySet<string>;
  readonly validate: (value: unknown) => SafeParse;
  /** A url-encoded post as the JSON body the form's island would send. */
  readonly fromForm: (form: URLSearchParams, now: Date) => Record<string, unknown>;
  /** A JSON body with the fields it left out as empty answers (and the server's time where the browser's is missing). */
  readonly complete: (body: Record<string, unknown>, now: Date) => Record<string, unknown>;
}

export const FORM_SPECS: Readonly<Record<FormName, FormSpec>> = {
  contact: {
    table: CONTACT_FORM,
    linkFields: new Set(Object.entries(CONTACT_FORM).flatMap(([name, spec]) => ((spec.kind as string) === 'url' ? [name] : []))),
    validate: (value) => contactSchema.safeParse(value),
    fromForm: (form, now) => contactValuesFromForm(form, now),
    complete: (body, now) => completeContactBody(body, now),
  },
  partner: {
    table: PARTNER_FORM,
    linkFields: new Set(Object.entries(PARTNER_FORM).flatMap(([name, spec]) => (spec.kind === 'url' ? [name] : []))),
    validate: (value) => partnerSchema.safeParse(value),
    fromForm: (form) => partnerValuesFromForm(form),
    complete: (body) => completePartnerBody(body),
  },
};

/** True for the code of one of the site's languages (src/i18n: `locales`). */
export function isLanguage(value: unknown): value is LocaleCode {
  return typeof value === 'string' && Object.hasOwn(locales, value);
}

/**
 * The language a form was sent in, from the receiver's address: the one `?lang=` names, or the
 * default (English) without it. Undefined when the address names none the site has: an unknown
 * code, an empty one, or `lang` more than once (a bad request).
 */
export function requestLanguage(url: URL): LocaleCode | undefined {
  const values = url.searchParams.getAll(LANGUAGE_PARAM);
  if (values.length === 0) return defaultLocale.code;
  const [value] = values;
  return values.length === 1 && isLanguage(value) ? value : undefined;
}

type ProblemKind =
  | { readonly kind: 'invalid'; readonly form: FormName; readonly issues: readonly FieldIssue[] }
  | {
      readonly kind: 'unreadable' | 'tooLarge' | 'unavailable' | 'tooManyFields' | 'repeatedField';
      readonly form: FormName;
    }
  | { readonly kind: 'overBudget'; readonly form: FormName; readonly retryAfterSeconds: number }
  | { readonly kind: 'files'; readonly form: FormName; readonly rejected: readonly FileRejection[]; readonly tooMany: boolean };

/**
 * Why a form post (JavaScript off) was refused: what its page tells the visitor, in the
 * language the form was sent in (the default one when that was not understood).
 */
export type FormProblem = ProblemKind & { readonly language: LocaleCode };

export type Outcome =
  | { readonly response: Response }
  | { readonly problem: FormProblem; readonly status: number; readonly headers: Readonly<Record<string, string>> };

export interface ReceiverDeps {
  readonly config: ReceiverConfig;
  /** Opens lazily; throws when the store cannot be opened (answered 503). */
  readonly store: () => SubmissionStore;
  readonly limiter: RateLimiter;
  /** What each network may leave per day. */
  readonly budget: NetworkBudget;
  /** Whether `bytes` more of files leave the disk its floor of free space (default: always). */
  readonly filesRoom?: (bytes: number) => Promise<boolean>;
  /** The Word 97-2003 files being read (./doc-file.ts), across all requests. */
  readonly docReadings: WorkQueue;
  readonly now?: () => Date;
  /** Where store failures are reported (default console.error). */
  readonly logError?: (message: string, error: unknown) => void;
  /** Told of each committed submission (metrics and the log: its id, never its fields). */
  readonly onStored?: (lead: {
    readonly id: string;
    readonly form: FormName;
    readonly language: LocaleCode;
    readonly bot: boolean;
    readonly held?: HoldReason | undefined;
  }) => void;
  /** The proof of work's HMAC keys (the setting's, or the one kept in the database). */
  readonly proofKeys: () => Promise<ProofKeys>;
  /** Told why an application's files were refused, by code ('doc:macros'): never a name or content. */
  readonly onFilesRefused?: (form: FormName, problems: readonly FileProblem[]) => void;
}

const BASE_HEADERS = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', Vary: 'Origin' } as const;

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(`${JSON.stringify(body)}\n`, {
    status,
    headers: { ...BASE_HEADERS, 'Content-Type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The media type and charset of a Content-Type header. */
export function parseContentType(header: string | null): { type: string; charset: string | undefined } {
  const [type = '', ...params] = (header ?? '').split(';');
  let charset: string | undefined;
  for (const param of params) {
    const [name = '', value = ''] = param.split('=');
    if (name.trim().toLowerCase() === 'charset')
      charset = value
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase();
  }
  return { type: type.trim().toLowerCase(), charset };
}

/**
 * How much of an over-long body is still read (and thrown away) after the 413 is answered:
 * a client that is still sending when the connection closes would never read the answer.
 * Beyond it the connection is cut.
 */
export const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

type BodyResult = { readonly body: Uint8Array<ArrayBuffer> } | { readonly tooLarge: true; readonly close: boolean };

/** Reads and discards the rest of a body, up to `budget` bytes; then gives up on the connection. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  try {
    for (let left = budget; ;) {
      const { done, value } = await reader.read();
      if (done) return;
      left -= value.byteLength;
      if (left < 0) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to read.
  }
}

/** The body, or tooLarge once more than `limit` bytes are announced or arrive. */
export async function readBody(request: Request, limit: number): Promise<BodyResult> {
  const announcedText = request.headers.get('content-length')?.trim();
  const announced = announcedText !== undefined && /^\d+$/.test(announcedText) ? Number(announcedText) : undefined;
  if (announced !== undefined && announced > DRAIN_LIMIT_BYTES) return { tooLarge: true, close: true };
  if (request.body === null) return { body: new Uint8Array(0) };
  const reader = request.body.getReader();
  if (announced !== undefined && announced > limit) {
    void discard(reader, DRAIN_LIMIT_BYTES);
    return { tooLarge: true, close: false };
  }
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      void discard(reader, DRAIN_LIMIT_BYTES - received);
      return { tooLarge: true, close: false };
    }
    chunks.push(value);
  }
  const body = new Uint8Array(received);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { body };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * How deep a JSON body may nest: the forms' bodies are an object of texts and lists of texts
 * (depth 2). Deeper is no form's body, and is refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 8;

/**
 * What one pass over a JSON text finds wrong with its shape before it is parsed (strings
 * skipped), stopping at the first: objects and arrays nested deeper than `maxDepth`, or more than
 * `maxMembers` members in the outermost object (a member's colon is at depth 1).
 */
export function jsonTextProblem(text: string, maxDepth: number, maxMembers: number): 'tooDeep' | 'tooManyFields' | undefined {
  let depth = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return 'tooDeep';
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
    else if (c === 0x3a && depth === 1) {
      members += 1;
      if (members > maxMembers) return 'tooManyFields';
    }
  }
  return undefined;
}

/** True when the honeypot holds anything a person could not have typed into a hidden field. */
function honeypotFilled(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some(honeypotFilled);
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A multipart body's text fields (as a url-encoded form would give them) and its files. The
 * files' names go into the files field as cleaned labels; an empty file part (a file input left
 * empty, JavaScript off) is no file. Undefined when the body cannot be read as multipart, or when
 * a file arrives in any other field.
 */
async function multipartParts(
  body: Uint8Array<ArrayBuffer>,
  contentType: string,
): Promise<{ fields: URLSearchParams; files: File[] } | undefined> {
  let data: FormData;
  try {
    data = await new Response(body, { headers: { 'Content-Type': contentType } }).formData();
  } catch {
    return undefined;
  }
  const fields = new URLSearchParams();
  const files: File[] = [];
  for (const [name, value] of data.entries()) {
    if (typeof value === 'string') {
      if (name !== FILES_FIELD) fields.append(name, value);
      continue;
    }
    if (name !== FILES_FIELD) return undefined;
    if (value.name === '' && value.size === 0) continue;
    files.push(value);
    fields.append(FILES_FIELD, cleanFileName(value.name));
  }
  return { fields, files };
}

/**
 * How many times a multipart body's boundary delimiter occurs, counted up to `stop`: each part
 * begins with one and one more closes the body, so a body of n parts has at least n + 1. One scan
 * of the bytes, before the body is parsed. Undefined when the Content-Type names no boundary
 * (read as the body's parser reads it, by the WHATWG MIME type rules).
 */
export function countDelimiters(body: Uint8Array, contentType: string, stop: number): number | undefined {
  let boundary: string | undefined;
  try {
    boundary = new MIMEType(contentType).params.get('boundary') ?? undefined;
  } catch {
    return undefined;
  }
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`, 'utf8');
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let count = 0;
  for (let at = bytes.indexOf(delimiter); at !== -1 && count < stop; at = bytes.indexOf(delimiter, at + delimiter.length))
    count += 1;
  return count;
}

/** The origins allowed to post from a browser: the site's own and the configured ones. */
function originAllowed(origin: string, requestUrl: URL, config: ReceiverConfig): boolean {
  return origin === requestUrl.origin || config.allowedOrigins.includes(origin);
}

export async function receive(request: Request, form: FormName, clientAddress: string, deps: ReceiverDeps): Promise<Outcome> {
  const spec = FORM_SPECS[form];
  const url = new URL(request.url);
  const requested = requestLanguage(url);
  const language = requested ?? defaultLocale.code;
  const origin = request.headers.get('origin');
  const cors: Record<string, string> =
    origin !== null && origin !== url.origin && originAllowed(origin, url, deps.config)
      ? { 'Access-Control-Allow-Origin': origin }
      : {};

  if (request.method === 'OPTIONS') {
    if (origin !== null && !originAllowed(origin, url, deps.config)) return { response: json(403, { error: 'forbiddenOrigin' }) };
    return {
      response: new Response(null, {
        status: 204,
        headers: {
          ...BASE_HEADERS,
          ...cors,
          Allow: ALLOWED_METHODS,
          'Access-Control-Allow-Methods': 'POST',
          'Access-Control-Allow-Headers': 'Content-Type, Accept',
          'Access-Control-Max-Age': '600',
        },
      }),
    };
  }
  if (request.method !== 'POST') {
    return { response: json(405, { error: 'methodNotAllowed', allow: ALLOWED_METHODS }, { Allow: ALLOWED_METHODS, ...cors }) };
  }
  if (origin !== null && !originAllowed(origin, url, deps.config)) {
    return { response: json(403, { error: 'forbiddenOrigin' }) };
  }

  const { type, charset } = parseContentType(request.headers.get('content-type'));
  const isMultipart = type === MULTIPART_TYPE && form === 'partner';
  // Answered as the form's page does: a multipart post comes from the form itself (JavaScript off,
  // or the island sending files), so its refusals are pages for people too unless it asks for JSON.
  const isForm =
    type === 'application/x-www-form-urlencoded' ||
    (isMultipart && !(request.headers.get('accept') ?? '').includes('application/json'));
  const refuse = (
    status: number,
    body: Record<string, unknown>,
    problem: ProblemKind,
    headers: Record<string, string> = {},
  ): Outcome =>
    isForm
      ? { problem: { ...problem, language }, status, headers: { ...headers, ...cors } }
      : { response: json(status, body, { ...headers, ...cors }) };

  const accepted = form === 'partner' ? [...ACCEPTED_TYPES, MULTIPART_TYPE] : ACCEPTED_TYPES;
  if (
    (type !== 'application/json' && type !== 'application/x-www-form-urlencoded' && !isMultipart) ||
    (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
  ) {
    return { response: json(415, { error: 'unsupportedMediaType', accepted }, { 'Accept-Post': accepted.join(', '), ...cors }) };
  }

  const limit = isMultipart ? UPLOAD_BODY_LIMIT_BYTES : deps.config.bodyLimitBytes;
  let read: BodyResult;
  try {
    read = await readBody(request, limit);
  } catch {
    // The client went away or the adapter refused the body part-way.
    return refuse(400, { error: 'unreadableBody' }, { kind: 'unreadable', form });
  }
  if ('tooLarge' in read) {
    return refuse(413, { error: 'tooLarge', limit }, { kind: 'tooLarge', form }, read.close ? { Connection: 'close' } : {});
  }
  // Refused once the body is read, so that the client reads the answer.
  if (requested === undefined) return refuse(400, { error: 'unknownLanguage' }, { kind: 'unreadable', form });

  const now = deps.now?.() ?? new Date();
  const overBudget = (retryAfterSeconds: number): Outcome =>
    refuse(
      429,
      { error: 'overBudget', retryAfter: retryAfterSeconds },
      { kind: 'overBudget', form, retryAfterSeconds },
      { 'Retry-After': String(retryAfterSeconds) },
    );
  // A body refused for its shape (src/forms/fields.ts: shapeProblem) is refused before anything runs
  // over its answers, and counts against its network's day's budget as a held lead does.
  const refuseShape = (problem: ShapeProblem): Outcome => {
    const budget = deps.budget.takeRefused(clientAddress, now.getTime());
    if (!budget.ok) return overBudget(budget.retryAfterSeconds);
    switch (problem.error) {
      case 'tooLong': {
        const issues: FieldIssue[] = [{ field: problem.field, code: 'tooLong' }];
        return refuse(400, { error: 'invalidFields', issues }, { kind: 'invalid', form, issues });
      }
      case 'tooManyFields':
        return refuse(400, { error: 'tooManyFields', maxFields: problem.maxFields }, { kind: 'tooManyFields', form });
      case 'repeatedField':
        return refuse(400, { error: 'repeatedField', field: problem.field }, { kind: 'repeatedField', form });
    }
  };

  let values: unknown;
  let files: File[] = [];
  if (isMultipart) {
    // The parts are counted before they are parsed: past the form's keys, the parser never runs.
    const contentType = request.headers.get('content-type') ?? '';
    const maxFields = maxBodyKeys(spec.table);
    const delimiters = countDelimiters(read.body, contentType, maxFields + 2);
    if (delimiters === undefined) return refuse(400, { error: 'unreadableBody' }, { kind: 'unreadable', form });
    if (delimiters > maxFields + 1) return refuseShape({ error: 'tooManyFields', maxFields });
    const parts = await multipartParts(read.body, contentType);
    if (!parts) return refuse(400, { error: 'unreadableBody' }, { kind: 'unreadable', form });
    const problem = shapeProblem(spec.table, parts.fields);
    if (problem) return refuseShape(problem);
    files = parts.files;
    values = spec.fromForm(parts.fields, now);
  } else {
    let text: string;
    try {
      text = utf8.decode(read.body);
    } catch {
      return refuse(400, { error: 'invalidEncoding' }, { kind: 'unreadable', form });
    }
    if (isForm) {
      const pairs = new URLSearchParams(text);
      const problem = shapeProblem(spec.table, pairs);
      if (problem) return refuseShape(problem);
      values = spec.fromForm(pairs, now);
    } else {
      // Counted before it is parsed: a body of more members than the form's keys is never parsed.
      const maxFields = maxBodyKeys(spec.table);
      const scanned = jsonTextProblem(text, MAX_JSON_DEPTH, maxFields);
      if (scanned === 'tooDeep') return { response: json(400, { error: 'tooDeep', maxDepth: MAX_JSON_DEPTH }, cors) };
      if (scanned === 'tooManyFields') return refuseShape({ error: 'tooManyFields', maxFields });
      try {
        values = JSON.parse(text);
      } catch {
        return { response: json(400, { error: 'malformedJson' }, cors) };
      }
      if (!isPlainObject(values)) return { response: json(400, { error: 'notAnObject' }, cors) };
      const problem = shapeProblem(spec.table, jsonEntries(values));
      if (problem) return refuseShape(problem);
      values = spec.complete(values, now);
    }
  }

  // The honeypot's catch is held for review like any lead in doubt: never dropped, never mailed.
  let honeypot = false;
  if (isPlainObject(values) && Object.hasOwn(values, HONEYPOT_FIELD)) {
    honeypot = honeypotFilled(values[HONEYPOT_FIELD]);
    delete values[HONEYPOT_FIELD];
  }
  let proof: unknown;
  if (isPlainObject(values) && Object.hasOwn(values, PROOF_FIELD)) {
    proof = values[PROOF_FIELD];
    delete values[PROOF_FIELD];
  }

  const result = spec.validate(values);
  if (!result.success) {
    const issues = fieldIssues(result.error);
    return refuse(400, { error: 'invalidFields', issues }, { kind: 'invalid', form, issues });
  }

  // The files, by the spec's rules, checked by their content: one refused file refuses the application.
  let attachments: NewAttachment[] = [];
  let activeFile = false;
  if (files.length > 0) {
    const check = await checkUploads(files, deps.docReadings);
    if (!check.ok) {
      deps.onFilesRefused?.(form, check.problems);
      return refuse(
        400,
        { error: 'invalidFiles', files: check.rejected, maxFiles: MAX_FILES, tooMany: check.tooMany },
        { kind: 'files', form, rejected: check.rejected, tooMany: check.tooMany },
      );
    }
    attachments = check.files.map((file) => ({ name: file.name, type: MEDIA_TYPES[file.kind], bytes: file.bytes }));
    activeFile = check.files.some((file) => file.active);
  }

  // Counted once the post is a form's (a refused shape costs the day's budget instead); over the rate, held.
  const overRate = !deps.limiter.take(clientAddress).ok;

  let verdict;
  try {
    verdict = await judge(
      { payload: proof, formPost: isForm, honeypot, links: countLinks(result.data, spec.linkFields) },
      await deps.proofKeys(),
      deps.config.proof,
      now,
    );
  } catch (error) {
    (deps.logError ?? ((message, cause) => console.error(message, cause)))(
      `Could not check a ${form} submission's proof of work`,
      error,
    );
    return refuse(503, { error: 'storeUnavailable' }, { kind: 'unavailable', form }, { 'Retry-After': '30' });
  }

  // A file that may run something is named first: staff read the reason before opening the files.
  let held: HoldReason | undefined = activeFile ? 'activeFile' : (verdict.held ?? (overRate ? 'manyPosts' : undefined));
  // Each lead and its files count against its network's day, a valid proof's apart from a doubtful post's.
  const fileBytes = attachments.reduce((sum, file) => sum + file.bytes.byteLength, 0);
  const budget = deps.budget.take(clientAddress, verdict.challenge !== undefined, fileBytes, now.getTime());
  if (!budget.ok) return overBudget(budget.retryAfterSeconds);
  const lowDisk = fileBytes > 0 && budget.keepFiles && !((await deps.filesRoom?.(fileBytes)) ?? true);
  if (!budget.keepFiles || lowDisk) {
    attachments = [];
    held = lowDisk ? 'lowDisk' : 'fileQuota';
  }

  let saved: { id: string; held?: HoldReason | undefined };
  try {
    // With notifications on, the lead's e-mail is queued in the same transaction (the outbox),
    // with a link to the lead in the staff inbox on the configured address (SITE_URL), never the
    // request's: a client sending a forged Host would otherwise choose where staff are sent.
    const { siteUrl } = deps.config;
    const notice = deps.config.notifications
      ? {
          notice: (lead: Parameters<typeof composeLeadNotice>[0]) =>
            composeLeadNotice(lead, siteUrl ? { inboxUrl: new URL(`/admin/leads/${lead.id}`, siteUrl).href } : {}),
          // The sender's acknowledgement, in the same transaction (the store writes none for a held lead).
          ...(deps.config.notifications.acknowledge
            ? {
                acknowledgement: (lead: Parameters<typeof composeLeadNotice>[0]) =>
                  composeAcknowledgement(lead, deps.config.notifications?.acknowledgeLimits, deps.config.notifications?.replyTo),
              }
            : {}),
        }
      : {};
    saved = await deps
      .store()
      .save({ form, fields: result.data, language, receivedAt: now, attachments, held, challenge: verdict.challenge, ...notice });
  } catch (error) {
    (deps.logError ?? ((message, cause) => console.error(message, cause)))(`Could not store a ${form} submission`, error);
    return refuse(503, { error: 'storeUnavailable' }, { kind: 'unavailable', form }, { 'Retry-After': '30' });
  }
  deps.onStored?.({ id: saved.id, form, language, bot: false, held: saved.held });

  if (isForm)
    return {
      response: new Response(null, {
        status: 303,
        headers: { ...BASE_HEADERS, ...cors, Location: localizePath(THANKS_HREF, locales[language]) },
      }),
    };
  const review = saved.held !== undefined && TOLD_HOLDS.has(saved.held);
  return { response: json(201, review ? { id: saved.id, review } : { id: saved.id }, cors) };
}
