/**
 * The staff inbox's data in either database (queries: ../store/inbox-queries.ts): leads, sessions,
 * the failed sign-ins that slow and lock, the audit log. The browser holds a session's random
 * token, the database only its SHA-256, so a copy of the database lets nobody sign in.
 */
import { createHash } from 'node:crypto';
import type { LocaleCode } from '../../i18n/index.ts';
import { oneOf } from '../store/store.ts';
import type { FormName, HoldReason, SeenGuard, StoredAttachment, StoredSubmission } from '../store/store.ts';
import type { NoticeStatus } from '../mail/outbox.ts';

export const LEAD_STATUSES = ['new', 'in_progress', 'answered', 'closed', 'spam'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
export const isLeadStatus = oneOf(LEAD_STATUSES);

/** A session ends after this long without a request... */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** ...and this long after sign-in, however active. */
export const SESSION_MAX_MS = 12 * 60 * 60 * 1000;

/** Failed sign-ins before each further attempt waits (doubling from 2 s); an office's staff share one address... */
export const SLOW_AFTER = { account: 5, address: 30, device: 5 } as const;
/** ...and before the account or the address is locked for LOCK_MS. */
export const LOCK_AFTER = { account: 10, address: 100, device: 10 } as const;
export const LOCK_MS = 15 * 60 * 1000;
export const REFUSALS_KEPT_MS = 30 * 24 * 60 * 60 * 1000;
/** A device cookie lets its browser past another's lock for this long after the sign-in that made it. */
export const DEVICE_MAX_MS = 180 * 24 * 60 * 60 * 1000;
const FAILURE_MEMORY_MS = 60 * 60 * 1000;

export const PAGE_SIZE = 50;
export const NOTE_MAX = 5000;

/**
 * What a lead's timeline holds. `detail`: the notification's `sent`, `failed` (given up) or
 * `queued` (by staff); a download's file name; a `reply`'s '' ("Reply by e-mail" opened),
 * `mail:<id>` (sent from the inbox), ANSWERING or CUSTOMER; a follow-up's day, or '' (cleared).
 */
const LEAD_EVENT_KINDS = ['note', 'status', 'assigned', 'notification', 'download', 'reply', 'follow_up'] as const;
export type LeadEventKind = (typeof LEAD_EVENT_KINDS)[number];
/** A `reply` entry's detail: staff began an answer in the inbox (others see "X is answering")... */
export const ANSWERING = 'answering';
/** ...and the customer answered (staff pressed "Customer answered"). */
export const CUSTOMER = 'customer';
export const ANSWERING_MS = 15 * 60 * 1000;
export const isLeadEventKind = oneOf(LEAD_EVENT_KINDS);

export interface LeadEvent {
  readonly seq: number;
  readonly leadId: string;
  readonly at: string;
  /** undefined for what the site did itself (the notification e-mail). */
  readonly actor: string | undefined;
  readonly kind: LeadEventKind;
  /** A note's text, a status, the assignee's e-mail ('' for nobody)... (LEAD_EVENT_KINDS). */
  readonly detail: string;
  /** A note that corrects an earlier one: that note's seq. */
  readonly corrects: number | undefined;
  /** A note corrected by a later one: the newest such note's seq. */
  readonly correctedBy: number | undefined;
}

export interface LeadFilter {
  readonly form?: FormName;
  readonly status?: LeadStatus;
  /** Any of these statuses (with `status`, both must hold). */
  readonly statuses?: readonly LeadStatus[];
  readonly ids?: readonly string[];
  readonly language?: LocaleCode;
  readonly since?: Date; // received at or after
  readonly until?: Date; // received before
  readonly search?: string;
  /** null: assigned to nobody. */
  readonly assignedTo?: string | null;
  /** With `statuses`: also the leads with a follow-up date set, but spam (the "Mine" tab). */
  readonly orFollowUp?: boolean;
  /** A follow-up date set on or before this Riyadh day (YYYY-MM-DD): due or overdue. */
  readonly followUpBy?: string;
  /** 'held': the held leads instead of the inbox's (which include the held ones marked as spam). */
  readonly review?: 'held';
}

const LEAD_SORTS = ['received', 'name', 'form', 'status'] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];
export const isLeadSort = oneOf(LEAD_SORTS);

