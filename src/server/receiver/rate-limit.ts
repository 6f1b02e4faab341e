/**
 * Per-client rate limit for the receiver, in memory (one process): a token bucket per client,
 * `limit` submissions at once, refilled at `limit` per `windowMs`. Clients are keyed by an HMAC of
 * their network under a secret drawn at start, so not even memory holds a raw address. The table
 * is bounded (`maxClients`).
 */
import { createHmac, randomBytes } from 'node:crypto';
import { isIPv6 } from 'node:net';

type RateDecision = { readonly ok: true } | { readonly ok: false; readonly retryAfterSeconds: number };

interface RateLimiterOptions {
  /** Submissions per window; 0 turns the limit off. */
  readonly limit: number;
  readonly windowMs: number;
  readonly maxClients?: number;
  readonly now?: () => number;
}

interface Bucket {
  tokens: number;
  updated: number;
}

/** The part of an address that identifies one client: an IPv6 address's /64, an IPv4-mapped one's IPv4 address. */
export function clientNetwork(address: string): string {
  const text = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(text.split('%')[0] ?? '')) return text;
  const [head = '', tail = ''] = text.split('%')[0]!.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === '' ? [] : tail.split(':');
  const groups = text.includes('::')
    ? [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    : headGroups;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #maxClients: number;
  readonly #now: () => number;
  readonly #secret = randomBytes(32);
  readonly #buckets = new Map<string, Bucket>();

  constructor(options: RateLimiterOptions) {
    this.#limit = Math.max(0, Math.trunc(options.limit));
    this.#windowMs = Math.max(1, options.windowMs);
    this.#maxClients = Math.max(1, options.maxClients ?? 50_000);
    this.#now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.#limit > 0;
  }

  get size(): number {
    return this.#buckets.size;
  }

  /** The key a client address is remembered under (never the address itself). */
  keyFor(address: string): string {
    return createHmac('sha256', this.#secret).update(clientNetwork(address)).digest('base64url');
  }

  /** Counts one submission of the client at `address`, or says how long it must wait. */
  take(address: string): RateDecision {
    if (!this.enabled) return { ok: true };
    const now = this.#now();
    const key = this.keyFor(address);
    const perMs = this.#limit / this.#windowMs;
    let bucket = this.#buckets.get(key);
    if (bucket) {
      bucket.tokens = Math.min(this.#limit, bucket.tokens + (now - bucket.updated) * perMs);
      bucket.updated = now;
    } else {
      if (this.#buckets.size >= this.#maxClients) this.#sweep(now);
      bucket = { tokens: this.#limit, updated: now };
      this.#buckets.set(key, bucket);
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
  }

  /** Forgets clients whose bucket has refilled (they are as good as new); then the oldest if still full. */
  #sweep(now: number): void {
    const perMs = this.#limit / this.#windowMs;
    for (const [key, bucket] of this.#buckets) {
      if (bucket.tokens + (now - bucket.updated) * perMs >= this.#limit) this.#buckets.delete(key);
    }
    for (const key of this.#buckets.keys()) {
      if (this.#buckets.size < this.#maxClients) break;
      this.#buckets.delete(key);
    }
  }
}
