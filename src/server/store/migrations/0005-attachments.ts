/**
 * Files sent with a lead (partners' CVs): their records. SQLite keeps the bytes in the files
 * folder beside the database, each under its random id; PostgreSQL in the row (every instance
 * serves them).
 */
import { dialect, type Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  const d = dialect(db);
  await d
    .table('attachments')
    .addColumn('id', d.uuid, (c) => c.primaryKey())
    .addColumn('submission_id', d.uuid, (c) => c.notNull().references('submissions.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .$call((table) => (d.pg ? table.addColumn('bytes', 'bytea', (c) => c.notNull()) : table))
    .execute();
  await db.schema.createIndex('attachments_submission').on('attachments').columns(['submission_id', 'position']).execute();
}
