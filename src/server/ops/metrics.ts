/**
 * The process's metrics, in Prometheus' text format (prom-client), served at /metrics to loopback
 * or the OPS_TOKEN bearer only (../http/serve.ts). docs/deploy.md has the scrape config and alerts.
 *
 *   globaq_leads_stored_total{form,language}            leads committed (acknowledged)
 *   globaq_leads_refused_total{form,reason}             posts answered with a refusal (the
 *                                                       receiver's error code: invalidFields,
 *                                                       overBudget, storeUnavailable, …;
 *                                                       honeypot for the bot catch)
 *   globaq_notifications_sent_total                     lead e-mails the mail server accepted
 *   globaq_notifications_failed_total{outcome}          failed sends: retry (tried again later)
 *                                                       or given_up (listed for staff)
 *   globaq_held_waiting, globaq_held_oldest_age_seconds  leads held for review (read at scrape)
 *   globaq_held_unwarned_overdue                        held leads past HELD_PURGE_DAYS that no
 *                                                       digest warned of (kept, not erased)
 *   globaq_held_digests_total{outcome}                  daily digests of held leads: sent, failed
 *   globaq_morning_digests_total{outcome}               staff's morning digests: sent, quiet
 *                                                       (nothing to say, no mail), failed
 *   globaq_first_answer_working_seconds                 time to each lead's first answer, in Riyadh
 *                                                       working time (Sunday to Thursday, 08:00 to
 *                                                       17:00), read from the store at scrape: every
 *                                                       inbox lead answered (no per-lead labels)
 *   globaq_notifications_pending                        notifications waiting (read at scrape)
 *   globaq_notifications_oldest_pending_age_seconds     the oldest one's age; 0 when none
 *   globaq_signin_failures_total, globaq_signin_locks_total
 *   globaq_http_request_duration_seconds{kind,status}   per route kind: page, asset, api, admin,
 *                                                       health, other; status class 2xx…5xx
 *   globaq_store_waiting, globaq_store_connections{state}
 *   globaq_ready, globaq_ready_check{check}             what /readyz answers, checked at scrape
 *   and prom-client's process metrics (memory, CPU, event loop lag, handles).
 *
 * The application object (./app.ts) holds the process's one registry: the server, the outbox and
 * the routes inside Astro's bundle count into the same metrics.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { StoreDepth } from '../store/store.ts';

export interface PendingNotifications {
  readonly count: number;
  /** ISO time of the oldest pending one; undefined when none. */
  readonly oldest: string | undefined;
  /** Why the latest failed send of a pending one failed (the mail server's or the transport's words). */
  readonly lastError?: string | undefined;
}

export interface HeldWaiting {
  readonly count: number;
  /** ISO time the oldest held lead was received; undefined when none. */
  readonly oldest: string | undefined;
  /** Held leads past HELD_PURGE_DAYS that no digest has warned staff of (kept). */
  readonly unwarnedOverdue: number;
}

export interface Metrics {
  readonly registry: Registry;
  readonly leadsStored: Counter<'form' | 'language'>;
  readonly leadsRefused: Counter<'form' | 'reason'>;
  readonly notificationsSent: Counter;
  readonly notificationsFailed: Counter<'outcome'>;
  readonly signInFailures: Counter;
  readonly signInLocks: Counter;
  readonly requestDuration: Histogram<'kind' | 'status'>;
  readonly heldDigests: Counter<'outcome'>;
  readonly morningDigests: Counter<'outcome'>;
  /** Where the first answers' working times (seconds) are read from at each scrape (set by the server). */
  firstAnswers: (() => Promise<readonly number[]>) | undefined;
  /** Where the held leads are read from at each scrape (set by the server). */
  held: (() => Promise<HeldWaiting>) | undefined;
  /** Where the pending notifications are read from at each scrape (set by the server). */
  pending: (() => Promise<PendingNotifications>) | undefined;
  /** The readiness checks, run at each scrape (set by the server): check name → passing. */
  readiness: (() => Promise<Readonly<Record<string, boolean>>>) | undefined;
}

/** `read`, called once per scrape: the gauges asking during one scrape share its answer. */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let last: Promise<T> | undefined;
  return () => (last ??= read().finally(() => setImmediate(() => (last = undefined))));
}

/** Seconds since the oldest waiting item was made: 0 when none, NaN when it could not be read. */
const ageOf = (waiting: { readonly oldest: string | undefined } | undefined): number =>
  waiting === undefined ? Number.NaN : waiting.oldest ? Math.max(0, (Date.now() - Date.parse(waiting.oldest)) / 1000) : 0;

