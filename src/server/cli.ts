/** The staff command: `npm run submissions -- <command> [options]` (USAGE; the commands are in ./cli/). */
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { becomeOwnerOf, loadSettingsFile } from './ops/settings-file.ts';
import { ADMIN_COMMANDS } from './cli/admin.ts';
import { OPTIONS, UsageError, commandActor, databaseOf, parse, type Command, type Io } from './cli/common.ts';
import { LEAD_COMMANDS } from './cli/leads.ts';

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
         Brings the database to this release's schema, forward only: a release's step, after
         a backup (docs/deploy.md). Until then the server and these commands refuse it.
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

const COMMANDS: Readonly<Record<string, Command>> = { ...LEAD_COMMANDS, ...ADMIN_COMMANDS };
const NAMES = Object.keys(COMMANDS).join(', ');

export async function main(argv: readonly string[], io: Io): Promise<number> {
  try {
    const { positionals, values } = parse(argv);
    const [command, ...extra] = positionals;
    if (values.help === true || command === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    if (command === undefined) throw new UsageError(`Name a command: ${NAMES}.`);
    if (!Object.hasOwn(COMMANDS, command)) throw new UsageError(`Unknown command "${command}": ${NAMES}.`);
    return await COMMANDS[command]!(extra, values, io, command);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof UsageError || String((error as { code?: unknown } | null)?.code).startsWith('ERR_PARSE_ARGS')) {
      // Node's hint on an unknown option (a positional after --) is not for this command.
      io.stderr(`${message.replace(/\. To specify a positional .*/s, '.')}\n\n${USAGE}`);
      return 2;
    }
    io.stderr(`${message}\n`);
    return 1;
  }
}

/** A password from standard input: at a terminal typed without echo after `prompt` (Ctrl-C quits), else the next line piped in. */
async function readSecret(prompt: string): Promise<string> {
  const terminal = process.stdin.isTTY === true;
  if (terminal) process.stderr.write(prompt);
  // At a terminal readline reads the line (Backspace works); what it would echo goes nowhere.
  const lines = readline.createInterface({
    input: process.stdin,
    output: new Writable({ write: (_c, _e, done) => done() }),
    terminal,
  });
  lines.on('SIGINT', () => process.exit(130));
  const { value } = await lines[Symbol.asyncIterator]().next();
  lines.close();
  if (terminal) process.stderr.write('\n');
  return (value as string | undefined) ?? '';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // The person who typed the command, named before it acts as the database's owner below.
  const actor = commandActor(process.env);
  // npm runs scripts from the project's folder and says in INIT_CWD where it was typed.
  const cwd = process.env['INIT_CWD'] ?? process.cwd();
  try {
    const args = process.argv.slice(2);
    loadSettingsFile(args);
    // As root on the service's SQLite database: act as its owner, so no file is left root's.
    // Not strict: a mistake in the arguments is main's to report, with the usage.
    const { db } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: false }).values;
    const target = databaseOf(typeof db === 'string' ? db : undefined, { env: process.env, root: process.cwd(), cwd });
    if (!target.databaseUrl) becomeOwnerOf(target.dbPath);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
  process.exitCode = await main(process.argv.slice(2), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    root: process.cwd(),
    cwd,
    interactive: process.stdin.isTTY === true,
    readSecret,
    actor,
  });
}
