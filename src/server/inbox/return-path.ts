/**
 * Where sign-in returns to (`next`): only a path of the inbox on this site; anything that could be
 * read as another host by a browser or a proxy (`//evil.example`, `/\evil.example`, their
 * percent-encoded forms, tabs or line breaks inside, which browsers drop) returns to the list.
 */
export const INBOX_HOME = '/admin';
/** Pages sign-in never returns to: itself and its own steps, and sign-out. */
const NOT_A_RETURN = /^\/admin\/(login|logout)(\/|$)/;
const MAX_LENGTH = 2048;
/** Any control character, any space (tab, line break, no-break space...), a backslash. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Z}\s\\]/u;

/** Decodes percent-escapes until nothing changes (a few rounds at most); undefined when malformed or still encoded after them. */
function fullyDecoded(text: string): string | undefined {
  let current = text;
  for (let round = 0; round < 4; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return undefined;
    }
    if (decoded === current) return current;
    current = decoded;
  }
  return undefined;
}

export function safeReturnPath(raw: unknown): string {
  if (typeof raw !== 'string' || raw === '' || raw.length > MAX_LENGTH) return INBOX_HOME;
  // The path is checked as written and as decoded (a proxy or a browser may decode once more
  // than we did); the query only as written (a search may hold an encoded space or "//").
  const question = raw.indexOf('?');
  const decodedPath = fullyDecoded(question === -1 ? raw : raw.slice(0, question));
  if (decodedPath === undefined) return INBOX_HOME;
  for (const form of [raw, decodedPath]) {
    if (!form.startsWith('/') || form.startsWith('//') || UNSAFE.test(form)) return INBOX_HOME;
  }
  const url = URL.parse(raw, 'http://inbox.invalid');
  const decodedUrl = URL.parse(decodedPath, 'http://inbox.invalid');
  if (!url || !decodedUrl) return INBOX_HOME;
  // Dot segments resolved ("/admin/../x" is "/x"), as written and as decoded ("..%2F.."): what is
  // left must still be in the inbox.
  if (url.origin !== 'http://inbox.invalid' || url.hash !== '') return INBOX_HOME;
  const inInbox = (pathname: string) =>
    (pathname === INBOX_HOME || pathname.startsWith(`${INBOX_HOME}/`)) && !NOT_A_RETURN.test(pathname);
  if (!inInbox(url.pathname) || decodedUrl.origin !== 'http://inbox.invalid' || !inInbox(decodedUrl.pathname)) return INBOX_HOME;
  return `${url.pathname}${url.search}`;
}
