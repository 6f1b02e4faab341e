/**
 * ZIP archives made in the test, with `yazl`: a minimal real Word document, a plain ZIP, and the
 * attacker's variants. `patchEntry` rewrites one entry's headers afterwards, for what no honest
 * writer produces (an encryption flag, a declared size that lies).
 */
import yazl from 'yazl';

export interface ZipEntry {
  readonly name: string;
  readonly data: string | Uint8Array;
  /** Deflate the entry (the default); false stores it as it is. */
  readonly compress?: boolean;
}

/** A ZIP archive of these entries, in this order. */
export function zipOf(entries: readonly ZipEntry[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  const mtime = new Date('2026-11-20T08:00:00Z');
  for (const entry of entries) {
    const data = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : Buffer.from(entry.data);
    zip.addBuffer(data, entry.name, { compress: entry.compress ?? true, mtime });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/** The parts every Word document has (ECMA-376): its content types, its relationships, its body. */
export const WORD_PARTS: readonly ZipEntry[] = [
  {
    name: '[Content_Types].xml',
    data:
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  },
  {
    name: '_rels/.rels',
    data:
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  },
  {
    name: 'word/document.xml',
    data:
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">' +
      '<w:body><w:p><w:r><w:t>Curriculum vitae</w:t></w:r></w:p></w:body></w:document>',
  },
];

/** A minimal Word document (.docx) that Word opens. */
export const minimalDocx = (extra: readonly ZipEntry[] = []): Promise<Buffer> => zipOf([...WORD_PARTS, ...extra]);

const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** Offsets of one entry's headers: its central directory record and its local header. */
function headersOf(zip: Buffer, name: string): { central: number; local: number } {
  for (let at = zip.length - 46; at >= 0; at--) {
    if (zip.readUInt32LE(at) !== CENTRAL_HEADER) continue;
    const nameLength = zip.readUInt16LE(at + 28);
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) !== name) continue;
    const local = zip.readUInt32LE(at + 42);
    if (zip.readUInt32LE(local) !== LOCAL_HEADER) throw new Error(`no local header for ${name}`);
    return { central: at, local };
  }
  throw new Error(`no entry ${name} in the archive`);
}

export interface EntryPatch {
  /** Bits ORed into the general-purpose flag (1: encrypted). */
  readonly flags?: number;
  /** The uncompressed size the headers declare. */
  readonly uncompressedSize?: number;
}

/** A copy of the archive with one entry's central and local headers rewritten. */
export function patchEntry(zip: Buffer, name: string, patch: EntryPatch): Buffer {
  const out = Buffer.from(zip);
  const { central, local } = headersOf(out, name);
  if (patch.flags !== undefined) {
    out.writeUInt16LE(out.readUInt16LE(central + 8) | patch.flags, central + 8);
    out.writeUInt16LE(out.readUInt16LE(local + 6) | patch.flags, local + 6);
  }
  if (patch.uncompressedSize !== undefined) {
    out.writeUInt32LE(patch.uncompressedSize, central + 24);
    out.writeUInt32LE(patch.uncompressedSize, local + 22);
  }
  return out;
}
