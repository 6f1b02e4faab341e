/**
 * The staff inbox's data (issue 16), on a connection of its own to the submissions database
 * (migrated by the store: schema version 6 and up): the leads with their status, note and
 * language, the sign-in sessions, the failed sign-ins that slow and lock an account or an
 * address, and the audit log of what staff did.
 *
 * Sessions: the browser holds a random token; the database holds only its SHA-256, so a copy of
 * the database lets nobody sign in. A session ends when it has been idle too long, when it is
 * too old, when its account is removed (cascade) or its password changed, or on sign-out.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { LocaleCode } from '../i18n/index.ts';
import { openMigratedDatabase } from './sqlite-store.ts';
import { isFormName, StoreError, type FormName, type StoredSubmission, type SubmissionFields } from './store.ts';
import type { NoticeStatus } from './outbox.ts';

export const LEAD_STATUSES = ['new', 'in_progress', 'answered', 'spam'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const isLeadStatus = (value: unknown): value is LeadStatus => typeof value === 'string' && (LEAD_STATUSES as readonly string[]).includes(value);

/** A session ends after this long without a request... */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** ...and this long after sign-in, however active. */
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;

/**
 * Failed sign-ins before each further attempt has to wait (doubling from 2 s)... An address is
 * given more room than an account: an office's staff share one address.
 */
export const SLOW_AFTER = { account: 5, address: 30 } as const;
/** ...and before the account or the address is locked for LOCK_MS. */
export const LOCK_AFTER = { account: 10, address: 100 } as const;
export const LOCK_MS = 15 * 60 * 1000;
/** A run of failures is forgotten this long after its last one. */
export const FAILURE_MEMORY_MS = 60 * 60 * 1000;

/** Leads shown per page of the list. */
export const PAGE_SIZE = 50;
/** The longest note kept. */
export const NOTE_MAX = 5000;

export interface LeadFilter {
  readonly form?: FormName;
  readonly status?: LeadStatus;
  /** The language the lead was sent in. */
  readonly language?: LocaleCode;
  /** Received at or after. */
  readonly since?: Date;
  /** Received before. */
  readonly until?: Date;
  /** Words looked for in the names, organisation, e-mail and message. */
  readonly search?: string;
}

export interface InboxLead extends StoredSubmission {
  readonly status: LeadStatus;
  readonly statusBy: string | undefined;
  readonly statusAt: string | undefined;
  readonly note: string;
  readonly noteBy: string | undefined;
  readonly noteAt: string | undefined;
  /** The lead's notification e-mail, when one was queued. */
  readonly notification: { readonly status: NoticeStatus; readonly attempts: number; readonly sentAt: string | undefined; readonly lastError: string | undefined } | undefined;
}

export interface StaffSession {
  readonly email: string;
  /** The per-session token every state-changing form carries. */
  readonly csrf: string;
  readonly createdAt: string;
}

export interface AuditEntry {
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly leadId: string | undefined;
  readonly detail: string;
}

/** Whether a sign-in may be tried now, and when it may be tried again if not. */
export type SignInGate = { readonly open: true } | { readonly open: false; readonly locked: boolean; readonly retryAt: Date };

export interface InboxStore {
  leads(filter: LeadFilter, page: number): Promise<{ leads: InboxLead[]; total: number }>;
  /** Every lead the filter finds, oldest first (the export). */
  exportLeads(filter: LeadFilter): AsyncIterable<InboxLead>;
  lead(id: string): Promise<InboxLead | undefined>;
  setStatus(id: string, status: LeadStatus, by: string, now: Date): Promise<boolean>;
  setNote(id: string, note: string, by: string, now: Date): Promise<boolean>;

  /** A new session for a signed-in account: the cookie's token and the session's form token. */
  createSession(email: string, now: Date): Promise<{ token: string; csrf: string }>;
  /** The live session a token names (and it is kept alive), or undefined. */
  session(token: string, now: Date): Promise<StaffSession | undefined>;
  endSession(token: string): Promise<void>;

