/**
 * POST /admin/export?<filter>: the leads the inbox's current filter shows, oldest first, as CSV
 * (the same formula-safe format as `npm run submissions -- export`, with the form, the language it
 * was sent in, the status and the note), recorded in the audit log before the first byte and
 * completed with the row count (or how far it got, when the download was dropped).
 */
import type { APIRoute } from 'astro';
import { csvRow, CSV_BOM } from '../../server/inbox/export-format.ts';
import { filterFromQuery, filterQuery } from '../../server/inbox/inbox-filter.ts';
import { LANGUAGE_LABELS, STATUS_LABELS, inboxDeps, labelledFields } from '../../server/inbox/inbox.ts';

export const prerender = false;

export const POST: APIRoute = async (context) => {
  const staff = context.locals.staff!;
  const { inbox } = inboxDeps();
  const { filter, values } = filterFromQuery(context.url.searchParams);
  const now = new Date();
  // Columns: every field of the forms exported, in the forms' order, each once.
  const forms = filter.form ? [filter.form] : (['contact', 'partner'] as const);
  const columns: string[] = [];
  for (const form of forms) for (const field of labelledFields({ form, fields: {} })) if (!columns.includes(field.name)) columns.push(field.name);
  const filterText = filterQuery(values, 1);
  const what = (rows: string) => `${rows}${filterText ? ` (filter: ${filterText})` : ''}`;
  // Recorded before the first byte, completed with the row count: an export cut short still leaves its trace.
  const entry = await inbox.audit(staff.email, 'exported leads', undefined, what('started'), now);
  let count = 0;
  const counted = () => `${count} lead${count === 1 ? '' : 's'}`;
  const encoder = new TextEncoder();
  const rows = inbox.exportLeads(filter)[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(CSV_BOM + csvRow(['id', 'receivedAt', 'form', 'language', 'status', 'statusBy', 'note', ...columns])));
    },
    async pull(controller) {
      // A few hundred rows at a time: a large export never sits whole in memory.
      for (let i = 0; i < 200; i++) {
        const next = await rows.next();
        if (next.done) {
          await inbox.completeAudit(entry, what(counted()));
          controller.close();
          return;
        }
        const lead = next.value;
        count += 1;
        controller.enqueue(encoder.encode(csvRow([lead.id, lead.receivedAt, lead.form, LANGUAGE_LABELS[lead.language], STATUS_LABELS[lead.status], lead.statusBy ?? '', lead.note, ...columns.map((column) => lead.fields[column])])));
      }
    },
    async cancel() {
      // The download was dropped: the entry says how far it got.
      await inbox.completeAudit(entry, what(`stopped after ${counted()}`));
    },
  });
  const stamp = now.toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="globaq-leads-${stamp}.csv"`,
      'X-Content-Type-Options': 'nosniff',
    },
  });
};
