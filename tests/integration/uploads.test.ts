/**
 * The partners' CV files, end to end over HTTP on the built server: sent with the
 * application as multipart/form-data, checked by content, stored beside the database under
 * random ids, downloaded only by signed-in staff, erased with their lead. And the attacker's
 * files: an .exe renamed cv.pdf, a 2.1 MB pdf, six files, a path as a file name, Word files
 * with macros, external links, embedded objects, programs or shortcuts.
 */
import { solvedProof } from '../helpers/proof';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { attachmentsDir, openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { attachmentDisposition, cleanFileName, detectKind } from '../../src/server/receiver/uploads';
import { wordDocumentProblem, type WordDocumentProblem } from '../../src/server/receiver/docx-file';
import { composeLeadNotice } from '../../src/server/mail/lead-mail';
import { heldReasons } from '../helpers/held';
import { asForm, partnerBody, startServer, tempDir, type RunningServer, LIGHT_HASH } from '../helpers/server';
import { minimalDocx, patchEntry, WORD_PARTS, zipOf } from '../helpers/zip';
import { directoryIndex, minimalDoc, patchDirectory } from '../helpers/cfb';
import { WorkQueue } from '../../src/server/ops/work-queue';
import { DOC_LIMITS } from '../../src/server/receiver/doc-file';

/** The Word files' readings, bounded as the server bounds them. */
const readings = new WorkQueue({ running: DOC_LIMITS.concurrent, waiting: Infinity });

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
/** A minimal real Word 97-2003 document (an OLE compound file made with cfb's writer). */
const DOC = minimalDoc();
/** A minimal real Word document (made in beforeAll: a ZIP with the parts Word needs). */
let DOCX: Uint8Array;
const EXE = new TextEncoder().encode('MZ\u0090\u0000\u0003\u0000This program cannot be run in DOS mode.');
const ZIP = new TextEncoder().encode('PK\u0003\u0004\u0014\u0000evil/payload.js');

beforeAll(async () => {
  DOCX = await minimalDocx();
});

describe('what a file is, by its content', () => {
  test('pdf, jpeg, doc and docx are known by their content; an exe or a plain zip is none of them', async () => {
    expect(await detectKind(PDF, readings)).toBe('pdf');
    expect(await detectKind(JPEG, readings)).toBe('jpeg');
    expect(await detectKind(DOC, readings)).toBe('doc');
    expect(await detectKind(DOCX, readings)).toBe('docx');
    // The compound file's signature alone is no Word document.
    expect(await detectKind(DOC.subarray(0, 12), readings)).toBeUndefined();
    expect(await detectKind(EXE, readings)).toBeUndefined();
    expect(await detectKind(ZIP, readings)).toBeUndefined();
    expect(await detectKind(new Uint8Array(), readings)).toBeUndefined();
  });

  test('a file name is a label: no path, no control characters, no header syntax', () => {
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('C:\\Users\\me\\cv.pdf')).toBe('cv.pdf');
    expect(cleanFileName('cv\r\nX-Evil: 1.pdf')).toBe('cvX-Evil_ 1.pdf');
    expect(cleanFileName('..hidden.pdf')).toBe('hidden.pdf');
    expect(cleanFileName('سيرة ذاتية.pdf')).toBe('سيرة ذاتية.pdf');
    expect(cleanFileName(`${'a'.repeat(300)}.docx`)).toMatch(/^a{115}\.docx$/);
    expect(attachmentDisposition('سيرة "ذاتية".pdf')).toBe(
      `attachment; filename="____ _______.pdf"; filename*=UTF-8''${encodeURIComponent('سيرة "ذاتية".pdf')}`,
    );
  });

  test('the notification mail links to the lead in the inbox, never to a file', () => {
    const notice = composeLeadNotice(
      {
        id: '7c0f6f2e-1111-4222-8333-944455556666',
        form: 'partner',
        receivedAt: '2026-11-23T08:00:00.000Z',
        language: 'en',
        fields: partnerBody({ uploadedFiles: 'cv-1.pdf, cv-2.docx' }),
      },
      { inboxUrl: 'https://www.globaq.example/admin/leads/7c0f6f2e-1111-4222-8333-944455556666' },
    );
    expect(notice.text).toContain("Trainers' CVs: \u2068cv-1.pdf, cv-2.docx\u2069");
    expect(notice.text).toContain(
      'Open this lead in the staff inbox: https://www.globaq.example/admin/leads/7c0f6f2e-1111-4222-8333-944455556666',
    );
    expect(notice.html).toContain('<a href="https://www.globaq.example/admin/leads/7c0f6f2e-1111-4222-8333-944455556666">');
    expect(notice.html).not.toContain('/admin/files/');
  });
});

