/**
 * The staff inbox at /admin, its Astro side: the guard every /admin request passes
 * (src/middleware.ts), sign-in and sign-out, and what the pages under src/pages/admin/ read.
 *
 * - No page, no data and no file without a live session: a GET goes to the sign-in form, any
 *   other method gets 403.
 * - Every state change is a POST whose Origin is the site's own and whose form carries the
 *   session's token (`csrf`); the session cookie is HttpOnly and SameSite=Lax (see
 *   `SESSION_COOKIE` for why), `__Host-` and Secure behind HTTPS.
 * - A signed-out visit to an inbox page goes to sign-in with the page as `next`, and sign-in
 *   returns there (./return-path.ts accepts only a path of the inbox on this site).
 * - Two-step sign-in (./two-step.ts): after the password, a session that still owes a code (or,
 *   when the operator requires two-step sign-in, its set-up) reaches only that step's page. The
 *   code is counted by the same gate as the password, so a burst of guesses is slowed and locked
 *   the same way.
 * - Every answer says `Cache-Control: no-store` and `X-Robots-Tag: noindex`.
 * - Failed sign-ins are slowed, then locked, per account and per network (./inbox-store.ts),
 *   each attempt counted before its password is checked; tries while closed are not counted; a
 *   browser that signed in before (its device cookie) is judged by its own failures only; at
 *   most a few password checks run at once (HashQueue). The answer is the same whether or not
 *   the account exists, and takes as long. Refused sign-ins are kept apart from staff actions.
 */
import type { HeldStore } from '../store/held-queries.ts';
import type { APIContext, MiddlewareNext } from 'astro';
import { CONTACT_FIELDS, CONTACT_FORM, contactLabelKey, isContactField } from '../../forms/contact';
import { PARTNER_FIELD_ORDER, PARTNER_SECTIONS, isPartnerField, partnerField, partnerLabelKey } from '../../forms/partner';
import { defaultLocale, locales, t, type Locale, type LocaleCode, type UiKey } from '../../i18n';
import { clientAddress, processStores } from '../receiver/endpoint.ts';
import { DEVICE_MAX_MS, type SessionStage, type InboxLead, type InboxStore, type StaffSession } from './inbox-store.ts';
import type { OutboxStore } from '../mail/outbox.ts';
import { countSignInFailure, countSignInLock } from '../ops/metrics.ts';
import { clientNetwork } from '../receiver/rate-limit.ts';
import { readBody } from '../receiver/receiver.ts';
import { hashPassword, verifyPassword, type StaffStore } from './staff.ts';
import { safeReturnPath } from './return-path.ts';
import { LANGUAGE_COOKIE, LANGUAGE_PATH, chooseAdminLocale, languageCookie, languageReturnPath } from './admin-locale.ts';
import {
  acceptedStep,
  isRecoveryCodeShape,
  openSecret,
  recoveryHash,
  twoStepSettings,
  type TwoStepSettings,
} from './two-step.ts';
import type { SubmissionStore } from '../store/store.ts';

export const ADMIN_ROOT = '/admin';
export const LOGIN_PATH = '/admin/login';
/** The second step: a code from the app, or a recovery code. */
export const CODE_PATH = '/admin/login/code';
/** Two-step sign-in: its state, and setting it up. */
export const TWO_STEP_PATH = '/admin/two-step';
export const LOGOUT_PATH = '/admin/logout';

/** The address of a step of signing in that returns to `next` afterwards (no `next` for the list). */
export function withNext(path: string, next: string): string {
  const target = safeReturnPath(next);
  return target === ADMIN_ROOT ? path : `${path}?next=${encodeURIComponent(target)}`;
}

/** The two-step settings, read once (a malformed one stops the server at start: serve.ts reads them there too). */
let twoStep: TwoStepSettings | undefined;
export const twoStepConfig = (): TwoStepSettings => (twoStep ??= twoStepSettings());

/** How staff name statuses, forms and languages: shared with the staff command (./lead-columns.ts). */
export { FORM_LABELS, LANGUAGE_LABELS, STATUS_LABELS } from './lead-columns.ts';

