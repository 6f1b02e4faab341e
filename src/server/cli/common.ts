/** What the staff command's commands share: the options, the terminal, the database, the audit entries. */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { receiverConfig, type ReceiverConfig } from '../config.ts';
import { terminalText } from '../inbox/export-format.ts';
import { openStores, type Stores } from '../store/database.ts';

/** Reported with the usage. */
export class UsageError extends Error {}

/** Every command's options: anything else, or an option without its value, is a usage error. */
export const OPTIONS = {
  form: { type: 'string' },
  format: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  out: { type: 'string' },
  limit: { type: 'string' },
  db: { type: 'string' },
  // Read by the entry point (../cli.ts), before main.
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
export const parse = (argv: readonly string[]) =>
  parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
export type Values = ReturnType<typeof parse>['values'];

export interface Io {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where the server runs from: SUBMISSIONS_DB and the default path are relative to it. */
  readonly root: string;
  /** Where the command was typed: --db and --out are relative to it. */
  readonly cwd: string;
  readonly readSecret?: (prompt: string) => Promise<string>;
  /** A person at a terminal (the password is then asked twice). */
  readonly interactive?: boolean;
  /** Who ran the command, named before it switches to the database's owner (../cli.ts); else from `env` and the user now. */
  readonly actor?: string;
}

/** --db FILE (a SQLite file), else DATABASE_URL, else SUBMISSIONS_DB or its default. */
export function databaseOf(db: string | undefined, io: Pick<Io, 'env' | 'root' | 'cwd'>): ReceiverConfig {
  const config = receiverConfig(io.env, io.root);
  return db === undefined ? config : { ...config, databaseUrl: undefined, dbPath: path.resolve(io.cwd, db) };
}

/** `work` on that database, open, closed after. A SQLite file must exist already: no command makes an empty one by mistake. */
export async function withStores<T>(db: string | undefined, io: Io, work: (stores: Stores) => Promise<T>): Promise<T> {
  const stores = openStores(databaseOf(db, io), { create: false, poolMax: 2 });
  try {
    await stores.ready;
    return await work(stores);
  } finally {
    await stores.close();
  }
}

/** 1 lead, 2 leads. */
export const many = (count: number, noun: string, nouns = `${noun}s`): string => `${count} ${count === 1 ? noun : nouns}`;

/** What `read` returns; its error is a mistake in the arguments, shown as the terminal's text. */
export function asUsage<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new UsageError(terminalText(error instanceof Error ? error.message : String(error)));
  }
}

export function noMore(extra: readonly string[]): void {
  if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra.join(' ')}`);
}
/**
 * Who ran the command, for the audit log: the person behind `sudo`, else the operating-system user;
 * named before the command switches to the database's owner, which would name the service for everyone.
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

export const actorOf = (io: Io): string => io.actor ?? commandActor(io.env);

export async function audited(stores: Stores, io: Io, action: string, detail: string, leadId?: string): Promise<void> {
  await stores.inbox.audit(actorOf(io), action, leadId, detail, new Date());
}

/** One command: its arguments after its name, the options, the terminal; `name` as typed. Returns the exit code. */
export type Command = (args: readonly string[], values: Values, io: Io, name: string) => Promise<number>;
