/**
 * The staff inbox (../../inbox/inbox-store.ts): a status and a note per lead, who set them and
 * when; sign-in sessions (the token's SHA-256 only); failed sign-ins per account and per address;
 * the audit log.
 */
import { sql } from 'kysely';
import { dialect, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  const submissions = () => db.schema.alterTable('submissions');
  await submissions()
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('new')
        .check(sql`status IN ('new', 'in_progress', 'answered', 'spam')`),
    )
    .execute();
  await submissions().addColumn('status_by', 'text').execute();
  await submissions().addColumn('status_at', d.time).execute();
  await submissions()
    .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await submissions().addColumn('note_by', 'text').execute();
  await submissions().addColumn('note_at', d.time).execute();
  await db.schema.createIndex('submissions_status').on('submissions').columns(['status', 'seq']).execute();
  await d
    .table('staff_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().references('staff.email').onDelete('cascade'))
    .addColumn('csrf', 'text', (c) => c.notNull())
    .addColumn('created_at', d.time, (c) => c.notNull())
    .addColumn('last_seen_at', d.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_sessions_email').on('staff_sessions').column('email').execute();
  await d
    .table('sign_in_failures')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failure_at', d.time, (c) => c.notNull())
    .addColumn('locked_until', d.time)
    .execute();
  await d
    .table('audit_log')
    .addColumn('seq', d.seq, (c) => c.primaryKey())
    .addColumn('at', d.time, (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('lead_id', d.uuid)
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
}
