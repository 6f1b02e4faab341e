/**
 * GET /admin/files/ID: one file sent with a lead (a partner's CV), for signed-in staff only (the
 * guard, src/middleware.ts). Always a download, never shown in the browser: `attachment`, the
 * type its content was checked as, `nosniff`, and a policy that runs nothing. Recorded in the
 * audit log.
 */
import type { APIRoute } from 'astro';
import { attachmentDisposition } from '../../../server/receiver/uploads.ts';

const MISSING =
  'This file is listed with the lead, but the server cannot find it in its files folder.\n' +
  'It was probably not restored with the database: restore the backup with npm run submissions -- restore DIR, which brings back the files too.\n';
const TEXT = { 'Content-Type': 'text/plain; charset=utf-8' };

export const prerender = false;

export const GET: APIRoute = async (context) => {
  const staff = context.locals.staff!;
  const { submissions, inbox } = context.locals.app.stores;
  let found: Awaited<ReturnType<typeof submissions.attachment>>;
  try {
    found = await submissions.attachment(context.params.id ?? '');
  } catch (error) {
    // The record is there, its bytes are not (a restore without the files folder, a disk lost):
    // staff read what happened, never a stack trace; the log names the file by id.
    // By name: the stores are the server's (locals.app), their StoreError class is not this bundle's.
    if (!(error instanceof Error) || error.name !== 'StoreError') throw error;
    context.locals.app.log.error(
      { event: 'file.missing', fileId: context.params.id, err: error.cause ?? error },
      'A stored file cannot be read',
    );
    return new Response(MISSING, { status: 404, headers: { ...TEXT, 'Cache-Control': 'no-store' } });
  }
  if (!found) return new Response('No such file.\n', { status: 404, headers: TEXT });
  // The file by its id: its name is the visitor's text, which the audit log outlives.
  const now = new Date();
  await inbox.audit(staff.email, 'downloaded file', found.record.submissionId, `file ${found.record.id}`, now);
  // The lead's timeline names the file: it goes with the lead when the lead is erased.
  await inbox.record(found.record.submissionId, 'download', found.record.name, staff.email, now);
  return new Response(found.bytes, {
    headers: {
      'Content-Type': found.record.type,
      'Content-Length': String(found.bytes.byteLength),
      'Content-Disposition': attachmentDisposition(found.record.name),
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    },
  });
};