/**
 * Leads equal by the key keep the newest first, so the order is total and the same on both databases
 * (names by code point, as SQLite's BINARY and PostgreSQL's "C"; statuses in the workflow's order).
 */
export interface LeadOrder {
  readonly by: LeadSort;
  readonly direction: 'asc' | 'desc';
}
export const DEFAULT_ORDER: LeadOrder = { by: 'received', direction: 'desc' };

export interface InboxLead extends StoredSubmission {
  readonly status: LeadStatus;
  readonly statusBy: string | undefined;
  readonly statusAt: string | undefined;
  /** The newest note of its timeline ('' when none). */
  readonly note: string;
  readonly assignedTo: string | undefined;
  /** When its wait for an answer began: received, or released if it was held. */
  readonly waitingSince?: string | undefined;
  readonly firstAnsweredAt?: string | undefined;
  readonly followUpOn?: string | undefined;
  /** 'held': held for review by the bot check (never mailed until released); 'spam': held, then marked as spam. */
  readonly review?: 'held' | 'spam' | undefined;
  readonly holdReason?: HoldReason | undefined;
  readonly notification:
    | {
        readonly status: NoticeStatus;
        readonly attempts: number;
        readonly sentAt: string | undefined;
        readonly lastError: string | undefined;
      }
    | undefined;
}

/** Where a session is in signing in: 'signed-in', or still owing its second step ('code') or the set-up of one ('enrol'). */
export const SESSION_STAGES = ['code', 'enrol', 'signed-in'] as const;
export type SessionStage = (typeof SESSION_STAGES)[number];
/** A session still owing its second step ends this long after the password. */
export const PENDING_MAX_MS = 10 * 60 * 1000;

export interface StaffSession {
  readonly email: string;
  readonly csrf: string;
  readonly createdAt: string;
  readonly stage: SessionStage;
  /** A two-step secret being set up in this session (encrypted), until its first code confirms it. */
  readonly pendingTotp: string | undefined;
}

export interface AuditEntry {
  readonly seq: number;
  readonly at: string;
  readonly actor: string;
  readonly action: string;
  readonly leadId: string | undefined;
  readonly detail: string;
  /** False once the entry's lead was deleted. */
  readonly leadKept?: boolean;
}

/** Who a person's data is looked for by: their e-mail, their full international number, or both. */
export interface PersonLookup {
  readonly email?: string | undefined;
  readonly phone?: string | undefined;
  /** Of the leads matched by telephone only (PersonMatch's `phone`), those staff ticked as the person's. */
  readonly ticked?: readonly string[] | undefined;
}

/** A lead found for a person by its e-mail, or else by `phone`, the number it shares with them. */
export type PersonMatch = { readonly lead: InboxLead; readonly phone?: string | undefined };

/** One of a person's leads with its files' records (not the bytes) and its timeline. */
export type PersonLead = {
  readonly lead: InboxLead;
  readonly files: readonly StoredAttachment[];
  readonly timeline: readonly LeadEvent[];
};

/** Everything kept about a person: their leads and the audit entries that name them, oldest first. */
export type PersonData = { readonly leads: readonly PersonLead[]; readonly audit: readonly AuditEntry[] };

export interface SignInKeys {
  readonly account: string;
  /** The client's network (../receiver/rate-limit.ts's clientNetwork: an IPv6 address's /64). */
  readonly address: string;
  /** The device cookie's token as the browser sent it (checked against the account). */
  readonly device?: string | undefined;
}

export interface SignInRefusal {
  readonly at: string;
  /** The address typed (it may name no account). */
  readonly account: string;
  readonly network: string;
  readonly reason: string;
}

