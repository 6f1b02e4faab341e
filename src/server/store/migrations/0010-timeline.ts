/**
 * A timeline per lead instead of one shared note (the last save won): notes, status changes,
 * assignments, the notification sent or given up, CV downloads and replies, appended, never
 * rewritten, deleted with the lead; a lead assigned to a staff account (nobody when the account
 * is removed). What the old columns held moves into the timeline in time order: the note, the
 * last status change, the notification's delivery; then the note columns go.
 */
import { sql } from 'kysely';
import { dialect, run, uuidTriggers, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  await d
    .table('lead_events')
    .addColumn('seq', d.seq, (c) => c.primaryKey())
    .addColumn('lead_id', d.uuid, (c) => c.notNull().references('submissions.id').onDelete('cascade'))
    .addColumn('at', d.time, (c) => c.notNull())
    .addColumn('actor', 'text')
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind IN ('note', 'status', 'assigned', 'notification', 'download', 'reply')`),
    )
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('corrects', d.bigint)
    .execute();
  await db.schema.createIndex('lead_events_lead').on('lead_events').columns(['lead_id', 'seq']).execute();
  if (!d.pg) await run(db, ...uuidTriggers('lead_events', ['lead_id']));
  await db.schema
    .alterTable('submissions')
    .addColumn('assigned_to', 'text', (c) => c.references('staff.email').onDelete('set null'))
    .execute();
  await db.schema.createIndex('submissions_assigned').on('submissions').columns(['assigned_to', 'seq']).execute();
  await run(
    db,
    `INSERT INTO lead_events (lead_id, at, actor, kind, detail)
      SELECT lead_id, at, actor, kind, detail FROM (
        SELECT seq, id AS lead_id, coalesce(note_at, received_at) AS at, note_by AS actor, 'note' AS kind, note AS detail, 2 AS part FROM submissions WHERE note <> ''
        UNION ALL SELECT seq, id, status_at, status_by, 'status', status, 1 FROM submissions WHERE status_at IS NOT NULL
        UNION ALL SELECT s.seq, n.submission_id, n.sent_at, NULL, 'notification', 'sent', 0 FROM notifications n JOIN submissions s ON s.id = n.submission_id WHERE n.status = 'sent' AND n.sent_at IS NOT NULL
      ) AS old ORDER BY at, seq, part`,
  );
  for (const column of ['note', 'note_by', 'note_at']) await db.schema.alterTable('submissions').dropColumn(column).execute();
}
