/**
 * The outbox: the mails the site sends about a lead, each stored before it is sent (table
 * `notifications`, ../store/outbox-queries.ts), the notification and the acknowledgement in the
 * lead's own transaction. The worker in the server sends what is due, each marked sent only after
 * the mail server accepted it; a failed send is retried, doubling the wait, until
 * LEADS_NOTIFY_GIVE_UP_DAYS. Delivery is at least once: a crash between the mail server's accept
 * and the mark sends it again with the same Message-ID, by which mail systems drop the duplicate.
 */
import nodemailer, { type SendMailOptions, type TransportOptions } from 'nodemailer';
import { RETRY_CAP_SECONDS, type NotificationConfig } from '../config.ts';
import { oneOf, type FormName, type SeenGuard } from '../store/store.ts';
import type { Logger } from 'pino';
import type { Metrics } from '../ops/metrics.ts';
import { logLead } from '../ops/log.ts';

export type NoticeStatus = 'pending' | 'sent' | 'failed';

/** The header every automatic mail carries (RFC 3834): auto-responders do not answer it. */
export const AUTO_SUBMITTED = { 'Auto-Submitted': 'auto-generated' } as const;

const MAIL_KINDS = ['notification', 'acknowledgement', 'reply', 'assignment'] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
export const isMailKind = oneOf(MAIL_KINDS);

export interface OutboxEntry {
  /** The mail's own id; a notification's is its lead's (one per lead). */
  readonly id: string;
  readonly submissionId: string;
  readonly kind: MailKind;
  readonly form: FormName;
  /** Its addresses; none for a notification, which goes to its form's recipients as configured. */
  readonly recipients: readonly string[];
  readonly status: NoticeStatus;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly replyTo: string | undefined;
  /** A reply: the Message-ID it answers (In-Reply-To and References). */
  readonly inReplyTo: string | undefined;
  readonly actor: string | undefined;
  readonly createdAt: string;
  readonly attempts: number;
  readonly nextAttemptAt: string;
  readonly sentAt: string | undefined;
  readonly lastError: string | undefined;
}

/** A mail to queue about a lead (not a notification: those are written with their lead). */
export interface NewMail {
  readonly kind: Exclude<MailKind, 'notification'>;
  readonly leadId: string;
  readonly recipients: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly replyTo?: string | undefined;
  readonly inReplyTo?: string | undefined;
  readonly actor?: string | undefined;
  /** A reply from a lead page: not queued when the lead changed since that page was made (../store/store.ts SeenGuard). */
  readonly unless?: SeenGuard | undefined;
}

export const isNoticeStatus = (value: string): value is NoticeStatus =>
  value === 'pending' || value === 'sent' || value === 'failed';

/** The outbox table, in either database (the queries: ../store/outbox-queries.ts); ids are the mails' own. */
export interface OutboxStore {
  /** Due mails, claimed for this sender: no other server gets them until the claim lapses (a sender died mid-send). */
  claimDue(now: Date, limit: number): Promise<OutboxEntry[]>;
  /** Whether a claimed mail is still to be sent (false once its lead was deleted). */
  stillDue(id: string): Promise<boolean>;
  markSent(id: string, at: Date): Promise<void>;
  markRetry(id: string, attempts: number, next: Date, error: string): Promise<void>;
  /** Listed for staff until queued again. */
  markFailed(id: string, attempts: number, error: string, at?: Date): Promise<void>;
  /** Oldest first. */
  list(statuses: readonly NoticeStatus[]): Promise<OutboxEntry[]>;
  /** Queues a mail again, due now; false when there is none of this id. */
  retry(id: string, now: Date): Promise<boolean>;
  /** Due now; a reply goes into the lead's timeline in the same transaction. Undefined when no lead has this id. */
  queue(mail: NewMail, now: Date): Promise<string | undefined>;
  /** Oldest first. */
  forLead(leadId: string): Promise<OutboxEntry[]>;
  close(): Promise<void>;
}

/** The wait before the next attempt: the first delay, doubled each time, at most an hour. */
export function retryDelaySeconds(attempts: number, firstDelaySeconds: number): number {
  return Math.min(RETRY_CAP_SECONDS, firstDelaySeconds * 2 ** Math.max(0, attempts - 1));
}

