/**
 * The outbox: delivering each lead's notification e-mail, which the receiver stored with the
 * lead in one transaction (table `notifications`, ../store/submission-queries.ts).
 *
 * - The worker runs inside the site's server (src/server/http/serve.ts). It looks for notifications
 *   that are due every second (and at once when started), sends up to five at a time, and marks
 *   each sent only after the mail server accepted it.
 * - A failed send is retried after LEADS_NOTIFY_RETRY_SECONDS, then twice as long each time, up to
 *   an hour; once a notification is older than LEADS_NOTIFY_GIVE_UP_DAYS it is marked failed,
 *   which the staff command lists (`npm run submissions -- outbox`) and can queue again.
 * - Nothing is lost to a crash: a notification stays pending until marked sent, so one whose
 *   send was cut short is sent after the restart. Delivery is therefore at least once: a crash
 *   after the mail server accepted a mail and before it was marked sent sends it again, with the
 *   same Message-ID (one per lead), by which mail systems drop the duplicate. Within one running
 *   server, each notification is sent once.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import nodemailer, { type SendMailOptions, type TransportOptions } from 'nodemailer';
import { RETRY_CAP_SECONDS, type NotificationConfig } from '../config.ts';
import type { FormName } from '../store/store.ts';
import type { App } from '../ops/app.ts';
import { logLead } from '../ops/log.ts';

export type NoticeStatus = 'pending' | 'sent' | 'failed';

export interface OutboxEntry {
  readonly submissionId: string;
  readonly form: FormName;
  readonly status: NoticeStatus;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly replyTo: string | undefined;
  readonly createdAt: string;
  readonly attempts: number;
  readonly nextAttemptAt: string;
  readonly sentAt: string | undefined;
  readonly lastError: string | undefined;
}

export const isNoticeStatus = (value: string): value is NoticeStatus =>
  value === 'pending' || value === 'sent' || value === 'failed';

/**
 * The outbox table, in either database (../store/sqlite/sqlite-store.ts's openOutboxStore, ../store/postgres/pg-store.ts;
 * the queries: ../store/outbox-queries.ts). Every call returns a promise.
 */
export interface OutboxStore {
  /**
   * Pending notifications due at `now`, oldest first, claimed for this sender: with several
   * servers on one database, a notification claimed by one is not handed to another until the
   * claim lapses (a sender that died mid-send).
   */
  claimDue(now: Date, limit: number): Promise<OutboxEntry[]>;
  /** Whether a claimed notification is still to be sent (false once its lead was deleted). */
  stillDue(id: string): Promise<boolean>;
  markSent(id: string, at: Date): Promise<void>;
  /** A failed attempt: tried again at `next`. */
  markRetry(id: string, attempts: number, next: Date, error: string): Promise<void>;
  /** Given up on (at `at`, default now): listed for staff until queued again. */
  markFailed(id: string, attempts: number, error: string, at?: Date): Promise<void>;
  /** Notifications of these statuses, oldest first. */
  list(statuses: readonly NoticeStatus[]): Promise<OutboxEntry[]>;
  /** Queues a notification again, due now; false when the lead has none. */
  retry(id: string, now: Date): Promise<boolean>;
  close(): Promise<void>;
}

/** The wait before the next attempt, after `attempts` failed ones: the first delay, doubled each time, at most an hour. */
export function retryDelaySeconds(attempts: number, firstDelaySeconds: number): number {
  return Math.min(RETRY_CAP_SECONDS, firstDelaySeconds * 2 ** Math.max(0, attempts - 1));
}

/** The address part of "Name <address>" or of a bare address. */
const addressOf = (mailbox: string) => /<([^<>]+)>\s*$/.exec(mailbox)?.[1] ?? mailbox;

/** One Message-ID per lead, the same on every attempt: a resend is recognised as the same mail. */
export function messageIdFor(submissionId: string, from: string): string {
  const domain = addressOf(from).split('@')[1] ?? 'localhost';
  return `<lead.${submissionId}@${domain}>`;
}

/** What sends a mail: nodemailer's SMTP transport in the server, anything with sendMail in a test. */
export interface MailTransport {
  sendMail(message: SendMailOptions): Promise<unknown>;
  close(): void;
}

/**
 * nodemailer's SMTP transport, keeping up to five connections open and sending many mails over
 * each. With `requireTls`, an smtp:// server that offers no STARTTLS gets nothing, not even the
 * password: the send fails, is retried, and the outbox shows why (smtps:// is TLS from the start).
 */
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

