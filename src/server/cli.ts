/**
 * The staff command: `npm run submissions -- <command> [options]`; USAGE below lists the commands
 * and their options.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { receiverConfig } from './config.ts';
import { CSV_BOM, fieldColumns, leadCsvHeader, leadCsvRow, terminalText, toCsv, toJson } from './inbox/export-format.ts';
import { databaseWhere, openStores, type Stores } from './store/database.ts';
import { migrateToPostgres } from './store/migrate-to.ts';
import { migrateDatabase } from './store/migrate.ts';
import { BackupError, backupSqlite, restoreSqlite } from './ops/backup.ts';
import { becomeOwnerOf, loadSettingsFile } from './ops/settings-file.ts';
import { redactUrl } from './store/postgres/pg-store.ts';
import { hashPassword, passwordProblem, staffEmail } from './inbox/staff.ts';
import { LEAD_STATUSES, type LeadFilter } from './inbox/inbox-store.ts';
import { PERSON_EXPORT_ACTION, isPersonFormat, personAuditDetail, personFile } from './inbox/person-file.ts';
import { FORMS, isFormName, type FormName, type Query, type StoredSubmission } from './store/store.ts';

export const USAGE = `Usage: npm run submissions -- <command> [options]

Commands:
  export --form contact|partner --format csv|json [--since DATE] [--until DATE] [--out FILE]
         Every submission of one form, oldest first. CSV has the inbox export's columns
         (lead ID, received in Riyadh time, form, language, status, who set it, note, then
         the form's questions by their labels) and is UTF-8 with a byte-order mark (opens in
         Excel and Google Sheets with Arabic intact); cells that a spreadsheet could run as
         a formula start with an apostrophe. Without --out it prints to standard output
         (then use npm run --silent, so npm's own lines stay out).
  list   [--form contact|partner] [--since DATE] [--limit N]
         The newest submissions (20 unless --limit), one line each.
  held   [--spam] [--limit N]
         The leads held for review (with --spam: those marked as spam), newest first (50
         unless --limit), each with why it was held.
  count  [--form contact|partner] [--since DATE]
         How many submissions each form has.
  export, list and count leave out the leads staff marked as spam (in the inbox or
  on its held tab: one Spam); --include-spam takes them in.
  outbox
         Lead notifications not delivered yet (pending, with their next try) and given up
         on (failed), with the last error.
  outbox retry ID
         Queues a lead's notification again, to be sent at once (also one already sent).
  delete ID
         Erases one submission and everything stored with it (its notification), for a
         person who asks to be forgotten; says what it erased.
  purge  --older-than AGE
         Erases every submission received longer ago than AGE: 24m (months), 90d (days)
         or 2y (years), with what is stored with each: a retention policy.
  person --email ADDRESS [--phone NUMBER] [--lead ID ...] [--format json|html] [--out FILE]
         Everything kept about a person who asks what we hold: every lead with the e-mail
         (case aside), and of those sharing only a full international phone (+966...) with
         it or --phone, each named by --lead (the others are listed, by id), with its
         status, timeline and file list, and the audit entries naming those leads. HTML
         (default) is a printable page in the person's language; JSON is for machines.
         Without --out it prints to standard output. Recorded in the audit log by the
         leads' ids only.
  staff add EMAIL | staff password EMAIL
         Makes a staff account for the inbox, or sets its password: asked twice on a
         terminal, else read from the first line of standard input. At least 12 characters.
  staff list | staff remove EMAIL
         The accounts (never their passwords), or removes one.
  staff reset-two-step EMAIL
         Turns the account's two-step sign-in off (a lost phone), its recovery codes with
         it; staff set it up again at /admin/two-step (at their next sign-in when
         STAFF_TWO_STEP=required).
  backup DIR
         A consistent copy of the SQLite database while the server runs (SQLite's online
         backup), with the files of the copied leads and a manifest of checksums, into DIR
         (a new or empty folder). PostgreSQL: use pg_dump (docs/deploy.md).
  restore DIR
         Brings a backup back: refused while a server has the database open, or when any
         checksum fails. What was there is kept aside (*.before-restore-TIME).
  migrate
         Brings the database to this release's schema, forward only: a step of a release,
         after a backup (docs/deploy.md). The server and these commands refuse a database
         whose schema is older or newer than theirs (an empty one they set up).
  migrate-to DATABASE_URL
         Moves everything in the SQLite file (--db or SUBMISSIONS_DB) into an empty
         PostgreSQL database (postgres://user:password@host:5432/database), in one
         transaction: leads, notifications, files, staff accounts, the audit log. The file
         is only read. Then set DATABASE_URL for the server.

Options for every command:
  --settings FILE
              the service's settings file (on the server: /etc/globaq/site.env), read
              first; without it no file is read, only the environment
  --db FILE   a SQLite database file (default: DATABASE_URL when set, else SUBMISSIONS_DB,
              else ./data/submissions.db)
  --bots      the submissions the honeypot caught before it held them for review, instead
              of the leads
  --with-held export, list and count: also the leads still held for review
DATE: 2026-11-01 (midnight UTC) or an ISO time such as 2026-11-01T08:00:00+03:00.
`;

export class UsageError extends Error {}

/** The commands, for the messages that name them. */
const COMMANDS = 'export, list, count, held, outbox, delete, purge, person, staff, backup, restore, migrate or migrate-to';