let dir: string;
let server: RunningServer;
const PASSWORD = 'inbox password for files';
const STAFF = 'files@globaq.example';

/** The application as multipart/form-data, as the form sends it, with these files. */
function multipart(
  files: { name: string; bytes: Uint8Array; type?: string }[],
  overrides: Record<string, unknown> = {},
): FormData {
  const data = new FormData();
  for (const [name, value] of asForm(partnerBody(overrides)).entries()) if (name !== 'uploadedFiles') data.append(name, value);
  for (const file of files)
    data.append(
      'uploadedFiles',
      new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? 'application/octet-stream' }),
      file.name,
    );
  return data;
}

/** Sends it as the island does, with a solved proof of work (a lead mailed and in the inbox, not held). */
async function send(data: FormData, accept = 'application/json'): Promise<Response> {
  if (!data.has('altcha')) data.append('altcha', await solvedProof(server.baseUrl));
  return fetch(`${server.baseUrl}/api/partner`, {
    method: 'POST',
    body: data,
    headers: { Origin: server.origin, Accept: accept },
    redirect: 'manual',
  });
}

function stored(): {
  leads: number;
  attachments: { id: string; submission_id: string; name: string; size: number; sha256: string }[];
  files: string[];
} {
  const db = new DatabaseSync(server.dbPath, { readOnly: true });
  try {
    const leads = Number((db.prepare('SELECT count(*) AS n FROM submissions').get() as { n: number }).n);
    const attachments = db
      .prepare('SELECT id, submission_id, name, size, sha256 FROM attachments ORDER BY submission_id, position')
      .all() as never;
    const folder = attachmentsDir(server.dbPath);
    return { leads, attachments, files: fs.existsSync(folder) ? fs.readdirSync(folder).sort() : [] };
  } finally {
    db.close();
  }
}

