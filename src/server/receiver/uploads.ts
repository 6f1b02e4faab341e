/**
 * The partners' CV files, as the receiver takes them from a multipart partner application: the
 * rules of docs/requirements.md §9.1 enforced by the server itself, the type checked by the file's
 * first bytes, not by its name; the visitor's file name kept only as a cleaned label.
 */
import zlib from 'node:zlib';
import { COMPOUND_FILE_SIGNATURE, docFileProblem, type DocFileProblem } from './doc-file.ts';
import { wordDocumentProblem, type WordDocumentProblem } from './docx-file.ts';
import type { WorkQueue } from '../ops/work-queue.ts';
import { ALLOWED_EXTENSIONS, MAX_FILES, MAX_FILE_BYTES, extensionOf, type FileRejection } from '../../forms/files';

export { MAX_FILES };
/** The largest multipart body: every file at its largest, and the answers (BODY_LIMIT_BYTES) beside them. */
export const UPLOAD_BODY_LIMIT_BYTES = MAX_FILES * (MAX_FILE_BYTES + 4 * 1024) + 512 * 1024;

type FileKind = 'pdf' | 'jpeg' | 'doc' | 'docx';

/** The media type each kind is served with (to signed-in staff only, as an attachment). */
export const MEDIA_TYPES: Readonly<Record<FileKind, string>> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

const KIND_OF_EXTENSION: Readonly<Record<(typeof ALLOWED_EXTENSIONS)[number], FileKind>> = {
  pdf: 'pdf',
  jpeg: 'jpeg',
  jpg: 'jpeg',
  doc: 'doc',
  docx: 'docx',
};

const startsWith = (bytes: Uint8Array, signature: readonly number[]) => signature.every((byte, i) => bytes[i] === byte);

