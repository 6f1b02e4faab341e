/**
 * Held leads reach a person (../../inbox/held-digest.ts): when a digest last warned that a held
 * lead is due for erasure (none is erased unwarned), and each day's digest, claimed by one server
 * and marked sent.
 */
import { dialect, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  await db.schema.alterTable('submissions').addColumn('review_reminded_at', d.time).execute();
  await d
    .table('held_digests')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('claimed_at', d.time, (c) => c.notNull())
    .addColumn('sent_at', d.time)
    .addColumn('held', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