/** The metrics; `storeDepth` reads the database's waiting work at each scrape. */
export function makeMetrics(storeDepth: () => StoreDepth): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // The gauges read at scrape time; each read is shared by the gauges of one scrape.
  const readPending = oncePerScrape(() => metrics.pending?.() ?? Promise.resolve({ count: 0, oldest: undefined }));
  const readHeld = oncePerScrape(() => metrics.held?.() ?? Promise.resolve({ count: 0, oldest: undefined, unwarnedOverdue: 0 }));
  const readReadiness = oncePerScrape(() => (metrics.readiness?.() ?? Promise.resolve({})).catch(() => ({ store: false })));
  const metrics: Metrics = {
    registry,
    leadsStored: new Counter({
      name: 'globaq_leads_stored_total',
      help: 'Leads committed to the store and acknowledged.',
      labelNames: ['form', 'language'],
      registers: [registry],
    }),
    leadsRefused: new Counter({
      name: 'globaq_leads_refused_total',
      help: 'Form posts refused, by reason.',
      labelNames: ['form', 'reason'],
      registers: [registry],
    }),
    notificationsSent: new Counter({
      name: 'globaq_notifications_sent_total',
      help: 'Lead notifications the mail server accepted.',
      registers: [registry],
    }),
    notificationsFailed: new Counter({
      name: 'globaq_notifications_failed_total',
      help: 'Lead notification sends that failed: retry or given_up.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    signInFailures: new Counter({ name: 'globaq_signin_failures_total', help: 'Staff sign-ins refused.', registers: [registry] }),
    signInLocks: new Counter({
      name: 'globaq_signin_locks_total',
      help: 'Staff accounts or addresses locked after repeated failures.',
      registers: [registry],
    }),
    requestDuration: new Histogram({
      name: 'globaq_http_request_duration_seconds',
      help: 'Time to answer a request, by route kind and status class.',
      labelNames: ['kind', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    heldDigests: new Counter({
      name: 'globaq_held_digests_total',
      help: 'Daily digests of held leads: sent, or failed (tried again within the hour).',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    morningDigests: new Counter({
      name: 'globaq_morning_digests_total',
      help: "Staff's morning digests: sent, quiet (nothing to say, no mail), or failed (tried again within the hour).",
      labelNames: ['outcome'],
      registers: [registry],
    }),
    firstAnswers: undefined,
    held: undefined,
    pending: undefined,
    readiness: undefined,
  };
  new Histogram({
    name: 'globaq_first_answer_working_seconds',
    help: 'Time from a lead reaching the inbox (received, or released if held) to its first answer, in Riyadh working time (Sunday to Thursday, 08:00 to 17:00).',
    // A quarter of an hour to two working weeks; 32400 s is one working day.
    buckets: [900, 1800, 3600, 7200, 14_400, 32_400, 64_800, 162_000, 324_000],
    registers: [registry],
    async collect() {
      // Read whole from the store at each scrape (a few thousand leads at most): every server reports the same.
      const seconds = await (metrics.firstAnswers?.() ?? Promise.resolve([])).catch(() => undefined);
      if (seconds === undefined) return;
      this.reset();
      for (const value of seconds) this.observe(value);
    },
  });
  new Gauge({
    name: 'globaq_ready',
    help: 'What /readyz answers: 1 ready, 0 not; globaq_ready_check says which check fails.',
    registers: [registry],
    async collect() {
      const checks = await readReadiness();
      this.set(Object.values(checks).every(Boolean) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'globaq_ready_check',
    help: 'Each readiness check: 1 passing, 0 failing.',
    labelNames: ['check'],
    registers: [registry],
    async collect() {
      const checks = await readReadiness();
      for (const [check, ok] of Object.entries(checks)) this.set({ check }, ok ? 1 : 0);
    },
  });
  new Gauge({
    name: 'globaq_notifications_pending',
    help: 'Lead notifications waiting to be sent.',
    registers: [registry],
    async collect() {
      this.set((await readPending().catch(() => ({ count: Number.NaN, oldest: undefined }))).count);
    },
  });
  new Gauge({
    name: 'globaq_notifications_oldest_pending_age_seconds',
    help: 'Age of the oldest pending lead notification; 0 when none.',
    registers: [registry],
    async collect() {
      this.set(ageOf(await readPending().catch(() => undefined)));
    },
  });
  new Gauge({
    name: 'globaq_held_waiting',
    help: 'Leads held for review, not yet released or marked as spam.',
    registers: [registry],
    async collect() {
      this.set((await readHeld().catch(() => undefined))?.count ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'globaq_held_oldest_age_seconds',
    help: 'Age of the oldest lead held for review; 0 when none.',
    registers: [registry],
    async collect() {
      this.set(ageOf(await readHeld().catch(() => undefined)));
    },
  });
  new Gauge({
    name: 'globaq_held_unwarned_overdue',
    help: 'Held leads past HELD_PURGE_DAYS that no digest has warned staff of: kept, not erased.',
    registers: [registry],
    async collect() {
      this.set((await readHeld().catch(() => undefined))?.unwarnedOverdue ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'globaq_store_waiting',
    help: 'Work waiting for the database: leads queued for the next commit (SQLite), clients waiting for a connection (PostgreSQL).',
    registers: [registry],
    collect() {
      this.set(storeDepth().waiting);
    },
  });
  new Gauge({
    name: 'globaq_store_connections',
    help: 'Database connections of this process, by state.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const depth = storeDepth();
      this.set({ state: 'active' }, depth.active);
      this.set({ state: 'idle' }, depth.idle);
    },
  });
  return metrics;
}
