/**
 * What each database's schema already held, given to the other: on SQLite, ids are UUIDs (a
 * trigger per table; an audit entry that named no lead by its id names none, as PostgreSQL
 * stored it); on PostgreSQL, the honeypot's catch indexed as the leads are.
 */
import { dialect, run, uuidTriggers, UUID_GLOB, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  if (dialect(db).pg) {
    await db.schema.createIndex('bot_submissions_form_received').on('bot_submissions').columns(['form', 'received_at']).execute();
    return;
  }
  await run(
    db,
    `UPDATE audit_log SET lead_id = NULL WHERE lead_id NOT GLOB '${UUID_GLOB}'`,
    ...uuidTriggers('submissions', ['id']),
    ...uuidTriggers('bot_submissions', ['id']),
    ...uuidTriggers('notifications', ['submission_id']),
    ...uuidTriggers('attachments', ['id', 'submission_id']),
    ...uuidTriggers('audit_log', ['lead_id']),
  );
}