  /** Whether these keys may try to sign in now. */
  gate(keys: { account: string; address: string }, now: Date): Promise<SignInGate>;
  /** A wrong password, or an attempt made while the gate was closed: both count toward the lock. */
  recordFailure(keys: { account: string; address: string }, now: Date): Promise<void>;
  /** A successful sign-in clears the account's and the address's counts. */
  clearFailures(keys: { account: string; address: string }): Promise<void>;

  audit(actor: string, action: string, leadId: string | undefined, detail: string, now: Date): Promise<void>;
  auditLog(limit: number): Promise<AuditEntry[]>;
  close(): Promise<void>;
}

/** A key's run of failed sign-ins as the rules read it (times in ms; 0 when none). */
export interface FailureRun {
  readonly failures: number;
  readonly last: number;
  readonly lockedUntil: number;
}

type SignInKind = 'account' | 'address';

/** A stored failure row as the rules read it: a run long past, with no lock running, is forgotten. */
export function failureRun(row: { failures: number; last_failure_at: string | Date; locked_until: string | Date | null } | undefined, now: Date): FailureRun {
  if (!row) return { failures: 0, last: 0, lockedUntil: 0 };
  const last = new Date(row.last_failure_at).getTime();
  const lockedUntil = row.locked_until ? new Date(row.locked_until).getTime() : 0;
  if (now.getTime() - last > FAILURE_MEMORY_MS && lockedUntil <= now.getTime()) return { failures: 0, last: 0, lockedUntil: 0 };
  return { failures: Number(row.failures), last, lockedUntil };
}

/** Whether a sign-in may be tried now, given the account's and the address's runs (the rules above). */
export function gateOf(runs: Readonly<Record<SignInKind, FailureRun>>, now: Date): SignInGate {
  let closedUntil = 0;
  let locked = false;
  for (const kind of ['account', 'address'] as const) {
    const { failures, last, lockedUntil } = runs[kind];
    if (lockedUntil > now.getTime()) {
      locked = true;
      closedUntil = Math.max(closedUntil, lockedUntil);
    } else if (failures >= SLOW_AFTER[kind]) {
      const wait = Math.min(60_000, 2000 * 2 ** (failures - SLOW_AFTER[kind]));
      if (last + wait > now.getTime()) closedUntil = Math.max(closedUntil, last + wait);
    }
  }
  return closedUntil > now.getTime() ? { open: false, locked, retryAt: new Date(closedUntil) } : { open: true };
}

/** What one more failure makes of a run: its new count, and a lock when it reaches LOCK_AFTER (a lock served starts a new count). */
export function afterFailure(kind: SignInKind, run: FailureRun, now: Date): { failures: number; lockedUntil: Date | null } {
  const failures = run.failures + 1;
  return failures >= LOCK_AFTER[kind] ? { failures: 0, lockedUntil: new Date(now.getTime() + LOCK_MS) } : { failures, lockedUntil: null };
}

/** The fields the inbox's search looks in. */
export const SEARCHED_FIELDS = ['firstName', 'lastName', 'name', 'company', 'organization', 'email', 'message'] as const;

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('base64url');
const newToken = () => randomBytes(32).toString('base64url');

