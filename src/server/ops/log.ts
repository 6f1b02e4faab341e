/**
 * The process's structured log (pino): one JSON line per event on standard output. Leads are named
 * by their id only: nothing a visitor typed (names, addresses, messages, file names) is ever logged.
 * The application object (./app.ts) holds the process's one logger.
 */
import { pino, type Logger } from 'pino';

/** The logger; `requestId` tells the id of the request being answered, written on each of its lines. */
export function makeLogger(requestId: () => string | undefined): Logger {
  const level = process.env['LOG_LEVEL']?.trim().toLowerCase() || 'info';
  const pretty = process.env['LOG_FORMAT']?.trim().toLowerCase() === 'pretty';
  const options = {
    level,
    base: { pid: process.pid },
    // The request's id on every line written while it is answered.
    mixin: () => {
      const id = requestId();
      return id ? { requestId: id } : {};
    },
    formatters: { level: (label: string) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  if (pretty)
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l' } },
    });
  // Written synchronously: nothing is lost when the process exits right after (a shutdown, a crash).
  return pino(options, pino.destination({ dest: 1, sync: true }));
}

type LeadEvent = 'stored' | 'notified' | 'retry' | 'failed' | 'refused' | 'held' | 'released';

/** One line per lead event: the lead's id, its form and what happened; never what the visitor wrote. */
export function logLead(
  log: Logger,
  event: LeadEvent,
  fields: {
    readonly leadId?: string;
    readonly form: string;
    readonly language?: string;
    readonly reason?: string;
    readonly attempts?: number;
    readonly bot?: boolean;
    readonly nextAttemptAt?: string;
    /** Which of the outbox's mails (../mail/outbox.ts's MailKind), when not the notification. */
    readonly mail?: string;
  },
): void {
  const level = event === 'failed' ? 'error' : event === 'retry' ? 'warn' : 'info';
  log[level]({ event: `lead.${event}`, ...fields }, `lead ${event}`);
}

/** How long repeated refusals of one kind are counted before their sum is written. */
export const REFUSAL_WINDOW_MS = 60_000;

/**
 * Refusals summed by kind: the first of a kind is written at once, the others of the next minute as
 * one line with their `count`, so a stranger's flood writes two lines a minute, not one per post.
 */
export class RefusalLog {
  readonly #counts = new Map<string, { fields: Record<string, unknown>; count: number }>();
  #timer: ReturnType<typeof setTimeout> | undefined;

  readonly #log: Logger;
  readonly #windowMs: number;

  constructor(log: Logger, windowMs = REFUSAL_WINDOW_MS) {
    this.#log = log;
    this.#windowMs = windowMs;
  }

  /** One refusal; `fields` names its kind (never what the visitor wrote). */
  refused(event: string, fields: Record<string, string | undefined>): void {
    const key = JSON.stringify([event, fields]);
    const counted = this.#counts.get(key);
    if (counted) {
      counted.count += 1;
      return;
    }
    this.#counts.set(key, { fields: { event, ...fields }, count: 0 });
    this.#log.info({ event, ...fields }, event);
    this.#timer ??= setTimeout(() => this.flush(), this.#windowMs).unref();
  }

  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const { fields, count } of this.#counts.values())
      if (count > 0) this.#log.info({ ...fields, count }, `${String(fields['event'])} x${count} more`);
    this.#counts.clear();
  }
}
