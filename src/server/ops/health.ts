/**
 * /healthz (the process answers) and /readyz (every check in `readiness`), answered by
 * ../http/serve.ts before anything else; docs/receiver.md says what each checks. Which check
 * failed, and why, is told only to loopback or the OPS_TOKEN bearer (`mayReadDetails`). The probe
 * reads through the application's own database handles: a database too busy to answer it within
 * READY_TIMEOUT_MS is one a visitor's lead would wait on too.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sql } from 'kysely';
import type { Stores } from '../store/database.ts';
import { MIGRATION_TABLE, SCHEMA_VERSION } from '../store/migrations/index.ts';
import type { HeldWaiting, PendingNotifications } from './metrics.ts';

const READY_TIMEOUT_MS = 2000;

export type Probe = ReturnType<typeof openProbe>;

/** Pending notifications: how many, since when, and why the latest failed attempt failed. */
const PENDING_SQL = sql<{
  count: number;
  oldest: string | null;
  last_error: string | null;
}>`SELECT count(*) AS count, min(created_at) AS oldest, (SELECT last_error FROM notifications WHERE status = 'pending' AND last_error IS NOT NULL ORDER BY next_attempt_at DESC LIMIT 1) AS last_error FROM notifications WHERE status = 'pending'`;

const isoOf = (value: string | Date | null | undefined): string | undefined =>
  value ? new Date(value).toISOString() : undefined;

