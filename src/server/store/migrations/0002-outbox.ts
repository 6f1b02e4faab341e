/** The outbox: each lead's notification e-mail, until it is delivered or given up. */
import { sql } from 'kysely';
import { dialect, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  await d
    .table('notifications')
    .addColumn('submission_id', d.uuid, (c) => c.primaryKey().references('submissions.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('pending', 'sent', 'failed')`))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text')
    .addColumn('created_at', d.time, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', d.time, (c) => c.notNull())
    .addColumn('sent_at', d.time)
    .addColumn('last_error', 'text')
    // PostgreSQL's instances share the outbox: the lease of the one sending (one SQLite file has one server).
    .$call((table) => (d.pg ? table.addColumn('claimed_until', 'timestamptz') : table))
    .execute();
  await db.schema.createIndex('notifications_due').on('notifications').columns(['status', 'next_attempt_at']).execute();
}