/** PDF names that run something: JavaScript, a program, or an action on opening (a view is `[…]`). */
const PDF_ACTIVE = /\/(?:JS|JavaScript|Launch)\b|\/OpenAction(?!\s*\[)/;
/** What a PDF's object streams may expand to while they are read for PDF_ACTIVE. */
const PDF_EXPANDED_BYTES = 20 * 1024 * 1024;

/**
 * Whether a PDF may run something when opened (PDF_ACTIVE, names' `#xx` escapes decoded), in its
 * plain objects or in its compressed object streams; one whose object streams cannot be read
 * within PDF_EXPANDED_BYTES counts as active. Such a file is kept, and its lead held for staff.
 */
export function activePdf(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const active = (part: string) =>
    PDF_ACTIVE.test(part.replace(/#([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))));
  if (active(text)) return true;
  let left = PDF_EXPANDED_BYTES;
  for (const found of text.matchAll(/\/Type\s*\/ObjStm\b/g)) {
    const start = /stream\r?\n/g;
    start.lastIndex = found.index;
    const opened = start.exec(text);
    const end = opened ? text.indexOf('endstream', start.lastIndex) : -1;
    if (end < 0) return true;
    try {
      const expanded = zlib.inflateSync(bytes.subarray(start.lastIndex, end), {
        maxOutputLength: left,
        finishFlush: zlib.constants.Z_SYNC_FLUSH,
      });
      left -= expanded.byteLength;
      if (active(expanded.toString('latin1'))) return true;
    } catch {
      return true;
    }
  }
  return false;
}

/** The visitor's file name as a label, never used as a path (files are stored under random ids). */
export function cleanFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    .normalize('NFC')
    .replace(/[\u0000-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/g, '')
    .replace(/[<>:"|?*;,%]/g, '_')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.]+/, '')
    .trim();
  const extension = extensionOf(cleaned);
  if (cleaned.length <= 120) return cleaned || 'file';
  const stem = cleaned.slice(0, 120 - extension.length - 1).trimEnd();
  return extension ? `${stem}.${extension}` : stem;
}

const FILES_FIELD = 'uploadedFiles';

/**
 * A multipart body's text fields (as a url-encoded form would give them) and its files; undefined
 * when it cannot be read as multipart, or a file arrives in any other field.
 */
export async function multipartParts(
  body: Uint8Array<ArrayBuffer>,
  contentType: string,
): Promise<{ fields: URLSearchParams; files: File[] } | undefined> {
  const data = await new Response(body, { headers: { 'Content-Type': contentType } }).formData().catch(() => undefined);
  if (!data) return undefined;
  const fields = new URLSearchParams();
  const files: File[] = [];
  for (const [name, value] of data.entries()) {
    if (typeof value === 'string') {
      if (name !== FILES_FIELD) fields.append(name, value);
      continue;
    }
    if (name !== FILES_FIELD) return undefined;
    if (value.name === '' && value.size === 0) continue;
    files.push(value);
    fields.append(FILES_FIELD, cleanFileName(value.name));
  }
  return { fields, files };
}

interface CheckedFile {
  readonly name: string;
  readonly kind: FileKind;
  readonly bytes: Uint8Array;
  /** A PDF that may run something when opened (activePdf). */
  readonly active: boolean;
}

/** Why a file was refused, as a code for the log and metrics (never the file's name or content). */
export type FileProblem = 'extension' | 'tooLarge' | 'content' | `doc:${DocFileProblem}` | `docx:${WordDocumentProblem}`;

type UploadCheck =
  | { readonly ok: true; readonly files: readonly CheckedFile[] }
  | {
      readonly ok: false;
      readonly tooMany: boolean;
      readonly rejected: readonly FileRejection[];
      /** One code for each refused file, in the order of `rejected`. */
      readonly problems: readonly FileProblem[];
    };

/** Each kind's first bytes: nothing may sit in front of them (PDF readers tolerate it; we do not). */
const SIGNATURES: Readonly<Record<FileKind, readonly number[]>> = {
  pdf: [0x25, 0x50, 0x44, 0x46, 0x2d],
  jpeg: [0xff, 0xd8, 0xff],
  doc: COMPOUND_FILE_SIGNATURE,
  docx: [0x50, 0x4b, 0x03, 0x04],
};

/** Why the bytes are not a file of `expected` kind (its first bytes, a Word file's structure); undefined when they are. */
async function contentProblem(bytes: Uint8Array, expected: FileKind, readings: WorkQueue): Promise<FileProblem | undefined> {
  if (!startsWith(bytes, SIGNATURES[expected])) return 'content';
  if (expected === 'doc') {
    const problem = await docFileProblem(bytes, readings);
    return problem && `doc:${problem}`;
  }
  if (expected === 'docx') {
    const problem = await wordDocumentProblem(bytes);
    return problem && `docx:${problem}`;
  }
  return undefined;
}

/** What the file's content says it is, among the kinds accepted; undefined for anything else. */
export async function detectKind(bytes: Uint8Array, readings: WorkQueue): Promise<FileKind | undefined> {
  for (const kind of ['pdf', 'jpeg', 'doc', 'docx'] as const) if (!(await contentProblem(bytes, kind, readings))) return kind;
  return undefined;
}

/** Applies the rules to the files of one application; the first refusal of each file counts. */
export async function checkUploads(files: readonly File[], readings: WorkQueue): Promise<UploadCheck> {
  if (files.length > MAX_FILES) return { ok: false, tooMany: true, rejected: [], problems: [] };
  const checked: CheckedFile[] = [];
  const rejected: FileRejection[] = [];
  const problems: FileProblem[] = [];
  const refuse = (file: string, reason: FileRejection['reason'], problem: FileProblem) => {
    rejected.push({ file, reason });
    problems.push(problem);
  };
  for (const file of files) {
    const name = cleanFileName(file.name);
    const expected = KIND_OF_EXTENSION[extensionOf(name) as keyof typeof KIND_OF_EXTENSION];
    if (!expected) {
      refuse(name, 'invalidType', 'extension');
      continue;
    }
    if (file.size > MAX_FILE_BYTES) {
      refuse(name, 'tooLarge', 'tooLarge');
      continue;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    // Whatever the content's fault, the visitor reads the form's own "not a valid type" alert.
    const problem = await contentProblem(bytes, expected, readings);
    if (problem) {
      refuse(name, 'invalidType', problem);
      continue;
    }
    checked.push({ name, kind: expected, bytes, active: expected === 'pdf' && activePdf(bytes) });
  }
  return rejected.length > 0 ? { ok: false, tooMany: false, rejected, problems } : { ok: true, files: checked };
}

/** `Content-Disposition: attachment` with an ASCII fallback and the exact name in RFC 5987 form (Arabic names survive). */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7E]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
