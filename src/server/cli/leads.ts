/** The staff command's commands on leads (../cli.ts's USAGE says what each does). */
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CSV_BOM, fieldColumns, leadCsvHeader, leadCsvRow, terminalText, toCsv, toJson } from '../inbox/export-format.ts';
import { LEAD_STATUSES, type LeadFilter } from '../inbox/inbox-store.ts';
import { PERSON_EXPORT_ACTION, isPersonFormat, personAuditDetail, personFile } from '../inbox/person-file.ts';
import type { Stores } from '../store/database.ts';
import { FORMS, isFormName, type FormName, type Query, type StoredSubmission } from '../store/store.ts';
import { UsageError, actorOf, audited, many, noMore, withStores, type Command, type Io, type Values } from './common.ts';

function parseLimit(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1000)
    throw new UsageError(`--limit must be a whole number from 1 to 1000 (got "${text}")`);
  return Number(text);
}

/** A day (midnight UTC) or an ISO time. */
function parseDate(option: string, text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const date = new Date(
    /^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00.000Z` : /^\d{4}-\d{2}-\d{2}T/.test(text) ? text : NaN,
  );
  if (Number.isNaN(date.getTime()))
    throw new UsageError(`--${option} must be a date such as 2026-11-01 or 2026-11-01T08:00:00+03:00 (got "${text}")`);
  return date;
}

function parseForm(text: string | undefined, required: boolean): FormName | undefined {
  if (text === undefined && required) throw new UsageError(`--form is required: ${FORMS.join(' or ')}`);
  if (text !== undefined && !isFormName(text)) throw new UsageError(`--form must be ${FORMS.join(' or ')} (got "${text}")`);
  return text as FormName | undefined;
}

function summary(submission: StoredSubmission): string {
  const text = (key: string) => (typeof submission.fields[key] === 'string' ? (submission.fields[key] as string) : '');
  const who =
    submission.form === 'contact'
      ? `${text('firstName')} ${text('lastName')}`.trim()
      : [text('name'), text('organization')].filter(Boolean).join(', ');
  // Stored text is the visitor's: printed so that the terminal shows it and never obeys it.
  const line = terminalText(`${who} <${text('email')}>`).replace(/\s+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** Writes to standard output, or to `out`; returns " to FILE" or "". */
async function writeExport(chunks: AsyncIterable<string> | Iterable<string>, out: string | undefined, io: Io): Promise<string> {
  if (out === undefined) {
    for await (const chunk of chunks) io.stdout(chunk);
    return '';
  }
  // Written beside the target, then renamed: a failed export never leaves half a file.
  const target = path.resolve(io.cwd, out);
  const partial = `${target}.partial-${process.pid}`;
  try {
    // flush: on disk (fsync) before it is closed, and so before the rename.
    await pipeline(Readable.from(chunks), fs.createWriteStream(partial, { flush: true }));
  } catch (error) {
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  await fs.promises.rename(partial, target);
  return ` to ${target}`;
}

/** Every option is checked before the database is opened. */
const leads: Command = async (extra, values, io, name) => {
  const command = name as 'export' | 'list' | 'count';
  noMore(extra);
  const bots = values.bots === true;
  const form = parseForm(values.form, command === 'export');
  const since = parseDate('since', values.since);
  const until = parseDate('until', values.until);
  // Held leads (`held` lists them) stay out unless --with-held; leads staff marked as spam unless --include-spam.
  const query: Query = {
    ...(form ? { form } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
    bots,
    inboxOnly: values['with-held'] !== true,
    withoutSpam: values['include-spam'] !== true,
  };
  const format = values.format;
  if (command === 'export' && format !== 'csv' && format !== 'json')
    throw new UsageError(`--format must be csv or json${format === undefined ? '' : ` (got "${format}")`}`);
  const limit = command === 'list' ? parseLimit(values.limit ?? '20') : 0;
  return withStores(values.db, io, async (stores) => {
    if (command === 'export') {
      // A snapshot: what arrives while the export runs waits for the next one.
      const snapshot = { ...query, form: form as FormName, until: until ?? new Date() };
      io.stderr(`${await exportLeads(stores, snapshot, values, io)}\n`);
      return 0;
    }
    const scope = `${form ?? 'every form'}${bots ? ", the honeypot's catch" : ''}${since ? ` since ${since.toISOString()}` : ''}${until ? ` until ${until.toISOString()}` : ''}`;
    if (command === 'count') {
      await audited(stores, io, 'counted leads', scope);
      for (const name of form ? [form] : FORMS)
        io.stdout(`${name}\t${await stores.submissions.count({ ...query, form: name })}\n`);
      return 0;
    }
    const rows = await stores.submissions.list({ ...query, limit });
    await audited(stores, io, 'listed leads', `${scope}: ${rows.length} shown`);
    for (const row of rows) io.stdout(`${row.receivedAt}  ${row.form.padEnd(7)}  ${row.id}  ${summary(row)}\n`);
    if (rows.length === 0) io.stderr('No submissions.\n');
    return 0;
  });
};

async function exportLeads({ submissions: store, inbox }: Stores, query: Query & { form: FormName }, values: Values, io: Io) {
  const format = values.format as 'csv' | 'json';
  const what = `${query.form} submissions as ${format.toUpperCase()}${query.since ? ` since ${query.since.toISOString()}` : ''} until ${query.until?.toISOString() ?? 'now'}${query.bots ? ", the honeypot's catch" : query.withoutSpam ? ', without spam' : ''}`;
  // Written before the first row: an export cut short still leaves its trace.
  const entry = await inbox.audit(actorOf(io), 'exported leads', undefined, `${what}: started`, new Date());
  let rows = 0;
  async function* counted(): AsyncGenerator<StoredSubmission> {
    for await (const submission of store.export(query)) {
      rows += 1;
      yield submission;
    }
  }
  const { form, since, until, withoutSpam } = query;
  const filter: LeadFilter = {
    form,
    ...(since ? { since } : {}),
    // The staff command's --until includes its moment; the inbox's filter stops before it.
    ...(until ? { until: new Date(until.getTime() + 1) } : {}),
    ...(withoutSpam ? { statuses: LEAD_STATUSES.filter((status) => status !== 'spam') } : {}),
  };
  async function* leadRows(): AsyncGenerator<string> {
    yield CSV_BOM + leadCsvHeader(form);
    for await (const lead of inbox.exportLeads(filter)) {
      rows += 1;
      yield leadCsvRow(lead);
    }
  }
  // The honeypot's catch as CSV: every field name as stored, in the order first met (first pass); then the rows.
  async function* botRows(): AsyncGenerator<string> {
    const columns = new Set<string>();
    for await (const submission of store.export(query)) for (const column of fieldColumns([submission])) columns.add(column);
    yield* toCsv([...columns], counted());
  }
  const where = await writeExport(format === 'json' ? toJson(counted()) : query.bots ? botRows() : leadRows(), values.out, io);
  await inbox.completeAudit(entry, `${what}: ${rows} exported`);
  return `${many(rows, `${query.form} submission`)} exported${where}`;
}

const outbox: Command = async (args, values, io) => {
  const [action, id, ...rest] = args;
  if (action !== undefined && action !== 'retry')
    throw new UsageError(`Unknown outbox command "${action}": outbox, or outbox retry ID.`);
  if (action === 'retry' && (id === undefined || rest.length > 0)) throw new UsageError('outbox retry takes one lead id.');
  return withStores(values.db, io, async (stores) => {
    if (action === 'retry') {
      if (!(await stores.outbox.retry(id ?? '', new Date()))) {
        io.stderr(`No notification for a lead "${terminalText(id ?? '')}".\n`);
        return 1;
      }
      await audited(stores, io, 'queued a notification again', '', id);
      io.stderr(`The notification of ${id} is queued; the running server sends it within seconds.\n`);
      return 0;
    }
    const entries = await stores.outbox.list(['pending', 'failed']);
    await audited(stores, io, 'listed undelivered notifications', `${entries.length} shown`);
    for (const entry of entries) {
      const when = entry.status === 'pending' ? `next try ${entry.nextAttemptAt}` : 'given up';
      const error = entry.lastError ? `  (${terminalText(entry.lastError)})` : '';
      io.stdout(
        `${entry.createdAt}  ${entry.status.padEnd(7)}  ${entry.submissionId}  ${many(entry.attempts, 'attempt')}, ${when}  ${terminalText(entry.subject)}${error}\n`,
      );
    }
    if (entries.length === 0) io.stderr('Every notification was delivered.\n');
    return 0;
  });
};

/** The moment `age` (24m, 90d, 2y) before `now`. */
export function cutoffFor(age: string | undefined, now: Date): Date {
  const match = /^(\d{1,4})([dmy])$/.exec(age ?? '');
  if (!match || Number(match[1]) < 1)
    throw new UsageError(
      `--older-than must be an age such as 24m (months), 90d (days) or 2y (years)${age === undefined ? '' : ` (got "${age}")`}`,
    );
  const count = Number(match[1]);
  const cutoff = new Date(now);
  if (match[2] === 'd') cutoff.setUTCDate(cutoff.getUTCDate() - count);
  else if (match[2] === 'm') cutoff.setUTCMonth(cutoff.getUTCMonth() - count);
  else cutoff.setUTCFullYear(cutoff.getUTCFullYear() - count);
  return cutoff;
}

/** Erasure, each in one transaction, saying what went. */
const erase: Command = async (args, values, io, command) => {
  if (command === 'delete' && args.length !== 1) throw new UsageError('delete takes one submission id.');
  if (command === 'purge') noMore(args);
  const cutoff = command === 'purge' ? cutoffFor(values['older-than'], new Date()) : undefined;
  return withStores(values.db, io, async (stores) => {
    if (cutoff) {
      const gone = await stores.submissions.purge(cutoff);
      const before = `received before ${cutoff.toISOString()}`;
      await audited(stores, io, 'purged leads', `${before}: ${gone.leads} leads, ${gone.bots} caught by the honeypot`);
      const files = gone.attachments > 0 ? `, ${many(gone.attachments, 'file')}` : '';
      io.stderr(
        `Erased what was ${before}: ${many(gone.leads, 'lead')}, ${gone.bots} caught by the honeypot, ${many(gone.notifications, 'notification')}${files}.\n`,
      );
      return 0;
    }
    const id = args[0] ?? '';
    const gone = await stores.submissions.delete(id);
    if (!gone) {
      io.stderr(`No submission "${terminalText(id)}".\n`);
      return 1;
    }
    // The lead by its id only: the entry outlives the person's data.
    await audited(stores, io, 'deleted lead', '', gone.submission.id);
    const what = `${gone.submission.form} submission ${gone.submission.id} (received ${gone.submission.receivedAt}, ${summary(gone.submission)})`;
    const files = gone.attachments > 0 ? ` and ${many(gone.attachments, 'file')}` : '';
    io.stderr(`Erased the ${what}${gone.notification ? ' and its notification' : ''}${files}.\n`);
    return 0;
  });
};

/** Recorded by the leads' ids only. */
const person: Command = async (extra, values, io) => {
  noMore(extra);
  const email = values.email?.trim() ?? '';
  const phone = values.phone?.trim() ?? '';
  if (!email && !phone) throw new UsageError('Name the person: --email ADDRESS, --phone NUMBER, or both.');
  const format = values.format ?? 'html';
  if (!isPersonFormat(format)) throw new UsageError(`--format must be json or html (got "${format}")`);
  return withStores(values.db, io, async (stores) => {
    const ticked = values.lead ?? [];
    const left = (await stores.inbox.personMatches({ email, phone })).filter((m) => m.phone && !ticked.includes(m.lead.id));
    // By id only: whether they are the person's is for staff to judge (then --lead ID).
    if (left.length > 0) io.stderr(`Not in the file, the same phone only: ${left.map((m) => m.lead.id).join(' ')}\n`);
    const data = await stores.inbox.personData({ email, phone, ticked });
    if (data.leads.length === 0) {
      // The person's values are theirs: the message does not repeat them.
      io.stderr('No lead has this e-mail or phone: nothing is held about this person. No file was written.\n');
      return 1;
    }
    await audited(stores, io, PERSON_EXPORT_ACTION, personAuditDetail(data, format));
    const where = await writeExport([personFile(data, format, new Date()).text], values.out, io);
    io.stderr(
      `${many(data.leads.length, 'lead')} and ${many(data.audit.length, 'audit entry', 'audit entries')} written as ${format.toUpperCase()}${where}.\n`,
    );
    return 0;
  });
};

const held: Command = async (extra, values, io) => {
  noMore(extra);
  const limit = parseLimit(values.limit ?? '50');
  const state = values.spam === true ? 'spam' : 'held';
  return withStores(values.db, io, async (stores) => {
    const total = await stores.held.count(state);
    const rows = await stores.held.list(state, limit);
    const action = state === 'spam' ? 'listed leads marked as spam' : 'listed held leads';
    await audited(stores, io, action, `${rows.length} of ${total} shown`);
    for (const row of rows) {
      const files = row.files > 0 ? `  (${many(row.files, 'file')})` : '';
      io.stdout(`${row.receivedAt}  ${row.form.padEnd(7)}  ${row.id}  ${row.reason.padEnd(13)}  ${summary(row)}${files}\n`);
    }
    io.stderr(
      `${total} ${state === 'spam' ? 'marked as spam' : 'held for review'}${rows.length < total ? ` (the newest ${rows.length} shown)` : ''}.\n`,
    );
    return 0;
  });
};

export const LEAD_COMMANDS = { export: leads, list: leads, count: leads, held, outbox, delete: erase, purge: erase, person };
