/**
 * A Word document (.docx) is a ZIP archive of XML parts (ECMA-376). Its central directory is read
 * with `yauzl`, never by searching the bytes: only a plain Word document passes (wordDocumentProblem).
 */
import yauzl from 'yauzl';
import { COMPOUND_FILE_SIGNATURE, FETCHING_FIELDS } from './doc-file.ts';

/**
 * What a Word document's archive may hold, as its central directory declares it. A CV of a few
 * pages with photos is a few dozen entries and a few MB once expanded; XML compresses about ten
 * times. Anything past these is not a CV, or is built to exhaust whoever opens it.
 */
const WORD_LIMITS = {
  maxEntries: 1000,
  /** The entries' declared sizes once expanded, added up. */
  maxExpandedBytes: 50 * 1024 * 1024,
  /** An entry expanding past this size may grow at most maxRatio times its compressed size. */
  ratioFloorBytes: 1024 * 1024,
  maxRatio: 100,
  /** [Content_Types].xml, read to find macro-enabled content. */
  maxContentTypesBytes: 256 * 1024,
  /** Each relationships part (`*.rels`), read to find external and OLE relationships. */
  maxRelationshipsBytes: 256 * 1024,
  maxAllRelationshipsBytes: 2 * 1024 * 1024,
} as const;

/** Why an archive named .docx is no Word document we accept. */
export type WordDocumentProblem =
  | 'unreadable'
  | 'notWord'
  | 'macros'
  | 'encrypted'
  | 'tooLarge'
  | 'tooManyEntries'
  | 'external'
  | 'embedded'
  | 'executable'
  | 'shortcut'
  | 'fields';

/**
 * Extensions of programs and scripts Windows runs: no part of a Word document has one. A `.bin`
 * is refused only under an `embeddings/` folder (an OLE object); Word keeps printer settings in
 * `.bin` parts elsewhere.
 */
const EXECUTABLE_EXTENSION = /\.(?:exe|dll|scr|com|bat|cmd|js|vbs|ps1|msi|jar)$/;

/** An expanded entry's bytes, refused past `limit` (yauzl also stops at the size the entry declares). */
async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): Promise<Buffer | undefined> {
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
  return Buffer.concat(chunks);
}

/** An entry's first bytes (at most the first chunk yauzl inflates), the rest never expanded. */
async function entryStart(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) return chunk.subarray(0, 8);
    return Buffer.alloc(0);
  } finally {
    stream.destroy();
  }
}

/** An XML part's text: UTF-16 when it starts with a byte order mark (XML allows it), else UTF-8. */
function xmlText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return new TextDecoder('utf-8').decode(bytes);
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An attribute's value as an XML reader sees it: character and predefined entity references replaced. */
function attributeValue(raw: string): string {
  return raw.replace(/&(?:#(\d+)|#x([0-9a-f]+)|(\w+));/gi, (whole, decimal?: string, hex?: string, named?: string) => {
    const code = decimal ? Number(decimal) : hex ? Number.parseInt(hex, 16) : undefined;
    if (code !== undefined) return code <= 0x10ffff ? String.fromCodePoint(code) : '';
    return XML_ENTITIES[named!] ?? whole;
  });
}

const RELATIONSHIP = /<(?:[A-Za-z_][\w.-]*:)?Relationship(?=[\s/>])/g;
const ATTRIBUTE = /\s+([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/y;
const ELEMENT_END = /\s*\/?>/y;
/** Hyperlinks are followed only when clicked: those to a web page or an address stay allowed. */
const HYPERLINK = /\/relationships\/hyperlink$/i;
const SAFE_LINK = /^(?:https?:\/\/|mailto:)/i;

/**
 * What a relationships part (`*.rels`, ECMA-376 part 2, section 9.3) points at: 'external' for a target
 * outside the package that Word loads on opening (an attached template, a remote picture or
 * frame, a linked OLE object), 'embedded' for an OLE object. Read by its attributes, entity
 * references decoded; a part with a DTD (its entities could spell anything) or without a
 * `Relationships` element is 'unreadable'.
 */
export function relationshipsProblem(xml: string): WordDocumentProblem | undefined {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml) || !/<(?:[A-Za-z_][\w.-]*:)?Relationships[\s/>]/.test(xml)) return 'unreadable';
  for (const element of xml.matchAll(RELATIONSHIP)) {
    const attributes = new Map<string, string>();
    let at = element.index + element[0].length;
    for (;;) {
      ATTRIBUTE.lastIndex = at;
      const attribute = ATTRIBUTE.exec(xml);
      if (!attribute) break;
      // A prefixed attribute counts as the plain one: over-refusing is the safe side.
      attributes.set(attribute[1]!.split(':').pop()!, attributeValue(attribute[2] ?? attribute[3] ?? ''));
      at = ATTRIBUTE.lastIndex;
    }
    ELEMENT_END.lastIndex = at;
    if (!ELEMENT_END.test(xml)) return 'unreadable';
    const type = (attributes.get('Type') ?? '').trim();
    // An OLE object, or an alternative format chunk (aFChunk: HTML, RTF or another document Word imports whole).
    if (/\/(?:oleObject|aFChunk)$/i.test(type)) return 'embedded';
    const mode = attributes.get('TargetMode')?.trim();
    if (mode !== undefined && mode !== 'Internal') {
      const target = (attributes.get('Target') ?? '').trim();
      if (!(HYPERLINK.test(type) && SAFE_LINK.test(target))) return 'external';
    }
  }
  return undefined;
}