/** Staff forms are small: a note is the largest. */
const MAX_FORM_BYTES = 64 * 1024;

interface InboxDeps {
  readonly inbox: InboxStore;
  readonly staff: StaffStore;
  readonly outbox: OutboxStore;
  readonly submissions: SubmissionStore;
  readonly held: HeldStore;
}

/** The stores, the same database as the receiver's (opened on first use). */
export function inboxDeps(): InboxDeps {
  return processStores();
}

/** Whether the browser reached us over HTTPS (directly, or through the proxy that says so). */
function secure(context: APIContext): boolean {
  return context.url.protocol === 'https:' || process.env['BEHIND_HTTPS'] === 'true';
}

/** `__Host-` requires Secure, which a browser refuses over plain http (a local run). */
export function sessionCookieName(context: APIContext): string {
  return secure(context) ? '__Host-globaq-staff' : 'globaq-staff';
}

export const isAdminPath = (pathname: string): boolean => pathname === ADMIN_ROOT || pathname.startsWith(`${ADMIN_ROOT}/`);

/** Same-origin check for a state change: the browser's Origin must be this site's. */
function sameOrigin(context: APIContext): boolean {
  const origin = context.request.headers.get('origin');
  if (origin) return origin === context.url.origin;
  // Browsers send Origin with every POST; without it, only a same-origin fetch metadata passes.
  return context.request.headers.get('sec-fetch-site') === 'same-origin';
}