/** Riyadh is UTC+3 all year: a date typed by staff means that day in Riyadh. */
export function riyadhDayStart(day: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00+03:00`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** The search fields, read out of each lead's JSON. */
const SEARCH_TEXT = SEARCHED_FIELDS.map((field) => `coalesce(json_extract(s.fields, '$.${field}'), '')`).join(` || ' ' || `);

interface LeadRow {
  id: string;
  form: string;
  received_at: string;
  language: string;
  fields: string;
  status: string;
  status_by: string | null;
  status_at: string | null;
  note: string;
  note_by: string | null;
  note_at: string | null;
  n_status: string | null;
  n_attempts: number | null;
  n_sent_at: string | null;
  n_last_error: string | null;
}

const LEAD_SELECT = `SELECT s.id, s.form, s.received_at, s.language, s.fields, s.status, s.status_by, s.status_at, s.note, s.note_by, s.note_at,
  n.status AS n_status, n.attempts AS n_attempts, n.sent_at AS n_sent_at, n.last_error AS n_last_error
  FROM submissions s LEFT JOIN notifications n ON n.submission_id = s.id`;

function toLead(row: LeadRow): InboxLead {
  if (!isFormName(row.form) || !isLeadStatus(row.status)) throw new StoreError(`Unexpected lead row ${row.id}`);
  const noticeStatus = row.n_status as NoticeStatus | null;
  return {
    id: row.id,
    form: row.form,
    receivedAt: row.received_at,
    // The column's CHECK admits the site's locale codes only.
    language: row.language as LocaleCode,
    fields: JSON.parse(row.fields) as SubmissionFields,
    status: row.status,
    statusBy: row.status_by ?? undefined,
    statusAt: row.status_at ?? undefined,
    note: row.note,
    noteBy: row.note_by ?? undefined,
    noteAt: row.note_at ?? undefined,
    notification: noticeStatus
      ? { status: noticeStatus, attempts: Number(row.n_attempts ?? 0), sentAt: row.n_sent_at ?? undefined, lastError: row.n_last_error ?? undefined }
      : undefined,
  };
}

function whereOf(filter: LeadFilter): { sql: string; params: string[] } {
  const clauses: string[] = [];
  const params: string[] = [];
  if (filter.form) {
    clauses.push('s.form = ?');
    params.push(filter.form);
  }
  if (filter.status) {
    clauses.push('s.status = ?');
    params.push(filter.status);
  }
  if (filter.language) {
    clauses.push('s.language = ?');
    params.push(filter.language);
  }
  if (filter.since) {
    clauses.push('s.received_at >= ?');
    params.push(filter.since.toISOString());
  }
  if (filter.until) {
    clauses.push('s.received_at < ?');
    params.push(filter.until.toISOString());
  }
  for (const word of (filter.search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, 8)) {
    clauses.push(`lower(${SEARCH_TEXT}) LIKE ? ESCAPE '\\'`);
    params.push(`%${word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params };
}

