/**
 * The submission receiver: one web Request in, one answer out (./endpoint.ts is its Astro glue).
 * `receive()` is a row of gates, each refusing what docs/receiver.md#endpoints lists in its order,
 * then one save. A gate throws a Refusal: JSON, or for a form post (JavaScript off) a FormProblem
 * the route renders as a page in the form's language (src/pages/SubmissionProblem.astro). A post
 * in doubt is answered as anyone's and stored held for review, unmailed.
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
import { PROOF_FIELD, countLinks, judge, type ProofKeys, type Verdict } from './proof.ts';
import type { WorkQueue } from '../ops/work-queue.ts';
import { MAX_FILES, MEDIA_TYPES, UPLOAD_BODY_LIMIT_BYTES, checkUploads, multipartParts, type FileProblem } from './uploads.ts';
import type { FileRejection } from '../../forms/files';
import { MAX_JSON_DEPTH, countDelimiters, jsonTextProblem, parseContentType, readBody } from './body.ts';

const ACCEPTED_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;
/** The partner form may also send its CV files with the application (the site's own receiver only). */
const MULTIPART_TYPE = 'multipart/form-data';
const ALLOWED_METHODS = 'POST, OPTIONS';

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

const urlFields = (table: FormTable) =>
  new Set(Object.entries(table).flatMap(([name, spec]) => ((spec.kind as string) === 'url' ? [name] : [])));

const FORM_SPECS: Readonly<Record<FormName, FormSpec>> = {
  contact: {
    table: CONTACT_FORM,
    linkFields: urlFields(CONTACT_FORM),
    validate: (value) => contactSchema.safeParse(value),
    fromForm: (form, now) => contactValuesFromForm(form, now),
    complete: (body, now) => completeContactBody(body, now),
  },
  partner: {
    table: PARTNER_FORM,
    linkFields: urlFields(PARTNER_FORM),
    validate: (value) => partnerSchema.safeParse(value),
    fromForm: (form) => partnerValuesFromForm(form),
    complete: (body) => completePartnerBody(body),
  },
};

export function isLanguage(value: unknown): value is LocaleCode {
  return typeof value === 'string' && Object.hasOwn(locales, value);
}

/** The language `?lang=` names (the default without it); undefined for an unknown code, an empty one, or `lang` twice. */
export function requestLanguage(url: URL): LocaleCode | undefined {
  const [value = defaultLocale.code, ...more] = url.searchParams.getAll(LANGUAGE_PARAM);
  return more.length === 0 && isLanguage(value) ? value : undefined;
}

type ProblemKind =
  | { readonly kind: 'invalid'; readonly issues: readonly FieldIssue[] }
  | { readonly kind: 'unreadable' | 'tooLarge' | 'unavailable' | 'tooManyFields' | 'repeatedField' }
  | { readonly kind: 'overBudget'; readonly retryAfterSeconds: number }
  | { readonly kind: 'files'; readonly rejected: readonly FileRejection[]; readonly tooMany: boolean };

/** Why a form post (JavaScript off) was refused, for its page in the form's language. */
export type FormProblem = ProblemKind & { readonly form: FormName; readonly language: LocaleCode };

type Outcome =
  | { readonly response: Response }
  | { readonly problem: FormProblem; readonly status: number; readonly headers: Readonly<Record<string, string>> };

