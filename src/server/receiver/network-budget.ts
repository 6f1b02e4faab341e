/**
 * What one network (an IPv4 address, an IPv6 /64) may cost the server in a day (docs/receiver.md:
 * SUBMISSIONS_*_PER_DAY), in two accounts kept apart: doubtful posts, and posts with a valid proof.
 * A valid proof is never refused for what proof-less posts from the same network spent (a person
 * behind a carrier's shared address must not lose a lead to a bot there). 0 turns a bound off.
 * In memory, keyed like the rate limit (./rate-limit.ts): never the address itself.
 */
import type { RateLimiter } from './rate-limit.ts';

export const DAY_MS = 24 * 60 * 60 * 1000;

export interface BudgetOptions {
  readonly held: number;
  readonly unprovenFileBytes: number;
  readonly leads: number;
  readonly fileBytes: number;
  readonly maxClients?: number;
}

interface Day {
  started: number;
  held: number;
  unprovenFileBytes: number;
  leads: number;
  fileBytes: number;
}

type BudgetDecision =
  { readonly ok: true; readonly keepFiles: boolean } | { readonly ok: false; readonly retryAfterSeconds: number };

export class NetworkBudget {
  readonly #options: BudgetOptions;
  readonly #keyFor: (address: string) => string;
  readonly #days = new Map<string, Day>();

  constructor(options: BudgetOptions, keys: Pick<RateLimiter, 'keyFor'>) {
    this.#options = options;
    this.#keyFor = (address) => keys.keyFor(address);
  }

  #day(address: string, now: number): Day {
    const key = this.#keyFor(address);
    let day = this.#days.get(key);
    if (day && now - day.started >= DAY_MS) day = undefined;
    if (!day) {
      if (this.#days.size >= (this.#options.maxClients ?? 50_000)) this.#sweep(now);
      day = { started: now, held: 0, unprovenFileBytes: 0, leads: 0, fileBytes: 0 };
      this.#days.set(key, day);
    }
    return day;
  }

  /** Counts one lead, `proven` or doubtful, with `fileBytes` of files: whether it may be kept at all, and with its files. */
  take(address: string, proven: boolean, fileBytes: number, now: number): BudgetDecision {
    const [count, bytes] = proven ? (['leads', 'fileBytes'] as const) : (['held', 'unprovenFileBytes'] as const);
    const limit = this.#options[count];
    const quota = this.#options[bytes];
    if (limit === 0 && quota === 0) return { ok: true, keepFiles: true };
    const day = this.#day(address, now);
    if (limit > 0 && day[count] >= limit)
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((day.started + DAY_MS - now) / 1000)) };
    day[count] += 1;
    if (fileBytes === 0) return { ok: true, keepFiles: true };
    if (quota > 0 && day[bytes] + fileBytes > quota) return { ok: true, keepFiles: false };
    day[bytes] += fileBytes;
    return { ok: true, keepFiles: true };
  }

  /** Counts a post refused for its shape as one doubtful lead: repeating it is bounded by the same budget. */
  takeRefused(address: string, now: number): BudgetDecision {
    return this.take(address, false, 0, now);
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
