/**
 * Timely, measured: when a lead was first answered (set by the store the first time its status
 * becomes Answered, by whatever path), when a held lead was released into the inbox (its wait
 * starts then, not at receipt), the follow-up date staff set (a Riyadh calendar day, YYYY-MM-DD),
 * the timeline's kind for a follow-up date set or cleared, and each staff member's morning digest,
 * claimed per day and account by one server (../../inbox/morning-digest.ts).
 *
 * Leads answered before this migration take their first answer from the timeline's first status
 * event "answered" (none when the timeline has none); released held leads their release from the
 * audit log. SQLite cannot change a column's check in place: the timeline's kind moves to a new
 * column with the wider check, as 0009 did for the status.
 */
import { dialect, run, type Db } from './dialect.ts';

const KINDS = "('note', 'status', 'assigned', 'notification', 'download', 'reply', 'follow_up')";

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  await db.schema.alterTable('submissions').addColumn('first_answered_at', d.time).execute();
  await db.schema.alterTable('submissions').addColumn('released_at', d.time).execute();
  // A calendar day, YYYY-MM-DD: the store checks it (../inbox-queries.ts's setFollowUp), as both databases compare it as text.
  await db.schema.alterTable('submissions').addColumn('follow_up_on', 'text').execute();
  await db.schema.createIndex('submissions_follow_up').on('submissions').columns(['assigned_to', 'follow_up_on']).execute();
  await run(
    db,
    `UPDATE submissions SET first_answered_at = (
      SELECT min(e.at) FROM lead_events e WHERE e.lead_id = submissions.id AND e.kind = 'status' AND e.detail = 'answered')`,
    `UPDATE submissions SET released_at = (
      SELECT min(a.at) FROM audit_log a WHERE a.lead_id = submissions.id AND a.action = 'released held lead')
      WHERE review IS NULL`,
  );
  if (d.pg)
    await run(
      db,
      'ALTER TABLE lead_events DROP CONSTRAINT lead_events_kind_check',
      `ALTER TABLE lead_events ADD CONSTRAINT lead_events_kind_check CHECK (kind IN ${KINDS})`,
      // The default SQLite's widened column needs (a NOT NULL column is added only with one), so both schemas match.
      "ALTER TABLE lead_events ALTER COLUMN kind SET DEFAULT 'note'",
    );
  else
    await run(
      db,
      `ALTER TABLE lead_events ADD COLUMN kind_widened TEXT NOT NULL DEFAULT 'note' CHECK (kind_widened IN ${KINDS})`,
      'UPDATE lead_events SET kind_widened = kind',
      'ALTER TABLE lead_events DROP COLUMN kind',
      'ALTER TABLE lead_events RENAME COLUMN kind_widened TO kind',
    );
  await d
    .table('staff_digests')
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().references('staff.email').onDelete('cascade'))
    .addColumn('claimed_at', d.time, (c) => c.notNull())
    .addColumn('sent_at', d.time)
    .addPrimaryKeyConstraint('staff_digests_pk', ['day', 'email'])
    .execute();
}
