/**
 * The staff inbox's data (issue 16), in either database (./sqlite-store.ts's openInboxStore,
 * ./pg-store.ts; the queries: ./store/inbox-queries.ts), and the rules they keep: the leads with
 * their status, note and language, the sign-in sessions, the failed sign-ins that slow and lock
 * an account or an address, and the audit log of what staff did.
 *
 * Sessions: the browser holds a random token; the database holds only its SHA-256, so a copy of
 * the database lets nobody sign in. A session ends when it has been idle too long, when it is
 * too old, when its account is removed (cascade) or its password changed, or on sign-out.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import { createHash } from 'node:crypto';
import type { LocaleCode } from '../i18n/index.ts';
import type { FormName, StoredSubmission } from './store.ts';
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

/** Riyadh is UTC+3 all year: a date typed by staff means that day in Riyadh. */
export function riyadhDayStart(day: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00+03:00`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
