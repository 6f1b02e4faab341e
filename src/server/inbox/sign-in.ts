/**
 * Signing in to the staff inbox and out of it. Failed tries are slowed, then locked, per account and
 * per network, each counted before its password or code is checked; a browser that signed in before
 * (its device cookie) is judged by its own failures only. When the password checks' queue is full,
 * any other sign-in is refused as "busy", counted against its network, so one network flooding the
 * queue is slowed and locked like one guessing passwords. The answer is the same whether or not the
 * account exists, and takes as long.
 */
import type { APIContext } from 'astro';
import { t, type Locale } from '../../i18n';
import { clientAddress } from '../receiver/endpoint.ts';
import { DEVICE_MAX_MS, type SessionStage, type StaffSession } from './inbox-store.ts';
import { clientNetwork } from '../receiver/rate-limit.ts';
import { hashPassword, verifyPassword } from './staff.ts';
import { acceptedStep, isRecoveryCodeShape, isSetUpCodeAgain, openSecret, recoveryHash, takenCode } from './two-step.ts';

export function secure(context: APIContext): boolean {
  return context.url.protocol === 'https:' || process.env['BEHIND_HTTPS'] === 'true';
}

/** `__Host-` requires Secure, which a browser refuses over plain http (a local run). */
const cookieName = (context: APIContext, name: string): string => `${secure(context) ? '__Host-' : ''}globaq-${name}`;
export const sessionCookieName = (context: APIContext): string => cookieName(context, 'staff');
/** The device cookie lets the browser that signed in past a lock someone else caused. */
const deviceCookieName = (context: APIContext): string => cookieName(context, 'device');

/** A hash to check against when the account does not exist, so both answers take as long. */
let decoyHash: Promise<string> | undefined;

type SignInOutcome =
  { ok: true; stage: SessionStage } | { ok: false; status: 401 | 429; message: string; retryAfterSeconds?: number };

type Refusal = 'wrong credentials' | 'wrong code' | 'locked' | 'slowed' | 'busy';

/** Counts a refused sign-in, and a lock it started, in /metrics; nothing is logged (an attack would flood the log). */
function countRefusal(context: APIContext, lockStarted = false): void {
  const { metrics } = context.locals.app;
  metrics.signInFailures.inc();
  if (lockStarted) metrics.signInLocks.inc();
}

/** The password step, counted before the password is checked, in the gate's transaction: no burst finds it open. */
export async function signIn(context: APIContext, emailText: string, password: string): Promise<SignInOutcome> {
  const { inbox, staff } = context.locals.app.stores;
  const now = new Date();
  const email = emailText.trim().toLowerCase().slice(0, 320);
  const network = clientNetwork(clientAddress(context));
  const device = context.cookies.get(deviceCookieName(context))?.value;
  const keys = { account: email, address: network, device };
  const refuse = async (reason: Refusal, lockStarted = false) => {
    countRefusal(context, lockStarted);
    await inbox.refusal({ account: email || '(none)', network, reason }, now);
  };
  // A browser holding a live device cookie of this account always gets a place in the queue.
  const trusted = device ? await inbox.trustedDevice(keys, now) : false;
  const place = context.locals.app.passwordChecks.enter(trusted);
  if (!place) {
    const busy = await inbox.busy(network, now);
    if (!busy.open) {
      await refuse(busy.locked ? 'locked' : 'slowed');
      return closedGate(busy, now, context.locals.adminLocale);
    }
    await refuse('busy', busy.lockStarted);
    return { ok: false, status: 429, message: t('admin.signIn.busy', {}, context.locals.adminLocale), retryAfterSeconds: 5 };
  }
  const gate = await inbox.attempt(keys, now).catch((error: unknown) => {
    place.leave();
    throw error;
  });
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
    await refuse('wrong credentials', gate.lockStarted);
    return { ok: false, status: 401, message: t('admin.signIn.wrong', {}, context.locals.adminLocale) };
  }
  // The password is right. With two-step sign-in on (or required and not set up yet), the session
  // made now reaches only that step; its failures count on from here (not cleared yet).
  const record = await staff.twoStep(email);
  const settings = context.locals.app.twoStep;
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
 * SameSite=Lax: a link to a lead followed from webmail would arrive without a Strict session. Lax never
 * goes with another site's POST, and every state change is a POST with this site's Origin and token.
 */
function sessionCookie(context: APIContext) {
  return { httpOnly: true, sameSite: 'lax', secure: secure(context), path: '/' } as const;
}

/** A session this browser held before ends. */
async function endOldSession(context: APIContext): Promise<void> {
  const old = context.cookies.get(sessionCookieName(context))?.value;
  if (old) await context.locals.app.stores.inbox.endSession(old);
}