const FIELD_PIECE = new RegExp(
  [
    String.raw`<(?:[\w.-]+:)?fldChar\b[^>]*?fldCharType\s*=\s*["'](begin|separate|end)["']`,
    String.raw`<(?:[\w.-]+:)?instrText\b[^>]*>([^<]*)<`,
    String.raw`<(?:[\w.-]+:)?fldSimple\b[^>]*?\s(?:[\w.-]+:)?instr\s*=\s*(?:"([^"]*)"|'([^']*)')`,
  ].join('|'),
  'g',
);
const FETCHING_FIELD = new RegExp(String.raw`^\s*(?:${FETCHING_FIELDS})\b`, 'i');

/**
 * Whether a WordprocessingML part (the body, a header, a footnote…) holds a field that fetches
 * (FETCHING_FIELDS): a simple field's `instr`, or a complex field's instruction text from its
 * `begin` to its `separate` or `end`, put together across runs (Word splits it anywhere).
 */
function fetchingField(xml: string): boolean {
  // The instructions of the fields open here, innermost last; null once past its `separate`.
  const open: (string | null)[] = [];
  const fetches = (instruction: string | null | undefined) => !!instruction && FETCHING_FIELD.test(instruction);
  for (const [, mark, text, double, single] of xml.matchAll(FIELD_PIECE)) {
    if (fetches(attributeValue(double ?? single ?? ''))) return true;
    const last = open.length - 1;
    if (text !== undefined && open[last] != null) open[last] += attributeValue(text);
    if (mark === 'begin') open.push('');
    else if (mark === 'end' && fetches(open.pop())) return true;
    else if (mark === 'separate' && last >= 0) {
      if (fetches(open[last])) return true;
      open[last] = null;
    }
  }
  return open.some(fetches);
}

/**
 * Why a ZIP archive is not a plain Word document (.docx), read from its central directory;
 * undefined when it is. Only [Content_Types].xml, the `*.rels` parts, the `word/*.xml` parts
 * (within WORD_LIMITS) and the first bytes of embedded parts are expanded; the rest never is.
 */
export async function wordDocumentProblem(bytes: Uint8Array): Promise<WordDocumentProblem | undefined> {
  const zip = await yauzl
    .fromBufferPromise(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      lazyEntries: true,
      decodeStrings: true,
      validateEntrySizes: true,
      strictFileNames: true,
    })
    .catch(() => undefined);
  if (!zip) return 'unreadable';
  try {
    if (zip.entryCount > WORD_LIMITS.maxEntries) return 'tooManyEntries';
    // Part names are case-insensitive in a Word package (ECMA-376 part 2, Open Packaging Conventions).
    const names = new Set<string>();
    let expanded = 0;
    let contentTypes: yauzl.Entry | undefined;
    let named: WordDocumentProblem | undefined;
    const relationships: yauzl.Entry[] = [];
    const embedded: yauzl.Entry[] = [];
    const wordParts: yauzl.Entry[] = [];
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
      const inEmbeddings = name.startsWith('embeddings/') || name.includes('/embeddings/');
      // Refused by name once the archive is known to hold a Word document (a plain ZIP is 'notWord').
      named ??= name.endsWith('.lnk')
        ? 'shortcut'
        : EXECUTABLE_EXTENSION.test(name)
          ? 'executable'
          : (inEmbeddings && name.endsWith('.bin')) || name.startsWith('activex/') || name.includes('/activex/')
            ? 'embedded'
            : undefined;
      if (inEmbeddings && !name.endsWith('/')) embedded.push(entry);
      if (name.endsWith('.rels')) relationships.push(entry);
      if (/^word\/(?:glossary\/)?[^/]+\.xml$/.test(name)) wordParts.push(entry);
      if (name === '[content_types].xml') contentTypes = entry;
    }
    if (!contentTypes || !names.has('word/document.xml')) return 'notWord';
    if (named) return named;
    const types = await readEntry(zip, contentTypes, WORD_LIMITS.maxContentTypesBytes);
    if (types === undefined) return 'tooLarge';
    // A macro part may have any name: its content type gives it away (vbaProject, macroEnabled).
    if (/macroEnabled|vbaProject/i.test(xmlText(types))) return 'macros';
    let relationshipBytes = 0;
    for (const entry of relationships) {
      relationshipBytes += entry.uncompressedSize;
      if (relationshipBytes > WORD_LIMITS.maxAllRelationshipsBytes) return 'tooLarge';
      const part = await readEntry(zip, entry, WORD_LIMITS.maxRelationshipsBytes);
      if (part === undefined) return 'tooLarge';
      const problem = relationshipsProblem(xmlText(part));
      if (problem) return problem;
    }
    // An embedded part of any name: an OLE object or a Windows program by its first bytes.
    for (const entry of embedded) {
      const start = await entryStart(zip, entry);
      if (COMPOUND_FILE_SIGNATURE.every((byte, i) => start[i] === byte)) return 'embedded';
      if (start[0] === 0x4d && start[1] === 0x5a) return 'executable';
    }
    for (const entry of wordParts) {
      const part = await readEntry(zip, entry, WORD_LIMITS.maxExpandedBytes);
      if (part === undefined) return 'tooLarge';
      if (fetchingField(xmlText(part))) return 'fields';
    }
    return undefined;
  } catch {
    // A malformed directory, a bad file name (an absolute path, ..), an entry larger than declared.
    return 'unreadable';
  } finally {
    zip.close();
  }
}
