/**
 * The partners' CV files (issue 16), as the receiver takes them from a multipart partner
 * application: the spec's rules (§5, §9: at most 2 MB each; pdf, jpeg, jpg, doc, docx) enforced
 * by the server itself, the type checked by the file's first bytes (its "magic number"), not by
 * its name; at most MAX_FILES files; the visitor's file name kept only as a cleaned label.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import { ALLOWED_EXTENSIONS, MAX_FILES, MAX_FILE_BYTES, extensionOf, type FileRejection } from '../forms/files';

export { MAX_FILES };
/** The largest multipart body: every file at its largest, and the answers (BODY_LIMIT_BYTES) beside them. */
export const UPLOAD_BODY_LIMIT_BYTES = MAX_FILES * (MAX_FILE_BYTES + 4 * 1024) + 512 * 1024;

export type FileKind = 'pdf' | 'jpeg' | 'doc' | 'docx';

/** The media type each kind is served with (to signed-in staff only, as an attachment). */
export const MEDIA_TYPES: Readonly<Record<FileKind, string>> = {
  pdf: 'application/pdf',
  jpeg: 'image/jpeg',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

const KIND_OF_EXTENSION: Readonly<Record<(typeof ALLOWED_EXTENSIONS)[number], FileKind>> = { pdf: 'pdf', jpeg: 'jpeg', jpg: 'jpeg', doc: 'doc', docx: 'docx' };

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte);

/** What the file's content says it is, among the kinds accepted; undefined for anything else. */
export function detectKind(bytes: Uint8Array): FileKind | undefined {
  // "%PDF-" first (readers tolerate bytes before it; we do not: nothing else hides in front).
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  // OLE2 compound file: Word 97-2003 .doc (the extension tells it from Excel's).
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc';
  // A ZIP archive holding a Word document (its part names are stored uncompressed).
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    const text = new TextDecoder('latin1').decode(bytes);
    if (text.includes('[Content_Types].xml') && text.includes('word/')) return 'docx';
  }
  return undefined;
}

/**
 * The visitor's file name as a label: the last path segment only, no control characters, no
 * characters that mean something to a file system or a header, at most 120 characters, its
 * extension kept. Never used as a path: files are stored under random ids.
 */
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

export interface CheckedFile {
  readonly name: string;
  readonly kind: FileKind;
  readonly bytes: Uint8Array;
}

export type UploadCheck = { readonly ok: true; readonly files: readonly CheckedFile[] } | { readonly ok: false; readonly tooMany: boolean; readonly rejected: readonly FileRejection[] };

/** Applies the rules to the files of one application; the first refusal of each file counts. */
export async function checkUploads(files: readonly File[]): Promise<UploadCheck> {
  if (files.length > MAX_FILES) return { ok: false, tooMany: true, rejected: [] };
  const checked: CheckedFile[] = [];
  const rejected: FileRejection[] = [];
  for (const file of files) {
    const name = cleanFileName(file.name);
    const expected = KIND_OF_EXTENSION[extensionOf(name) as keyof typeof KIND_OF_EXTENSION];
    if (!expected) {
      rejected.push({ file: name, reason: 'invalidType' });
      continue;
    }
    if (file.size > MAX_FILE_BYTES) {
      rejected.push({ file: name, reason: 'tooLarge' });
      continue;
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (detectKind(bytes) !== expected) {
      rejected.push({ file: name, reason: 'invalidType' });
      continue;
    }
    checked.push({ name, kind: expected, bytes });
  }
  return rejected.length > 0 ? { ok: false, tooMany: false, rejected } : { ok: true, files: checked };
}

/**
 * `Content-Disposition: attachment` with the file's label: an ASCII fallback for old clients and
 * the exact name in RFC 5987 form (Arabic names survive).
 */
export function attachmentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7E]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}