async function signIn(): Promise<string> {
  const response = await fetch(`${server.baseUrl}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin },
    body: new URLSearchParams({ email: STAFF, password: PASSWORD }).toString(),
  });
  expect(response.status).toBe(303);
  return response.headers.getSetCookie()[0]!.split(';')[0]!;
}

beforeAll(async () => {
  dir = tempDir('globaq-uploads-');
  server = await startServer({ dbPath: path.join(dir, 'submissions.db') });
  const staff = openStaffStore(server.dbPath);
  await staff.add(STAFF, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
  await staff.close();
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the receiver takes the files with the application', () => {
  let leadId: string;

  test('two CVs: stored beside the database under random ids, byte for byte, their names in the application', async () => {
    const response = await send(
      multipart([
        { name: 'cv-aisha.pdf', bytes: PDF },
        { name: '../../etc/سيرة.docx', bytes: DOCX },
      ]),
    );
    expect(response.status, await response.clone().text()).toBe(201);
    leadId = ((await response.json()) as { id: string }).id;
    const { attachments, files } = stored();
    expect(attachments.map((file) => [file.submission_id, file.name, file.size])).toEqual([
      [leadId, 'cv-aisha.pdf', PDF.byteLength],
      [leadId, 'سيرة.docx', DOCX.byteLength],
    ]);
    expect(files).toEqual(attachments.map((file) => file.id).sort());
    for (const file of attachments) expect(file.id).toMatch(/^[0-9a-f-]{36}$/);
    const folder = attachmentsDir(server.dbPath);
    expect(new Uint8Array(fs.readFileSync(path.join(folder, attachments[0]!.id)))).toEqual(PDF);
    // Not beside anything the site serves, and not readable by other users.
    expect(folder.startsWith(path.join(process.cwd(), 'dist'))).toBe(false);
    expect(fs.statSync(path.join(folder, attachments[0]!.id)).mode & 0o077).toBe(0);
    const db = new DatabaseSync(server.dbPath, { readOnly: true });
    const fields = JSON.parse(
      (db.prepare('SELECT fields FROM submissions WHERE id = ?').get(leadId) as { fields: string }).fields,
    ) as Record<string, unknown>;
    db.close();
    expect(fields['uploadedFiles']).toBe('cv-aisha.pdf, سيرة.docx');
  });

  test('signed-in staff download each file as an attachment, byte-identical; nobody else can', async () => {
    const [pdf] = stored().attachments;
    const anonymous = await fetch(`${server.baseUrl}/admin/files/${pdf!.id}`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`/admin/login?next=${encodeURIComponent(`/admin/files/${pdf!.id}`)}`);
    expect((await anonymous.arrayBuffer()).byteLength).toBeLessThan(100);
    const cookie = await signIn();
    const download = await fetch(`${server.baseUrl}/admin/files/${pdf!.id}`, { headers: { Cookie: cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe(
      'attachment; filename="cv-aisha.pdf"; filename*=UTF-8\'\'cv-aisha.pdf',
    );
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('cache-control')).toBe('no-store');
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(PDF);
    for (const forged of ['00000000-0000-0000-0000-000000000000', '..%2F..%2Fsubmissions.db', pdf!.id.toUpperCase()]) {
      const response = await fetch(`${server.baseUrl}/admin/files/${forged}`, { headers: { Cookie: cookie } });
      expect(response.status, forged).toBe(404);
    }
    // The lead's page lists them, linked to the download.
    const page = await (await fetch(`${server.baseUrl}/admin/leads/${leadId}`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain(`href="/admin/files/${pdf!.id}"`);
    expect(page).toContain('سيرة.docx');
  });

  test('deleting the lead erases its files from the disk', async () => {
    const cookie = await signIn();
    const page = await (await fetch(`${server.baseUrl}/admin/leads/${leadId}`, { headers: { Cookie: cookie } })).text();
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const before = stored().files.length;
    const response = await fetch(`${server.baseUrl}/admin/leads/${leadId}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: cookie, Origin: server.origin, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ action: 'delete-confirmed', csrf }).toString(),
    });
    expect(response.status).toBe(303);
    expect(before).toBe(2);
    expect(stored().attachments.filter((file) => file.submission_id === leadId)).toEqual([]);
    expect(stored().files).toEqual([]);
  });

  test('a jpeg and a doc pass; with JavaScript off the browser is sent to the thanks page', async () => {
    const response = await send(
      multipart([
        { name: 'photo.JPG', bytes: JPEG },
        { name: 'old-cv.doc', bytes: DOC },
      ]),
      'text/html',
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/ThanksPage');
    expect(stored().files).toHaveLength(2);
  });

  test('a PDF that runs JavaScript when opened is kept, and its lead held for staff saying why', async () => {
    const before = stored().attachments.length;
    const script = new TextEncoder().encode(
      '%PDF-1.7\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    );
    const response = await send(multipart([{ name: 'cv.pdf', bytes: script }]));
    expect(response.status).toBe(201);
    expect(heldReasons(server.dbPath).at(-1)).toBe('activeFile');
    expect(stored().attachments).toHaveLength(before + 1);
  });
});

