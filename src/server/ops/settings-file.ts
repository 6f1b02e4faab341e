/**
 * The service's settings file, read only when a process is told (`--settings FILE`), never from a
 * default path: no checkout on the machine takes the service's settings by itself. One
 * NAME="value" a line, as systemd's EnvironmentFile reads it; a variable already set wins.
 */
import fs from 'node:fs';
import { parseArgs, parseEnv } from 'node:util';
import { ConfigError } from '../config.ts';

/** Adds the settings of the file `--settings` names in `args` to `env`, those not set already. */
export function loadSettingsFile(args: readonly string[], env: NodeJS.ProcessEnv = process.env): void {
  const options = { settings: { type: 'string' } } as const;
  const file = parseArgs({ args: [...args], options, strict: false, allowPositionals: true }).values.settings;
  if (file === undefined) return;
  if (typeof file !== 'string') throw new ConfigError('--settings: name the settings file (--settings /etc/globaq/site.env)');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(
      `--settings: cannot read ${file} (${code ?? String(error)})${code === 'EACCES' ? ': run as root or as the service user (sudo -u globaq …)' : ''}`,
    );
  }
  for (const [name, value] of Object.entries(parseEnv(text))) if (env[name] === undefined) env[name] = value;
}

/**
 * Run as root on a SQLite database owned by the service user: becomes that user before opening
 * anything, so SQLite's -wal and -shm files (made by the first connection) and anything else
 * written are the service's, never root's. Returns the user id switched to, if any.
 */
export function becomeOwnerOf(dbPath: string): number | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0 || !process.setuid || !process.setgid) return undefined;
  const stat = fs.statSync(dbPath, { throwIfNoEntry: false });
  if (!stat || stat.uid === 0) return undefined;
  process.setgroups?.([stat.gid]);
  process.setgid(stat.gid);
  process.setuid(stat.uid);
  return stat.uid;
}
