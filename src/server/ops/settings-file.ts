/**
 * One settings file for the server and the staff command: GLOBAQ_SETTINGS names it (default
 * /etc/globaq/site.env, when it exists), one NAME="value" a line, as systemd's EnvironmentFile
 * and a shell's `set -a; . file` read it too. A variable already in the environment wins over the
 * file. GLOBAQ_SETTINGS=none reads no file.
 *
 * So `npm run submissions -- outbox`, typed by an operator with none of the service's variables
 * set, works on the service's own database.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import fs from 'node:fs';
import { parseEnv } from 'node:util';
import { ConfigError } from '../config.ts';

export const DEFAULT_SETTINGS_FILE = '/etc/globaq/site.env';

/** Adds the file's settings to `env` (those not set already); returns the file read, if any. */
export function loadSettingsFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const named = env['GLOBAQ_SETTINGS']?.trim();
  if (named === 'none') return undefined;
  const file = named || DEFAULT_SETTINGS_FILE;
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // The default file is optional (a development machine has none); a named one is not.
    if (!named && code === 'ENOENT') return undefined;
    throw new ConfigError(
      `GLOBAQ_SETTINGS: cannot read ${file} (${code ?? String(error)})${code === 'EACCES' ? ': run as root or as the service user (sudo -u globaq …)' : ''}`,
    );
  }
  for (const [name, value] of Object.entries(parseEnv(text))) if (env[name] === undefined) env[name] = value;
  return file;
}

/**
 * Run as root on a SQLite database owned by the service user: becomes that user before opening
 * anything, so SQLite's -wal and -shm files (made by the first connection) and anything else
 * written are the service's, never root's. Returns the user id switched to, if any.
 */
export function becomeOwnerOf(dbPath: string): number | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0 || !process.setuid || !process.setgid) return undefined;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dbPath);
  } catch {
    return undefined;
  }
  if (stat.uid === 0) return undefined;
  process.setgroups?.([stat.gid]);
  process.setgid(stat.gid);
  process.setuid(stat.uid);
  return stat.uid;
}
