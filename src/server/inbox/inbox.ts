/**
 * The guard every /admin request passes (src/middleware.ts). No page, data or file without a live
 * session; every state change is a POST with the site's own Origin and the session's form token; a
 * session that still owes a step of signing in reaches only that step's page; every answer is private.
 */
import type { HeldStore } from '../store/held-queries.ts';
import type { TemplateStore } from '../store/template-queries.ts';
import type { APIContext, MiddlewareNext } from 'astro';
import { locales, t, type UiKey } from '../../i18n';
import type { SessionStage, InboxStore } from './inbox-store.ts';
import type { OutboxStore } from '../mail/outbox.ts';
import { readBody } from '../receiver/body.ts';
import type { StaffStore } from './staff.ts';
import { safeReturnPath } from './return-path.ts';
import { LANGUAGE_COOKIE, LANGUAGE_PATH, chooseAdminLocale, languageCookie, languageReturnPath } from './admin-locale.ts';
import { secure, sessionCookieName } from './sign-in.ts';
import type { SubmissionStore } from '../store/store.ts';

const ADMIN_ROOT = '/admin';
export const LOGIN_PATH = '/admin/login';
export const CODE_PATH = '/admin/login/code';
export const TWO_STEP_PATH = '/admin/two-step';
const LOGOUT_PATH = '/admin/logout';

/** The address of a step of signing in that returns to `next` afterwards (no `next` for the list). */
export function withNext(path: string, next: string): string {
  const target = safeReturnPath(next);
  return target === ADMIN_ROOT ? path : `${path}?next=${encodeURIComponent(target)}`;
}

/** Staff forms are small: a note is the largest. */
const MAX_FORM_BYTES = 64 * 1024;

export interface InboxDeps {
  readonly inbox: InboxStore;
  readonly staff: StaffStore;
  readonly outbox: OutboxStore;
  readonly submissions: SubmissionStore;
  readonly held: HeldStore;
  readonly templates: TemplateStore;
}

export const isAdminPath = (pathname: string): boolean => pathname === ADMIN_ROOT || pathname.startsWith(`${ADMIN_ROOT}/`);

function sameOrigin(context: APIContext): boolean {
  const origin = context.request.headers.get('origin');
  if (origin) return origin === context.url.origin;
  // Browsers send Origin with every POST; without it, only a same-origin fetch metadata passes.
  return context.request.headers.get('sec-fetch-site') === 'same-origin';
}

function plain(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

function privateHeaders(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set('Cache-Control', 'no-store');
  headers.set('X-Robots-Tag', 'noindex, nofollow');
  // Inbox addresses (lead ids, searches) never leave the site in a Referer. Not `no-referrer`:
  // with it, browsers send `Origin: null` on the inbox's own forms, which the origin check refuses.
  headers.set('Referrer-Policy', 'same-origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** Finds the session, refuses what it must, reads a POST's form once (`locals.adminForm`). */
export async function guardAdmin(context: APIContext, next: MiddlewareNext): Promise<Response> {
  return privateHeaders(await guarded(context, next));
}

const stepPage = (stage: SessionStage): string => (stage === 'code' ? CODE_PATH : TWO_STEP_PATH);

async function guarded(context: APIContext, next: MiddlewareNext): Promise<Response> {
  const { app } = context.locals;
  const { inbox } = app.stores;
  const now = new Date();
  const token = context.cookies.get(sessionCookieName(context))?.value ?? '';
  let session = token ? await inbox.session(token, now) : undefined;
  // Once two-step sign-in is required, a session signed in with the password alone owes its set-up.
  if (session?.stage === 'signed-in' && app.twoStep.required && !(await app.stores.staff.twoStep(session.email))?.sealedSecret)
    session = { ...session, stage: 'enrol' };
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

  const isLanguage = path === LANGUAGE_PATH;
  // The language switch's address opened (an old link, or another site's): back, nothing changed.
  if (isLanguage && (method === 'GET' || method === 'HEAD')) return context.redirect(languageReturnPath(asked), 303);

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
  const say = (key: UiKey) => t(key, {}, context.locals.adminLocale);
  if (method !== 'POST') return plain(405, 'Method not allowed.');
  if (!sameOrigin(context)) return plain(403, say('admin.refused.origin'));
  // The language switch and the sign-in pages are open to everyone (their origin checked).
  if (!session && !isLogin && !isLanguage) return plain(403, say('admin.refused.signedOut'));
  if (pending && !isLogin && !isLanguage && path !== LOGOUT_PATH && path !== stepPage(pending.stage))
    return plain(403, say('admin.refused.pending'));
  const type = context.request.headers.get('content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i.test(type)) return plain(415, say('admin.refused.type'));
  // Read only up to the limit, announced or not (the sign-in form is open to anyone), and an
  // over-long body drained as the receiver does, so the answer reaches the client.
  const read = await readBody(context.request, MAX_FORM_BYTES).catch(() => undefined);
  if (!read) return plain(400, say('admin.refused.unreadable'));
  if ('tooLarge' in read) {
    const refused = plain(413, say('admin.refused.tooLarge'));
    if (read.close) refused.headers.set('Connection', 'close');
    return refused;
  }
  const form = await new Response(read.body, { headers: { 'Content-Type': type } }).formData().catch(() => undefined);
  if (!form) return plain(400, say('admin.refused.unreadable'));
  if (session && !tokenMatches(session, form)) return plain(403, say('admin.refused.outOfDate'));
  if (isLanguage) {
    const to = formText(form, 'to');
    if (Object.hasOwn(locales, to)) context.cookies.set(LANGUAGE_COOKIE, to, languageCookie(secure(context)));
    return context.redirect(languageReturnPath(formText(form, 'next')), 303);
  }
  context.locals.staff = signedIn;
  context.locals.pendingStaff = pending;
  context.locals.adminForm = form;
  return next();
}

/** Whether a form carries the session's token (`csrf`): the guard's check, and each action's again. */
export const tokenMatches = (session: { readonly csrf: string }, form: FormData | undefined): boolean =>
  session.csrf !== '' && form?.get('csrf') === session.csrf;

export function formText(form: FormData | undefined, name: string): string {
  const value = form?.get(name);
  return typeof value === 'string' ? value.trim() : '';
}

export const formTexts = (form: FormData | undefined, name: string): string[] =>
  (form?.getAll(name) ?? []).flatMap((value) => (typeof value === 'string' ? [value.trim()] : []));