describe("the attacker's files are refused, and nothing of the application is stored", () => {
  const refusals: [string, { name: string; bytes: Uint8Array }[], unknown][] = [
    ['an .exe renamed cv.pdf', [{ name: 'cv.pdf', bytes: EXE }], [{ file: 'cv.pdf', reason: 'invalidType' }]],
    ['a zip renamed cv.docx', [{ name: 'cv.docx', bytes: ZIP }], [{ file: 'cv.docx', reason: 'invalidType' }]],
    ['a pdf named cv.jpg', [{ name: 'cv.jpg', bytes: PDF }], [{ file: 'cv.jpg', reason: 'invalidType' }]],
    [
      'a 2.1 MB pdf',
      [{ name: 'big.pdf', bytes: new Uint8Array([...PDF, ...new Uint8Array(2.1 * 1024 * 1024)]) }],
      [{ file: 'big.pdf', reason: 'tooLarge' }],
    ],
    ['../../etc/passwd as a file name', [{ name: '../../etc/passwd', bytes: PDF }], [{ file: 'passwd', reason: 'invalidType' }]],
    [
      'an .html file',
      [{ name: 'cv.html', bytes: new TextEncoder().encode('<script>alert(1)</script>') }],
      [{ file: 'cv.html', reason: 'invalidType' }],
    ],
  ];
  for (const [what, files, rejected] of refusals) {
    test(what, async () => {
      const before = stored();
      const response = await send(multipart([{ name: 'good.pdf', bytes: PDF }, ...files]));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalidFiles', files: rejected, maxFiles: 5, tooMany: false });
      expect(stored()).toEqual(before);
    });
  }

  test('six files', async () => {
    const before = stored();
    const response = await send(multipart(Array.from({ length: 6 }, (_, i) => ({ name: `cv-${i}.pdf`, bytes: PDF }))));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalidFiles', tooMany: true });
    expect(stored()).toEqual(before);
  });

  test('with JavaScript off, the refusal is a page with the form’s own alert text', async () => {
    const before = stored();
    const response = await send(multipart([{ name: 'cv.pdf', bytes: EXE }]), 'text/html');
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('File &quot;cv.pdf&quot; is not a valid type. Please upload JPG, PDF, or DOC files.');
    expect(html).toContain('A file you attached to your partner application was not accepted, so nothing was sent:');
    expect(stored()).toEqual(before);
  });

  test('a file in any other field, or files for the contact form, are refused', async () => {
    const data = multipart([]);
    data.append('name', new Blob([PDF]), 'cv.pdf');
    expect((await send(data)).status).toBe(400);
    const contact = await fetch(`${server.baseUrl}/api/contact`, {
      method: 'POST',
      body: multipart([{ name: 'cv.pdf', bytes: PDF }]),
      headers: { Origin: server.origin },
    });
    expect(contact.status).toBe(415);
  });
});

/**
 * A .docx is a Word document, not any ZIP: its central directory (read with yauzl) must hold the
 * Word parts, and nothing macro-enabled, encrypted or expanding beyond reason. Each archive is
 * made here; before this check, any ZIP naming "[Content_Types].xml" and "word/" anywhere passed.
 */
