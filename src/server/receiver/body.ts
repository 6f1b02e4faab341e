/**
 * The bounds on a request's body, checked before anything parses it: its size (read up to a limit,
 * an over-long one drained so the client reads the answer), its Content-Type, a JSON body's depth
 * and members, a multipart body's parts. The receiver's and the staff inbox's forms are read so.
 */
import { MIMEType } from 'node:util';

/** A Content-Type's media type and charset, lower-cased; an empty type when it does not parse. */
export function parseContentType(header: string | null): { type: string; charset: string | undefined } {
  try {
    const mime = new MIMEType(header ?? '');
    return { type: mime.essence, charset: mime.params.get('charset')?.toLowerCase() };
  } catch {
    return { type: '', charset: undefined };
  }
}

/** How much of an over-long body is still read after the 413 (a client still sending would miss it); then the link is cut. */
const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

type BodyResult = { readonly body: Uint8Array<ArrayBuffer> } | { readonly tooLarge: true; readonly close: boolean };

/** Reads and discards the rest of a body, up to `budget` bytes; then gives up on the connection. */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  try {
    for (let left = budget; ;) {
      const { done, value } = await reader.read();
      if (done) return;
      left -= value.byteLength;
      if (left < 0) {
        await reader.cancel();
        return;
      }
    }
  } catch {
    // The client went away: nothing left to read.
  }
}

/** The body, or tooLarge once more than `limit` bytes are announced or arrive. */
export async function readBody(request: Request, limit: number): Promise<BodyResult> {
  const announcedText = request.headers.get('content-length')?.trim();
  const announced = announcedText !== undefined && /^\d+$/.test(announcedText) ? Number(announcedText) : undefined;
  if (announced !== undefined && announced > DRAIN_LIMIT_BYTES) return { tooLarge: true, close: true };
  if (request.body === null) return { body: new Uint8Array(0) };
  const reader = request.body.getReader();
  if (announced !== undefined && announced > limit) {
    void discard(reader, DRAIN_LIMIT_BYTES);
    return { tooLarge: true, close: false };
  }
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      void discard(reader, DRAIN_LIMIT_BYTES - received);
      return { tooLarge: true, close: false };
    }
    chunks.push(value);
  }
  return { body: new Uint8Array(await new Blob(chunks).arrayBuffer()) };
}

/** How deep a JSON body may nest: a form's is an object of texts and lists of texts (depth 2). */
export const MAX_JSON_DEPTH = 8;

/**
 * What one pass over a JSON text finds wrong with its shape before it is parsed: nesting deeper
 * than `maxDepth`, or more than `maxMembers` members in the outermost object.
 */
export function jsonTextProblem(text: string, maxDepth: number, maxMembers: number): 'tooDeep' | 'tooManyFields' | undefined {
  let depth = 0;
  let members = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > maxDepth) return 'tooDeep';
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
    else if (c === 0x3a && depth === 1) {
      members += 1;
      if (members > maxMembers) return 'tooManyFields';
    }
  }
  return undefined;
}

/**
 * How many times a multipart body's boundary delimiter occurs, counted up to `stop` in one scan
 * before the body is parsed (n parts have at least n + 1); undefined when there is no boundary.
 */
export function countDelimiters(body: Uint8Array, contentType: string, stop: number): number | undefined {
  let boundary: string | undefined;
  try {
    boundary = new MIMEType(contentType).params.get('boundary') ?? undefined;
  } catch {
    return undefined;
  }
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary}`, 'utf8');
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let count = 0;
  for (let at = bytes.indexOf(delimiter); at !== -1 && count < stop; at = bytes.indexOf(delimiter, at + delimiter.length))
    count += 1;
  return count;
}
