/** What a test reads of held leads straight from a SQLite database file. */
import { DatabaseSync } from 'node:sqlite';

/** The hold reasons of the leads still held, oldest first. */
export function heldReasons(dbPath: string): string[] {
  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    return (
      db.prepare("SELECT review_reason FROM submissions WHERE review = 'held' ORDER BY seq").all() as { review_reason: string }[]
    ).map((row) => row.review_reason);
  } finally {
    db.close();
  }
}
