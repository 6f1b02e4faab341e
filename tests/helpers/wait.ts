/**
 * Waiting for a state, never for a time: `until` polls a check and returns as soon as it holds.
 * Its bound is generous (a loaded machine is slow, never wrong); past it the test fails with the
 * check's last error. "Nothing more happens" is proved by a state after which nothing more can
 * happen (the outbox has nothing pending, the server has stopped), then counting.
 */
import { DatabaseSync } from 'node:sqlite';
import { expect, vi } from 'vitest';
import type { OutboxStore } from '../../src/server/mail/outbox';

/** How long a state may take to come before the test fails. */
export const STATE_BOUND_MS = 30_000;

/** Resolves with `check`'s value once it returns without throwing (and not false); polls every `intervalMs`. */
export function until<T>(check: () => T | Promise<T>, intervalMs = 50): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await check();
      if (value === false) throw new Error('not yet');
      return value;
    },
    { timeout: STATE_BOUND_MS, interval: intervalMs },
  );
}

/** The outbox's mails still pending in a SQLite database (read-only: the server keeps writing). */
export function pendingMails(dbPath: string): { id: string; kind: string; attempts: number; last_error: string | null }[] {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    return db.prepare("SELECT id, kind, attempts, last_error FROM notifications WHERE status = 'pending'").all() as ReturnType<
      typeof pendingMails
    >;
  } finally {
    db.close();
  }
}

/**
 * Resolves once the outbox has nothing pending: every mail it queued was accepted by the mail
 * server (which the test's sink records before it answers) and marked sent. From then on the
 * outbox sends nothing by itself; a count of mails taken now is final. A database path (SQLite)
 * or the outbox store itself (either database).
 */
export async function outboxDelivered(outbox: string | Pick<OutboxStore, 'list'>): Promise<void> {
  await until(async () =>
    expect(typeof outbox === 'string' ? pendingMails(outbox) : await outbox.list(['pending']), 'mails still pending').toEqual([]),
  );
}
