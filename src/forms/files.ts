/**
 * Rules for the trainers' CV files of the partner form (docs/requirements.md §9.1). With an external endpoint
 * only the names are sent (docs/requirements.md §9.3); the site's own receiver takes the files themselves and
 * checks them again, by content (src/server/receiver/uploads.ts).
 */

/** Files one application may carry (the receiver's limit; the spec sets none). */
export const MAX_FILES = 5;
/** docs/requirements.md §12: 2MB. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** docs/requirements.md §12: pdf, jpeg, jpg, doc, docx. */
export const ALLOWED_EXTENSIONS = ['pdf', 'jpeg', 'jpg', 'doc', 'docx'] as const;
/** For the file picker's `accept`: extensions and their media types. */
export const ACCEPT_ATTRIBUTE = [
  '.pdf',
  '.jpeg',
  '.jpg',
  '.doc',
  '.docx',
  'application/pdf',
  'image/jpeg',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
].join(',');

interface FileLike {
  readonly name: string;
  readonly size: number;
}

export type FileRejection = { readonly file: string; readonly reason: 'tooLarge' | 'invalidType' };

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * Splits a selection into the files kept and the files refused, each refused file with its
 * reason (the type is checked first: a 5 MB .exe is "not a valid type").
 */
export function checkFiles<F extends FileLike>(files: readonly F[]): { accepted: F[]; rejected: FileRejection[] } {
  const accepted: F[] = [];
  const rejected: FileRejection[] = [];
  for (const file of files) {
    if (!(ALLOWED_EXTENSIONS as readonly string[]).includes(extensionOf(file.name)))
      rejected.push({ file: file.name, reason: 'invalidType' });
    else if (file.size > MAX_FILE_BYTES) rejected.push({ file: file.name, reason: 'tooLarge' });
    else accepted.push(file);
  }
  return { accepted, rejected };
}
