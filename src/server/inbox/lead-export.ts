/**
 * The inbox's export: the leads a filter finds, oldest first, as CSV in staff's words. One file per
 * form (leads of both forms download as a ZIP of one CSV each): the two forms share almost nothing,
 * so one sheet would be mostly empty cells. Streamed, never all rows at once. Spam is exported only
 * when asked for (the Spam tab, or spam leads picked one by one).
 */
import { Readable } from 'node:stream';
import yazl from 'yazl';
import { CSV_BOM, leadCsvHeader, leadCsvName, leadCsvRow, riyadhDay } from './export-format.ts';
import { LEAD_STATUSES, type InboxStore, type LeadFilter } from './inbox-store.ts';
import { FORMS, type FormName } from '../store/store.ts';

/** A form's leads as CSV text, a few hundred rows a chunk; `counted` is told of each row. */
async function* formCsv(inbox: InboxStore, filter: LeadFilter, form: FormName, counted: () => void): AsyncGenerator<string> {
  let chunk = CSV_BOM + leadCsvHeader(form);
  for await (const lead of inbox.exportLeads({ ...filter, form })) {
    counted();
    chunk += leadCsvRow(lead);
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/** The download of what `filter` finds, recorded as `what` (the filter or the selection). */
export async function leadExport(
  inbox: InboxStore,
  actor: string,
  asked: LeadFilter,
  what: string,
  now: Date,
): Promise<Response> {
  const filter: LeadFilter =
    asked.status || asked.statuses || asked.ids
      ? asked
      : { ...asked, statuses: LEAD_STATUSES.filter((status) => status !== 'spam') };
  const forms: FormName[] = [];
  for (const form of filter.form ? [filter.form] : FORMS)
    if ((await inbox.leads({ ...filter, form }, 1)).total > 0) forms.push(form);
  // An empty export is still a CSV (its header row) of the form asked for, or of the first.
  if (forms.length === 0) forms.push(filter.form ?? FORMS[0]);
  const detail = (rows: string) => `${rows}${what ? ` (${what})` : ''}`;
  // Recorded before the first byte, completed with the row count: an export cut short still leaves its trace.
  const entry = await inbox.audit(actor, 'exported leads', undefined, detail('started'), now);
  let count = 0;
  const counted = () => `${count} lead${count === 1 ? '' : 's'}`;
  const { day } = riyadhDay(now);
  let finished = false;
  const finish = async (text: string) => {
    if (finished) return;
    finished = true;
    await inbox.completeAudit(entry, detail(text));
  };
  const rows = () => {
    count += 1;
  };
  const headers = { 'X-Content-Type-Options': 'nosniff' };

  if (forms.length === 1) {
    const form = forms[0]!;
    const encoder = new TextEncoder();
    const chunks = formCsv(inbox, filter, form, rows);
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) {
          await finish(counted());
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        // The download was dropped: the entry says how far it got.
        await chunks.return(undefined);
        await finish(`stopped after ${counted()}`);
      },
    });
    return new Response(body, {
      headers: {
        ...headers,
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${leadCsvName(form, day)}"`,
      },
    });
  }

  const zip = new yazl.ZipFile();
  for (const form of forms) {
    const csv = Readable.from(
      (async function* () {
        for await (const text of formCsv(inbox, filter, form, rows)) yield Buffer.from(text, 'utf8');
      })(),
      { objectMode: false },
    );
    zip.addReadStream(csv, leadCsvName(form, day), { mtime: now });
  }
  zip.end();
  zip.outputStream.on('end', () => void finish(counted()));
  zip.outputStream.on('close', () => void finish(`stopped after ${counted()}`));
  const name = `globaq-leads-${day}.zip`;
  return new Response(Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>, {
    headers: { ...headers, 'Content-Type': 'application/zip', 'Content-Disposition': `attachment; filename="${name}"` },
  });
}
