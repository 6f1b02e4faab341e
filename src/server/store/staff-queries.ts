/**
 * Staff accounts' queries, written once for SQLite and PostgreSQL (the passwords' hashing is
 * ../inbox/staff.ts's).
 */
import { StoreError } from './store.ts';
import type { StaffStore } from '../inbox/staff.ts';
import { tokenHash } from '../inbox/inbox-store.ts';
import { countOf, guarded, iso, n, type Db, type DialectParts } from './common.ts';

export function staffQueries(db: Db, dialect: DialectParts, close: () => Promise<void>): StaffStore {
  return guarded<StaffStore>(
    {
      async add(email, passwordHash, now) {
        const result = await db
          .insertInto('staff')
          .values({ email, password_hash: passwordHash, created_at: iso(now), password_changed_at: iso(now) })
          .onConflict((conflict) => conflict.column('email').doNothing())
          .executeTakeFirst();
        if (n(result.numInsertedOrUpdatedRows) === 0) throw new StoreError(`There is already an account for ${email}.`);
      },
      async list() {
        const rows = await db
          .selectFrom('staff')
          .select(['email', 'created_at', 'password_changed_at', 'totp_enrolled_at'])
          .orderBy('email')
          .execute();
        return rows.map((row) => ({
          email: row.email,
          createdAt: row.created_at,
          passwordChangedAt: row.password_changed_at,
          twoStepSince: row.totp_enrolled_at ?? undefined,
        }));
      },
      async passwordHash(email) {
        return (await db.selectFrom('staff').select('password_hash').where('email', '=', email).executeTakeFirst())
          ?.password_hash;
      },
      async setPassword(email, passwordHash, now) {
        return db.transaction().execute(async (tx) => {
          const result = await tx
            .updateTable('staff')
            .set({ password_hash: passwordHash, password_changed_at: iso(now) })
            .where('email', '=', email)
            .executeTakeFirst();
          // Ended now, not only refused when next seen (a session made in the same instant, or on
          // an instance whose clock is behind, would otherwise outlive the password it was made with).
          await tx.deleteFrom('staff_sessions').where('email', '=', email).execute();
          return n(result.numUpdatedRows) > 0;
        });
      },
      async remove(email) {
        return n((await db.deleteFrom('staff').where('email', '=', email).executeTakeFirst()).numDeletedRows) > 0;
      },
      async twoStep(email) {
        const row = await db
          .selectFrom('staff')
          .select(['totp_secret', 'totp_enrolled_at', 'totp_last_step'])
          .where('email', '=', email)
          .executeTakeFirst();
        if (!row) return undefined;
        const left = await countOf(db.selectFrom('staff_recovery_codes').where('email', '=', email).where('used_at', 'is', null));
        return {
          sealedSecret: row.totp_secret ?? undefined,
          enrolledAt: row.totp_enrolled_at ?? undefined,
          lastStep: row.totp_last_step === null ? undefined : n(row.totp_last_step),
          recoveryLeft: left,
        };
      },
      async enrolTwoStep(email, sealedSecret, step, recoveryHashes, now, keepSession) {
        return db.transaction().execute(async (tx) => {
          const result = await tx
            .updateTable('staff')
            .set({ totp_secret: sealedSecret, totp_enrolled_at: iso(now), totp_last_step: step })
            .where('email', '=', email)
            .executeTakeFirst();
          if (n(result.numUpdatedRows) === 0) return false;
          await tx.deleteFrom('staff_recovery_codes').where('email', '=', email).execute();
          if (recoveryHashes.length > 0)
            await tx
              .insertInto('staff_recovery_codes')
              .values(recoveryHashes.map((code_hash) => ({ email, code_hash, used_at: null })))
              .execute();
          // Sessions signed in with the password alone (someone else's, perhaps) end with it.
          await tx
            .deleteFrom('staff_sessions')
            .where('email', '=', email)
            .$if(keepSession !== undefined, (q) => q.where('token_hash', '!=', tokenHash(keepSession!)))
            .execute();
          return true;
        });
      },
      async takeStep(email, step) {
        const result = await db
          .updateTable('staff')
          .set({ totp_last_step: step })
          .where('email', '=', email)
          .where('totp_secret', 'is not', null)
          .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
          .executeTakeFirst();
        return n(result.numUpdatedRows) > 0;
      },
      async useRecoveryCode(email, codeHash, now) {
        const result = await db
          .updateTable('staff_recovery_codes')
          .set({ used_at: iso(now) })
          .where('email', '=', email)
          .where('code_hash', '=', codeHash)
          .where('used_at', 'is', null)
          .executeTakeFirst();
        if (n(result.numUpdatedRows) === 0) return undefined;
        return countOf(db.selectFrom('staff_recovery_codes').where('email', '=', email).where('used_at', 'is', null));
      },
      async resetTwoStep(email) {
        return db.transaction().execute(async (tx) => {
          const result = await tx
            .updateTable('staff')
            .set({ totp_secret: null, totp_enrolled_at: null, totp_last_step: null })
            .where('email', '=', email)
            .executeTakeFirst();
          await tx.deleteFrom('staff_recovery_codes').where('email', '=', email).execute();
          // The account's sessions end (a lost or taken phone is the usual reason for a reset): it
          // signs in again, and a set-up under way in a session goes with it.
          await tx.deleteFrom('staff_sessions').where('email', '=', email).execute();
          return n(result.numUpdatedRows) > 0;
        });
      },
      close,
    },
    dialect,
  );
}