/** Signed in: a new session (a new token, never the one that held the password step) and a new device cookie. */
async function startSession(context: APIContext, email: string, now: Date, detail: string): Promise<void> {
  const { inbox } = context.locals.app.stores;
  await endOldSession(context);
  const { token } = await inbox.createSession(email, now);
  context.cookies.set(sessionCookieName(context), token, sessionCookie(context));
  // The device cookie is only ever read by the sign-in form's own POST: Strict costs nothing.
  const device = { ...sessionCookie(context), sameSite: 'strict', maxAge: Math.floor(DEVICE_MAX_MS / 1000) } as const;
  context.cookies.set(deviceCookieName(context), await inbox.rememberDevice(email, now), device);
  await inbox.audit(email, 'signed in', undefined, detail, now);
}

/** The answer while the gate is closed: how long is left, never counted as a try. */
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

/** The second step: a code or a recovery code, counted by the password's gate before it is checked. */
export async function secondStep(context: APIContext, pending: StaffSession, codeText: string): Promise<SignInOutcome> {
  const { inbox, staff } = context.locals.app.stores;
  const now = new Date();
  const email = pending.email;
  const network = clientNetwork(clientAddress(context));
  const keys = { account: email, address: network, device: context.cookies.get(deviceCookieName(context))?.value };
  const code = codeText.trim().slice(0, 64);
  const record = await staff.twoStep(email);
  const key = context.locals.app.twoStep.key;
  const secret = record?.sealedSecret && key ? openSecret(key, email, record.sealedSecret) : undefined;
  // The set-up's own code typed again within its 30 seconds: not a failure, nor a try; the next code passes.
  if (secret && record && isSetUpCodeAgain(secret, email, code, now, record))
    return { ok: false, status: 401, message: t('admin.code.setUpAgain', {}, context.locals.adminLocale) };
  // A code used already (signing in on a second device within its 30 seconds): said, audited, not a failure.
  if (secret && takenCode(secret, email, code, now, record?.lastStep)) {
    await inbox.audit(email, 'second step refused', undefined, 'the code was used already', now);
    return { ok: false, status: 401, message: t('admin.code.usedAgain', {}, context.locals.adminLocale) };
  }
  const gate = await inbox.attempt(keys, now);
  if (!gate.open) {
    countRefusal(context);
    await inbox.refusal({ account: email, network, reason: gate.locked ? 'locked' : 'slowed' }, now);
    return closedGate(gate, now, context.locals.adminLocale);
  }
  let how: string | undefined;
  if (secret && /^[\d\u0660-\u0669\u06F0-\u06F9][\d\s\u0660-\u0669\u06F0-\u06F9]*$/u.test(code)) {
    const step = acceptedStep(secret, email, code, now, record?.lastStep);
    // Taken in one conditional update: the same code sent twice at once passes once.
    if (step !== undefined && (await staff.takeStep(email, step))) how = 'with a code';
  } else if (record?.sealedSecret && isRecoveryCodeShape(code)) {
    const left = await staff.useRecoveryCode(email, await recoveryHash(email, code), now);
    if (left !== undefined) {
      how = 'with a recovery code';
      await inbox.audit(email, 'used a recovery code', undefined, `${left} left`, now);
    }
  }
  if (!how) {
    countRefusal(context, gate.lockStarted);
    await inbox.refusal({ account: email, network, reason: 'wrong code' }, now);
    await inbox.audit(email, 'second step failed', undefined, `from ${network}`, now);
    return { ok: false, status: 401, message: t('admin.code.wrong', {}, context.locals.adminLocale) };
  }
  await inbox.clearFailures(keys);
  await startSession(context, email, now, `from ${network}, ${how}`);
  return { ok: true, stage: 'signed-in' };
}

/** Two-step set-up confirmed while it was required at sign-in: the pending session is signed in. */
export async function finishRequiredSetUp(context: APIContext, pending: StaffSession): Promise<void> {
  const network = clientNetwork(clientAddress(context));
  await context.locals.app.stores.inbox.clearFailures({
    account: pending.email,
    address: network,
    device: context.cookies.get(deviceCookieName(context))?.value,
  });
  await startSession(context, pending.email, new Date(), `from ${network}, two-step sign-in set up`);
}

export async function signOut(context: APIContext, session: StaffSession): Promise<void> {
  const { inbox } = context.locals.app.stores;
  const name = sessionCookieName(context);
  const token = context.cookies.get(name)?.value;
  if (token) await inbox.endSession(token);
  // The deletion carries the attributes that set the cookie: a browser ignores a `__Host-` line
  // without Secure (a deletion too), and keeps the cookie.
  context.cookies.delete(name, sessionCookie(context));
  await inbox.audit(session.email, 'signed out', undefined, '', new Date());
}
