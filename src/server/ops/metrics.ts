/**
 * The process's metrics, in Prometheus' text format (prom-client), served at /metrics to loopback
 * or the OPS_TOKEN bearer only (../http/serve.ts); each one's help says what it counts. docs/deploy.md
 * has the scrape config and alerts. The application object (./app.ts) holds the process's one
 * registry: the server, the outbox and the routes inside Astro's bundle count into the same metrics.
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

export type Metrics = ReturnType<typeof makeMetrics>;

/** `read`, called once per scrape: the gauges asking during one scrape share its answer. */
function oncePerScrape<T>(read: () => Promise<T>): () => Promise<T> {
  let last: Promise<T> | undefined;
  return () => (last ??= read().finally(() => setImmediate(() => (last = undefined))));
}

/** Seconds since the oldest waiting item was made: 0 when none. */
const ageOf = (waiting: { readonly oldest: string | undefined }): number =>
  waiting.oldest ? Math.max(0, (Date.now() - Date.parse(waiting.oldest)) / 1000) : 0;

/** The metrics; `storeDepth` reads the database's waiting work at each scrape. */
export function makeMetrics(storeDepth: () => StoreDepth) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // The gauges read at scrape time; each read is shared by the gauges of one scrape.
  const readPending = oncePerScrape(() => metrics.pending?.() ?? Promise.resolve({ count: 0, oldest: undefined }));
  const readHeld = oncePerScrape(() => metrics.held?.() ?? Promise.resolve({ count: 0, oldest: undefined, unwarnedOverdue: 0 }));
  const readReadiness = oncePerScrape(() => (metrics.readiness?.() ?? Promise.resolve({})).catch(() => ({ store: false })));
  const counter = <L extends string = never>(name: string, help: string, labelNames: L[] = []) =>
    new Counter<L>({ name, help, labelNames, registers: [registry] });
  /** A gauge read at each scrape: NaN when the reading fails. */
  const gauge = (name: string, help: string, read: () => Promise<number> | number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        this.set(await Promise.resolve(read()).catch(() => Number.NaN));
      },
    });
  const metrics = {
    registry,
    leadsStored: counter('globaq_leads_stored_total', 'Leads committed to the store and acknowledged.', ['form', 'language']),
    leadsRefused: counter('globaq_leads_refused_total', 'Form posts refused, by reason.', ['form', 'reason']),
    notificationsSent: counter('globaq_notifications_sent_total', 'Lead notifications the mail server accepted.'),
    notificationsFailed: counter('globaq_notifications_failed_total', 'Lead notification sends that failed: retry or given_up.', [
      'outcome',
    ]),
    signInFailures: counter('globaq_signin_failures_total', 'Staff sign-ins refused.'),
    signInLocks: counter('globaq_signin_locks_total', 'Staff accounts or addresses locked after repeated failures.'),
    requestDuration: new Histogram({
      name: 'globaq_http_request_duration_seconds',
      help: 'Time to answer a request, by route kind and status class.',
      labelNames: ['kind', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    heldDigests: counter(
      'globaq_held_digests_total',
      'Daily digests of held leads: sent, or failed (tried again within the hour).',
      ['outcome'],
    ),
    morningDigests: counter(
      'globaq_morning_digests_total',
      "Staff's morning digests: sent, quiet (nothing to say, no mail), or failed (tried again within the hour).",
      ['outcome'],
    ),
    // What the server sets, read at each scrape: the first answers' working times (seconds), the held
    // leads, the pending notifications, and the readiness checks (check name → passing).
    firstAnswers: undefined as (() => Promise<readonly number[]>) | undefined,
    held: undefined as (() => Promise<HeldWaiting>) | undefined,
    pending: undefined as (() => Promise<PendingNotifications>) | undefined,
    readiness: undefined as (() => Promise<Readonly<Record<string, boolean>>>) | undefined,
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
  gauge('globaq_ready', 'What /readyz answers: 1 ready, 0 not; globaq_ready_check says which check fails.', async () =>
    Object.values(await readReadiness()).every(Boolean) ? 1 : 0,
  );
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
  gauge('globaq_notifications_pending', 'Lead notifications waiting to be sent.', async () => (await readPending()).count);
  gauge(
    'globaq_notifications_oldest_pending_age_seconds',
    'Age of the oldest pending lead notification; 0 when none.',
    async () => ageOf(await readPending()),
  );
  gauge(
    'globaq_held_waiting',
    'Leads held for review, not yet released or marked as spam.',
    async () => (await readHeld()).count,
  );
  gauge('globaq_held_oldest_age_seconds', 'Age of the oldest lead held for review; 0 when none.', async () =>
    ageOf(await readHeld()),
  );
  gauge(
    'globaq_held_unwarned_overdue',
    'Held leads past HELD_PURGE_DAYS that no digest has warned staff of: kept, not erased.',
    async () => (await readHeld()).unwarnedOverdue,
  );
  gauge(
    'globaq_store_waiting',
    'Work waiting for the database: leads queued for the next commit (SQLite), clients waiting for a connection (PostgreSQL).',
    () => storeDepth().waiting,
  );
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
