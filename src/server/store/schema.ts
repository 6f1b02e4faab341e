/**
 * The submissions database as the code sees it (Kysely's `Database`), one description for SQLite
 * and PostgreSQL. Both read back the same values, so one set of row mappers serves both: times as
 * ISO 8601 text, `fields` as JSON text (the forms' schemas stay the one definition of the fields:
 * a new one needs no migration), whole numbers as numbers (PostgreSQL's through the pool's
 * type parsers, ./postgres/pg-store.ts). tests/integration/schema-parity.test.ts holds the two
 * live schemas to this description.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** ISO 8601 text, UTC, milliseconds: what `Date.prototype.toISOString()` writes. */
type Iso = string;

interface SubmissionTable {
  seq: Generated<number>;
  id: string;
  form: string;
  received_at: Iso;
  language: ColumnType<string, string | undefined, string>;
  fields: string;
}

interface LeadTable extends SubmissionTable {
  status: ColumnType<string, string | undefined, string>;
  status_by: string | null;
  status_at: Iso | null;
  /** The staff member the lead is assigned to (an account's e-mail), or nobody. */
  assigned_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** Held for review ('held') or judged junk ('spam'); NULL for a lead in the inbox (../inbox/held-digest.ts). */
  review: ColumnType<string | null, string | null | undefined, string | null>;
  /** Why it was held (HOLD_REASONS); kept after a release. */
  review_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** When a digest told staff this held lead is due for erasure (none is erased before). */
  review_reminded_at: ColumnType<Iso | null, Iso | null | undefined, Iso | null>;
  /** The first time its status became Answered (kept when it changes again). */
  first_answered_at: ColumnType<Iso | null, Iso | null | undefined, Iso | null>;
  /** When a held lead was released into the inbox: its wait for an answer starts then. */
  released_at: ColumnType<Iso | null, Iso | null | undefined, Iso | null>;
  /** The day staff mean to follow it up (Riyadh's calendar, YYYY-MM-DD), or none. */
  follow_up_on: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Each staff member's morning digest of a day (Riyadh's, YYYY-MM-DD): claimed by one server, then sent. */
interface StaffDigestTable {
  day: string;
  email: string;
  claimed_at: Iso;
  sent_at: Iso | null;
}

/** One day's digest of held leads (Riyadh's calendar day, YYYY-MM-DD): claimed by one server, then sent. */
interface HeldDigestTable {
  day: string;
  claimed_at: Iso;
  sent_at: Iso | null;
  held: ColumnType<number, number | undefined, number>;
}

/**
 * A lead's timeline, append only: notes, status changes, assignments, the notification sent or
 * given up, CV downloads, replies. Never updated; deleted with its lead.
 */
interface LeadEventTable {
  seq: Generated<number>;
  lead_id: string;
  at: Iso;
  /** The staff member's e-mail; null for what the site did itself (the notification). */
  actor: string | null;
  kind: string;
  detail: ColumnType<string, string | undefined, string>;
  /** A note that corrects an earlier note of the same lead: that note's seq. */
  corrects: number | null;
}

/** A proof-of-work challenge whose solution was accepted once: refused again until it expires. */
interface UsedChallengeTable {
  id: string;
  expires_at: Iso;
}

/** Secrets the server generated and keeps (the challenges' HMAC key), shared by every instance. */
interface SiteSecretTable {
  name: string;
  value: string;
  created_at: Iso;
}

/**
 * The outbox (named for the notifications it first held): every mail the site sends about a lead,
 * each with its own id (a notification's is its lead's), until it is delivered or given up.
 */
