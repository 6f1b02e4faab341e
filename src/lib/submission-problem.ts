/**
 * The answer of the page that explains a refused form post: the receiver leaves the refusal in `Astro.locals`. Only a
 * page may set its answer's status and headers, so both languages' pages call this (src/pages/SubmissionProblem.astro).
 */

/** A refused form post: why (with the form's language), the status and the headers to answer with. */
export type SubmissionProblem = NonNullable<App.Locals['submissionProblem']>;

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  413: 'Content Too Large',
  429: 'Too Many Requests',
  503: 'Service Unavailable',
};

/** Gives the page's answer the refusal's status and headers (Retry-After, CORS), never to be cached. */
export function answerAsRefused(
  found: SubmissionProblem,
  response: { status?: number; statusText?: string; readonly headers: Headers },
): void {
  response.status = found.status;
  response.statusText = STATUS_TEXT[found.status] ?? '';
  for (const [name, value] of Object.entries(found.headers)) response.headers.set(name, value);
  response.headers.set('Cache-Control', 'no-store');
}
