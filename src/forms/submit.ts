/**
 * Sending a form's JSON body to its endpoint (spec §7), as the island does.
 *
 * - An endpoint on another origin (a spreadsheet web-script, as the company used before) is
 *   called exactly as the specification says: `no-cors`, JSON content type, the opaque answer
 *   not read; success unless the request throws.
 * - The site's own receiver is called normally and its answer is read: anything but a 2xx, a
 *   network error or no answer within the time limit is a failure, so no lead is lost silently.
 */

export const SUBMIT_TIMEOUT_MS = 15_000;

export type SubmitResult = { ok: true } | { ok: false; reason: 'network' | 'timeout' | 'status'; status?: number };

export function isSameOrigin(endpoint: string, pageUrl: string): boolean {
  return new URL(endpoint, pageUrl).origin === new URL(pageUrl).origin;
}

export async function submitToEndpoint(
  endpoint: string,
  body: unknown,
  options: { pageUrl: string; timeoutMs?: number; fetchImpl?: typeof fetch } = { pageUrl: '' },
): Promise<SubmitResult> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const sameOrigin = isSameOrigin(endpoint, options.pageUrl);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? SUBMIT_TIMEOUT_MS);
  try {
    const response = await fetchImpl(new URL(endpoint, options.pageUrl).href, {
      method: 'POST',
      mode: sameOrigin ? 'same-origin' : 'no-cors',
      headers: { 'Content-Type': 'application/json', ...(sameOrigin ? { Accept: 'application/json' } : {}) },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!sameOrigin) return { ok: true };
    return response.ok ? { ok: true } : { ok: false, reason: 'status', status: response.status };
  } catch {
    return { ok: false, reason: controller.signal.aborted ? 'timeout' : 'network' };
  } finally {
    clearTimeout(timer);
  }
}
