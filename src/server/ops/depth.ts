/**
 * The store's waiting work, for the metrics (./metrics.ts): each open store registers a source
 * (SQLite: the leads queued for the next group commit; PostgreSQL: the pool's clients waiting
 * for a connection, and its connections in use and idle). Kept apart from prom-client so the
 * stores (also used by the staff command) import nothing more. One registry in the process,
 * under a registered symbol.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */

export interface StoreDepth {
  /** Work waiting for the database (queued saves, or clients waiting for a pool connection). */
  readonly waiting: number;
  /** Connections in use (PostgreSQL; SQLite: 1 while a commit holds the connection). */
  readonly active: number;
  readonly idle: number;
}

const KEY = Symbol.for('globaq.storeDepth');

function sources(): Set<() => StoreDepth> {
  const holder = globalThis as { [KEY]?: Set<() => StoreDepth> };
  return (holder[KEY] ??= new Set());
}

/** Registers a source; the returned function removes it (call it when the store closes). */
export function registerStoreDepth(source: () => StoreDepth): () => void {
  sources().add(source);
  return () => void sources().delete(source);
}

/** The sum over the open stores. */
export function storeDepth(): StoreDepth {
  let waiting = 0;
  let active = 0;
  let idle = 0;
  for (const source of sources()) {
    try {
      const depth = source();
      waiting += depth.waiting;
      active += depth.active;
      idle += depth.idle;
    } catch {
      // A store closing under the scrape: counted as empty.
    }
  }
  return { waiting, active, idle };
}
