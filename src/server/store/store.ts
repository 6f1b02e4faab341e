/**
 * The submissions store: the one interface the receiver and the staff command use, whichever
 * database holds the leads (./sqlite/sqlite-store.ts or ./postgres/pg-store.ts). Every call returns
 * a promise, so that a networked database fits the same shape.
 */
import type { LocaleCode } from '../../i18n/index.ts';

/**
 * A change asked for from a page that showed a lead as of timeline entry `seen`: refused when an
 * entry of one of `kinds` came after it (checked in the change's transaction: ./common.ts changedSince).
 */
export interface SeenGuard {
  readonly seen: number;
  readonly kinds: readonly string[];
}

export const FORMS = ['contact', 'partner'] as const;
export type FormName = (typeof FORMS)[number];

export const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (values as readonly string[]).includes(value);

export const isFormName = oneOf(FORMS);

export type SubmissionFields = Readonly<Record<string, unknown>>;

export interface StoredSubmission {
  readonly id: string;
  readonly form: FormName;
  readonly receivedAt: string;
  /** The language of the page the form was sent from (the receiver's `?lang=`); 'en' for leads older than the column. */
  readonly language: LocaleCode;
  readonly fields: SubmissionFields;
}

/** A lead's notification e-mail (../mail/lead-mail.ts), queued in the lead's own transaction. */
export interface LeadNotice {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The visitor's address: staff answer with one click. */
  readonly replyTo: string | undefined;
}

/** The acknowledgement to a lead's sender (../mail/acknowledgement.ts): nothing they typed is in it. */
export interface LeadAcknowledgement {
  /** The sender's address, trimmed and lower case (one acknowledgement per mailbox per day). */
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Where an answer to it goes: the company's address, which a person reads. */
  readonly replyTo?: string | undefined;
  readonly limits?: AcknowledgeLimits | undefined;
}

/** At most this many acknowledgements are queued an hour to one domain, and in all. */
export interface AcknowledgeLimits {
  readonly perDomain: number;
  readonly total: number;
}

export const DEFAULT_ACKNOWLEDGE_LIMITS: AcknowledgeLimits = { perDomain: 5, total: 60 };

/** A file sent with a lead (a partner's CV), checked by ../receiver/uploads.ts. */
export interface NewAttachment {
  /** The visitor's file name, cleaned: a label only, never a path. */
  readonly name: string;
  readonly type: string;
  readonly bytes: Uint8Array;
}

/** A stored file's record; its bytes are read with the store's `attachment(id)`. */
export interface StoredAttachment {
  /** Random id: the file's name on disk and in the inbox's address. */
  readonly id: string;
  readonly submissionId: string;
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly sha256: string;
}

/**
 * Why a lead is held for review instead of mailed (../inbox/held-digest.ts): its proof, JavaScript off, too fast,
 * too many links, the honeypot, over the rate, files not kept (quota, disk) or a PDF that may run something.
 */
export const HOLD_REASONS = [
  'noProof',
  'invalidProof',
  'expiredProof',
  'replayedProof',
  'noScript',
  'tooFast',
  'tooManyLinks',
  'honeypot',
  'manyPosts',
  'fileQuota',
  'lowDisk',
  'activeFile',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];
/**
 * The holds a person's own browser can meet (its proof missing, failed or sent too soon): the
 * visitor is told their lead waits for review. The holds only a bot meets stay silent.
 */
export const TOLD_HOLDS: ReadonlySet<HoldReason> = new Set([
  'noProof',
  'invalidProof',
  'expiredProof',
  'replayedProof',
  'tooFast',
]);
export const isHoldReason = oneOf(HOLD_REASONS);

export interface SaveInput {
  readonly form: FormName;
  readonly fields: SubmissionFields;
  /** The language the form was sent in. Defaults to 'en'; the database refuses a code the site does not have. */
  readonly language?: LocaleCode;
  /** The lead's notification, queued in the lead's transaction (never one without the other); none when off. */
  readonly notice?: (lead: StoredSubmission) => LeadNotice;
  /** The acknowledgement to the sender, queued in the lead's transaction within its limits. */
  readonly acknowledgement?: (lead: StoredSubmission) => LeadAcknowledgement | undefined;
  /** The honeypot's catch: kept in its own table, never listed, counted or exported with the leads. */
  readonly bot?: boolean;
  readonly receivedAt?: Date;
  /** Files stored with the lead, in the same all-or-nothing save (never with the honeypot's catch). */
  readonly attachments?: readonly NewAttachment[];
  /** Held for review, for this reason: stored with its files, but no notification is queued. */
  readonly held?: HoldReason | undefined;
  /** The verified proof's challenge, recorded as used in the lead's transaction; one used before holds the lead. */
  readonly challenge?: { readonly id: string; readonly expiresAt: Date } | undefined;
}

export interface Query {
  readonly form?: FormName;
  readonly since?: Date;
  readonly until?: Date;
  readonly bots?: boolean;
  /** Leads in the inbox only: not those still held for review (the ones marked spam there are spam, for `withoutSpam`). Default: every lead. */
  readonly inboxOnly?: boolean;
  /** Leave out the leads staff marked as spam (the inbox's status). */
  readonly withoutSpam?: boolean;
}

export interface SubmissionStore {
  /** Stores one submission in one transaction; resolves only once it is committed. */
  save(input: SaveInput): Promise<{ id: string; receivedAt: string; held?: HoldReason | undefined }>;
  /** The newest submissions first, at most `limit` (default 20, at most 1000). */
  list(query?: Query & { readonly limit?: number }): Promise<StoredSubmission[]>;
  count(query?: Query): Promise<number>;
  /** Every matching submission, oldest first, read as a stream (for the CSV/JSON export). */
  export(query?: Query): AsyncIterable<StoredSubmission>;
  /**
   * Erases one submission and everything stored with it, in one transaction: a person's right to
   * erasure (Saudi PDPL). Undefined when no submission has this id, or `unless` says the lead changed.
   */
  delete(
    id: string,
    unless?: SeenGuard,
  ): Promise<{ readonly submission: StoredSubmission; readonly notification: boolean; readonly attachments: number } | undefined>;
  /** Erases every submission received before `before`, with what is stored with it (a retention policy). */
  purge(
    before: Date,
  ): Promise<{ readonly leads: number; readonly bots: number; readonly notifications: number; readonly attachments: number }>;
  attachments(submissionId: string): Promise<StoredAttachment[]>;
  attachment(id: string): Promise<{ readonly record: StoredAttachment; readonly bytes: Uint8Array<ArrayBuffer> } | undefined>;
  close(): Promise<void>;
}

/** A failure of the store itself (disk full, database locked for too long, a newer schema). */
export class StoreError extends Error {
  override name = 'StoreError';
}

export interface StoreDepth {
  /** Work waiting for the database (queued saves, or clients waiting for a pool connection). */
  readonly waiting: number;
  readonly active: number;
  readonly idle: number;
}
