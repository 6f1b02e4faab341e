/**
 * Two-step sign-in (../../inbox/two-step.ts): each account's time-based code secret (encrypted
 * with the operator's key), when it was set up and the last time step used (a code is never taken
 * twice); its recovery codes, hashed, each used once; a session's stage (a password accepted, a
 * code or a set-up still to come) and the secret being set up in it.
 */
import { sql } from 'kysely';
import { dialect, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  await db.schema.alterTable('staff').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('staff').addColumn('totp_enrolled_at', d.time).execute();
  await db.schema.alterTable('staff').addColumn('totp_last_step', 'integer').execute();
  await d
    .table('staff_recovery_codes')
    .addColumn('email', 'text', (c) => c.notNull().references('staff.email').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', d.time)
    .addPrimaryKeyConstraint('staff_recovery_codes_pkey', ['email', 'code_hash'])
    .execute();
  await db.schema
    .alterTable('staff_sessions')
    .addColumn('stage', 'text', (c) =>
      c
        .notNull()
        .defaultTo('signed-in')
        .check(sql`stage IN ('code', 'enrol', 'signed-in')`),
    )
    .execute();
  await db.schema.alterTable('staff_sessions').addColumn('pending_totp', 'text').execute();
}