describe("a .docx must be a Word document: the archive's directory is read", () => {
  const MB = 1024 * 1024;
  const archives: [string, WordDocumentProblem, () => Promise<Uint8Array>][] = [
    [
      'a plain ZIP whose text names the Word parts',
      'notWord',
      () =>
        zipOf([
          { name: 'payload.js', data: 'alert(1)' },
          { name: 'readme.txt', data: '[Content_Types].xml word/document.xml', compress: false },
        ]),
    ],
    [
      'a ZIP with [Content_Types].xml and a word/ folder but no word/document.xml',
      'notWord',
      () => zipOf([WORD_PARTS[0]!, { name: 'word/payload.js', data: 'alert(1)' }]),
    ],
    [
      'a Word document with macros (word/vbaProject.bin)',
      'macros',
      () => minimalDocx([{ name: 'word/vbaProject.bin', data: new Uint8Array(512).fill(7) }]),
    ],
    [
      'a Word document with a vbaProject.bin elsewhere',
      'macros',
      () => minimalDocx([{ name: 'customXml/VBAPROJECT.BIN', data: new Uint8Array(512).fill(7) }]),
    ],
    [
      'a macro-enabled document (.docm content type) renamed .docx',
      'macros',
      () =>
        zipOf([
          {
            name: WORD_PARTS[0]!.name,
            data: String(WORD_PARTS[0]!.data).replace(
              'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml',
              'application/vnd.ms-word.document.macroEnabled.main+xml',
            ),
          },
          ...WORD_PARTS.slice(1),
        ]),
    ],
    ['an encrypted entry', 'encrypted', async () => patchEntry(await minimalDocx(), 'word/document.xml', { flags: 1 })],
    [
      'one entry declaring 60 MB',
      'tooLarge',
      async () =>
        patchEntry(
          await minimalDocx([{ name: 'word/media/image1.png', data: randomBytes(64 * 1024) }]),
          'word/media/image1.png',
          { uncompressedSize: 60 * MB },
        ),
    ],
    [
      'declared sizes summing past 50 MB, each entry within the ratio limit',
      'tooLarge',
      async () => {
        const pictures = Array.from({ length: 30 }, (_, i) => `word/media/image${i}.png`);
        let zip = await minimalDocx(pictures.map((name) => ({ name, data: randomBytes(32 * 1024) })));
        for (const name of pictures) zip = patchEntry(zip, name, { uncompressedSize: 2 * MB });
        return zip;
      },
    ],
    [
      'a compression-ratio bomb (16 MB of zeros in 16 KB)',
      'tooLarge',
      () => minimalDocx([{ name: 'word/media/image1.png', data: new Uint8Array(16 * MB) }]),
    ],
    [
      'an absurd number of entries',
      'tooManyEntries',
      () =>
        minimalDocx(Array.from({ length: 2000 }, (_, i) => ({ name: `word/parts/p${i}.xml`, data: '<p/>', compress: false }))),
    ],
    ['a truncated archive', 'unreadable', async () => (await minimalDocx()).subarray(0, 200)],
  ];

  for (const [what, problem, make] of archives) {
    test(`${what}: not a Word document (${problem}), and refused with the wrong-type alert`, async () => {
      const bytes = await make();
      expect(bytes.byteLength).toBeLessThan(2 * MB);
      expect(await wordDocumentProblem(bytes)).toBe(problem);
      expect(await detectKind(bytes, readings)).toBeUndefined();
      const before = stored();
      const response = await send(
        multipart([
          { name: 'good.pdf', bytes: PDF },
          { name: 'cv.docx', bytes },
        ]),
      );
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'invalidFiles',
        files: [{ file: 'cv.docx', reason: 'invalidType' }],
        maxFiles: 5,
        tooMany: false,
      });
      expect(stored()).toEqual(before);
    });
  }

  test("with JavaScript off, a macro document gets the form's wrong-type alert page", async () => {
    const before = stored();
    const response = await send(
      multipart([{ name: 'cv.docx', bytes: await minimalDocx([{ name: 'word/vbaProject.bin', data: new Uint8Array(512) }]) }]),
      'text/html',
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(
      'File &quot;cv.docx&quot; is not a valid type. Please upload JPG, PDF, or DOC files.',
    );
    expect(stored()).toEqual(before);
  });

  test('a real Word document with a picture and a few hundred parts is accepted', async () => {
    const picture = new Uint8Array(300 * 1024).map((_, i) => (i * 7919) % 251);
    const bytes = await minimalDocx([
      { name: 'word/media/image1.png', data: picture, compress: false },
      ...Array.from({ length: 300 }, (_, i) => ({ name: `customXml/item${i}.xml`, data: `<item n="${i}"/>` })),
    ]);
    expect(await wordDocumentProblem(bytes)).toBeUndefined();
    expect(await detectKind(bytes, readings)).toBe('docx');
    const response = await send(multipart([{ name: 'cv.docx', bytes }]));
    expect(response.status, await response.clone().text()).toBe(201);
  });
});

/**
 * Word files that run or fetch something when staff open them: refused through the receiver with
 * the form's wrong-type alert, nothing stored, and the server's log naming the reason by code,
 * never the file's name. Each file is made here (the .doc files with cfb's writer).
 */