const addressOf = (mailbox: string) => /<([^<>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox;

const domainOf = (from: string) => addressOf(from).split('@')[1] ?? 'localhost';

/** One Message-ID per lead's notification, the same on every attempt: a resend is recognised as the same mail. */
export function messageIdFor(submissionId: string, from: string): string {
  return `<lead.${submissionId}@${domainOf(from)}>`;
}

/** A mail's Message-ID, the same on every attempt: the notification's is its lead's (messageIdFor). */
function mailMessageId(entry: Pick<OutboxEntry, 'kind' | 'id' | 'submissionId'>, from: string): string {
  return entry.kind === 'notification' ? messageIdFor(entry.submissionId, from) : `<${entry.kind}.${entry.id}@${domainOf(from)}>`;
}

export interface MailTransport {
  sendMail(message: SendMailOptions): Promise<unknown>;
  close(): void;
}

/** With `requireTls`, an smtp:// server that offers no STARTTLS gets nothing, not even the password. */
export function smtpTransport(smtpUrl: string, requireTls: boolean): MailTransport {
  return nodemailer.createTransport({
    url: smtpUrl,
    requireTLS: requireTls,
    pool: true,
    maxConnections: 5,
    maxMessages: 500,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  } as TransportOptions);
}

/** Who gets a lead's e-mail: its form's recipients (LEADS_NOTIFY_TO_CONTACT...), else LEADS_NOTIFY_TO. */
export function recipientsFor(config: Pick<NotificationConfig, 'to' | 'toByForm'>, form: FormName): readonly string[] {
  const own = config.toByForm?.[form];
  return own && own.length > 0 ? own : config.to;
}

interface OutboxWorkerOptions {
  readonly store: OutboxStore;
  readonly config: NotificationConfig;
  /** The caller's to close, after `stop()`: the server shares it with the digests. */
  readonly transport: MailTransport;
  readonly now?: () => Date;
  readonly log?: (message: string) => void;
  readonly app?: { readonly log: Logger; readonly metrics: Pick<Metrics, 'notificationsSent' | 'notificationsFailed'> };
  readonly pollMs?: number;
  readonly concurrency?: number;
}

export class OutboxWorker {
  readonly #options: OutboxWorkerOptions;
  readonly #inFlight = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(options: OutboxWorkerOptions) {
    this.#options = options;
  }

  start(): void {
    this.#timer = setInterval(() => void this.tick(), this.#options.pollMs ?? 1000);
    void this.tick();
  }

  /** Resolves when the round is over (a round already running is joined). */
  tick(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    const log = this.#options.log ?? ((message: string) => this.#options.app?.log.error({ event: 'outbox.error' }, message));
    // A database that fails (a network blip to PostgreSQL) ends this round; the next one retries.
    this.#running ??= this.#round()
      .catch((error: unknown) =>
        log(
          `Lead notifications: the outbox could not be read or updated: ${error instanceof Error ? error.message : String(error)}`,
        ),
      )
      .finally(() => (this.#running = undefined));
    return this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
  }

  async #round(): Promise<void> {
    const { store, concurrency = 5 } = this.#options;
    const now = this.#options.now ?? (() => new Date());
    for (;;) {
      if (this.#stopped) return;
      const due = (await store.claimDue(now(), 50)).filter((entry) => !this.#inFlight.has(entry.id));
      if (due.length === 0) return;
      let next = 0;
      const lane = async () => {
        while (next < due.length && !this.#stopped) {
          const entry = due[next++]!;
          this.#inFlight.add(entry.id);
          try {
            await this.#send(entry, now);
          } finally {
            this.#inFlight.delete(entry.id);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, lane));
    }
  }

  async #send(entry: OutboxEntry, now: () => Date): Promise<void> {
    const { store, config, transport, app } = this.#options;
    const log = this.#options.log ?? (() => undefined);
    const what = entry.kind === 'notification' ? 'Lead notification' : `Lead ${entry.kind} mail`;
    const leadFields = {
      leadId: entry.submissionId,
      form: entry.form,
      ...(entry.kind === 'notification' ? {} : { mail: entry.kind }),
    };
    // Claimed a moment ago, perhaps deleted since (a person's erasure): then it is dropped, not sent.
    if (!(await store.stillDue(entry.id))) {
      log(`${what} ${entry.id} dropped: its lead was deleted before it was sent.`);
      return;
    }
    // Mails to staff name the lead in a header; mails to the visitor carry nothing of the inbox's.
    const toStaff = entry.kind === 'notification' || entry.kind === 'assignment';
    try {
      await transport.sendMail({
        from: config.from,
        to: entry.recipients.length > 0 ? [...entry.recipients] : [...recipientsFor(config, entry.form)],
        ...(entry.replyTo ? { replyTo: entry.replyTo } : {}),
        // Staff's answer: a copy to the shared mailbox, where the customer's answer comes too.
        ...(entry.kind === 'reply' && config.replyTo?.length ? { bcc: [...config.replyTo] } : {}),
        subject: entry.subject,
        text: entry.text,
        html: entry.html,
        messageId: mailMessageId(entry, config.from),
        // A reply threads with the lead's notification in staff's mailboxes.
        ...(entry.inReplyTo ? { inReplyTo: entry.inReplyTo, references: [entry.inReplyTo] } : {}),
        date: new Date(entry.createdAt),
        // Every mail but staff's answer is automatic (RFC 3834): auto-replies to it are not sent back.
        headers: {
          ...(entry.kind === 'reply' ? {} : AUTO_SUBMITTED),
          ...(toStaff ? { 'X-Globaq-Lead': `${entry.form} ${entry.submissionId}` } : {}),
        },
      });
      await store.markSent(entry.id, now());
      if (entry.kind === 'notification') app?.metrics.notificationsSent.inc();
      if (app) logLead(app.log, 'notified', { ...leadFields, attempts: entry.attempts + 1 });
    } catch (error) {
      const attempts = entry.attempts + 1;
      const reason = error instanceof Error ? error.message : String(error);
      const age = now().getTime() - new Date(entry.createdAt).getTime();
      if (age >= config.giveUpDays * 86_400_000) {
        await store.markFailed(entry.id, attempts, reason, now());
        if (entry.kind === 'notification') app?.metrics.notificationsFailed.inc({ outcome: 'given_up' });
        if (app) logLead(app.log, 'failed', { ...leadFields, attempts, reason });
        log(`${what} ${entry.id} given up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}`);
        return;
      }
      const next = new Date(now().getTime() + retryDelaySeconds(attempts, config.retrySeconds) * 1000);
      await store.markRetry(entry.id, attempts, next, reason);
      if (entry.kind === 'notification') app?.metrics.notificationsFailed.inc({ outcome: 'retry' });
      if (app)
        logLead(app.log, 'retry', {
          ...leadFields,
          attempts,
          reason,
          nextAttemptAt: next.toISOString(),
        });
      log(`${what} ${entry.id} not sent (attempt ${attempts}): ${reason}; next try at ${next.toISOString()}`);
    }
  }
}