export interface AuditQuery {
  readonly limit: number;
  readonly offset?: number;
  readonly actor?: string;
  readonly action?: string;
  readonly since?: Date; // at or after
  readonly until?: Date; // before
  /** Leaves out "opened lead" entries (unless `action` asks for them): each view is one, and they outnumber the rest. */
  readonly hideViews?: boolean;
}

export type SignInGate = { readonly open: true } | { readonly open: false; readonly locked: boolean; readonly retryAt: Date };

/**
 * A lead's place in a list and the leads either side. `left`: the lead is no longer in the list
 * (asked with `former`): its neighbours are those either side of where its former status puts it.
 */
export type LeadWalk = Readonly<{
  previous: string | undefined;
  next: string | undefined;
  position: number;
  total: number;
  left?: true;
}>;

export interface InboxStore {
  leads(filter: LeadFilter, page: number, order?: LeadOrder): Promise<{ leads: InboxLead[]; total: number }>;
  /** The tabs' counts: the leads the filter finds in each status, and held (its statuses and `review` ignored). */
  statusCounts(filter: LeadFilter): Promise<Record<LeadStatus | 'held', number>>;
  /** A lead page's "Previous" and "Next"; undefined when the filter does not find it, unless `former` is given. */
  neighbours(
    filter: LeadFilter,
    order: LeadOrder,
    id: string,
    former?: { readonly status?: LeadStatus | undefined },
  ): Promise<LeadWalk | undefined>;
  /** A person's leads, held ones included: those with the e-mail, then those sharing a full international number. */
  personMatches(person: PersonLookup): Promise<PersonMatch[]>;
  exportLeads(filter: LeadFilter): AsyncIterable<InboxLead>;
  /** Held ones included. */
  lead(id: string): Promise<InboxLead | undefined>;
  /**
   * Sets the status, on the timeline when it changes; false for an unknown or held lead (held joins
   * the inbox by release), or when the lead changed since `unless` (checked in the write's transaction).
   */
  setStatus(id: string, status: LeadStatus, by: string, now: Date, unless?: SeenGuard): Promise<boolean>;
  /** A note (cut to NOTE_MAX), correcting `corrects` (which stays); undefined for an unknown lead or note. */
  addNote(id: string, text: string, by: string, now: Date, corrects?: number): Promise<number | undefined>;
  /** Sets (a Riyadh day) or clears (null) the follow-up date; false for an unknown or held lead, or no date. */
  setFollowUp(id: string, day: string | null, by: string, now: Date): Promise<boolean>;
  countLeads(filter: LeadFilter): Promise<number>;
  /** Each inbox lead (not held, not spam) whose wait began at or after `since`: then, and its first answer. */
  firstAnswers(since?: Date): Promise<{ readonly waitingSince: string; readonly firstAnsweredAt: string | undefined }[]>;
  /** False when another server (or an earlier run) has taken the day's digest. */
  claimStaffDigest(day: string, email: string, now: Date): Promise<boolean>;
  staffDigestSent(day: string, email: string, now: Date): Promise<void>;
  unclaimStaffDigest(day: string, email: string): Promise<void>;
  /** On the timeline when it changes; false as setStatus. */
  assign(id: string, to: string | null, by: string, now: Date, unless?: SeenGuard): Promise<boolean>;
  /** False for an unknown lead. */
  record(id: string, kind: 'download' | 'reply' | 'notification', detail: string, by: string, now: Date): Promise<boolean>;
  /** Newest first. */
  timeline(id: string): Promise<LeadEvent[]>;
  /** The `reply` entries of these leads at or after `since`, newest first (the list's "X is answering"). */
  recentReplies(ids: readonly string[], since: Date): Promise<LeadEvent[]>;

  createSession(email: string, now: Date, stage?: SessionStage): Promise<{ token: string; csrf: string }>;
  setPendingTotp(token: string, sealed: string | null): Promise<void>;
  /** The live session a token names (and it is kept alive). */
  session(token: string, now: Date): Promise<StaffSession | undefined>;
  endSession(token: string): Promise<void>;

