/**
 * The receiver's configuration, read from the environment when the server runs (not at build
 * time). Every setting, its default and its meaning: docs/receiver.md, "Settings".
 */
import path from 'node:path';
import * as z from 'zod';
import { parseTrustedProxies } from './http/client-address.ts';
import type { BudgetOptions } from './receiver/network-budget.ts';
import { DEFAULT_ACKNOWLEDGE_LIMITS, FORMS, type AcknowledgeLimits, type FormName } from './store/store.ts';

const MB = 1024 * 1024;
export const DEFAULT_RATE_LIMIT = 10;
/** The largest body accepted: a full partner application in Arabic, url-encoded (six bytes a letter), fits. */
export const BODY_LIMIT_BYTES = 512 * 1024;

export interface ReceiverConfig {
  /** Absolute path of the database file (SQLite, the default; its files folder sits beside it). */
  readonly dbPath: string;
  readonly databaseUrl: string | undefined;
  readonly poolMax: number;
  /** Submissions per client per window before the next are held ('manyPosts'); 0 means no limit. */
  readonly rateLimit: number;
  readonly rateWindowSeconds: number;
  /** What one network may leave per day (../receiver/network-budget.ts); 0: no bound. */
  readonly budget: BudgetOptions;
  /** Free disk beside a SQLite database below which files are not kept; 0: no floor. */
  readonly minFreeDiskBytes: number;
  /** Origins besides the site's own, normalised (`https://host[:port]`). */
  readonly allowedOrigins: readonly string[];
  readonly bodyLimitBytes: number;
  /** Proxies whose X-Forwarded-For and X-Forwarded-Host/Proto are believed (src/server/http/client-address.ts). */
  readonly trustedProxies: readonly string[];
  /** The one base of every absolute link the server makes (SITE_URL); unset, it makes none. */
  readonly siteUrl: string | undefined;
  /** Undefined when SMTP_URL is unset (lead notifications are off). */
  readonly notifications: NotificationConfig | undefined;
  /** The proof of work on the forms and what holds a lead for review (./proof.ts). */
  readonly proof: ProofConfig;
}

export interface ProofConfig {
  /** ALTCHA_HMAC_KEY: signs the challenges; undefined: one is generated and kept in the database. */
  readonly hmacKey: string | undefined;
  readonly expireSeconds: number;
  /** Hashes per try (ALTCHA_COST) and the highest counter drawn (ALTCHA_MAX_NUMBER): the work asked of a browser. */
  readonly cost: number;
  readonly maxNumber: number;
  /** A lead sent sooner than this after its challenge was issued is held (SUBMISSIONS_MIN_SECONDS). */
  readonly minSeconds: number;
  /** A lead with more links than this in its answers is held (SUBMISSIONS_MAX_LINKS). */
  readonly maxLinks: number;
  /** Spam leads older than this are purged, and held ones a week after a digest warned of them (HELD_PURGE_DAYS). */
  readonly heldPurgeDays: number;
  /** The hour, Riyadh time, from which the day's digest of held leads is sent (HELD_DIGEST_HOUR). */
  readonly digestHour: number;
}

export const DEFAULT_PROOF: ProofConfig = {
  hmacKey: undefined,
  expireSeconds: 3600,
  cost: 10,
  maxNumber: 20_000,
  minSeconds: 3,
  maxLinks: 3,
  heldPurgeDays: 30,
  digestHour: 7,
};