/** The probe on the application's stores; `filesDir` is the folder files are written to (SQLite; undefined on PostgreSQL). */
export function openProbe(stores: Pick<Stores, 'db'>, filesDir: string | undefined) {
  const first = async <T>(query: { execute(db: Stores['db']): Promise<{ rows: T[] }> }): Promise<T> => {
    const row = (await query.execute(stores.db)).rows[0];
    if (!row) throw new Error('the database returned no row');
    return row;
  };
  return {
    schema: async () => ({
      found: Number((await first(sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(MIGRATION_TABLE)}`)).n),
      expected: SCHEMA_VERSION,
    }),
    async pending(): Promise<PendingNotifications> {
      const row = await first(PENDING_SQL);
      return { count: Number(row.count), oldest: isoOf(row.oldest), lastError: row.last_error ?? undefined };
    },
    /** Held leads waiting, the oldest's time, and those received before `before` no digest warned of. */
    async held(before: Date): Promise<HeldWaiting> {
      const row = await first(
        sql<{
          count: number;
          oldest: string | null;
          unwarned: number | null;
        }>`SELECT count(*) AS count, min(received_at) AS oldest, sum(CASE WHEN received_at < ${before.toISOString()} AND review_reminded_at IS NULL THEN 1 ELSE 0 END) AS unwarned FROM submissions WHERE review = 'held'`,
      );
      return { count: Number(row.count), oldest: isoOf(row.oldest), unwarnedOverdue: Number(row.unwarned ?? 0) };
    },
    filesDir,
  };
}

const MB = 1024 * 1024;

export async function freeDiskBytes(dir: string): Promise<number> {
  const stats = await fs.promises.statfs(dir);
  return stats.bavail * stats.bsize;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms)),
  );
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

type CheckName = 'store' | 'migrations' | 'files' | 'notifications' | 'held' | 'signIn';

interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<Record<CheckName, { readonly ok: boolean; readonly detail: string }>>;
}

/** Every check, each on its own (one failing does not hide another). */
export async function readiness(
  probe: Probe,
  options: {
    readonly pendingMaxMs: number;
    readonly notificationsOn: boolean;
    readonly heldPurgeDays: number;
    /** Free disk under which files are not kept (SUBMISSIONS_MIN_FREE_DISK_MB): failed on. */
    readonly minFreeDiskBytes: number;
    /** How staff sign in (../inbox/two-step.ts's signInSummary): told, never failed on. */
    readonly signIn: string;
    readonly now?: Date;
  },
): Promise<Readiness> {
  const now = options.now ?? new Date();
  const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
  const checks = {} as Record<CheckName, { ok: boolean; detail: string }>;

  try {
    const schema = await within(probe.schema(), READY_TIMEOUT_MS, 'the database');
    checks.store = { ok: true, detail: 'answers' };
    checks.migrations =
      schema.found === schema.expected
        ? { ok: true, detail: `schema version ${schema.found}` }
        : { ok: false, detail: `schema version ${schema.found}, this code expects ${schema.expected}` };
  } catch (error) {
    checks.store = { ok: false, detail: message(error) };
    checks.migrations = { ok: false, detail: 'unknown: the database did not answer' };
  }

  if (probe.filesDir === undefined) checks.files = { ok: true, detail: 'kept in the database' };
  else {
    // Each check its own file: checks running at once (a scrape and a probe) never remove each other's.
    const probeFile = path.join(probe.filesDir, `.ready-${process.pid}-${randomBytes(6).toString('hex')}`);
    try {
      await fs.promises.mkdir(probe.filesDir, { recursive: true, mode: 0o700 });
      await fs.promises.writeFile(probeFile, 'ok');
      await fs.promises.unlink(probeFile);
      const free = await freeDiskBytes(probe.filesDir);
      checks.files =
        free < options.minFreeDiskBytes
          ? {
              ok: false,
              detail: `${Math.floor(free / MB)} MB free, under the floor of ${Math.floor(options.minFreeDiskBytes / MB)} MB (SUBMISSIONS_MIN_FREE_DISK_MB): new leads are kept without their files`,
            }
          : { ok: true, detail: `writable, ${Math.floor(free / MB)} MB free` };
    } catch (error) {
      checks.files = {
        ok: false,
        detail: `the files folder is not writable: ${(error as NodeJS.ErrnoException).code ?? message(error)}`,
      };
    }
  }

  if (!options.notificationsOn) checks.notifications = { ok: true, detail: 'off (SMTP_URL is not set)' };
  else if (!checks.store.ok) checks.notifications = { ok: false, detail: 'unknown: the database did not answer' };
  else {
    try {
      const pending = await within(probe.pending(), READY_TIMEOUT_MS, 'the outbox');
      const age = pending.oldest ? now.getTime() - Date.parse(pending.oldest) : 0;
      checks.notifications =
        age > options.pendingMaxMs
          ? {
              ok: false,
              detail: `the oldest of ${pending.count} pending notifications has waited ${Math.round(age / 60_000)} min (limit ${Math.round(options.pendingMaxMs / 60_000)} min)`,
            }
          : { ok: true, detail: `${pending.count} pending` };
      if (pending.count > 0 && pending.lastError)
        checks.notifications = {
          ...checks.notifications,
          detail: `${checks.notifications.detail}; the last attempt failed: ${pending.lastError.slice(0, 300)}`,
        };
    } catch (error) {
      checks.notifications = { ok: false, detail: message(error) };
    }
  }
  // Held leads are told, never failed on: a site with many held leads still takes leads.
  if (!checks.store.ok) checks.held = { ok: true, detail: 'unknown: the database did not answer' };
  else {
    try {
      const held = await within(
        probe.held(new Date(now.getTime() - options.heldPurgeDays * 86_400_000)),
        READY_TIMEOUT_MS,
        'the held leads',
      );
      const days = held.oldest ? Math.floor((now.getTime() - Date.parse(held.oldest)) / 86_400_000) : 0;
      checks.held = {
        ok: true,
        detail:
          held.count === 0
            ? 'none held for review'
            : `${held.count} held for review, the oldest ${days} day${days === 1 ? '' : 's'}${held.unwarnedOverdue > 0 ? `; ${held.unwarnedOverdue} past ${options.heldPurgeDays} days kept until a digest warns staff${options.notificationsOn ? '' : ' (notifications are off: no digest is sent)'}` : ''}`,
      };
    } catch (error) {
      checks.held = { ok: true, detail: `unknown: ${message(error)}` };
    }
  }
  // An inbox on the password alone still takes leads: said, never failed on.
  checks.signIn = { ok: true, detail: options.signIn };
  return { ready: Object.values(checks).every((check) => check.ok), checks };
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

/**
 * Whether this request may read the details (/metrics, which check failed): from loopback with no
 * proxy header (a request nginx passed on comes from loopback too, but carries X-Forwarded-For or
 * X-Real-IP), or with `Authorization: Bearer <OPS_TOKEN>`.
 */
export function mayReadDetails(req: IncomingMessage, token: string | undefined): boolean {
  const peer = req.socket?.remoteAddress ?? '';
  if (LOOPBACK.test(peer) && !PROXY_HEADERS.some((name) => req.headers[name] !== undefined)) return true;
  if (token === undefined) return false;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