function plain(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** The answer's headers for every /admin response. */
function privateHeaders(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('Cache-Control', 'no-store');
  headers.set('X-Robots-Tag', 'noindex, nofollow');
  // Inbox addresses (lead ids, searches) never leave the site in a Referer. Not `no-referrer`:
  // with it, browsers send `Origin: null` on the inbox's own forms, which the origin check refuses.
  headers.set('Referrer-Policy', 'same-origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * The guard (src/middleware.ts): finds the session, refuses what it must, reads a POST's form
 * once (pages read it from `locals.adminForm`) and marks every answer private.
 */
export async function guardAdmin(context: APIContext, next: MiddlewareNext): Promise<Response> {
  return privateHeaders(await guarded(context, next));
}

/** The page a session that still owes a step of signing in may see (besides starting again). */
const stepPage = (stage: SessionStage): string => (stage === 'code' ? CODE_PATH : TWO_STEP_PATH);

async function guarded(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const { inbox } = inboxDeps();
  const now = new Date();
  const token = context.cookies.get(sessionCookieName(context))?.value ?? '';
  const session = token ? await inbox.session(token, now) : undefined;
  const signedIn = session?.stage === 'signed-in' ? session : undefined;
  const pending = session && session.stage !== 'signed-in' ? session : undefined;
  const method = context.request.method;
  const path = context.url.pathname;
  const isLogin = path === LOGIN_PATH;
  const asked = context.url.searchParams.get('next') ?? '';
  context.locals.adminLocale = chooseAdminLocale(
    context.cookies.get(LANGUAGE_COOKIE)?.value,
    context.request.headers.get('accept-language'),
  );

  // The language switch (src/layouts/AdminLayout.astro): open to everyone, the sign-in pages too.
  if (path === LANGUAGE_PATH && (method === 'GET' || method === 'HEAD')) {
    const to = context.url.searchParams.get('to') ?? '';
    if (Object.hasOwn(locales, to)) context.cookies.set(LANGUAGE_COOKIE, to, languageCookie(secure(context)));
    return context.redirect(languageReturnPath(asked), 303);
  }

  if (method === 'GET' || method === 'HEAD') {
    if (signedIn) {
      if (isLogin || path === CODE_PATH) return context.redirect(safeReturnPath(asked), 303);
      context.locals.staff = signedIn;
      return next();
    }
    if (pending) {
      const own = stepPage(pending.stage);
      if (path !== own && !isLogin)
        return context.redirect(withNext(own, path === CODE_PATH ? asked : `${path}${context.url.search}`), 303);
      context.locals.pendingStaff = pending;
      return next();
    }
    // Signed out: sign in, then come back here (the lead a staff e-mail linked to).
    if (!isLogin) return context.redirect(withNext(LOGIN_PATH, path === CODE_PATH ? asked : `${path}${context.url.search}`), 303);
    return next();
  }
  // A refusal in the inbox's language (English as before for an English inbox).
  const say = (key: UiKey) => t(key, {}, context.locals.adminLocale);
  if (method !== 'POST') return plain(405, 'Method not allowed.');
  if (!sameOrigin(context)) return plain(403, say('admin.refused.origin'));
  if (!session && !isLogin) return plain(403, say('admin.refused.signedOut'));
  if (pending && !isLogin && path !== LOGOUT_PATH && path !== stepPage(pending.stage))
    return plain(403, say('admin.refused.pending'));
  const type = context.request.headers.get('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return plain(415, say('admin.refused.type'));
  // Read only up to the limit, announced or not (the sign-in form is open to anyone), and an
  // over-long body drained as the receiver does, so the answer reaches the client.
  let read: Awaited<ReturnType<typeof readBody>>;
  try {
    read = await readBody(context.request, MAX_FORM_BYTES);
  } catch {
    return plain(400, say('admin.refused.unreadable'));
  }
  if ('tooLarge' in read) {
    const refused = plain(413, say('admin.refused.tooLarge'));
    if (read.close) refused.headers.set('Connection', 'close');
    return refused;
  }
  let form: FormData;
  try {
    form = await new Response(read.body, { headers: { 'Content-Type': type } }).formData();
  } catch {
    return plain(400, say('admin.refused.unreadable'));
  }
  if (session && !tokenMatches(session, form)) return plain(403, say('admin.refused.outOfDate'));
  context.locals.staff = signedIn;
  context.locals.pendingStaff = pending;
  context.locals.adminForm = form;
  return next();
}

/** Whether a form carries the session's token (`csrf`): the guard's check, and each action's again (./actions.ts). */
export const tokenMatches = (session: { readonly csrf: string }, form: FormData | undefined): boolean =>
  session.csrf !== '' && form?.get('csrf') === session.csrf;

/** The text of a form field, trimmed; empty when missing. */
export function formText(form: FormData | undefined, name: string): string {
  const value = form?.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** A hash to check against when the account does not exist, so both answers take as long. */
let decoyHash: Promise<string> | undefined;

/** A sign-in step's outcome: on success, the page to go to next (the second step, its set-up, or where the staff member was going). */
export type SignInOutcome =
  { ok: true; stage: SessionStage } | { ok: false; status: 401 | 429; message: string; retryAfterSeconds?: number };

export const WRONG_CREDENTIALS = t('admin.signIn.wrong');
export const BUSY = t('admin.signIn.busy');

/**
 * Password checks running at once at most, and waiting at most. scrypt takes 64 MiB and a few
 * hundred milliseconds on one of libuv's four threads, which CV downloads and file writes share:
 * a burst of sign-ins must not take them all. Beyond these, a sign-in is refused (429), uncounted.
 */
export const HASHING = { running: 2, waiting: 8 } as const;

/** A small queue of password checks: `HASHING.running` at once, `HASHING.waiting` more queued, the rest refused. */
export class HashQueue {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(readonly limits: { readonly running: number; readonly waiting: number } = HASHING) {}

  /**
   * A place in the queue, or undefined when it is full. The place is given back by `run` (after
   * `work`) or by `leave` (when the check is not needed after all): one of them, once.
   */
  enter(): { run<T>(work: () => Promise<T>): Promise<T>; leave(): void } | undefined {
    if (this.#running + this.#waiting.length >= this.limits.running + this.limits.waiting) return undefined;
    const place =
      this.#running < this.limits.running
        ? ((this.#running += 1), Promise.resolve())
        : new Promise<void>((resolve) => this.#waiting.push(resolve));
    const release = () => {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    };
    const run = async <T>(work: () => Promise<T>): Promise<T> => {
      await place;
      try {
        return await work();
      } finally {
        release();
      }
    };
    return { run, leave: () => void place.then(release) };
  }

  /** Checks running and waiting now (for a metrics module). */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }
}

const hashing = new HashQueue();

/**
 * What an operator counts about sign-ins, since the process started: plain numbers a metrics
 * module can read (and `signInEvents` for each one as it happens). Never an address or a name.
 */
export const signInCounters = {
  succeeded: 0,
  refusedWrong: 0,
  refusedLocked: 0,
  refusedSlowed: 0,
  refusedBusy: 0,
  locksStarted: 0,
};
export type SignInEvent = 'succeeded' | 'wrong credentials' | 'wrong code' | 'locked' | 'slowed' | 'busy';
const signInListeners = new Set<(event: SignInEvent) => void>();
/** Calls `listener` with each sign-in's outcome; returns what stops it. */
export function onSignInEvent(listener: (event: SignInEvent) => void): () => void {
  signInListeners.add(listener);
  return () => signInListeners.delete(listener);
}
function signInEvent(event: SignInEvent): void {
  if (event === 'succeeded') signInCounters.succeeded += 1;
  else if (event === 'wrong credentials' || event === 'wrong code') signInCounters.refusedWrong += 1;
  else if (event === 'locked') signInCounters.refusedLocked += 1;
  else if (event === 'slowed') signInCounters.refusedSlowed += 1;
  else signInCounters.refusedBusy += 1;
  // Prometheus (/metrics): every refusal, whatever its reason.
  if (event !== 'succeeded') countSignInFailure();
  for (const listener of signInListeners) listener(event);
}
/** The number of password checks running and queued now. */
export const hashingLoad = () => hashing.load;

/** The device cookie: set on a successful sign-in; lets that browser past a lock someone else caused. */
export function deviceCookieName(context: APIContext): string {
  return secure(context) ? '__Host-globaq-device' : 'globaq-device';
}

/**
 * Checks the credentials against the gate and the account; on success starts a session and sets
 * its cookie (and a new device cookie). The attempt is counted before the password is checked,
 * in the gate's own transaction, so attempts at once cannot all find the gate open.
 */
export async function signIn(context: APIContext, emailText: string, password: string): Promise<SignInOutcome> {
  const { inbox, staff } = inboxDeps();
  const now = new Date();
  const email = emailText.trim().toLowerCase().slice(0, 320);
  const network = clientNetwork(clientAddress(context));
  const device = context.cookies.get(deviceCookieName(context))?.value;
  const keys = { account: email, address: network, device };
  const refuse = async (reason: Exclude<SignInEvent, 'succeeded'>) => {
    signInEvent(reason);
    await inbox.refusal({ account: email || '(none)', network, reason }, now);
  };
  // A place in the password checks' queue first: when it is full, nothing is counted or checked.
  const place = hashing.enter();
  if (!place) {
    await refuse('busy');
    return { ok: false, status: 429, message: t('admin.signIn.busy', {}, context.locals.adminLocale), retryAfterSeconds: 5 };
  }
  let gate: Awaited<ReturnType<InboxStore['attempt']>>;
  try {
    gate = await inbox.attempt(keys, now);
  } catch (error) {
    place.leave();
    throw error;
  }
  if (!gate.open) {
    place.leave();
    await refuse(gate.locked ? 'locked' : 'slowed');
    return closedGate(gate, now, context.locals.adminLocale);
  }
  const valid = await place.run(async () => {
    const stored = email && password ? await staff.passwordHash(email) : undefined;
    decoyHash ??= hashPassword('not-a-password-anyone-has');
    const matches = await verifyPassword(password, stored ?? (await decoyHash));
    return stored !== undefined && matches;
  });
  if (!valid) {
    if (gate.lockStarted) {
      signInCounters.locksStarted += 1;
      countSignInLock();
    }
    await refuse('wrong credentials');
    return { ok: false, status: 401, message: t('admin.signIn.wrong', {}, context.locals.adminLocale) };
  }
  // The password is right. With two-step sign-in on (or required and not set up yet), the session
  // made now reaches only that step; its failures count on from here (not cleared yet).
  const record = await staff.twoStep(email);
  const settings = twoStepConfig();
  // An account with two-step sign-in always owes its code, even if the key were taken away (no
  // silent fall-back to the password alone: its recovery codes, hashed, still work then).
  const stage: SessionStage = record?.sealedSecret ? 'code' : settings.required ? 'enrol' : 'signed-in';
  await endOldSession(context);
  if (stage !== 'signed-in') {
    const { token } = await inbox.createSession(email, now, stage);
    context.cookies.set(sessionCookieName(context), token, sessionCookie(context));
    await inbox.audit(email, 'password accepted', undefined, stage === 'code' ? 'code asked' : 'two-step set-up asked', now);
    return { ok: true, stage };
  }
  await inbox.clearFailures(keys);
  await startSession(context, email, now, `from ${network}`);
  return { ok: true, stage };
}

/**
 * The session cookie's attributes. SameSite=Lax, not Strict: a link to a lead followed from
 * webmail (another site) is a top-level GET, and Strict would arrive without the session and
 * land on sign-in. Lax sends it with such a navigation only, never with another site's POST,
 * image or frame; and every state change here is a POST that must carry this site's Origin and
 * the session's form token (the guard, unchanged), while every GET under /admin only reads (its
 * one write is the audit entry for a search, an export or a download: a download another site
 * starts goes to the staff member's own disk, unread by that site). A second, Strict cookie for
 * POSTs would add nothing the Origin check and the form token do not already give.
 */
function sessionCookie(context: APIContext) {
  return { httpOnly: true, sameSite: 'lax', secure: secure(context), path: '/' } as const;
}

/** A session this browser held before (a step started again, or the password step of a second step) ends. */
async function endOldSession(context: APIContext): Promise<void> {
  const old = context.cookies.get(sessionCookieName(context))?.value;
  if (old) await inboxDeps().inbox.endSession(old);
}

/** Signed in: a new session (a new token, never the one that held the password step) and a new device cookie. */
async function startSession(context: APIContext, email: string, now: Date, detail: string): Promise<void> {
  const { inbox } = inboxDeps();
  await endOldSession(context);
  const { token } = await inbox.createSession(email, now);
  context.cookies.set(sessionCookieName(context), token, sessionCookie(context));
  // The device cookie is only ever read by the sign-in form's own POST: Strict costs nothing.
  const device = {
    httpOnly: true,
    sameSite: 'strict',
    secure: secure(context),
    path: '/',
    maxAge: Math.floor(DEVICE_MAX_MS / 1000),
  } as const;
  context.cookies.set(deviceCookieName(context), await inbox.rememberDevice(email, now), device);
  signInEvent('succeeded');
  await inbox.audit(email, 'signed in', undefined, detail, now);
}

/** The answer while the gate is closed: how long is left, in seconds (or minutes for a lock), never counted as a try. */
function closedGate(gate: { locked: boolean; retryAt: Date }, now: Date, locale: Locale | undefined): SignInOutcome {
  const seconds = Math.max(1, Math.ceil((gate.retryAt.getTime() - now.getTime()) / 1000));
  const minutes = Math.ceil(seconds / 60);
  return {
    ok: false,
    status: 429,
    retryAfterSeconds: seconds,
    message: gate.locked
      ? t(minutes === 1 ? 'admin.signIn.locked.one' : 'admin.signIn.locked.other', { minutes }, locale)
      : t(seconds === 1 ? 'admin.signIn.wait.one' : 'admin.signIn.wait.other', { seconds }, locale),
  };
}

export const WRONG_CODE = t('admin.code.wrong');

/**
 * The second step: a code from the app (RFC 6238) or a recovery code, for a session that owes it.
 * Counted by the same gate as the password (account, network, device), before it is checked.
 * On success the pending session is replaced by a signed-in one.
 */
export async function secondStep(context: APIContext, pending: StaffSession, codeText: string): Promise<SignInOutcome> {
  const { inbox, staff } = inboxDeps();
  const now = new Date();
  const email = pending.email;
  const network = clientNetwork(clientAddress(context));
  const keys = { account: email, address: network, device: context.cookies.get(deviceCookieName(context))?.value };
  const gate = await inbox.attempt(keys, now);
  if (!gate.open) {
    signInEvent(gate.locked ? 'locked' : 'slowed');
    await inbox.refusal({ account: email, network, reason: gate.locked ? 'locked' : 'slowed' }, now);
    return closedGate(gate, now, context.locals.adminLocale);
  }
  const code = codeText.trim().slice(0, 64);
  const record = await staff.twoStep(email);
  const key = twoStepConfig().key;
  const secret = record?.sealedSecret && key ? openSecret(key, email, record.sealedSecret) : undefined;
  let how: string | undefined;
  if (secret && /^\d[\d\s]*$/.test(code)) {
    const step = acceptedStep(secret, email, code, now, record?.lastStep);
    // Taken in one conditional update: the same code sent twice at once passes once.
    if (step !== undefined && (await staff.takeStep(email, step))) how = 'with a code';
  } else if (record?.sealedSecret && isRecoveryCodeShape(code)) {
    const left = await staff.useRecoveryCode(email, recoveryHash(email, code), now);
    if (left !== undefined) {
      how = 'with a recovery code';
      await inbox.audit(email, 'used a recovery code', undefined, `${left} left`, now);
    }
  }
  if (!how) {
    if (gate.lockStarted) {
      signInCounters.locksStarted += 1;
      countSignInLock();
    }
    signInEvent('wrong code');
    await inbox.refusal({ account: email, network, reason: 'wrong code' }, now);
    await inbox.audit(email, 'second step failed', undefined, `from ${network}`, now);
    return { ok: false, status: 401, message: t('admin.code.wrong', {}, context.locals.adminLocale) };
  }
  await inbox.clearFailures(keys);
  await startSession(context, email, now, `from ${network}, ${how}`);
  return { ok: true, stage: 'signed-in' };
}

/** Two-step set-up confirmed while it was required at sign-in: the pending session becomes a signed-in one. */
export async function finishRequiredSetUp(context: APIContext, pending: StaffSession): Promise<void> {
  const network = clientNetwork(clientAddress(context));
  await inboxDeps().inbox.clearFailures({
    account: pending.email,
    address: network,
    device: context.cookies.get(deviceCookieName(context))?.value,
  });
  await startSession(context, pending.email, new Date(), `from ${network}, two-step sign-in set up`);
}

export async function signOut(context: APIContext, session: StaffSession): Promise<void> {
  const { inbox } = inboxDeps();
  const name = sessionCookieName(context);
  const token = context.cookies.get(name)?.value;
  if (token) await inbox.endSession(token);
  // The deletion carries the attributes that set the cookie: a browser ignores a `__Host-` line
  // without Secure (a deletion too), and keeps the cookie.
  context.cookies.delete(name, sessionCookie(context));
  await inbox.audit(session.email, 'signed out', undefined, '', new Date());
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
/** Riyadh keeps UTC+3 all year (no daylight saving). */
const RIYADH_OFFSET_MS = 3 * 60 * 60 * 1000;
/** Arabic: "25 نوفمبر 2026، 09:30" (the month's name, Western digits: the public site's formatLocale). */
const RIYADH_AR = new Intl.DateTimeFormat(locales.ar.formatLocale, {
  timeZone: 'Asia/Riyadh',
  calendar: 'gregory',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/**
 * A stored time as staff read it, in Riyadh time: "25 Nov 2026, 09:30". The one formatter of
 * every date in the inbox and the audit log (written out by hand, so no ICU version turns
 * "Sep" into "Sept"); with `code` 'ar', as the Arabic site writes it (the Arabic inbox, a reply's quote).
 */
export function riyadhTime(iso: string | undefined, code: LocaleCode = 'en'): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  if (code === 'ar') return RIYADH_AR.format(time);
  const d = new Date(time + RIYADH_OFFSET_MS);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

const text = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  return String(value).trim();
};

/** Who sent a lead and from where, for the list. */
export function leadSummary(lead: Pick<InboxLead, 'form' | 'fields'>): {
  name: string;
  organization: string;
  email: string;
  country: string;
} {
  const f = lead.fields;
  return lead.form === 'partner'
    ? { name: text(f['name']), organization: text(f['organization']), email: text(f['email']), country: text(f['country']) }
    : {
        name: `${text(f['firstName'])} ${text(f['lastName'])}`.trim(),
        organization: text(f['company']),
        email: text(f['email']),
        country: text(f['country']),
      };
}

/** Every field of the lead's form with its label, in the form's order; unanswered ones included (empty). */
export function labelledFields(
  lead: Pick<InboxLead, 'form' | 'fields'>,
  locale: Locale = defaultLocale,
): { name: string; label: string; text: string }[] {
  const known: { name: string; label: string }[] =
    lead.form === 'contact'
      ? CONTACT_FIELDS.map((name) => ({ name, label: t(contactLabelKey(name), {}, locale) }))
      : PARTNER_FIELD_ORDER.map((name) => ({ name, label: t(partnerLabelKey(name), {}, locale) }));
  // The contact form's send time as the visitor's browser gave it (docs/requirements.md §7.3).
  if (lead.form === 'contact')
    known.push(
      { name: 'submissionDate', label: t('admin.lead.clockUtc', {}, locale) },
      { name: 'submissionTimestamp', label: t('admin.lead.clockText', {}, locale) },
    );
  const names = new Set<string>(known.map((field) => field.name));
  // A field the form no longer has (an older lead) is still shown, under its stored name.
  const others = Object.keys(lead.fields)
    .filter((name) => !names.has(name))
    .map((name) => ({ name, label: name }));
  return [...known, ...others].map((field) => ({ ...field, text: text(lead.fields[field.name]) }));
}

/** An address or a web address split where a line may break: before @, after dots, slashes and hyphens. */
export const breakable = (text: string): string[] => text.split(/(?=@)|(?<=[./\-_?&=])/);

/** A visitor's answer that is shown as a link, and the link; `undefined` when it is not a safe one. */
export type AnswerLink = { readonly kind: 'email' | 'tel' | 'url'; readonly href: string };

/** Arabic-Indic and Persian digits as Western ones (a tel: link dials those only). */
const westernDigits = (value: string) => value.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (c) => String(c.charCodeAt(0) & 0xf));

/**
 * A `mailto:` for an address the form's schema checked; `tel:` with the digits and a leading +;
 * a website only over http or https (a bare host gets https://), without a user name or password
 * in it. Anything else stays text.
 */
export function answerLink(kind: string, value: string): AnswerLink | undefined {
  const text = value.trim();
  if (!text) return undefined;
  if (kind === 'email') {
    return /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:".]+(?:\.[^\s@<>()[\]\\,;:".]+)+$/.test(text)
      ? { kind, href: `mailto:${encodeURIComponent(text).replace('%40', '@')}` }
      : undefined;
  }
  if (kind === 'tel') {
    const digits = westernDigits(text).replace(/[^\d+]/g, '');
    const number = digits.startsWith('+') ? `+${digits.slice(1).replace(/\+/g, '')}` : digits.replace(/\+/g, '');
    return /\d{5,}/.test(number) ? { kind, href: `tel:${number}` } : undefined;
  }
  if (kind === 'url') {
    let url: URL;
    try {
      url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`);
    } catch {
      return undefined;
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || !url.hostname.includes('.'))
      return undefined;
    return { kind, href: url.href };
  }
  return undefined;
}

/** One answer as the lead page shows it. */
export interface LeadAnswer {
  readonly name: string;
  readonly label: string;
  readonly text: string;
  readonly link: AnswerLink | undefined;
  /** A long free text (a message, an analysis): shown as paragraphs, not one line. */
  readonly long: boolean;
}

/** The fields of the contact block, per form: who sent it and how to reach them. */
const CONTACT_BLOCK = {
  contact: ['firstName', 'lastName', 'email', 'company', 'country', 'city'],
  partner: ['name', 'jobTitle', 'organization', 'email', 'phoneNumber', 'companyWebsite', 'country', 'cityName'],
} as const;
/** What the visitor's browser sent besides the answers: behind "Details". */
const TECHNICAL = new Set(['submissionDate', 'submissionTimestamp', 'uploadedFiles']);

function fieldKind(form: InboxLead['form'], name: string): string | undefined {
  if (form === 'contact') return isContactField(name) ? CONTACT_FORM[name].kind : undefined;
  return isPartnerField(name) ? partnerField(name).kind : undefined;
}

/**
 * A lead's answers laid out for its page: the contact block (who, and how to reach them), the
 * other answered fields in the form's order (a partner application in its sections), the
 * unanswered ones as labels for one line, and the technical rows (the visitor's clock) apart.
 */
export function leadView(
  lead: Pick<InboxLead, 'form' | 'fields'>,
  locale: Locale = defaultLocale,
): {
  contact: LeadAnswer[];
  sections: { heading: string | undefined; answers: LeadAnswer[] }[];
  unanswered: string[];
  details: LeadAnswer[];
} {
  const all = labelledFields(lead, locale).map((field): LeadAnswer => {
    const kind = fieldKind(lead.form, field.name);
    return {
      ...field,
      link: kind ? answerLink(kind, field.text) : undefined,
      long: kind === 'longText' || (kind === undefined && field.text.length > 120),
    };
  });
  const contactNames: readonly string[] = CONTACT_BLOCK[lead.form];
  const details = all.filter((answer) => TECHNICAL.has(answer.name) && answer.text);
  const rest = all.filter((answer) => !TECHNICAL.has(answer.name) && !contactNames.includes(answer.name));
  let contact = contactNames.flatMap((name) => all.filter((answer) => answer.name === name && answer.text));
  // A contact message's first and last name read as one name.
  const first = contact.find((answer) => answer.name === 'firstName');
  const last = contact.find((answer) => answer.name === 'lastName');
  if (first && last) {
    contact = [
      { name: 'name', label: t('admin.lead.name', {}, locale), text: `${first.text} ${last.text}`, link: undefined, long: false },
      ...contact.filter((answer) => answer !== first && answer !== last),
    ];
  }
  const unanswered = all.filter((answer) => !answer.text && !TECHNICAL.has(answer.name)).map((answer) => answer.label);
  const answered = rest.filter((answer) => answer.text);
  const sections =
    lead.form === 'partner'
      ? PARTNER_SECTIONS.map((section): { heading: string | undefined; answers: LeadAnswer[] } => ({
          heading: t(`partner.section.${section}`, {}, locale),
          answers: answered.filter((answer) => isPartnerField(answer.name) && partnerField(answer.name).section === section),
        }))
          // A field the form no longer has (an older lead) last, under its stored name.
          .concat([{ heading: undefined, answers: answered.filter((answer) => !isPartnerField(answer.name)) }])
          .filter((section) => section.answers.length > 0)
      : [{ heading: undefined as string | undefined, answers: answered }].filter((section) => section.answers.length > 0);
  return { contact, sections, unanswered, details };
}

/** The longest quote a reply carries: a mail program may refuse a longer mailto: link. */
const QUOTE_MAX = 1500;

/**
 * "Reply by e-mail": a mailto with the visitor's address, a subject in the lead's language, and
 * the visitor's message quoted under a line saying when they wrote.
 */
export function replyHref(lead: Pick<InboxLead, 'form' | 'fields' | 'language' | 'receivedAt'>): string | undefined {
  const { email, name } = leadSummary(lead);
  const to = answerLink('email', email);
  if (!to) return undefined;
  const locale = locales[lead.language];
  const subject = t(lead.form === 'partner' ? 'reply.subject.partner' : 'reply.subject.contact', {}, locale);
  // A contact message is quoted; a partner application has no one message to quote.
  const message = lead.form === 'contact' ? text(lead.fields['message']).replace(/\r\n?/g, '\n') : '';
  const lines = [name ? t('reply.greeting', { name }, locale) : '', '', ''];
  if (message) {
    const quoted = message.length > QUOTE_MAX ? `${message.slice(0, QUOTE_MAX - 1)}…` : message;
    lines.push(
      t('reply.quoteIntro', { time: riyadhTime(lead.receivedAt, lead.language) }, locale),
      ...quoted.split('\n').map((line) => `> ${line}`),
    );
  }
  const body = lines.join('\r\n');
  return `${to.href}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