/** Who gets a lead's e-mail: its form's recipients (LEADS_NOTIFY_TO_CONTACT, LEADS_NOTIFY_TO_PARTNER), else LEADS_NOTIFY_TO. */
export function recipientsFor(config: Pick<NotificationConfig, 'to' | 'toByForm'>, form: FormName): readonly string[] {
  const own = config.toByForm?.[form];
  return own && own.length > 0 ? own : config.to;
}

export interface OutboxWorkerOptions {
  readonly store: OutboxStore;
  readonly config: NotificationConfig;
  readonly transport: MailTransport;
  readonly now?: () => Date;
  readonly log?: (message: string) => void;
  /** The application's log and metrics, which each send is written to and counted in (none in tests). */
  readonly app?: Pick<App, 'log' | 'metrics'>;
  /** How often due notifications are looked for. Default 1 s. */
  readonly pollMs?: number;
  /** Sent at once at most. Default 5. */
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

  /** Sends what is due now; resolves when the round is over (a round already running is joined). */
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
    // The store is the caller's: it may serve others (the same PostgreSQL pool).
    this.#options.transport.close();
  }

  async #round(): Promise<void> {
    const { store, concurrency = 5 } = this.#options;
    const now = this.#options.now ?? (() => new Date());
    for (;;) {
      if (this.#stopped) return;
      const due = (await store.claimDue(now(), 50)).filter((entry) => !this.#inFlight.has(entry.submissionId));
      if (due.length === 0) return;
      let next = 0;
      const lane = async () => {
        while (next < due.length && !this.#stopped) {
          const entry = due[next++]!;
          this.#inFlight.add(entry.submissionId);
          try {
            await this.#send(entry, now);
          } finally {
            this.#inFlight.delete(entry.submissionId);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, lane));
    }
  }

  async #send(entry: OutboxEntry, now: () => Date): Promise<void> {
    const { store, config, transport, app } = this.#options;
    // The structured line (lead.retry, lead.failed) goes to the app's log; a test may also read the sentence.
    const log = this.#options.log ?? (() => undefined);
    // Claimed a moment ago, perhaps deleted since (a person's erasure): then it is dropped, not sent.
    if (!(await store.stillDue(entry.submissionId))) {
      log(`Lead notification ${entry.submissionId} dropped: its lead was deleted before it was sent.`);
      return;
    }
    try {
      await transport.sendMail({
        from: config.from,
        // The form's own recipients when the settings name them, else everyone's.
        to: [...recipientsFor(config, entry.form)],
        ...(entry.replyTo ? { replyTo: entry.replyTo } : {}),
        subject: entry.subject,
        text: entry.text,
        html: entry.html,
        messageId: messageIdFor(entry.submissionId, config.from),
        date: new Date(entry.createdAt),
        headers: { 'X-Globaq-Lead': `${entry.form} ${entry.submissionId}` },
      });
      await store.markSent(entry.submissionId, now());
      app?.metrics.notificationsSent.inc();
      if (app) logLead(app.log, 'notified', { leadId: entry.submissionId, form: entry.form, attempts: entry.attempts + 1 });
    } catch (error) {
      const attempts = entry.attempts + 1;
      const reason = error instanceof Error ? error.message : String(error);
      const age = now().getTime() - new Date(entry.createdAt).getTime();
      if (age >= config.giveUpDays * 86_400_000) {
        await store.markFailed(entry.submissionId, attempts, reason, now());
        app?.metrics.notificationsFailed.inc({ outcome: 'given_up' });
        if (app) logLead(app.log, 'failed', { leadId: entry.submissionId, form: entry.form, attempts, reason });
        log(`Lead notification ${entry.submissionId} given up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}`);
        return;
      }
      const next = new Date(now().getTime() + retryDelaySeconds(attempts, config.retrySeconds) * 1000);
      await store.markRetry(entry.submissionId, attempts, next, reason);
      app?.metrics.notificationsFailed.inc({ outcome: 'retry' });
      if (app)
        logLead(app.log, 'retry', {
          leadId: entry.submissionId,
          form: entry.form,
          attempts,
          reason,
          nextAttemptAt: next.toISOString(),
        });
      log(`Lead notification ${entry.submissionId} not sent (attempt ${attempts}): ${reason}; next try at ${next.toISOString()}`);
    }
  }
}
