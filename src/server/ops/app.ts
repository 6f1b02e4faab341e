/**
 * The composition root: the one application object of a process, built once by the site's server
 * (../http/serve.ts), src/middleware.ts under `astro dev` or the staff command, and handed to
 * Astro's routes in `locals.app`. Everything shared lives here, never in a module variable: the
 * server runs these modules from the source and Astro runs its own bundled copies of them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import type { Logger } from 'pino';
import { receiverConfig, type ReceiverConfig } from '../config.ts';
import { twoStepSettings, type TwoStepSettings } from '../inbox/two-step.ts';
import { DOC_LIMITS } from '../receiver/doc-file.ts';
import { NetworkBudget } from '../receiver/network-budget.ts';
import { HASHING } from '../inbox/staff.ts';
import { PROOF_SECRET_NAME, proofKeys, type ProofKeys } from '../receiver/proof.ts';
import { RateLimiter } from '../receiver/rate-limit.ts';
import { openStores, type OpenOptions, type Stores } from '../store/database.ts';
import { freeDiskBytes } from './health.ts';
import { makeLogger, RefusalLog } from './log.ts';
import { makeMetrics, type Metrics } from './metrics.ts';
import { opsSettings, type OpsSettings } from './settings.ts';
import { WorkQueue } from './work-queue.ts';

export interface App {
  readonly config: ReceiverConfig;
  readonly settings: OpsSettings;
  readonly twoStep: TwoStepSettings;
  readonly stores: Stores;
  readonly log: Logger;
  /** Refused posts, a line for the first of a kind and a sum a minute for the rest. */
  readonly refusals: RefusalLog;
  readonly metrics: Metrics;
  /** The id of the request being answered (../http/serve.ts runs each request in it; the log writes it). */
  readonly requestIds: AsyncLocalStorage<string>;
  readonly limiter: RateLimiter;
  readonly budget: NetworkBudget;
  /** Challenges per client: ten times the posts' rate (a visitor may open both forms, reload, come back). */
  readonly challenges: RateLimiter;
  readonly passwordChecks: WorkQueue;
  /** Word 97-2003 files being read, each in a process of its own (../receiver/doc-file.ts). */
  readonly docReadings: WorkQueue;
  /** The proof of work's keys: ALTCHA_HMAC_KEY's, or the one kept in the database (read again after a failure). */
  proofKeys(): Promise<ProofKeys>;
  /** Whether `bytes` more of files leave SUBMISSIONS_MIN_FREE_DISK_MB free (always, on PostgreSQL). */
  filesRoom(bytes: number): Promise<boolean>;
  close(): Promise<void>;
}

/** Reads the settings (throwing on a malformed one) and opens the database; `stores.ready` tells when its schema is checked. */
export function buildApp(env: NodeJS.ProcessEnv = process.env, options: OpenOptions = {}): App {
  const config = receiverConfig(env);
  const settings = opsSettings(env);
  const twoStep = twoStepSettings(env);
  const stores = openStores(config, options);
  const requestIds = new AsyncLocalStorage<string>();
  const windowMs = config.rateWindowSeconds * 1000;
  const limiter = new RateLimiter({ limit: config.rateLimit, windowMs });
  let keys: Promise<ProofKeys> | undefined;
  const log = makeLogger(() => requestIds.getStore());
  const refusals = new RefusalLog(log);
  return {
    config,
    settings,
    twoStep,
    stores,
    log,
    refusals,
    metrics: makeMetrics(() => stores.depth()),
    requestIds,
    limiter,
    budget: new NetworkBudget(config.budget, limiter),
    challenges: new RateLimiter({ limit: config.rateLimit * 10, windowMs }),
    passwordChecks: new WorkQueue(HASHING),
    docReadings: new WorkQueue({ running: DOC_LIMITS.concurrent, waiting: Infinity }),
    proofKeys() {
      const hmacKey = config.proof.hmacKey;
      keys ??= hmacKey
        ? Promise.resolve(proofKeys(hmacKey))
        : stores.ready.then(async () => proofKeys(await stores.held.secret(PROOF_SECRET_NAME, new Date())));
      keys.catch(() => (keys = undefined));
      return keys;
    },
    async filesRoom(bytes) {
      if (config.databaseUrl || config.minFreeDiskBytes === 0) return true;
      return (await freeDiskBytes(path.dirname(config.dbPath))) - bytes >= config.minFreeDiskBytes;
    },
    close: () => {
      refusals.flush();
      return stores.close();
    },
  };
}
