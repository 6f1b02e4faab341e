/**
 * Astro glue for the receiver: the process's one configuration, store and rate limiter, and
 * the turn of a refused form post into the "what to fix" page.
 */
import type { APIContext } from 'astro';
import { locales } from '../../i18n';
import { localizePath } from '../../lib/paths';
import { clientAddressStore } from '../http/client-address.ts';
import { receiverConfig, type ReceiverConfig } from '../config.ts';
import { RateLimiter } from './rate-limit.ts';
import { DoubtBudget } from './doubt-budget.ts';
import { receive, type FormProblem, type ReceiverDeps } from './receiver.ts';
import { PROOF_SECRET_NAME, issueChallenge, proofKeys, type ProofKeys } from './proof.ts';
import { openStores, type Stores } from '../store/database.ts';
import type { FormName } from '../store/store.ts';
import { closeAtShutdown } from '../ops/lifecycle.ts';
import { logLead, logger } from '../ops/log.ts';
import { metrics } from '../ops/metrics.ts';
import { currentRequestId } from '../ops/request-id.ts';

/**
 * The on-demand page that explains a refused form post (src/pages/SubmissionProblem.astro), in
 * each language at its localized path (/ar/SubmissionProblem).
 */
export const PROBLEM_ROUTE = '/SubmissionProblem';

let deps: ReceiverDeps | undefined;

function receiverDeps(): ReceiverDeps {
  if (deps) return deps;
  const config: ReceiverConfig = receiverConfig();
  const limiter = new RateLimiter({ limit: config.rateLimit, windowMs: config.rateWindowSeconds * 1000 });
  deps = {
    config,
    limiter,
    budget: new DoubtBudget({ held: config.heldPerDay, fileBytes: config.unprovenFileBytesPerDay }, limiter),
    // Opened on first use; when opening fails, the next submission tries again.
    store: () => processStores().submissions,
    logError: (message, error) => logger().error({ event: 'store.error', err: error }, message),
    proofKeys: () => proofKeysOnce(config),
    onStored: ({ id, form, language, bot, held }) => {
      if (bot) {
        metrics().leadsRefused.inc({ form, reason: 'honeypot' });
        logLead('refused', { leadId: id, form, language, reason: 'honeypot', bot: true });
        return;
      }
      if (held) {
        metrics().leadsRefused.inc({ form, reason: `held:${held}` });
        logLead('held', { leadId: id, form, language, reason: held });
        return;
      }
      metrics().leadsStored.inc({ form, language });
      logLead('stored', { leadId: id, form, language });
    },
  };
  return deps;
}

let stores: Stores | undefined;
let keys: Promise<ProofKeys> | undefined;

/**
 * The proof of work's keys: from ALTCHA_HMAC_KEY, or the key generated once and kept in the
 * database (every instance and every restart signs and checks alike). A failure to read it is
 * tried again on the next request.
 */
export function proofKeysOnce(config: ReceiverConfig): Promise<ProofKeys> {
  if (config.proof.hmacKey) return (keys ??= Promise.resolve(proofKeys(config.proof.hmacKey)));
  keys ??= (async () => {
    const opened = processStores();
    await opened.ready;
    return proofKeys(await opened.held.secret(PROOF_SECRET_NAME, new Date()));
  })();
  keys.catch(() => {
    keys = undefined;
  });
  return keys;
}

/** GET /api/challenge: a new proof-of-work challenge for the widget (never cached; rate-limited). */
export async function handleChallenge(context: APIContext): Promise<Response> {
  const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
  if (context.request.method !== 'GET') return new Response(null, { status: 405, headers: { ...headers, Allow: 'GET' } });
  const deps = receiverDeps();
  const rate = challengeLimiter(deps.config).take(clientAddress(context));
  if (!rate.ok)
    return Response.json(
      { error: 'rateLimited', retryAfter: rate.retryAfterSeconds },
      { status: 429, headers: { ...headers, 'Retry-After': String(rate.retryAfterSeconds) } },
    );
  try {
    const challenge = await issueChallenge(await deps.proofKeys(), deps.config.proof, new Date());
    return Response.json(challenge, { headers });
  } catch (error) {
    logger().error({ event: 'store.error', err: error }, 'Could not issue a challenge');
    return Response.json({ error: 'storeUnavailable' }, { status: 503, headers: { ...headers, 'Retry-After': '30' } });
  }
}

let challenges: RateLimiter | undefined;
/** Challenges per client: ten times the submissions' rate (a visitor may open both forms, reload, come back). */
function challengeLimiter(config: ReceiverConfig): RateLimiter {
  return (challenges ??= new RateLimiter({ limit: config.rateLimit * 10, windowMs: config.rateWindowSeconds * 1000 }));
}

/** The database of this process's routes (the receiver and the staff inbox), opened on first use. */
export function processStores(): Stores {
  if (stores) return stores;
  const opened = (stores = openStores(receiverConfig()));
  // Closed by the server once the last request is answered (SIGTERM), after any commit under way.
  closeAtShutdown(() => opened.close());
  return stores;
}

/**
 * The address the rate limit counts: the one the site's server resolved (the peer, or through
 * a trusted proxy the client it names); Astro's own when run without that server (astro dev).
 */
export function clientAddress(context: APIContext): string {
  const resolved = clientAddressStore().getStore();
  if (resolved !== undefined) return resolved;
  try {
    return context.clientAddress;
  } catch {
    return 'unknown';
  }
}

export async function handleSubmission(form: FormName, context: APIContext): Promise<Response> {
  const outcome = await receive(context.request, form, clientAddress(context), receiverDeps());
  if ('response' in outcome) {
    if (outcome.response.status >= 400) await countRefusal(form, outcome.response);
    return outcome.response;
  }
  const reason = PROBLEM_REASONS[outcome.problem.kind];
  metrics().leadsRefused.inc({ form, reason });
  logLead('refused', { form, language: outcome.problem.language, reason });
  context.locals.submissionProblem = { ...outcome, requestId: currentRequestId() };
  // The page of the form's language: Astro takes the page's locale (Astro.currentLocale, read by the
  // layout, header and footer) from the route rewritten to, as long as nothing read it before.
  const route = localizePath(PROBLEM_ROUTE, locales[outcome.problem.language]);
  return context.rewrite(new Request(new URL(route, context.url), { headers: { Accept: 'text/html' } }));
}

/** A form post's refusal by the same word its JSON answer would carry, so both count together. */
const PROBLEM_REASONS: Readonly<Record<FormProblem['kind'], string>> = {
  invalid: 'invalidFields',
  unreadable: 'unreadableBody',
  tooLarge: 'tooLarge',
  unavailable: 'storeUnavailable',
  overBudget: 'overBudget',
  files: 'invalidFiles',
};

/** A refusal answered as JSON, counted by its error code (the body's `error`, a fixed word). */
async function countRefusal(form: FormName, response: Response): Promise<void> {
  let reason = `status${response.status}`;
  try {
    const body = (await response.clone().json()) as { error?: unknown };
    if (typeof body.error === 'string' && /^[A-Za-z]{1,40}$/.test(body.error)) reason = body.error;
  } catch {
    // No JSON body: the status names it.
  }
  metrics().leadsRefused.inc({ form, reason });
  logLead('refused', { form, reason });
}