/** Every command's options: anything else, or an option without its value, is a usage error. */
const OPTIONS = {
  form: { type: 'string' },
  format: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  out: { type: 'string' },
  limit: { type: 'string' },
  db: { type: 'string' },
  // Read by the entry point below, before main.
  settings: { type: 'string' },
  bots: { type: 'boolean' },
  spam: { type: 'boolean' },
  'with-held': { type: 'boolean' },
  'include-spam': { type: 'boolean' },
  'older-than': { type: 'string' },
  email: { type: 'string' },
  phone: { type: 'string' },
  lead: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h' },
} as const;
const parse = (argv: readonly string[]) => parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
type Values = ReturnType<typeof parse>['values'];

interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where the server runs from: SUBMISSIONS_DB and the default path are relative to it. */
  readonly root: string;
  /** Where the command was typed: --db and --out are relative to it. */
  readonly cwd: string;
  /** Reads a password: without echo on a terminal, else the next line of standard input. */
  readonly readSecret?: (prompt: string) => Promise<string>;
  /** A person at a terminal (the password is then asked twice). */
  readonly interactive?: boolean;
  /**
   * Who ran the command, named before it switches to the database's owner (the entry point
   * below); without it, named from `env` and the user running now.
   */
  readonly actor?: string;
}

/**
 * `work` on the database a command works on, open and migrated, closed after: --db FILE (a SQLite
 * file, from where it was typed), else DATABASE_URL (PostgreSQL), else SUBMISSIONS_DB or its
 * default. A SQLite file must exist already: the command never makes an empty one by mistake.
 */
async function withStores<T>(db: string | undefined, io: Io, work: (stores: Stores) => Promise<T>): Promise<T> {
  const config = receiverConfig(io.env, io.root);
  const stores =
    db !== undefined
      ? openStores({ ...config, databaseUrl: undefined, dbPath: path.resolve(io.cwd, db) }, { create: false })
      : openStores(config, { create: false, poolMax: 2 });
  try {
    await stores.ready;
    return await work(stores);
  } finally {
    await stores.close();
  }
}

/** `count` and `noun` as English says them: 1 lead, 2 leads. */
const many = (count: number, noun: string, nouns = `${noun}s`): string => `${count} ${count === 1 ? noun : nouns}`;

