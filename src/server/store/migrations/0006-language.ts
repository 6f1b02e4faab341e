/**
 * The language each lead (and each of the honeypot's catch) was sent in: the page's locale, from
 * the receiver's ?lang= (../../receiver/receiver.ts). The site's locale codes as they are now; a
 * new language needs a migration that widens the check. Earlier rows were all English.
 */
import { sql } from 'kysely';
import type { Db } from './dialect.ts';

export async function up(db: Db): Promise<void> {
  for (const table of ['submissions', 'bot_submissions'])
    await db.schema
      .alterTable(table)
      .addColumn('language', 'text', (c) =>
        c
          .notNull()
          .defaultTo('en')
          .check(sql`language IN ('en', 'ar')`),
      )
      .execute();
}