export interface NotificationConfig {
  readonly smtpUrl: string;
  /** An smtp:// server that offers no STARTTLS is refused, not spoken to in clear (SMTP_REQUIRE_TLS). */
  readonly requireTls: boolean;
  /** Who gets every lead's e-mail, unless `toByForm` names others for its form. */
  readonly to: readonly string[];
  readonly toByForm?: Readonly<Partial<Record<FormName, readonly string[]>>>;
  readonly from: string;
  /** The shared mailbox customers answer to (LEADS_REPLY_TO, else LEADS_NOTIFY_TO); empty: none set. */
  readonly replyTo?: readonly string[];
  /** The first retry's delay; each next one doubles, capped at RETRY_CAP_SECONDS. */
  readonly retrySeconds: number;
  readonly giveUpDays: number;
  /** Whether each lead's sender gets an acknowledgement (LEADS_ACKNOWLEDGE, default on; left out of a hand-made config: none). */
  readonly acknowledge?: boolean;
  readonly acknowledgeLimits?: AcknowledgeLimits;
}

export const RETRY_CAP_SECONDS = 3600;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A setting as written, trimmed; undefined when unset or blank (then its default applies). */
const setting = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined),
  z.string().optional(),
);

/** A setting read by `parse`, whose error's message is the setting's; unset, `fallback`. */
const parsed = <T, F = undefined>(parse: (text: string) => T, fallback?: F) =>
  setting.transform((raw, ctx): T | F => {
    if (raw === undefined) return fallback as F;
    try {
      return parse(raw);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
      return z.NEVER;
    }
  });

const wholeNumber = (min: number, fallback: number) =>
  parsed((raw) => {
    if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw)))
      throw new Error(`must be a whole number from ${min} (got "${raw}")`);
    return Number(raw);
  }, fallback);

/** A switch written as one of two words (`yes` or `no`). */
const flag = (yes: string, no: string, fallback?: boolean) =>
  parsed((raw) => {
    if (raw !== yes && raw !== no) throw new Error(`must be ${yes} or ${no} (got "${raw}")`);
    return raw === yes;
  }, fallback);

/** A comma-separated list, each entry read by `parse` (which throws a message naming the entry). */
const list = <T>(parse: (entry: string) => T) =>
  parsed(
    (raw) =>
      raw
        .split(',')
        .map((item) => item.trim())
        .filter((entry) => entry !== '')
        .map((entry) => parse(entry)),
    [] as T[],
  );

function origin(text: string): string {
  const url = URL.parse(text);
  if (!url) throw new Error(`"${text}" is not an origin such as https://www.example.com.sa`);
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== text.replace(/\/$/, '')) {
    throw new Error(`"${text}" is not an origin (scheme, host and port only) such as https://www.example.com.sa`);
  }
  return url.origin;
}

