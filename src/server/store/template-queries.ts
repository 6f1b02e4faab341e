/**
 * Staff's reply templates, written once for SQLite and PostgreSQL (../inbox/templates.ts holds
 * the rules: the limits, who may change them, the audit entries).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { guarded, iso, n, type Db, type DialectParts } from './common.ts';
import { isUuid, type ReplyTemplateRow } from './schema.ts';

export interface ReplyTemplate {
  readonly id: string;
  readonly name: string;
  readonly bodyEn: string;
  readonly bodyAr: string;
  readonly updatedBy: string;
  readonly updatedAt: string;
}

export type TemplateText = Pick<ReplyTemplate, 'name' | 'bodyEn' | 'bodyAr'>;

export interface TemplateStore {
  list(): Promise<ReplyTemplate[]>;
  /** A template by its id; undefined for an id that names none. */
  get(id: string): Promise<ReplyTemplate | undefined>;
  add(text: TemplateText, by: string, now: Date): Promise<string>;
  /** Changes a template; false when none has this id. */
  update(id: string, text: TemplateText, by: string, now: Date): Promise<boolean>;
  /** Deletes a template; false when none has this id. */
  remove(id: string): Promise<boolean>;
  close(): Promise<void>;
}

/** Names compare by code point on both databases. */
const sqlName = sql`name`;

const COLUMNS = ['id', 'name', 'body_en', 'body_ar', 'updated_by', 'updated_at'] as const;

const toTemplate = (row: Pick<ReplyTemplateRow, (typeof COLUMNS)[number]>): ReplyTemplate => ({
  id: row.id,
  name: row.name,
  bodyEn: row.body_en,
  bodyAr: row.body_ar,
  updatedBy: row.updated_by,
  updatedAt: row.updated_at,
});

export function templateQueries(db: Db, dialect: DialectParts, close: () => Promise<void>): TemplateStore {
  return guarded<TemplateStore>(
    {
      async list() {
        const rows = await db
          .selectFrom('reply_templates')
          .select(COLUMNS)
          .orderBy(dialect.binary(sqlName))
          .orderBy('id')
          .execute();
        return rows.map(toTemplate);
      },
      async get(id) {
        if (!isUuid(id)) return undefined;
        const row = await db.selectFrom('reply_templates').select(COLUMNS).where('id', '=', id).executeTakeFirst();
        return row ? toTemplate(row) : undefined;
      },
      async add(text, by, now) {
        const id = randomUUID();
        await db
          .insertInto('reply_templates')
          .values({ id, name: text.name, body_en: text.bodyEn, body_ar: text.bodyAr, updated_by: by, updated_at: iso(now) })
          .execute();
        return id;
      },
      async update(id, text, by, now) {
        if (!isUuid(id)) return false;
        const result = await db
          .updateTable('reply_templates')
          .set({ name: text.name, body_en: text.bodyEn, body_ar: text.bodyAr, updated_by: by, updated_at: iso(now) })
          .where('id', '=', id)
          .executeTakeFirst();
        return n(result.numUpdatedRows) > 0;
      },
      async remove(id) {
        if (!isUuid(id)) return false;
        const result = await db.deleteFrom('reply_templates').where('id', '=', id).executeTakeFirst();
        return n(result.numDeletedRows) > 0;
      },
      close,
    },
    dialect,
  );
}
