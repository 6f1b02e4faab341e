/**
 * What must be closed when the process stops (SIGTERM, ../http/serve.ts): the routes inside Astro's
 * bundle register their database here, and the server closes it once the last request is
 * answered. One list in the process, under a registered symbol.
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
const KEY = Symbol.for('globaq.closers');

function closers(): Set<() => Promise<void>> {
  const holder = globalThis as { [KEY]?: Set<() => Promise<void>> };
  return (holder[KEY] ??= new Set());
}

/** Registers something to close at shutdown; the returned function takes it off the list. */
export function closeAtShutdown(close: () => Promise<void>): () => void {
  closers().add(close);
  return () => void closers().delete(close);
}

/** Closes everything registered, each once, whatever the others do. */
export async function closeRegistered(): Promise<void> {
  const all = [...closers()];
  closers().clear();
  await Promise.allSettled(all.map((close) => close()));
}
