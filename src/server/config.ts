/**
 * The receiver's configuration, read from the environment when the server runs (not at build
 * time). See the README's "Submissions" section.
 *
 *   SUBMISSIONS_DB                path of the SQLite file (default ./data/submissions.db)
 *   SUBMISSIONS_RATE_LIMIT        submissions per client per window (default 10; 0 turns it off)
 *   SUBMISSIONS_RATE_WINDOW       the window, in seconds (default 600)
 *   SUBMISSIONS_ALLOWED_ORIGINS   other origins whose pages may post (comma-separated,
 *                                 e.g. https://www.example.com.sa); the site's own always may
 *   TRUSTED_PROXIES               reverse proxies whose X-Forwarded-* headers are believed
 *                                 (addresses or CIDR ranges, comma-separated; default none)
 */
import path from 'node:path';
import { parseTrustedProxies } from './client-address.ts';

export const DEFAULT_DB = './data/submissions.db';
export const DEFAULT_RATE_LIMIT = 10;
export const DEFAULT_RATE_WINDOW_SECONDS = 600;
/**
 * The largest body accepted. A partner application may hold about 52,000 characters (ten
 * answers of up to 5,000); written in Arabic that is about 104 KB as JSON and 312 KB as a
 * url-encoded post (each Arabic letter is two UTF-8 bytes, six once percent-encoded). 512 KB
 * admits every valid application in either encoding and refuses anything much larger.
 */
export const BODY_LIMIT_BYTES = 512 * 1024;

export interface ReceiverConfig {
  /** Absolute path of the database file. */
  readonly dbPath: string;
  /** Submissions per client per window; 0 means no limit. */
  readonly rateLimit: number;
  readonly rateWindowSeconds: number;
  /** Origins besides the site's own, normalised (`https://host[:port]`). */
  readonly allowedOrigins: readonly string[];
  readonly bodyLimitBytes: number;
  /** Proxies whose X-Forwarded-For and X-Forwarded-Host/Proto are believed (src/server/client-address.ts). */
  readonly trustedProxies: readonly string[];
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

function wholeNumber(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`${name} must be a whole number from ${min} (got "${raw}")`);
  }
  return Number(raw);
}

function origins(raw: string | undefined): string[] {
  const out: string[] = [];
  for (const item of (raw ?? '').split(',')) {
    const text = item.trim();
    if (text === '') continue;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new ConfigError(`SUBMISSIONS_ALLOWED_ORIGINS: "${text}" is not an origin such as https://www.example.com.sa`);
    }
    if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== text.replace(/\/$/, '')) {
      throw new ConfigError(`SUBMISSIONS_ALLOWED_ORIGINS: "${text}" is not an origin (scheme, host and port only) such as https://www.example.com.sa`);
    }
    out.push(url.origin);
  }
  return out;
}

function trustedProxies(raw: string | undefined): string[] {
  try {
    return parseTrustedProxies(raw);
  } catch (error) {
    throw new ConfigError(`TRUSTED_PROXIES: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export function receiverConfig(env: Readonly<Record<string, string | undefined>> = process.env, cwd: string = process.cwd()): ReceiverConfig {
  const db = env['SUBMISSIONS_DB']?.trim() || DEFAULT_DB;
  return {
    dbPath: path.resolve(cwd, db),
    rateLimit: wholeNumber(env, 'SUBMISSIONS_RATE_LIMIT', DEFAULT_RATE_LIMIT, 0),
    rateWindowSeconds: wholeNumber(env, 'SUBMISSIONS_RATE_WINDOW', DEFAULT_RATE_WINDOW_SECONDS, 1),
    allowedOrigins: origins(env['SUBMISSIONS_ALLOWED_ORIGINS']),
    bodyLimitBytes: BODY_LIMIT_BYTES,
    trustedProxies: trustedProxies(env['TRUSTED_PROXIES']),
  };
}