/** A server's address with one of `schemes`, checked by `check`; the password never appears in a message. */
const serverUrl = (schemes: readonly string[], example: string, check: (url: URL) => boolean, needs: string) =>
  parsed((text) => {
    const url = URL.parse(text);
    if (!url) throw new Error(`is not a URL such as ${example}`);
    if (!schemes.includes(url.protocol))
      throw new Error(`must start with ${schemes.map((scheme) => `${scheme}//`).join(' or ')} (got "${url.protocol}//")`);
    if (!check(url)) throw new Error(`${needs} (${example})`);
    return text;
  });

/** A mail server on this machine: its connection never leaves it, so TLS protects nothing on it. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

const ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;.]+(?:\.[^\s@<>",;.]+)+$/;

/** A plain e-mail address (no name, no line break), at most 254 characters. */
export const isEmailAddress = (text: string): boolean => text.length <= 254 && ADDRESS.test(text);

/** An e-mail address, or "Name <address>"; no line breaks, so no header can be added through it. */
function mailbox(text: string): string {
  const inAngles = /^[^<>\r\n]*<([^<>\r\n]+)>$/.exec(text);
  const address = inAngles ? inAngles[1]! : text;
  if (!isEmailAddress(address) || /[\r\n]/.test(text))
    throw new Error(
      `"${text}" is not an e-mail address such as website@example.com.sa or "Globaq website <website@example.com.sa>"`,
    );
  return text;
}

/** The environment variables the receiver reads, each checked and given its default. */
const environment = z.object({
  SUBMISSIONS_DB: setting.transform((raw) => raw ?? './data/submissions.db'),
  DATABASE_URL: serverUrl(
    ['postgres:', 'postgresql:'],
    'postgres://user:password@host:5432/database',
    (url) => url.hostname !== '' && url.pathname.length > 1,
    'must name a server and a database',
  ),
  DATABASE_POOL_MAX: wholeNumber(1, 10),
  SUBMISSIONS_RATE_LIMIT: wholeNumber(0, DEFAULT_RATE_LIMIT),
  SUBMISSIONS_RATE_WINDOW: wholeNumber(1, 600),
  SUBMISSIONS_HELD_PER_DAY: wholeNumber(0, 100),
  SUBMISSIONS_UNPROVEN_FILES_MB_PER_DAY: wholeNumber(0, 20),
  SUBMISSIONS_LEADS_PER_DAY: wholeNumber(0, 30),
  SUBMISSIONS_FILES_MB_PER_DAY: wholeNumber(0, 60),
  SUBMISSIONS_MIN_FREE_DISK_MB: wholeNumber(0, 512),
  SUBMISSIONS_ALLOWED_ORIGINS: list(origin),
  TRUSTED_PROXIES: list((entry) => parseTrustedProxies(entry)[0] ?? entry),
  SITE_URL: parsed(origin),
  SMTP_URL: serverUrl(
    ['smtp:', 'smtps:'],
    'smtp://user:password@mail.example.com:587',
    (url) => url.hostname !== '',
    'names no mail server',
  ),
  SMTP_REQUIRE_TLS: flag('true', 'false'),
  LEADS_NOTIFY_TO: list(mailbox),
  LEADS_REPLY_TO: list(mailbox),
  LEADS_NOTIFY_TO_CONTACT: list(mailbox),
  LEADS_NOTIFY_TO_PARTNER: list(mailbox),
  LEADS_NOTIFY_FROM: list(mailbox),
  LEADS_NOTIFY_RETRY_SECONDS: wholeNumber(1, 30),
  LEADS_NOTIFY_GIVE_UP_DAYS: wholeNumber(1, 3),
  LEADS_ACKNOWLEDGE: flag('on', 'off', true),
  LEADS_ACKNOWLEDGE_PER_DOMAIN_HOUR: wholeNumber(1, DEFAULT_ACKNOWLEDGE_LIMITS.perDomain),
  LEADS_ACKNOWLEDGE_PER_HOUR: wholeNumber(1, DEFAULT_ACKNOWLEDGE_LIMITS.total),
  ALTCHA_HMAC_KEY: parsed((raw) => {
    if (raw.length < 32)
      throw new Error(
        'must be at least 32 characters (openssl rand -hex 32), or unset to have one generated and kept in the database',
      );
    return raw;
  }),
  ALTCHA_EXPIRE_SECONDS: wholeNumber(60, DEFAULT_PROOF.expireSeconds),
  ALTCHA_COST: wholeNumber(1, DEFAULT_PROOF.cost),
  ALTCHA_MAX_NUMBER: wholeNumber(100, DEFAULT_PROOF.maxNumber),
  SUBMISSIONS_MIN_SECONDS: wholeNumber(0, DEFAULT_PROOF.minSeconds),
  SUBMISSIONS_MAX_LINKS: wholeNumber(0, DEFAULT_PROOF.maxLinks),
  HELD_PURGE_DAYS: wholeNumber(1, DEFAULT_PROOF.heldPurgeDays),
  HELD_DIGEST_HOUR: wholeNumber(0, DEFAULT_PROOF.digestHour).refine((hour) => hour <= 23, 'must be an hour from 0 to 23'),
});

/** The receiver's settings from the environment; a malformed one throws a ConfigError naming it, and the server stops. */
export function receiverConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
  cwd: string = process.cwd(),
): ReceiverConfig {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '));
  }
  const settings = parsed.data;
  let notifications: NotificationConfig | undefined;
  if (settings.SMTP_URL !== undefined) {
    const byForm = { contact: settings.LEADS_NOTIFY_TO_CONTACT, partner: settings.LEADS_NOTIFY_TO_PARTNER } satisfies Record<
      FormName,
      string[]
    >;
    // LEADS_NOTIFY_TO may be left out only when every form has its own recipients.
    const everyFormNamed = FORMS.every((form) => byForm[form].length > 0);
    const missing = (['LEADS_NOTIFY_TO', 'LEADS_NOTIFY_FROM'] as const).filter(
      (name) => settings[name].length === 0 && !(name === 'LEADS_NOTIFY_TO' && everyFormNamed),
    );
    if (missing.length > 0)
      throw new ConfigError(
        missing
          .map((name) => `${name}: must be set when SMTP_URL is (who gets the lead notifications, and who sends them)`)
          .join('; '),
      );
    if (settings.LEADS_NOTIFY_FROM.length > 1) throw new ConfigError('LEADS_NOTIFY_FROM: one sender only');
    const toByForm = Object.fromEntries(FORMS.filter((form) => byForm[form].length > 0).map((form) => [form, byForm[form]]));
    notifications = {
      smtpUrl: settings.SMTP_URL,
      requireTls: settings.SMTP_REQUIRE_TLS ?? !isLoopbackHost(new URL(settings.SMTP_URL).hostname),
      to: settings.LEADS_NOTIFY_TO,
      ...(Object.keys(toByForm).length > 0 ? { toByForm } : {}),
      from: settings.LEADS_NOTIFY_FROM[0]!,
      replyTo: settings.LEADS_REPLY_TO.length > 0 ? settings.LEADS_REPLY_TO : settings.LEADS_NOTIFY_TO,
      retrySeconds: settings.LEADS_NOTIFY_RETRY_SECONDS,
      giveUpDays: settings.LEADS_NOTIFY_GIVE_UP_DAYS,
      acknowledge: settings.LEADS_ACKNOWLEDGE,
      acknowledgeLimits: { perDomain: settings.LEADS_ACKNOWLEDGE_PER_DOMAIN_HOUR, total: settings.LEADS_ACKNOWLEDGE_PER_HOUR },
    };
  }
  return {
    dbPath: path.resolve(cwd, settings.SUBMISSIONS_DB),
    databaseUrl: settings.DATABASE_URL,
    poolMax: settings.DATABASE_POOL_MAX,
    rateLimit: settings.SUBMISSIONS_RATE_LIMIT,
    rateWindowSeconds: settings.SUBMISSIONS_RATE_WINDOW,
    budget: {
      held: settings.SUBMISSIONS_HELD_PER_DAY,
      unprovenFileBytes: settings.SUBMISSIONS_UNPROVEN_FILES_MB_PER_DAY * MB,
      leads: settings.SUBMISSIONS_LEADS_PER_DAY,
      fileBytes: settings.SUBMISSIONS_FILES_MB_PER_DAY * MB,
    },
    minFreeDiskBytes: settings.SUBMISSIONS_MIN_FREE_DISK_MB * MB,
    allowedOrigins: settings.SUBMISSIONS_ALLOWED_ORIGINS,
    bodyLimitBytes: BODY_LIMIT_BYTES,
    trustedProxies: settings.TRUSTED_PROXIES,
    siteUrl: settings.SITE_URL,
    proof: {
      hmacKey: settings.ALTCHA_HMAC_KEY,
      expireSeconds: settings.ALTCHA_EXPIRE_SECONDS,
      cost: settings.ALTCHA_COST,
      maxNumber: settings.ALTCHA_MAX_NUMBER,
      minSeconds: settings.SUBMISSIONS_MIN_SECONDS,
      maxLinks: settings.SUBMISSIONS_MAX_LINKS,
      heldPurgeDays: settings.HELD_PURGE_DAYS,
      digestHour: settings.HELD_DIGEST_HOUR,
    },
    notifications,
  };
}
