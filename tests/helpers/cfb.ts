/**
 * OLE compound files (Word 97-2003 .doc) made in the test with `cfb`'s writer: a minimal Word
 * document and the attacker's variants. `patchDirectory` and `patchFat` rewrite the structure
 * afterwards, for what no honest writer produces (sibling links in a circle, a sector chain
 * pointing at itself).
 */
import CFB from 'cfb';

export interface CompoundEntry {
  /** The entry's path from the root ("/Macros/VBA/dir"); ending in "/", an empty storage. */
  readonly path: string;
  readonly data?: string | Uint8Array;
}

/** A compound file of these entries (cfb adds a small stream of its own, `\u0001Sh33tJ5`). */
export function compoundFile(entries: readonly CompoundEntry[]): Buffer {
  const file = CFB.utils.cfb_new();
  for (const entry of entries) CFB.utils.cfb_add(file, entry.path, Buffer.from(entry.data ?? ''));
  return CFB.write(file, { type: 'buffer' }) as Buffer;
}

/**
 * The streams of a Word 97-2003 document ([MS-DOC] 2.1): its main stream past 4 KB (kept in the
 * big sectors), its table stream and summary (in the mini stream), and the empty `ObjectPool`
 * Word writes.
 */
export const WORD_STREAMS: readonly CompoundEntry[] = [
  { path: '/WordDocument', data: new Uint8Array(6000).map((_, i) => (i * 31) % 251) },
  { path: '/1Table', data: new Uint8Array(900).fill(3) },
  { path: '/\u0005SummaryInformation', data: new Uint8Array(200).fill(5) },
  { path: '/ObjectPool/' },
];

/** A minimal Word 97-2003 document (.doc), with these entries besides. */
export const minimalDoc = (extra: readonly CompoundEntry[] = []): Buffer => compoundFile([...WORD_STREAMS, ...extra]);

/** The offset of an entry's directory record, found by its name (the first of that name). */
function directoryRecord(file: Buffer, name: string): number {
  const at = file.indexOf(Buffer.from(`${name}\u0000`, 'utf16le'));
  if (at < 0 || at % 128 !== 0) throw new Error(`no directory entry ${name}`);
  return at;
}

/** The index of an entry in the directory, as cfb reads it (the directory's own order). */
export function directoryIndex(file: Buffer, name: string): number {
  const index = CFB.read(file, { type: 'buffer' }).FileIndex.findIndex((entry) => entry.name === name);
  if (index < 0) throw new Error(`no directory entry ${name}`);
  return index;
}

/** A copy with an entry's left sibling, right sibling or child link ([MS-CFB] 2.6.1) set. */
export function patchDirectory(file: Buffer, name: string, links: { left?: number; right?: number; child?: number }): Buffer {
  const copy = Buffer.from(file);
  const at = directoryRecord(copy, name);
  if (links.left !== undefined) copy.writeInt32LE(links.left, at + 68);
  if (links.right !== undefined) copy.writeInt32LE(links.right, at + 72);
  if (links.child !== undefined) copy.writeInt32LE(links.child, at + 76);
  return copy;
}

/** An entry's first sector ([MS-CFB] 2.6.1, "Starting Sector Location"). */
export function startSector(file: Buffer, name: string): number {
  return file.readInt32LE(directoryRecord(file, name) + 116);
}

/** A copy whose first FAT sector says `sector` is followed by `next` (files of 512-byte sectors). */
export function patchFat(file: Buffer, sector: number, next: number): Buffer {
  const copy = Buffer.from(file);
  const fat = copy.readInt32LE(76);
  copy.writeInt32LE(next, 512 * (fat + 1) + sector * 4);
  return copy;
}