/** Refuses arguments a command does not take. */
function noMore(extra: readonly string[]): void {
  if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra.join(' ')}`);
}
/** --limit as a number from 1 to 1000. */
function parseLimit(text: string): number {
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 1000)
    throw new UsageError(`--limit must be a whole number from 1 to 1000 (got "${text}")`);
  return Number(text);
}

function parseDate(option: string, text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? new Date(`${text}T00:00:00.000Z`)
    : /^\d{4}-\d{2}-\d{2}T/.test(text)
      ? new Date(text)
      : new Date(Number.NaN);
  if (Number.isNaN(date.getTime()))
    throw new UsageError(`--${option} must be a date such as 2026-11-01 or 2026-11-01T08:00:00+03:00 (got "${text}")`);
  return date;
}

function parseForm(text: string | undefined, required: boolean): FormName | undefined {
  if (text === undefined) {
    if (required) throw new UsageError(`--form is required: ${FORMS.join(' or ')}`);
    return undefined;
  }
  if (!isFormName(text)) throw new UsageError(`--form must be ${FORMS.join(' or ')} (got "${text}")`);
  return text;
}

function summary(submission: StoredSubmission): string {
  const f = submission.fields;
  const text = (key: string) => (typeof f[key] === 'string' ? (f[key] as string) : '');
  const who =
    submission.form === 'contact'
      ? `${text('firstName')} ${text('lastName')}`.trim()
      : [text('name'), text('organization')].filter(Boolean).join(', ');
  // Stored text is the visitor's: printed so that the terminal shows it and never obeys it.
  const line = terminalText(`${who} <${text('email')}>`).replace(/\s+/g, ' ');
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** Writes to standard output, or to `out` (from where the command was typed); returns " to FILE" or "". */
async function writeExport(chunks: AsyncIterable<string> | Iterable<string>, out: string | undefined, io: Io): Promise<string> {
  if (out === undefined) {
    for await (const chunk of chunks) io.stdout(chunk);
    return '';
  }
  // Written beside the target, then renamed: a failed export never leaves half a file.
  const target = path.resolve(io.cwd, out);
  const partial = `${target}.partial-${process.pid}`;
  const handle = await fs.promises.open(partial, 'w');
  try {
    for await (const chunk of chunks) await handle.write(chunk);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await fs.promises.rm(partial, { force: true });
    throw error;
  }
  await handle.close();
  await fs.promises.rename(partial, target);
  return ` to ${target}`;
}

/**
 * Who ran the command, for the audit log (the inbox's entries name a staff e-mail): the person
 * behind `sudo` (SUDO_USER), else the operating-system user. Named before the command switches to
 * the database's owner, which would otherwise name the service for everyone.
 */
export function commandActor(env: Readonly<Record<string, string | undefined>> = process.env): string {
  let name = env['SUDO_USER']?.trim() ?? '';
  if (!name) {
    try {
      name = os.userInfo().username;
    } catch {
      name = env['USER'] ?? env['LOGNAME'] ?? '';
    }
  }
  // A name is an account name: anything else (a control character, a long text) is not kept.
  name = name.replace(/[^\w.@-]/g, '?').slice(0, 64);
  return `${name || 'unknown user'} (staff command)`;
}

/** The actor of this run of the command. */
const actorOf = (io: Io): string => io.actor ?? commandActor(io.env);

/** Records a command that read or changed leads or accounts, under the person who ran it. */
async function audited(stores: Stores, io: Io, action: string, detail: string, leadId?: string): Promise<void> {
  await stores.inbox.audit(actorOf(io), action, leadId, detail, new Date());
}

/** `export`, `list` and `count`: every option is checked before the database is opened. */
async function leadsCommand(command: 'export' | 'list' | 'count', extra: readonly string[], values: Values, io: Io) {
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
    const store = stores.submissions;
    if (command === 'export') {
      // A snapshot: what arrives while the export runs waits for the next one.
      const snapshot = { ...query, form: form as FormName, until: until ?? new Date() };
      io.stderr(`${await exportCommand(stores, snapshot, format as 'csv' | 'json', values.out, io)}\n`);
      return 0;
    }
    const scope = `${form ?? 'every form'}${bots ? ", the honeypot's catch" : ''}${since ? ` since ${since.toISOString()}` : ''}${until ? ` until ${until.toISOString()}` : ''}`;
    if (command === 'count') {
      await audited(stores, io, 'counted leads', scope);
      for (const name of form ? [form] : FORMS) io.stdout(`${name}\t${await store.count({ ...query, form: name })}\n`);
      return 0;
    }
    const rows = await store.list({ ...query, limit });
    await audited(stores, io, 'listed leads', `${scope}: ${rows.length} shown`);
    for (const row of rows) io.stdout(`${row.receivedAt}  ${row.form.padEnd(7)}  ${row.id}  ${summary(row)}\n`);
    if (rows.length === 0) io.stderr('No submissions.\n');
    return 0;
  });
}

async function exportCommand(
  { submissions: store, inbox }: Stores,
  query: Query & { readonly form: FormName },
  format: 'csv' | 'json',
  out: string | undefined,
  io: Io,
): Promise<string> {
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
  // The leads as CSV: the inbox export's columns (status, who set it, the note, the questions by their labels).
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
  const where = await writeExport(format === 'json' ? toJson(counted()) : query.bots ? botRows() : leadRows(), out, io);
  await inbox.completeAudit(entry, `${what}: ${rows} exported`);
  return `${many(rows, `${query.form} submission`)} exported${where}`;
}

/** `outbox` and `outbox retry ID`: the notifications staff should know about, and queueing one again. */
async function outboxCommand(args: readonly string[], values: Values, io: Io): Promise<number> {
  const [action, id, ...rest] = args;
  if (action !== undefined && action !== 'retry')
    throw new UsageError(`Unknown outbox command "${action}": outbox, or outbox retry ID.`);
  if (action === 'retry' && (id === undefined || rest.length > 0)) throw new UsageError('outbox retry takes one lead id.');
  return withStores(values.db, io, async (stores) => {
    const outbox = stores.outbox;
    if (action === 'retry') {
      if (!(await outbox.retry(id ?? '', new Date()))) {
        io.stderr(`No notification for a lead "${terminalText(id ?? '')}".\n`);
        return 1;
      }
      await audited(stores, io, 'queued a notification again', '', id);
      io.stderr(`The notification of ${id} is queued; the running server sends it within seconds.\n`);
      return 0;
    }
    const entries = await outbox.list(['pending', 'failed']);
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
}

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

/** `delete ID` and `purge --older-than AGE`: erasure, each in one transaction, saying what went. */
async function erase(command: 'delete' | 'purge', args: readonly string[], values: Values, io: Io): Promise<number> {
  if (command === 'delete' && args.length !== 1) throw new UsageError('delete takes one submission id.');
  if (command === 'purge') noMore(args);
  const cutoff = command === 'purge' ? cutoffFor(values['older-than'], new Date()) : undefined;
  return withStores(values.db, io, async (stores) => {
    const store = stores.submissions;
    if (cutoff) {
      const gone = await store.purge(cutoff);
      const before = `received before ${cutoff.toISOString()}`;
      await audited(stores, io, 'purged leads', `${before}: ${gone.leads} leads, ${gone.bots} caught by the honeypot`);
      const files = gone.attachments > 0 ? `, ${many(gone.attachments, 'file')}` : '';
      io.stderr(
        `Erased what was ${before}: ${many(gone.leads, 'lead')}, ${gone.bots} caught by the honeypot, ${many(gone.notifications, 'notification')}${files}.\n`,
      );
      return 0;
    }
    const id = args[0] ?? '';
    const gone = await store.delete(id);
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
}

/** A new password, asked twice at a terminal; refused with the reason when too weak or not confirmed. */
async function newPassword(io: Io): Promise<string> {
  if (!io.readSecret) throw new UsageError('No way to read a password here.');
  const password = await io.readSecret('Password (at least 12 characters): ');
  const problem = passwordProblem(password);
  if (problem) throw new UsageError(problem);
  if (io.interactive && (await io.readSecret('The same password again: ')) !== password)
    throw new UsageError('The two passwords differ: nothing was changed.');
  return password;
}

/** `staff add|password|list|remove|reset-two-step`: the inbox's accounts. */
async function staffCommand(args: readonly string[], values: Values, io: Io): Promise<number> {
  const [action, address, ...rest] = args;
  const needsEmail = action === 'add' || action === 'password' || action === 'remove' || action === 'reset-two-step';
  if (!needsEmail && action !== 'list')
    throw new UsageError('staff takes add EMAIL, password EMAIL, list, remove EMAIL or reset-two-step EMAIL.');
  if ((needsEmail && (address === undefined || rest.length > 0)) || (!needsEmail && address !== undefined))
    throw new UsageError(`staff ${action} takes ${needsEmail ? 'one e-mail address' : 'nothing more'}.`);
  let email = '';
  if (needsEmail) {
    try {
      email = staffEmail(address ?? '');
    } catch (error) {
      throw new UsageError(terminalText((error as Error).message));
    }
  }
  return withStores(values.db, io, async (stores) => {
    const staff = stores.staff;
    if (action === 'list') {
      const accounts = await staff.list();
      await audited(stores, io, 'listed staff accounts', `${accounts.length} shown`);
      for (const account of accounts)
        io.stdout(
          `${account.email}  created ${account.createdAt}  password set ${account.passwordChangedAt}  ${
            account.twoStepSince ? `two-step since ${account.twoStepSince}` : 'password only (no two-step)'
          }\n`,
        );
      if (accounts.length === 0) io.stderr('No staff accounts yet: npm run submissions -- staff add EMAIL\n');
      return 0;
    }
    const exists = (await staff.passwordHash(email)) !== undefined;
    if (action === 'add' && exists) {
      io.stderr(`There is already an account for ${email} (staff password ${email} changes its password).\n`);
      return 1;
    }
    if (action !== 'add' && !exists) {
      io.stderr(`No account for ${email}${action === 'password' ? ` (staff add ${email} makes one)` : ''}.\n`);
      return 1;
    }
    if (action === 'reset-two-step') {
      const record = await staff.twoStep(email);
      await staff.resetTwoStep(email);
      await audited(stores, io, 'reset two-step sign-in', email);
      io.stderr(
        record?.sealedSecret === undefined
          ? `${email} had no two-step sign-in; nothing to reset.\n`
          : `Two-step sign-in is off for ${email}: its secret and recovery codes are forgotten, and its sessions ended. They sign in again and set it up again at /admin/two-step.\n`,
      );
      return 0;
    }
    if (action === 'remove') {
      await staff.remove(email);
      await audited(stores, io, 'removed staff account', email);
      io.stderr(`Removed the account of ${email}.\n`);
      return 0;
    }
    const hash = await hashPassword(await newPassword(io));
    if (action === 'add') await staff.add(email, hash, new Date());
    else await staff.setPassword(email, hash, new Date());
    await audited(stores, io, action === 'add' ? 'added staff account' : 'set staff password', email);
    io.stderr(action === 'add' ? `Made an account for ${email}.\n` : `Set a new password for ${email}.\n`);
    return 0;
  });
}

/** `migrate-to DATABASE_URL`: the SQLite file's contents into an empty PostgreSQL database. */
async function migrateCommand(args: readonly string[], values: Values, io: Io): Promise<number> {
  const [target, ...rest] = args;
  if (target === undefined || rest.length > 0)
    throw new UsageError('migrate-to takes one PostgreSQL URL: migrate-to postgres://user:password@host:5432/database');
  let url: string;
  try {
    url = receiverConfig({ DATABASE_URL: target }, io.root).databaseUrl!;
  } catch (error) {
    throw new UsageError(terminalText((error as Error).message));
  }
  const source = values.db !== undefined ? path.resolve(io.cwd, values.db) : receiverConfig(io.env, io.root).dbPath;
  // Recorded in the database moved to (its audit log's newest entry), under the person who ran it.
  const moved = await migrateToPostgres(source, url, actorOf(io));
  io.stderr(
    `Moved from ${source} to ${redactUrl(url)}: ${many(moved.leads, 'lead')}, ${moved.bots} caught by the honeypot, ` +
      `${many(moved.notifications, 'notification')}, ${many(moved.files, 'file')}, ` +
      `${many(moved.staff, 'staff account')}, ${many(moved.audit, 'audit entry', 'audit entries')}. ` +
      'Set DATABASE_URL for the server and restart it; keep the SQLite file as a backup.\n',
  );
  return 0;
}

/** `migrate`: the database (--db, else the configured one) brought to this release's schema. */
async function migrateSchema(extra: readonly string[], values: Values, io: Io): Promise<number> {
  noMore(extra);
  const config = receiverConfig(io.env, io.root);
  const target = values.db !== undefined ? { dbPath: path.resolve(io.cwd, values.db), databaseUrl: undefined } : config;
  const { from, to } = await migrateDatabase(target);
  if (from === to) {
    io.stderr(`${databaseWhere(target)} is at schema version ${to} already: nothing to migrate.\n`);
    return 0;
  }
  await withStores(values.db, io, (stores) => audited(stores, io, 'migrated the database', `schema version ${from} to ${to}`));
  io.stderr(`Migrated ${databaseWhere(target)} from schema version ${from} to ${to}.\n`);
  return 0;
}

/** backup DIR and restore DIR, for the SQLite database (--db, else SUBMISSIONS_DB). */
async function backupCommand(command: 'backup' | 'restore', args: readonly string[], values: Values, io: Io) {
  const [folder, ...rest] = args;
  if (folder === undefined || rest.length > 0) throw new UsageError(`${command} takes one folder: ${command} DIR`);
  const config = receiverConfig(io.env, io.root);
  if (values.db === undefined && config.databaseUrl) {
    throw new UsageError(
      `${command} works on the SQLite database; with DATABASE_URL (PostgreSQL) use pg_dump and pg_restore, as docs/deploy.md shows`,
    );
  }
  const dbPath = values.db !== undefined ? path.resolve(io.cwd, values.db) : config.dbPath;
  const dir = path.resolve(io.cwd, folder);
  try {
    const backup = command === 'backup';
    const { manifest, setAside } = backup
      ? { manifest: await backupSqlite(dbPath, dir), setAside: [] }
      : restoreSqlite(dir, dbPath);
    const counts = `${many(manifest.counts.leads, 'lead')}, ${many(manifest.files.length, 'file')}`;
    // A restore is recorded in the database restored, the one the server reads from now on.
    await withStores(dbPath, io, (stores) =>
      backup
        ? audited(stores, io, 'backed up the database', `to ${dir}`)
        : audited(stores, io, 'restored the database', `from ${dir}, taken ${manifest.createdAt}`),
    );
    io.stderr(
      backup
        ? `Backed up ${dbPath} to ${dir}: ${counts}, checksums in manifest.json.\n` +
            (manifest.missing.length > 0
              ? `${many(manifest.missing.length, 'file was', 'files were')} missing from the files folder: ${manifest.missing.join(', ')}\n`
              : '')
        : `Restored ${dir} (taken ${manifest.createdAt}) to ${dbPath}: ${counts}, every checksum checked.\n` +
            (setAside.length > 0 ? `Kept aside: ${setAside.join(', ')}\n` : ''),
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

/** Runs one command; returns the exit code. */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const { positionals, values } = parse(argv);
    const [command, ...extra] = positionals;
    if (values.help === true || command === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    if (command === undefined) throw new UsageError(`Name a command: ${COMMANDS}.`);
    if (command === 'export' || command === 'list' || command === 'count') return await leadsCommand(command, extra, values, io);
    if (command === 'held') return await heldCommand(extra, values, io);
    if (command === 'outbox') return await outboxCommand(extra, values, io);
    if (command === 'delete' || command === 'purge') return await erase(command, extra, values, io);
    if (command === 'person') return await personCommand(extra, values, io);
    if (command === 'staff') return await staffCommand(extra, values, io);
    if (command === 'backup' || command === 'restore') return await backupCommand(command, extra, values, io);
    if (command === 'migrate') return await migrateSchema(extra, values, io);
    if (command === 'migrate-to') return await migrateCommand(extra, values, io);
    throw new UsageError(`Unknown command "${command}": ${COMMANDS}.`);
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      // Node's hint on an unknown option (a positional after --) is not for this command.
      io.stderr(`${error.message.replace(/\. To specify a positional .*/s, '.')}\n\n${USAGE}`);
      return 2;
    }
    io.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

/** `person`: the file of everything kept about a person, recorded by the leads' ids only. */
async function personCommand(extra: readonly string[], values: Values, io: Io): Promise<number> {
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
}

/** `held`: the held leads (or, with --spam, those marked spam), newest first, each with its reason. */
async function heldCommand(extra: readonly string[], values: Values, io: Io): Promise<number> {
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
}

/** Standard input's lines, read once, handed out one by one (a password piped in). */
let pipedLines: Promise<string[]> | undefined;
async function nextPipedLine(): Promise<string> {
  pipedLines ??= (async () => {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.split(/\r?\n/);
  })();
  const lines = await pipedLines;
  return lines.shift() ?? '';
}

/** A line typed at the terminal without echo (Enter ends it, Backspace works, Ctrl-C quits). */
function hiddenLine(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const input = process.stdin;
    process.stderr.write(prompt);
    input.setRawMode(true);
    input.resume();
    input.setEncoding('utf8');
    let typed = '';
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          input.setRawMode(false);
          input.pause();
          input.off('data', onData);
          process.stderr.write('\n');
          resolve(typed);
          return;
        }
        if (char === '\u0003') {
          input.setRawMode(false);
          process.stderr.write('\n');
          process.exit(130);
        }
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += char;
      }
    };
    input.on('data', onData);
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // The person who typed the command, named before it acts as the database's owner below.
  const actor = commandActor(process.env);
  try {
    // The service's settings file only when told (--settings FILE), before any setting is read.
    const args = process.argv.slice(2);
    loadSettingsFile(args);
    // As root on the service's SQLite database: act as its owner, so no file is left root's.
    // Not strict: a mistake in the arguments is main's to report, with the usage.
    const { db } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: false }).values;
    const dbOption = typeof db === 'string' ? db : undefined;
    const config = receiverConfig(process.env, process.cwd());
    if (dbOption !== undefined || !config.databaseUrl)
      becomeOwnerOf(dbOption !== undefined ? path.resolve(process.env['INIT_CWD'] ?? process.cwd(), dbOption) : config.dbPath);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  const interactive = process.stdin.isTTY === true;
  const code = await main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    root: process.cwd(),
    // npm runs scripts from the project's folder and says in INIT_CWD where it was typed.
    cwd: process.env['INIT_CWD'] ?? process.cwd(),
    interactive,
    readSecret: interactive ? hiddenLine : () => nextPipedLine(),
    actor,
  });
  process.exitCode = code;
}
