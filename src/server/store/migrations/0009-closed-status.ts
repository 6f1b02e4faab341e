/**
 * A lead can be closed (worked and done with, not answered by us): the status check widened.
 * SQLite cannot change a column's check in place: a new column with the wider check takes the
 * statuses, the old one is dropped (its index with it) and the new one takes its name.
 */
import { dialect, run, type Db } from './dialect.ts';

const STATUSES = "('new', 'in_progress', 'answered', 'closed', 'spam')";

export async function up(db: Db): Promise<void> {
  if (dialect(db).pg)
    return run(
      db,
      'ALTER TABLE submissions DROP CONSTRAINT submissions_status_check',
      `ALTER TABLE submissions ADD CONSTRAINT submissions_status_check CHECK (status IN ${STATUSES})`,
    );
  await run(
    db,
    `ALTER TABLE submissions ADD COLUMN status_widened TEXT NOT NULL DEFAULT 'new' CHECK (status_widened IN ${STATUSES})`,
    'UPDATE submissions SET status_widened = status',
    'DROP INDEX submissions_status',
    'ALTER TABLE submissions DROP COLUMN status',
    'ALTER TABLE submissions RENAME COLUMN status_widened TO status',
    'CREATE INDEX submissions_status ON submissions (status, seq)',
  );
}
