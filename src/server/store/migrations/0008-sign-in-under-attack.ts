/**
 * Sign-in under attack and erasure: device cookies (a browser that signed in before is let past
 * another's lock; the token's SHA-256 only); refused sign-ins kept apart from staff actions (moved
 * out of the audit log); the audit log searched by time; audit entries that named a lead's sender
 * or a file's name (personal data) keep their lead's id only.
 */
import { dialect, run, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  await d
    .table('staff_devices')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().references('staff.email').onDelete('cascade'))
    .addColumn('created_at', d.time, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_devices_email').on('staff_devices').column('email').execute();
  await d
    .table('sign_in_refusals')
    .addColumn('seq', d.seq, (c) => c.primaryKey())
    .addColumn('at', d.time, (c) => c.notNull())
    .addColumn('account', 'text', (c) => c.notNull())
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_refusals_at').on('sign_in_refusals').column('at').execute();
  await run(
    db,
    `INSERT INTO sign_in_refusals (at, account, network, reason)
      SELECT at, actor, CASE WHEN detail LIKE 'from %' THEN substr(detail, 6) ELSE '' END, 'wrong credentials' FROM audit_log WHERE action = 'sign-in refused' ORDER BY seq`,
    `DELETE FROM audit_log WHERE action = 'sign-in refused'`,
    `UPDATE audit_log SET detail = '' WHERE action IN ('deleted lead', 'downloaded file')`,
  );
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
}
