/**
 * Astro glue for the receiver: its dependencies from the application object (`locals.app`,
 * ../ops/app.ts), and the turn of a refused form post into the "what to fix" page.
 */
import type { APIContext } from 'astro';
import { locales } from '../../i18n';
import { localizePath } from '../../lib/paths';
import { receive, type FormProblem, type ReceiverDeps } from './receiver.ts';
import { issueChallenge } from './proof.ts';
import type { FormName } from '../store/store.ts';
import type { App } from '../ops/app.ts';
import { logLead } from '../ops/log.ts';

/** The on-demand page that explains a refused form post (src/pages/SubmissionProblem.astro). */
const PROBLEM_ROUTE = '/SubmissionProblem';

function receiverDeps(app: App): ReceiverDeps {
  const { config, limiter, budget, docReadings, stores, log, metrics } = app;
  return {
    config,
    limiter,
    budget,
    docReadings,
    store: () => stores.submissions,
    logError: (message, error) => log.error({ event: 'store.error', err: error }, message),
    proofKeys: () => app.proofKeys(),
    filesRoom: (bytes) => app.filesRoom(bytes),
    onFilesRefused: (form, problems) => log.info({ event: 'lead.files.refused', form, problems }, 'files refused'),
    onStored: ({ id, form, language, held }) => {
      if (held) {
        metrics.leadsRefused.inc({ form, reason: `held:${held}` });
        logLead(log, 'held', { leadId: id, form, language, reason: held });
        return;
      }
      metrics.leadsStored.inc({ form, language });
      logLead(log, 'stored', { leadId: id, form, language });
    },
  };
}

/** GET /api/challenge: a new proof-of-work challenge for the widget (never cached; rate-limited). */
export async function handleChallenge(context: APIContext): Promise<Response> {
  const headers = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' };
  if (context.request.method !== 'GET') return new Response(null, { status: 405, headers: { ...headers, Allow: 'GET' } });
  const { app } = context.locals;
  const rate = app.challenges.take(clientAddress(context));
  if (!rate.ok)
    return Response.json(
      { error: 'rateLimited', retryAfter: rate.retryAfterSeconds },
      { status: 429, headers: { ...headers, 'Retry-After': String(rate.retryAfterSeconds) } },
    );
  try {
    const challenge = await issueChallenge(await app.proofKeys(), app.config.proof, new Date());
    return Response.json(challenge, { headers });
  } catch (error) {
    app.log.error({ event: 'store.error', err: error }, 'Could not issue a challenge');
    return Response.json({ error: 'storeUnavailable' }, { status: 503, headers: { ...headers, 'Retry-After': '30' } });
  }
}

/** The address the rate limit counts: the one the site's server resolved; Astro's own under astro dev. */
export function clientAddress(context: APIContext): string {
  const resolved = context.locals.clientAddress;
  if (resolved !== undefined) return resolved;
  try {
    return context.clientAddress;
  } catch {
    return 'unknown';
  }
}

export async function handleSubmission(form: FormName, context: APIContext): Promise<Response> {
  const { app } = context.locals;
  const outcome = await receive(context.request, form, clientAddress(context), receiverDeps(app));
  if ('response' in outcome) {
    if (outcome.response.status >= 400) await countRefusal(app, form, outcome.response);
    return outcome.response;
  }
  const reason = PROBLEM_REASONS[outcome.problem.kind];
  app.metrics.leadsRefused.inc({ form, reason });
  app.refusals.refused('lead.refused', { form, language: outcome.problem.language, reason });
  context.locals.submissionProblem = { ...outcome, requestId: app.requestIds.getStore() };
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
  tooManyFields: 'tooManyFields',
  repeatedField: 'repeatedField',
};

/** A refusal answered as JSON, counted by its error code (the body's `error`, a fixed word). */
async function countRefusal(app: App, form: FormName, response: Response): Promise<void> {
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { error?: unknown } | null;
  // Without a JSON body's code, the status names it.
  const reason = typeof body?.error === 'string' && /^[A-Za-z]{1,40}$/.test(body.error) ? body.error : `status${response.status}`;
  app.metrics.leadsRefused.inc({ form, reason });
  app.refusals.refused('lead.refused', { form, reason });
}
