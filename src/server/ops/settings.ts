/** The operations settings (OPS_TOKEN, READY_PENDING_MAX_MINUTES, …), read at start: docs/receiver.md's settings table. */
import { ConfigError } from '../config.ts';

export interface OpsSettings {
  readonly token: string | undefined;
  readonly pendingMaxMs: number;
  readonly shutdownTimeoutMs: number;
  readonly logLevel: string;
  readonly logFormat: 'json' | 'pretty';
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function whole(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new ConfigError(`${name}: must be a whole number from ${min} (got "${raw}")`);
  return Number(raw);
}

export function opsSettings(env: Readonly<Record<string, string | undefined>> = process.env): OpsSettings {
  const token = env['OPS_TOKEN']?.trim() || undefined;
  if (token !== undefined && (token.length < 24 || /\s/.test(token)))
    throw new ConfigError('OPS_TOKEN: must be at least 24 characters, without spaces (e.g. openssl rand -hex 24)');
  const logLevel = env['LOG_LEVEL']?.trim().toLowerCase() || 'info';
  if (!LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL: must be one of ${LEVELS.join(', ')} (got "${logLevel}")`);
  const format = env['LOG_FORMAT']?.trim().toLowerCase() || 'json';
  if (format !== 'json' && format !== 'pretty') throw new ConfigError(`LOG_FORMAT: must be json or pretty (got "${format}")`);
  return {
    token,
    pendingMaxMs: whole(env, 'READY_PENDING_MAX_MINUTES', 15, 1) * 60_000,
    shutdownTimeoutMs: whole(env, 'SHUTDOWN_TIMEOUT_SECONDS', 20, 1) * 1000,
    logLevel,
    logFormat: format,
  };
}