export interface ReceiverDeps {
  readonly config: ReceiverConfig;
  /** Opens lazily; throws when the store cannot be opened (answered 503). */
  readonly store: () => SubmissionStore;
  readonly limiter: RateLimiter;
  readonly budget: NetworkBudget;
  /** Whether `bytes` more of files leave the disk its floor of free space (default: always). */
  readonly filesRoom?: (bytes: number) => Promise<boolean>;
  readonly docReadings: WorkQueue;
  readonly now?: () => Date;
  readonly logError?: (message: string, error: unknown) => void;
  /** Told of each committed submission (metrics and the log: its id, never its fields). */
  readonly onStored?: (lead: {
    readonly id: string;
    readonly form: FormName;
    readonly language: LocaleCode;
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

const empty = (status: number, headers: Record<string, string>) =>
  new Response(null, { status, headers: { ...BASE_HEADERS, ...headers } });

const utf8 = new TextDecoder('utf-8', { fatal: true });

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

/** A gate's refusal, thrown to `receive()`, which answers with its outcome. */
class Refusal {
  constructor(readonly outcome: Outcome) {}
}

interface Post {
  readonly form: FormName;
  readonly spec: FormSpec;
  readonly language: LocaleCode;
  readonly cors: Readonly<Record<string, string>>;
  readonly multipart: boolean;
  /** Refused with pages for people (src/pages/SubmissionProblem.astro), not JSON. */
  readonly isForm: boolean;
  readonly contentType: string;
  readonly clientAddress: string;
  readonly deps: ReceiverDeps;
}

/** A refusal as JSON, or for a form post as the problem its page explains in the form's language. */
function refusal(post: Post, status: number, body: object, problem: ProblemKind, headers: Record<string, string> = {}): Refusal {
  return new Refusal(
    post.isForm
      ? { problem: { ...problem, form: post.form, language: post.language }, status, headers: { ...headers, ...post.cors } }
      : { response: json(status, body, { ...headers, ...post.cors }) },
  );
}

const unreadable = (post: Post, error: string) => refusal(post, 400, { error }, { kind: 'unreadable' });

const invalid = (post: Post, issues: readonly FieldIssue[]) =>
  refusal(post, 400, { error: 'invalidFields', issues }, { kind: 'invalid', issues });

/** A network past its day's budget (./network-budget.ts): Retry-After says when its day is over. */
const overBudget = (post: Post, retryAfterSeconds: number) =>
  refusal(
    post,
    429,
    { error: 'overBudget', retryAfter: retryAfterSeconds },
    { kind: 'overBudget', retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );

/** What `work` gives; when the store (or the proof's keys kept in it) fails, reported, and nothing is acknowledged. */
async function orUnavailable<T>(post: Post, what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    (post.deps.logError ?? ((text, cause) => console.error(text, cause)))(`Could not ${what}`, error);
    throw refusal(post, 503, { error: 'storeUnavailable' }, { kind: 'unavailable' }, { 'Retry-After': '30' });
  }
}

/** A body refused for its shape, before anything runs over its answers: it costs its network's day as a held lead does. */
function shapeRefusal(post: Post, problem: ShapeProblem, now: Date): Refusal {
  const budget = post.deps.budget.takeRefused(post.clientAddress, now.getTime());
  if (!budget.ok) return overBudget(post, budget.retryAfterSeconds);
  if (problem.error === 'tooLong') return invalid(post, [{ field: problem.field, code: 'tooLong' }]);
  return refusal(post, 400, problem, { kind: problem.error });
}

/** The body, refused past its limit or when the client goes away part-way. */
async function bodyOf(post: Post, request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const limit = post.multipart ? UPLOAD_BODY_LIMIT_BYTES : post.deps.config.bodyLimitBytes;
  // A client that goes away, or an adapter that refuses the body part-way, leaves it unread.
  const read = await readBody(request, limit).catch(() => Promise.reject(unreadable(post, 'unreadableBody')));
  if ('tooLarge' in read)
    throw refusal(post, 413, { error: 'tooLarge', limit }, { kind: 'tooLarge' }, read.close ? { Connection: 'close' } : {});
  return read.body;
}

/** The body's answers as the form's island would send them, and its files; past the form's keys, the parser never runs. */
async function answersOf(post: Post, body: Uint8Array<ArrayBuffer>, now: Date) {
  const { spec } = post;
  const maxFields = maxBodyKeys(spec.table);
  const shaped = <T extends Iterable<readonly [string, unknown]>>(entries: T): T => {
    const problem = shapeProblem(spec.table, entries);
    if (problem) throw shapeRefusal(post, problem, now);
    return entries;
  };
  if (post.multipart) {
    const delimiters = countDelimiters(body, post.contentType, maxFields + 2);
    if (delimiters === undefined) throw unreadable(post, 'unreadableBody');
    if (delimiters > maxFields + 1) throw shapeRefusal(post, { error: 'tooManyFields', maxFields }, now);
    const parts = await multipartParts(body, post.contentType);
    if (!parts) throw unreadable(post, 'unreadableBody');
    return { values: spec.fromForm(shaped(parts.fields), now), files: parts.files };
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw unreadable(post, 'invalidEncoding');
  }
  if (post.isForm) return { values: spec.fromForm(shaped(new URLSearchParams(text)), now), files: [] };
  const scanned = jsonTextProblem(text, MAX_JSON_DEPTH, maxFields);
  if (scanned === 'tooDeep') throw refusal(post, 400, { error: 'tooDeep', maxDepth: MAX_JSON_DEPTH }, { kind: 'unreadable' });
  if (scanned === 'tooManyFields') throw shapeRefusal(post, { error: 'tooManyFields', maxFields }, now);
  let values: unknown;
  try {
    values = JSON.parse(text);
  } catch {
    throw unreadable(post, 'malformedJson');
  }
  if (!isPlainObject(values)) throw unreadable(post, 'notAnObject');
  shaped(jsonEntries(values));
  return { values: spec.complete(values, now), files: [] };
}

/** A field taken out of the answers before validation (the honeypot, the proof). */
function takeOut(values: Record<string, unknown>, field: string): unknown {
  if (!Object.hasOwn(values, field)) return undefined;
  const value = values[field];
  delete values[field];
  return value;
}

/** The files, by the spec's rules, checked by their content: one refused file refuses the application. */
async function checkedFiles(post: Post, files: readonly File[]): Promise<{ attachments: NewAttachment[]; active: boolean }> {
  if (files.length === 0) return { attachments: [], active: false };
  const check = await checkUploads(files, post.deps.docReadings);
  if (!check.ok) {
    post.deps.onFilesRefused?.(post.form, check.problems);
    const { rejected, tooMany } = check;
    const body = { error: 'invalidFiles', files: rejected, maxFiles: MAX_FILES, tooMany };
    throw refusal(post, 400, body, { kind: 'files', rejected, tooMany });
  }
  return {
    attachments: check.files.map((file) => ({ name: file.name, type: MEDIA_TYPES[file.kind], bytes: file.bytes })),
    active: check.files.some((file) => file.active),
  };
}

/** What the network's day lets the lead keep: past its files' share or the disk's floor, it is held without its files. */
async function budgeted(post: Post, now: Date, verdict: Verdict, attachments: NewAttachment[], held: HoldReason | undefined) {
  const fileBytes = attachments.reduce((sum, file) => sum + file.bytes.byteLength, 0);
  const budget = post.deps.budget.take(post.clientAddress, verdict.challenge !== undefined, fileBytes, now.getTime());
  if (!budget.ok) throw overBudget(post, budget.retryAfterSeconds);
  const lowDisk = fileBytes > 0 && budget.keepFiles && !((await post.deps.filesRoom?.(fileBytes)) ?? true);
  if (budget.keepFiles && !lowDisk) return { attachments, held };
  return { attachments: [], held: lowDisk ? ('lowDisk' as const) : ('fileQuota' as const) };
}

/**
 * With notifications on, the mails the store queues in the lead's transaction: the staff's notice,
 * linking to the lead on SITE_URL, never the request's Host (a forged one would choose where staff
 * are sent), and the sender's acknowledgement.
 */
function mailsFor(config: ReceiverConfig) {
  const { siteUrl, notifications } = config;
  if (!notifications) return {};
  type Lead = Parameters<typeof composeLeadNotice>[0];
  const inbox = (lead: Lead) => (siteUrl ? { inboxUrl: new URL(`/admin/leads/${lead.id}`, siteUrl).href } : {});
  return {
    notice: (lead: Lead) => composeLeadNotice(lead, inbox(lead)),
    ...(notifications.acknowledge
      ? { acknowledgement: (lead: Lead) => composeAcknowledgement(lead, notifications.acknowledgeLimits, notifications.replyTo) }
      : {}),
  };
}

export async function receive(request: Request, form: FormName, clientAddress: string, deps: ReceiverDeps): Promise<Outcome> {
  const url = new URL(request.url);
  const origin = request.headers.get('origin');
  const allowed = origin === null || origin === url.origin || deps.config.allowedOrigins.includes(origin);
  const cors: Record<string, string> =
    origin !== null && origin !== url.origin && allowed ? { 'Access-Control-Allow-Origin': origin } : {};
  if (request.method !== 'POST' && request.method !== 'OPTIONS')
    return { response: json(405, { error: 'methodNotAllowed', allow: ALLOWED_METHODS }, { Allow: ALLOWED_METHODS, ...cors }) };
  if (!allowed) return { response: json(403, { error: 'forbiddenOrigin' }) };
  if (request.method === 'OPTIONS') {
    const preflight = { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': 'Content-Type, Accept' };
    return { response: empty(204, { ...cors, Allow: ALLOWED_METHODS, ...preflight, 'Access-Control-Max-Age': '600' }) };
  }

  const contentType = request.headers.get('content-type') ?? '';
  const { type, charset } = parseContentType(contentType);
  const multipart = type === MULTIPART_TYPE && form === 'partner';
  if (
    (!(ACCEPTED_TYPES as readonly string[]).includes(type) && !multipart) ||
    (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
  ) {
    const accepted = form === 'partner' ? [...ACCEPTED_TYPES, MULTIPART_TYPE] : ACCEPTED_TYPES;
    return { response: json(415, { error: 'unsupportedMediaType', accepted }, { 'Accept-Post': accepted.join(', '), ...cors }) };
  }
  const requested = requestLanguage(url);
  // A form's own post (JavaScript off, or the island sending files) unless it asks for JSON.
  const isForm =
    type === 'application/x-www-form-urlencoded' ||
    (multipart && !(request.headers.get('accept') ?? '').includes('application/json'));
  const language = requested ?? defaultLocale.code;
  const post: Post = { form, spec: FORM_SPECS[form], language, cors, multipart, isForm, contentType, clientAddress, deps };

  try {
    const body = await bodyOf(post, request);
    // Refused once the body is read, so that the client reads the answer.
    if (requested === undefined) throw unreadable(post, 'unknownLanguage');
    const now = deps.now?.() ?? new Date();
    const { values, files } = await answersOf(post, body, now);
    // The honeypot's catch is held for review like any lead in doubt: never dropped, never mailed.
    const honeypot = honeypotFilled(takeOut(values, HONEYPOT_FIELD));
    const payload = takeOut(values, PROOF_FIELD);
    const result = post.spec.validate(values);
    if (!result.success) throw invalid(post, fieldIssues(result.error));
    const { attachments, active } = await checkedFiles(post, files);
    // Counted once the post is a form's (a refused shape costs the day's budget instead); over the rate, held.
    const overRate = !deps.limiter.take(clientAddress).ok;
    const links = countLinks(result.data, post.spec.linkFields);
    const verdict = await orUnavailable(post, `check a ${form} submission's proof of work`, async () =>
      judge({ payload, formPost: isForm, honeypot, links }, await deps.proofKeys(), deps.config.proof, now),
    );
    // A file that may run something is named first: staff read the reason before opening the files.
    const doubt = active ? 'activeFile' : (verdict.held ?? (overRate ? 'manyPosts' : undefined));
    const kept = await budgeted(post, now, verdict, attachments, doubt);
    const lead = { form, fields: result.data, language, receivedAt: now, challenge: verdict.challenge, ...kept };
    const saved = await orUnavailable(post, `store a ${form} submission`, () =>
      deps.store().save({ ...lead, ...mailsFor(deps.config) }),
    );
    deps.onStored?.({ id: saved.id, form, language, held: saved.held });
    if (isForm) return { response: empty(303, { ...cors, Location: localizePath(THANKS_HREF, locales[language]) }) };
    const review = saved.held !== undefined && TOLD_HOLDS.has(saved.held);
    return { response: json(201, review ? { id: saved.id, review } : { id: saved.id }, cors) };
  } catch (error) {
    if (error instanceof Refusal) return error.outcome;
    throw error;
  }
}
