/**
 * The id of the request being answered: echoed in X-Request-Id, written on each of its log lines
 * and shown on the problem pages, so that a visitor's report finds its log line.
 */
import { randomBytes } from 'node:crypto';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** A fresh id: 16 random bytes, base64url (22 characters, short enough to read out on the phone). */
export function newRequestId(): string {
  return randomBytes(16).toString('base64url');
}

/** A proxy's id is kept when it looks like one (letters, digits, - and _ only, at most 64): nginx's $request_id passes. */
export function acceptedRequestId(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^[A-Za-z0-9_-]{8,64}$/.test(value) ? value : undefined;
}