export function openInboxStore(dbPath: string): InboxStore {
  // Version 6: the leads' language (the inbox was made in version 4).
  const db: DatabaseSync = openMigratedDatabase(dbPath, 6, 'staff inbox');
  const one = <T>(sql: string, ...params: (string | number | null)[]) => db.prepare(sql).get(...params) as T | undefined;
  const run = (sql: string, ...params: (string | number | null)[]) => Number(db.prepare(sql).run(...params).changes);

  function transaction<T>(work: () => T): T {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      db.exec('COMMIT');
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }

  const failureOf = (key: string, now: Date): FailureRun =>
    failureRun(one<{ failures: number; last_failure_at: string; locked_until: string | null }>('SELECT failures, last_failure_at, locked_until FROM sign_in_failures WHERE key = ?', key), now);

  return {
    async leads(filter, page) {
      const { sql, params } = whereOf(filter);
      const total = Number(one<{ n: number }>(`SELECT count(*) AS n FROM submissions s ${sql}`, ...params)?.n ?? 0);
      const offset = Math.max(0, Math.trunc(page) - 1) * PAGE_SIZE;
      const rows = db.prepare(`${LEAD_SELECT} ${sql} ORDER BY s.seq DESC LIMIT ${PAGE_SIZE} OFFSET ${offset}`).all(...params) as unknown as LeadRow[];
      return { leads: rows.map(toLead), total };
    },
    async *exportLeads(filter) {
      const { sql, params } = whereOf(filter);
      for (const row of db.prepare(`${LEAD_SELECT} ${sql} ORDER BY s.seq ASC`).iterate(...params)) yield toLead(row as unknown as LeadRow);
    },
    async lead(id) {
      const row = one<LeadRow>(`${LEAD_SELECT} WHERE s.id = ?`, id);
      return row ? toLead(row) : undefined;
    },
    setStatus: async (id, status, by, now) => run('UPDATE submissions SET status = ?, status_by = ?, status_at = ? WHERE id = ?', status, by, now.toISOString(), id) > 0,
    setNote: async (id, note, by, now) => run('UPDATE submissions SET note = ?, note_by = ?, note_at = ? WHERE id = ?', note.slice(0, NOTE_MAX), by, now.toISOString(), id) > 0,

    async createSession(email, now) {
      const token = newToken();
      const csrf = newToken();
      run('INSERT INTO staff_sessions (token_hash, email, csrf, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)', tokenHash(token), email, csrf, now.toISOString(), now.toISOString());
      // Sessions that ran out are cleared as new ones are made.
      run('DELETE FROM staff_sessions WHERE last_seen_at < ? OR created_at < ?', new Date(now.getTime() - SESSION_IDLE_MS).toISOString(), new Date(now.getTime() - SESSION_MAX_MS).toISOString());
      return { token, csrf };
    },
    async session(token, now) {
      if (!token || token.length > 100) return undefined;
      const hash = tokenHash(token);
      const row = one<{ email: string; csrf: string; created_at: string; last_seen_at: string; password_changed_at: string }>(
        `SELECT s.email, s.csrf, s.created_at, s.last_seen_at, a.password_changed_at FROM staff_sessions s JOIN staff a ON a.email = s.email WHERE s.token_hash = ?`,
        hash,
      );
      if (!row) return undefined;
      const idle = now.getTime() - Date.parse(row.last_seen_at) > SESSION_IDLE_MS;
      const old = now.getTime() - Date.parse(row.created_at) > SESSION_MAX_MS;
      // A password changed after sign-in ends the sessions made with the old one.
      const stale = Date.parse(row.password_changed_at) > Date.parse(row.created_at);
      if (idle || old || stale) {
        run('DELETE FROM staff_sessions WHERE token_hash = ?', hash);
        return undefined;
      }
      run('UPDATE staff_sessions SET last_seen_at = ? WHERE token_hash = ?', now.toISOString(), hash);
      return { email: row.email, csrf: row.csrf, createdAt: row.created_at };
    },
    endSession: async (token) => void run('DELETE FROM staff_sessions WHERE token_hash = ?', tokenHash(token)),

    gate: async (keys, now) => gateOf({ account: failureOf(`account:${keys.account}`, now), address: failureOf(`address:${keys.address}`, now) }, now),
    async recordFailure(keys, now) {
      transaction(() => {
        for (const kind of ['account', 'address'] as const) {
          const key = `${kind}:${keys[kind]}`;
          const next = afterFailure(kind, failureOf(key, now), now);
          run(
            `INSERT INTO sign_in_failures (key, failures, last_failure_at, locked_until) VALUES (?, ?, ?, ?)
             ON CONFLICT (key) DO UPDATE SET failures = excluded.failures, last_failure_at = excluded.last_failure_at, locked_until = coalesce(excluded.locked_until, locked_until)`,
            key,
            next.failures,
            now.toISOString(),
            next.lockedUntil?.toISOString() ?? null,
          );
        }
      });
    },
    clearFailures: async (keys) => void run('DELETE FROM sign_in_failures WHERE key IN (?, ?)', `account:${keys.account}`, `address:${keys.address}`),

    audit: async (actor, action, leadId, detail, now) =>
      void run('INSERT INTO audit_log (at, actor, action, lead_id, detail) VALUES (?, ?, ?, ?, ?)', now.toISOString(), actor, action, leadId ?? null, detail),
    auditLog: async (limit) =>
      (db.prepare('SELECT at, actor, action, lead_id, detail FROM audit_log ORDER BY seq DESC LIMIT ?').all(limit) as { at: string; actor: string; action: string; lead_id: string | null; detail: string }[]).map(
        (row) => ({ at: row.at, actor: row.actor, action: row.action, leadId: row.lead_id ?? undefined, detail: row.detail }),
      ),
    close: async () => db.close(),
  };
}
