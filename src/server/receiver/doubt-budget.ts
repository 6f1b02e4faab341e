/**
 * What one network may leave on the server's disk in a day without being trusted: held leads,
 * and the bytes of files sent without a valid proof. A lead in doubt is stored and held, never
 * refused (a person behind a carrier's shared address must not lose their lead to a bot on the
 * same address); this budget is what keeps a flood of doubtful posts from filling the disk.
 *
 * - `held`: held leads a network may leave per day (SUBMISSIONS_HELD_PER_DAY). Past it, the
 *   receiver refuses (429), and the visitor's page says how to reach the company instead.
 * - `fileBytes`: bytes of files a network may leave per day in posts without a valid proof
 *   (SUBMISSIONS_UNPROVEN_FILES_MB_PER_DAY). Past it, the lead is still stored and held, without
 *   its files, and the inbox says so ('fileQuota').
 *
 * In memory, like the rate limit (./rate-limit.ts): one process's count, keyed by the same
 * HMAC of the client's network (never the address itself), reset a day after a network's first
 * held lead, bounded in the number of networks remembered.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import type { RateLimiter } from './rate-limit.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface DoubtBudgetOptions {
  /** Held leads per network per day; 0 turns the budget off (every doubtful lead is kept). */
  readonly held: number;
  /** Bytes of files without a valid proof per network per day; 0 turns the quota off. */
  readonly fileBytes: number;
  /** Networks remembered at most (default 50,000). */
  readonly maxClients?: number;
}

interface Day {
  started: number;
  held: number;
  fileBytes: number;
}

export type HeldDecision =
  { readonly ok: true; readonly keepFiles: boolean } | { readonly ok: false; readonly retryAfterSeconds: number };

export class DoubtBudget {
  readonly #options: DoubtBudgetOptions;
  readonly #keyFor: (address: string) => string;
  readonly #days = new Map<string, Day>();

  /** `keys` names networks as the rate limiter does. */
  constructor(options: DoubtBudgetOptions, keys: Pick<RateLimiter, 'keyFor'>) {
    this.#options = options;
    this.#keyFor = (address) => keys.keyFor(address);
  }

  #day(address: string, now: number): Day {
    const key = this.#keyFor(address);
    let day = this.#days.get(key);
    if (day && now - day.started >= DAY_MS) day = undefined;
    if (!day) {
      if (this.#days.size >= (this.#options.maxClients ?? 50_000)) this.#sweep(now);
      day = { started: now, held: 0, fileBytes: 0 };
      this.#days.set(key, day);
    }
    return day;
  }

  /**
   * Counts one held lead of the network at `address`, with `fileBytes` of files sent without a
   * valid proof (0 when the proof was valid): whether it may be kept at all, and with its files.
   */
  takeHeld(address: string, fileBytes: number, now: number): HeldDecision {
    const { held, fileBytes: quota } = this.#options;
    if (held === 0 && quota === 0) return { ok: true, keepFiles: true };
    const day = this.#day(address, now);
    if (held > 0 && day.held >= held)
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((day.started + DAY_MS - now) / 1000)) };
    day.held += 1;
    if (fileBytes === 0) return { ok: true, keepFiles: true };
    if (quota > 0 && day.fileBytes + fileBytes > quota) return { ok: true, keepFiles: false };
    day.fileBytes += fileBytes;
    return { ok: true, keepFiles: true };
  }

  /**
   * Counts a post refused for its shape (too many keys, a key sent twice, a text far over its
   * limit) as one held lead of the network at `address`: a refusal costs the network's day as much
   * as a held lead, so repeating it is bounded by the same budget. Past it, the post is answered 429.
   */
  takeRefused(address: string, now: number): HeldDecision {
    return this.takeHeld(address, 0, now);
  }

  /** Forgets networks whose day is over; then the oldest while still full. */
  #sweep(now: number): void {
    for (const [key, day] of this.#days) if (now - day.started >= DAY_MS) this.#days.delete(key);
    for (const key of this.#days.keys()) {
      if (this.#days.size < (this.#options.maxClients ?? 50_000)) break;
      this.#days.delete(key);
    }
  }
}