describe('Word files with macros, links or objects are refused through the receiver', () => {
  const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  const rels = (relationship: string) => ({
    name: 'word/_rels/document.xml.rels',
    data: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationship}</Relationships>`,
  });
  const looping = () => {
    const table = directoryIndex(DOC, '1Table');
    const main = directoryIndex(DOC, 'WordDocument');
    return patchDirectory(patchDirectory(DOC, '1Table', { left: main }), 'WordDocument', { left: table });
  };
  const files: [string, string, string, () => Promise<Uint8Array> | Uint8Array][] = [
    ['a .doc with a Macros storage', 'macro-aisha.doc', 'doc:macros', () => minimalDoc([{ path: '/Macros/VBA/dir', data: 'x' }])],
    [
      'a .doc with _VBA_PROJECT_CUR',
      'macro-aisha.doc',
      'doc:macros',
      () => minimalDoc([{ path: '/_VBA_PROJECT_CUR/VBA/dir', data: 'x' }]),
    ],
    ['a pdf named .doc', 'pdf-aisha.doc', 'content', () => PDF],
    ['a compound file whose directory loops', 'loop-aisha.doc', 'doc:tooSlow', looping],
    [
      'a .docx with an external attachedTemplate',
      'template-aisha.docx',
      'docx:external',
      () =>
        minimalDocx([
          rels(
            `<Relationship Id="r1" Type="${REL}/attachedTemplate" Target="https://attacker.example/t.dotm" TargetMode="External"/>`,
          ),
        ]),
    ],
    [
      'a .docx with an oleObject relationship',
      'ole-aisha.docx',
      'docx:embedded',
      () => minimalDocx([rels(`<Relationship Id="r1" Type="${REL}/oleObject" Target="embeddings/oleObject1.dat"/>`)]),
    ],
    [
      'a .docx with word/embeddings/x.exe',
      'exe-aisha.docx',
      'docx:executable',
      () => minimalDocx([{ name: 'word/embeddings/x.exe', data: 'MZ' }]),
    ],
    ['a .docx with a .lnk entry', 'lnk-aisha.docx', 'docx:shortcut', () => minimalDocx([{ name: 'CV.lnk', data: 'L' }])],
  ];
  for (const [what, name, code, make] of files) {
    test(`${what}: refused as not a valid type, logged as ${code}`, async () => {
      const before = stored();
      const logged = server.output().length;
      const response = await send(multipart([{ name, bytes: await make() }]));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error: 'invalidFiles',
        files: [{ file: name, reason: 'invalidType' }],
        maxFiles: 5,
        tooMany: false,
      });
      expect(stored()).toEqual(before);
      const log = server.output().slice(logged);
      // A looping directory may also end the worker by its heap: refused as unreadable then.
      const codes = code === 'doc:tooSlow' ? ['doc:tooSlow', 'doc:unreadable'] : [code];
      expect(
        codes.some((one) => log.includes(`"problems":["${one}"]`)),
        log,
      ).toBe(true);
      expect(log).not.toContain('aisha');
    }, 30_000);
  }

  test("with JavaScript off, an Arabic form's refusal of a macro .doc is the Arabic wrong-type alert", async () => {
    const before = stored();
    const data = multipart([{ name: 'cv.doc', bytes: minimalDoc([{ path: '/Macros/VBA/dir', data: 'x' }]) }]);
    data.append('altcha', await solvedProof(server.baseUrl));
    const response = await fetch(`${server.baseUrl}/api/partner?lang=ar`, {
      method: 'POST',
      body: data,
      headers: { Origin: server.origin, Accept: 'text/html' },
      redirect: 'manual',
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain('lang="ar"');
    expect(html).toContain('صيغة الملف «cv.doc» غير مدعومة. يرجى رفع ملفات بصيغة JPG أو PDF أو DOC.');
    expect(stored()).toEqual(before);
  });

  test('a clean .doc and a clean .docx with a web link are accepted together', async () => {
    const docx = await minimalDocx([
      rels(`<Relationship Id="r1" Type="${REL}/hyperlink" Target="https://www.linkedin.com/in/aisha" TargetMode="External"/>`),
    ]);
    const response = await send(
      multipart([
        { name: 'cv.doc', bytes: DOC },
        { name: 'cv.docx', bytes: docx },
      ]),
    );
    expect(response.status, await response.clone().text()).toBe(201);
  });
});