export interface NotificationTable {
  id: string;
  submission_id: string;
  /** 'notification' (to staff), 'acknowledgement' (to the sender), 'reply' (staff's answer) or 'assignment' (to the assignee). */
  kind: ColumnType<string, string | undefined, string>;
  /** The addresses, comma-separated; '' for a notification: its form's recipients as configured when it is sent. */
  recipients: ColumnType<string, string | undefined, string>;
  status: string;
  subject: string;
  body_text: string;
  body_html: string;
  reply_to: string | null;
  /** A reply: the Message-ID it answers (the lead's notification), for In-Reply-To and References. */
  in_reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** The staff member who wrote or caused it; null for what the site sends itself. */
  actor: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: Iso;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Iso;
  sent_at: Iso | null;
  last_error: string | null;
  /** PostgreSQL only: how long the instance that claimed it to send it holds it (a lease). */
  claimed_until?: Iso | null;
}

export interface AttachmentTable {
  id: string;
  submission_id: string;
  position: number;
  name: string;
  type: string;
  size: number;
  sha256: string;
  /** PostgreSQL only: the bytes (SQLite keeps them in files beside the database). */
  bytes?: Uint8Array;
}

/** A reply template staff keep, in English and Arabic (../inbox/templates.ts). */
interface ReplyTemplateTable {
  id: string;
  name: string;
  body_en: string;
  body_ar: string;
  updated_by: string;
  updated_at: Iso;
}

interface StaffTable {
  email: string;
  password_hash: string;
  created_at: Iso;
  password_changed_at: Iso;
  /** The two-step secret, encrypted (../two-step.ts); null while the account has none. */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enrolled_at: ColumnType<Iso | null, Iso | null | undefined, Iso | null>;
  /** The time step of the last code taken: a code of that step or earlier is refused. */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
}

interface StaffRecoveryCodeTable {
  email: string;
  /** SHA-256 of the account and the code (../two-step.ts's recoveryHash). */
  code_hash: string;
  used_at: Iso | null;
}

interface StaffSessionTable {
  token_hash: string;
  email: string;
  csrf: string;
  created_at: Iso;
  last_seen_at: Iso;
  /** 'signed-in', or 'code' / 'enrol' while the second step is still to come. */
  stage: ColumnType<string, string | undefined, string>;
  /** The secret being set up in this session (encrypted), until its first code confirms it. */
  pending_totp: ColumnType<string | null, string | null | undefined, string | null>;
}

interface SignInFailureTable {
  key: string;
  failures: number;
  last_failure_at: Iso;
  locked_until: Iso | null;
}

interface StaffDeviceTable {
  token_hash: string;
  email: string;
  created_at: Iso;
}

interface SignInRefusalTable {
  seq: Generated<number>;
  at: Iso;
  account: string;
  network: string;
  reason: string;
}

interface AuditLogTable {
  seq: Generated<number>;
  at: Iso;
  actor: string;
  action: string;
  lead_id: string | null;
  detail: ColumnType<string, string | undefined, string>;
}

export interface Database {
  submissions: LeadTable;
  lead_events: LeadEventTable;
  bot_submissions: SubmissionTable;
  notifications: NotificationTable;
  attachments: AttachmentTable;
  staff: StaffTable;
  staff_sessions: StaffSessionTable;
  staff_recovery_codes: StaffRecoveryCodeTable;
  sign_in_failures: SignInFailureTable;
  audit_log: AuditLogTable;
  staff_devices: StaffDeviceTable;
  sign_in_refusals: SignInRefusalTable;
  used_challenges: UsedChallengeTable;
  site_secrets: SiteSecretTable;
  held_digests: HeldDigestTable;
  reply_templates: ReplyTemplateTable;
  staff_digests: StaffDigestTable;
}

export type NewSubmissionRow = Insertable<SubmissionTable>;
export type LeadRow = Selectable<LeadTable>;
export type NewUsedChallengeRow = Insertable<UsedChallengeTable>;
export type NewNotificationRow = Insertable<NotificationTable>;
export type NewAttachmentRow = Insertable<AttachmentTable>;
export type AttachmentRow = Selectable<AttachmentTable>;
export type AuditLogRow = Selectable<AuditLogTable>;
export type ReplyTemplateRow = Selectable<ReplyTemplateTable>;

/** Ids are random UUIDs, lower case: anything else names nothing, in either database. */
export const isUuid = (id: unknown): id is string =>
  typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
