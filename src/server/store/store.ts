/**
 * The submissions store: the one interface the receiver (src/pages/api) and the staff command
 * (src/server/cli.ts) use, whichever database holds the leads: SQLite (src/server/store/sqlite/sqlite-store.ts,
 * the embedded default) or PostgreSQL (src/server/store/postgres/pg-store.ts, for several instances). Their
 * queries are written once (src/server/store/*-queries.ts).
 *
 * Every call returns a promise, so that a networked database fits the same shape.
 *
 * This module and the others under src/server/ are also run by Node directly (the staff
 * command, the server's start-up check): relative imports name their `.ts` file, and only
 * erasable TypeScript is used.
 */
import type { LocaleCode } from '../../i18n/index.ts';

/**
 * A change asked for from a page that showed a lead as of timeline entry `seen`: refused, nothing
 * written, when an entry of one of `kinds` (a status, an assignment, a note) came after it. The
 * store checks it in the change's own transaction, the lead's row taken first, so of two changes
 * posted at the same moment from pages showing the same entry exactly one applies.
 */
export interface SeenGuard {
  readonly seen: number;
  readonly kinds: readonly string[];
}

export const FORMS = ['contact', 'partner'] as const;
export type FormName = (typeof FORMS)[number];

/** A type guard for the values of a list: whether a value read from outside is one of them. */
export const oneOf =
  <T extends string>(values: readonly T[]) =>
  (value: unknown): value is T =>
    typeof value === 'string' && (values as readonly string[]).includes(value);

export const isFormName = oneOf(FORMS);

/** A validated submission's fields, as the form's schema returned them (JSON values only). */
export type SubmissionFields = Readonly<Record<string, unknown>>;

export interface StoredSubmission {
  /** Opaque public id (a UUID), the one answered with 201. */
  readonly id: string;
  readonly form: FormName;
  /** When the server received it: ISO 8601, UTC, milliseconds. */
  readonly receivedAt: string;
  /** The language of the page the form was sent from (the receiver's `?lang=`); 'en' for leads older than the column. */
  readonly language: LocaleCode;
  readonly fields: SubmissionFields;
}

/**
 * A lead's notification e-mail, composed when the lead arrives (src/server/mail/lead-mail.ts) and
 * stored with it in one transaction (the outbox); the sender, the recipients and the Message-ID
 * are added when it is sent (src/server/mail/outbox.ts).
 */
export interface LeadNotice {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** The visitor's address: staff answer with one click. */
  readonly replyTo: string | undefined;
}

/**
 * The acknowledgement to a lead's sender (src/server/mail/acknowledgement.ts), composed when the
 * lead arrives and queued with it: to their address alone, with nothing they typed in it.
 */
export interface LeadAcknowledgement {
  /** The sender's address, trimmed and lower case (one acknowledgement per mailbox per day). */
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Where an answer to it goes: the company's address, which a person reads. */
  readonly replyTo?: string | undefined;
  /** The hourly bounds it is queued within (default DEFAULT_ACKNOWLEDGE_LIMITS). */
  readonly limits?: AcknowledgeLimits | undefined;
}

/** At most this many acknowledgements are queued an hour to one domain, and in all. */
export interface AcknowledgeLimits {
  readonly perDomain: number;
  readonly total: number;
}

export const DEFAULT_ACKNOWLEDGE_LIMITS: AcknowledgeLimits = { perDomain: 5, total: 60 };

/** A file sent with a lead (a partner's CV), checked by the receiver (../receiver/uploads.ts). */
export interface NewAttachment {
  /** The visitor's file name, cleaned: a label only, never a path. */
  readonly name: string;
  /** Its media type, from its content. */
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
  /** SHA-256 of the bytes, hex. */
  readonly sha256: string;
}

/**
 * Why a lead is held for review instead of mailed (src/server/inbox/held.ts): no proof of work, a
 * proof that does not verify, has expired or was used before, a form posted without JavaScript,
 * sent faster than a person could, too many links, the honeypot filled, many posts from one
 * network (over the rate limit), or files not kept (over the network's daily quota of files,
 * or the server's disk under its floor of free space), or a PDF that may run something when opened.
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
  /**
   * The lead's notification, queued in the outbox in the same transaction as the lead (never
   * one without the other). Left out when notifications are off; never made for the honeypot's catch.
   */
  readonly notice?: (lead: StoredSubmission) => LeadNotice;
  /**
   * The acknowledgement to the sender, queued in the lead's transaction unless one went to the
   * same address within a day (undefined from it: none). Never for a held lead or the honeypot's catch.
   */
  readonly acknowledgement?: (lead: StoredSubmission) => LeadAcknowledgement | undefined;
  /**
   * A submission whose honeypot field was filled: kept apart from the leads (its own table),
   * never listed, counted or exported with them.
   */
  readonly bot?: boolean;
  /** Defaults to now. */
  readonly receivedAt?: Date;
  /** Files stored with the lead, in the same all-or-nothing save (never with the honeypot's catch). */
  readonly attachments?: readonly NewAttachment[];
  /** Held for review, for this reason: stored with its files, but no notification is queued. */
  readonly held?: HoldReason | undefined;
  /**
   * The verified proof's challenge: recorded as used in the lead's transaction. One already used
   * (another lead took it, even at the same moment) stores the lead held as 'replayedProof'.
   */
  readonly challenge?: { readonly id: string; readonly expiresAt: Date } | undefined;
}

export interface Query {
  readonly form?: FormName;
  /** Received at or after. */
  readonly since?: Date;
  /** Received at or before. */
  readonly until?: Date;
  /** Read the honeypot's catch instead of the leads. */
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
   * Erases one submission (a lead or the honeypot's catch) and everything stored with it (its
   * notification), in one transaction: a person's right to erasure (Saudi PDPL). Undefined when
   * no submission has this id, or when `unless` says the lead changed since the page asking was
   * made (then nothing is erased: ./common.ts changedSince).
   */
  delete(
    id: string,
    unless?: SeenGuard,
  ): Promise<{ readonly submission: StoredSubmission; readonly notification: boolean; readonly attachments: number } | undefined>;
  /** Erases every submission received before `before`, with what is stored with it (a retention policy). */
  purge(
    before: Date,
  ): Promise<{ readonly leads: number; readonly bots: number; readonly notifications: number; readonly attachments: number }>;
  /** The files stored with a lead, in the order sent. */
  attachments(submissionId: string): Promise<StoredAttachment[]>;
  /** One stored file and its bytes; undefined for an unknown id. */
  attachment(id: string): Promise<{ readonly record: StoredAttachment; readonly bytes: Uint8Array<ArrayBuffer> } | undefined>;
  close(): Promise<void>;
}

/** A failure of the store itself (disk full, database locked for too long, a newer schema). */
export class StoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StoreError';
  }
}

/** The database's waiting work, for the metrics (../ops/metrics.ts). */
export interface StoreDepth {
  /** Work waiting for the database (queued saves, or clients waiting for a pool connection). */
  readonly waiting: number;
  /** Connections in use (PostgreSQL; SQLite: 1 while a commit holds the connection). */
  readonly active: number;
  readonly idle: number;
}
