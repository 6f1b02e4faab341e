/**
 * Sending a form's JSON body to its endpoint (docs/requirements.md §10.3). An endpoint on another origin (a spreadsheet
 * web-script) is called exactly as the specification says: `no-cors`, the opaque answer not read. The site's own receiver
 * is read: anything but a 2xx in time is a failure, so no lead is lost silently; a 2xx saying `review` is a held lead.
 */

const SUBMIT_TIMEOUT_MS = 15_000;

type SubmitResult = { ok: true; review?: true } | { ok: false; reason: 'network' | 'timeout' | 'status'; status?: number };

export function isSameOrigin(endpoint: string, pageUrl: string): boolean {
  return new URL(endpoint, pageUrl).origin === new URL(pageUrl).origin;
}

/**
 * Whether the endpoint is the site's own receiver, known from the address alone (also on the
 * server, where there is no page address): a path on this site ("/api/partner"). Only it takes
 * the partner's CV files; an external endpoint gets their names (docs/requirements.md §9.3).
 */
export function isOwnReceiver(endpoint: string): boolean {
  return endpoint.startsWith('/') && !endpoint.startsWith('//');
}

/** A body and its files as multipart/form-data, under the JSON body's field names; the files go under `filesField`. */
export function multipartBody(body: Readonly<Record<string, unknown>>, filesField: string, files: readonly File[]): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (name === filesField) continue;
    if (Array.isArray(value)) for (const item of value) data.append(name, String(item));
    else data.append(name, value === null || value === undefined ? '' : String(value));
  }
  for (const file of files) data.append(filesField, file, file.name);
  return data;
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
    // FormData (files) only goes to the site's own receiver; the browser writes its multipart header.
    const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
    const response = await fetchImpl(new URL(endpoint, options.pageUrl).href, {
      method: 'POST',
      mode: sameOrigin ? 'same-origin' : 'no-cors',
      headers: {
        ...(multipart ? {} : { 'Content-Type': 'application/json' }),
        ...(sameOrigin ? { Accept: 'application/json' } : {}),
      },
      body: multipart ? body : JSON.stringify(body),
      signal: controller.signal,
    });
    if (!sameOrigin) return { ok: true };
    if (!response.ok) return { ok: false, reason: 'status', status: response.status };
    const answer: unknown = await response.json().catch(() => undefined);
    return (answer as { review?: unknown } | undefined)?.review === true ? { ok: true, review: true } : { ok: true };
  } catch {
    return { ok: false, reason: controller.signal.aborted ? 'timeout' : 'network' };
  } finally {
    clearTimeout(timer);
  }
}

/** The query by which a form tells the site's own receiver the language it was sent in. */
export const LANGUAGE_PARAM = 'lang';

/**
 * The endpoint for a page in `language`: the site's own receiver is told the language (`/api/contact?lang=ar`) for the
 * lead and the visitor's next page; English adds nothing, and an external endpoint is called as configured.
 */
export function endpointForLanguage(endpoint: string, language: string, defaultLanguage = 'en'): string {
  if (!isOwnReceiver(endpoint) || language === defaultLanguage) return endpoint;
  const url = new URL(endpoint, 'https://site.invalid');
  url.searchParams.set(LANGUAGE_PARAM, language);
  return `${url.pathname}${url.search}${url.hash}`;
}