  /** Read only: nothing is counted. */
  gate(keys: SignInKeys, now: Date): Promise<SignInGate>;
  /**
   * One sign-in attempt, counted as a failure before its password is checked (a success clears
   * it), in the transaction that reads the gate; refused, uncounted, while the gate is closed. With
   * this account's device cookie (`keys.device`) it is judged by that device alone: another's lock
   * does not shut it out. `lockStarted`: this attempt, if wrong, is the one that locks.
   */
  attempt(keys: SignInKeys, now: Date): Promise<SignInGate & { readonly trusted: boolean; readonly lockStarted: boolean }>;
  /** Whether `keys.device` is a live device cookie of `keys.account` (read only). */
  trustedDevice(keys: SignInKeys, now: Date): Promise<boolean>;
  /**
   * A sign-in refused because the password checks are busy, counted against its network alone;
   * uncounted while that network's gate is closed. `lockStarted`: this one locks the network.
   */
  busy(address: string, now: Date): Promise<SignInGate & { readonly lockStarted: boolean }>;
  clearFailures(keys: SignInKeys): Promise<void>;
  /** A device cookie's token for a browser that has just signed in (the database keeps its hash). */
  rememberDevice(email: string, now: Date): Promise<string>;
  /** Kept apart from staff actions. */
  refusal(entry: Omit<SignInRefusal, 'at'>, now: Date): Promise<void>;
  refusals(query: { readonly limit: number; readonly offset?: number }): Promise<{ entries: SignInRefusal[]; total: number }>;

  /** Every lead of a person (by telephone only, those ticked) with all kept with it. */
  personData(person: PersonLookup): Promise<PersonData>;
  /** The entry's number, so that a long action (an export) can be completed later. */
  audit(actor: string, action: string, leadId: string | undefined, detail: string, now: Date): Promise<number>;
  completeAudit(seq: number, detail: string): Promise<void>;
  /** Newest first, with how many match. */
  auditLog(query: AuditQuery): Promise<{ entries: AuditEntry[]; total: number }>;
  close(): Promise<void>;
}

/** A key's run of failed sign-ins (times in ms; 0 when none). */
export interface FailureRun {
  readonly failures: number;
  readonly last: number;
  readonly lockedUntil: number;
}

export type SignInKind = 'account' | 'address' | 'device';

/** A stored failure row as the rules read it: a run long past, with no lock running, is forgotten. */
export function failureRun(
  row: { failures: number; last_failure_at: string | Date; locked_until: string | Date | null } | undefined,
  now: Date,
): FailureRun {
  if (!row) return { failures: 0, last: 0, lockedUntil: 0 };
  const last = new Date(row.last_failure_at).getTime();
  const lockedUntil = row.locked_until ? new Date(row.locked_until).getTime() : 0;
  if (now.getTime() - last > FAILURE_MEMORY_MS && lockedUntil <= now.getTime()) return { failures: 0, last: 0, lockedUntil: 0 };
  return { failures: Number(row.failures), last, lockedUntil };
}

export function gateOf(runs: Readonly<Partial<Record<SignInKind, FailureRun>>>, now: Date): SignInGate {
  let closedUntil = 0;
  let locked = false;
  for (const kind of ['account', 'address', 'device'] as const) {
    const run = runs[kind];
    if (!run) continue;
    const { failures, last, lockedUntil } = run;
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

/** One more failure: its new count, and a lock when it reaches LOCK_AFTER (a lock served starts a new count). */
export function afterFailure(kind: SignInKind, run: FailureRun, now: Date): { failures: number; lockedUntil: Date | null } {
  const failures = run.failures + 1;
  return failures >= LOCK_AFTER[kind]
    ? { failures: 0, lockedUntil: new Date(now.getTime() + LOCK_MS) }
    : { failures, lockedUntil: null };
}

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** Riyadh is UTC+3 all year: a date typed by staff means that day in Riyadh. */
export function riyadhDayStart(day: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00+03:00`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** A calendar day as staff type it (YYYY-MM-DD) that exists: 2026-02-30 is no day. */
export function isCalendarDay(day: unknown): day is string {
  if (typeof day !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}
