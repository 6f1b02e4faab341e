/**
 * The partners' CV files, as the receiver takes them from a multipart partner
 * application: the rules of docs/requirements.md §9.1 (at most 2 MB each; pdf, jpeg, jpg, doc, docx) enforced
 * by the server itself, the type checked by the file's first bytes (its "magic number"), not by
 * its name; at most MAX_FILES files; the visitor's file name kept only as a cleaned label.
 *
 * A .docx is a ZIP archive: its central directory is read with `yauzl` (wordDocumentProblem below),
 * never by searching the bytes, and only a plain Word document passes.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import yauzl from 'yauzl';
import { ALLOWED_EXTENSIONS, MAX_FILES, MAX_FILE_BYTES, extensionOf, type FileRejection } from '../../forms/files';

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

const KIND_OF_EXTENSION: Readonly<Record<(typeof ALLOWED_EXTENSIONS)[number], FileKind>> = {
  pdf: 'pdf',
  jpeg: 'jpeg',
  jpg: 'jpeg',
  doc: 'doc',
  docx: 'docx',
};

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  signature.every((byte, i) => bytes[at + i] === byte);

/**
 * What a Word document's archive may hold, as its central directory declares it. A CV of a few
 * pages with photos is a few dozen entries and a few MB once expanded; XML compresses about ten
 * times. Anything past these is not a CV, or is built to exhaust whoever opens it.
 */
export const WORD_LIMITS = {
  /** Entries in the archive. */
  maxEntries: 1000,
  /** The entries' declared sizes once expanded, added up. */
  maxExpandedBytes: 50 * 1024 * 1024,
  /** An entry expanding past this size may grow at most maxRatio times its compressed size. */
  ratioFloorBytes: 1024 * 1024,
  maxRatio: 100,
  /** [Content_Types].xml, the one part read (to find macro-enabled content). */
  maxContentTypesBytes: 256 * 1024,
} as const;

/** Why an archive named .docx is no Word document we accept. */
export type WordDocumentProblem = 'unreadable' | 'notWord' | 'macros' | 'encrypted' | 'tooLarge' | 'tooManyEntries';

/** An expanded entry's bytes, refused past `limit` (yauzl also stops at the size the entry declares). */
async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): Promise<string | undefined> {
  if (entry.uncompressedSize > limit) return undefined;
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) {
      stream.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Whether a ZIP archive is a plain Word document (.docx), read from its central directory: it
 * must hold `[Content_Types].xml` and `word/document.xml`; no macros (a `vbaProject.bin` anywhere,
 * or a macro-enabled or VBA content type: a .docm renamed), no encrypted entry, no compression
 * but stored and deflate, no two entries of one name, and nothing past WORD_LIMITS. Undefined
 * when it passes. Only [Content_Types].xml is expanded (at most 256 KB); the rest never is.
 */
export async function wordDocumentProblem(bytes: Uint8Array): Promise<WordDocumentProblem | undefined> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      decodeStrings: true,
      validateEntrySizes: true,
      strictFileNames: true,
    });
  } catch {
    return 'unreadable';
  }
  try {
    if (zip.entryCount > WORD_LIMITS.maxEntries) return 'tooManyEntries';
    // Part names are case-insensitive in a Word package (ECMA-376 part 2, Open Packaging Conventions).
    const names = new Set<string>();
    let expanded = 0;
    let contentTypes: yauzl.Entry | undefined;
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName.toLowerCase();
      // Two entries of one name: readers disagree on which one is the document.
      if (names.has(name)) return 'unreadable';
      names.add(name);
      if (entry.isEncrypted()) return 'encrypted';
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) return 'unreadable';
      if (name === 'vbaproject.bin' || name.endsWith('/vbaproject.bin')) return 'macros';
      expanded += entry.uncompressedSize;
      if (expanded > WORD_LIMITS.maxExpandedBytes) return 'tooLarge';
      if (
        entry.uncompressedSize > WORD_LIMITS.ratioFloorBytes &&
        entry.uncompressedSize > WORD_LIMITS.maxRatio * entry.compressedSize
      )
        return 'tooLarge';
      if (name === '[content_types].xml') contentTypes = entry;
    }
    if (!contentTypes || !names.has('word/document.xml')) return 'notWord';
    const types = await readEntry(zip, contentTypes, WORD_LIMITS.maxContentTypesBytes);
    if (types === undefined) return 'tooLarge';
    // A macro part may have any name: its content type gives it away (vbaProject, macroEnabled).
    if (/macroEnabled|vbaProject/i.test(types)) return 'macros';
    return undefined;
  } catch {
    // A malformed directory, a bad file name (an absolute path, ..), an entry larger than declared.
    return 'unreadable';
  } finally {
    zip.close();
  }
}

/** What the file's content says it is, among the kinds accepted; undefined for anything else. */
export async function detectKind(bytes: Uint8Array): Promise<FileKind | undefined> {
  // "%PDF-" first (readers tolerate bytes before it; we do not: nothing else hides in front).
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  // OLE2 compound file: Word 97-2003 .doc (the extension tells it from Excel's).
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return 'doc';
  // A ZIP archive that is a Word document, by its central directory (nothing may sit in front of it).
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) && (await wordDocumentProblem(bytes)) === undefined) return 'docx';
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

export type UploadCheck =
  | { readonly ok: true; readonly files: readonly CheckedFile[] }
  | { readonly ok: false; readonly tooMany: boolean; readonly rejected: readonly FileRejection[] };

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
    if ((await detectKind(bytes)) !== expected) {
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
