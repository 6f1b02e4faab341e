/**
 * The outbox holds several mails per lead, each with its own id, its kind and its recipients: the
 * staff notification (its id is its lead's, so there is still one per lead and `outbox retry`
 * takes the lead's id), the acknowledgement to the sender, replies written in the inbox (with the
 * Message-ID they answer) and the mail to a lead's assignee. Neither database changes a primary
 * key in place: the table is made anew, the rows copied as notifications, the old one dropped and
 * the new one takes its name (on SQLite with its UUID triggers again). Staff's reply templates,
 * each in English and Arabic, get a table of their own.
 */
import { sql } from 'kysely';
import { dialect, run, uuidTriggers, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  await d
    .table('notifications_next')
    .addColumn('id', d.uuid, (c) => c.primaryKey())
    .addColumn('submission_id', d.uuid, (c) => c.notNull().references('submissions.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('notification', 'acknowledgement', 'reply', 'assignment')`))
    .addColumn('recipients', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('pending', 'sent', 'failed')`))
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    .addColumn('body_html', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text')
    .addColumn('in_reply_to', 'text')
    .addColumn('actor', 'text')
    .addColumn('created_at', d.time, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', d.time, (c) => c.notNull())
    .addColumn('sent_at', d.time)
    .addColumn('last_error', 'text')
    .$call((table) => (d.pg ? table.addColumn('claimed_until', 'timestamptz') : table))
    .execute();
  const kept = `status, subject, body_text, body_html, reply_to, created_at, attempts, next_attempt_at, sent_at, last_error${d.pg ? ', claimed_until' : ''}`;
  await run(
    db,
    `INSERT INTO notifications_next (id, submission_id, kind, recipients, ${kept})
      SELECT submission_id, submission_id, 'notification', '', ${kept} FROM notifications`,
  );
  await db.schema.dropTable('notifications').execute();
  await db.schema.alterTable('notifications_next').renameTo('notifications').execute();
  await db.schema.createIndex('notifications_due').on('notifications').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('notifications_lead').on('notifications').columns(['submission_id', 'created_at']).execute();
  await db.schema
    .createIndex('notifications_recipients')
    .on('notifications')
    .columns(['kind', 'recipients', 'created_at'])
    .execute();
  if (!d.pg) await run(db, ...uuidTriggers('notifications', ['id', 'submission_id']));

  await d
    .table('reply_templates')
    .addColumn('id', d.uuid, (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('body_en', 'text', (c) => c.notNull())
    .addColumn('body_ar', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', d.time, (c) => c.notNull())
    .execute();
  if (!d.pg) await run(db, ...uuidTriggers('reply_templates', ['id']));
}
