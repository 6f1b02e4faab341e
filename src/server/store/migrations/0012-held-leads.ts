/**
 * Bots: a lead without a valid proof of work (or tripping another plain signal) is held for
 * review, never dropped and never mailed (../../inbox/held-digest.ts): its review state and reason; the
 * challenges whose solutions were accepted (one use each, until they expire); the secrets the
 * server generated and keeps (the challenges' HMAC key when ALTCHA_HMAC_KEY is unset).
 */
import { sql } from 'kysely';
import { dialect, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  await db.schema
    .alterTable('submissions')
    .addColumn('review', 'text', (c) => c.check(sql`review IN ('held', 'spam')`))
    .execute();
  await db.schema.alterTable('submissions').addColumn('review_reason', 'text').execute();
  await db.schema.createIndex('submissions_review').on('submissions').columns(['review', 'seq']).execute();
  await d
    .table('used_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', d.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('used_challenges_expires').on('used_challenges').column('expires_at').execute();
  await d
    .table('site_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', d.time, (c) => c.notNull())
    .execute();
}
