/**
 * Staff accounts' queries, written once for SQLite and PostgreSQL (the passwords' hashing is
 * ../inbox/staff.ts's).
 *
 * Run by Node directly (type stripping): imports name their .ts files.
 */
import { StoreError } from './store.ts';
import type { StaffStore } from '../inbox/staff.ts';
import { guarded, iso, n, type Db, type DialectParts } from './common.ts';

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
        const rows = await db.selectFrom('staff').select(['email', 'created_at', 'password_changed_at']).orderBy('email').execute();
        return rows.map((row) => ({ email: row.email, createdAt: row.created_at, passwordChangedAt: row.password_changed_at }));
      },
      async passwordHash(email) {
        return (await db.selectFrom('staff').select('password_hash').where('email', '=', email).executeTakeFirst())?.password_hash;
      },
      async setPassword(email, passwordHash, now) {
        const result = await db.updateTable('staff').set({ password_hash: passwordHash, password_changed_at: iso(now) }).where('email', '=', email).executeTakeFirst();
        return n(result.numUpdatedRows) > 0;
      },
      async remove(email) {
        return n((await db.deleteFrom('staff').where('email', '=', email).executeTakeFirst()).numDeletedRows) > 0;
      },
      close,
    },
    dialect,
  );
}
