/** Staff accounts for the inbox (../../inbox/staff.ts): the password as a salted scrypt hash only. */
import { dialect, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  await d
    .table('staff')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', d.time, (c) => c.notNull())
    .addColumn('password_changed_at', d.time, (c) => c.notNull())
    .execute();
}
