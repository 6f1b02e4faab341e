/** Leads, and the honeypot's catch kept apart in a table of its own. */
import { sql } from 'kysely';
import { dialect, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  for (const table of ['submissions', 'bot_submissions']) {
    await d
      .table(table)
      .addColumn('seq', d.seq, (c) => c.primaryKey())
      .addColumn('id', d.uuid, (c) => c.notNull().unique())
      .addColumn('form', 'text', (c) => c.notNull().check(sql`form IN ('contact', 'partner')`))
      .addColumn('received_at', d.time, (c) => c.notNull())
      .addColumn('fields', d.json, (c) => c.notNull().check(d.isObject('fields')))
      .execute();
  }
  await db.schema.createIndex('submissions_form_received').on('submissions').columns(['form', 'received_at']).execute();
  // PostgreSQL's index of the honeypot's catch came with its 0007.
  if (!d.pg)
    await db.schema.createIndex('bot_submissions_form_received').on('bot_submissions').columns(['form', 'received_at']).execute();
}
