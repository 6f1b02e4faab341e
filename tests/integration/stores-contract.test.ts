/**
 * One table of behaviours, run against both stores: the SQLite file (the embedded
 * default) and PostgreSQL (DATABASE_URL), through src/server/store/database.ts as the server and the
 * staff command open them. Leads with their notification, files and language (and a database
 * from before the language, migrated), erasure, the outbox, staff accounts, and the inbox
 * (filters, search, status, the timeline and its notes, assignment, sessions, the sign-in lock, the
 * audit log), and a database from before the timeline, migrated. Then what only
 * PostgreSQL promises: instances that migrate together, and outbox claims that never hand one
 * notification to two senders.
 *
 * Without PostgreSQL (tests/postgres-setup.ts says why), its half is skipped, never passed.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, describe, expect, inject, test } from 'vitest';
import { openStores, type Stores } from '../../src/server/store/database';
import { LOCK_AFTER, SLOW_AFTER } from '../../src/server/inbox/inbox-store';
import { composeLeadNotice } from '../../src/server/mail/lead-mail';
import { OutboxWorker } from '../../src/server/mail/outbox';
import { SCHEMA_VERSION } from '../../src/server/store/migrations/index';
import { migrateDatabase } from '../../src/server/store/migrate';
import { newRecoveryCodes, recoveryHash } from '../../src/server/inbox/two-step';
import { migratePg, openPgDatabase } from '../../src/server/store/postgres/pg-store';
import { LEGACY } from '../fixtures/legacy-schema';
import { StoreError } from '../../src/server/store/store';
import { freshDatabase } from '../helpers/postgres';
import { contactBody, partnerBody, tempDir } from '../helpers/server';
import pg from 'pg';

const postgresUrl = inject('postgresUrl');
const unavailable = inject('postgresUnavailable');
const dirs: string[] = [];
const opened: Stores[] = [];

afterEach(async () => {
  for (const stores of opened.splice(0)) await stores.close();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A lead and a bot as schema version 5 (before the language column) stored them, made by the code before the migration files. */
/** Leads as schema version 8 (one note per lead, in the lead's row) stored them: one worked on, one not. */
const OLD_NOTED = {
  noted: '22222222-3333-4444-8555-666666666666',
  untouched: '33333333-4444-4555-8666-777777777777',
  note: 'Old note: call Sunday <b>x</b>',
};
const OLD_LEAD = {
  id: '11111111-2222-4333-8444-555555555555',
  bot: '66666666-7777-4888-8999-aaaaaaaaaaaa',
  receivedAt: '2026-10-01T08:00:00.000Z',
};

const KINDS = [
  {
    kind: 'SQLite',
    skip: '',
    open: async () => {
      const dir = tempDir('globaq-contract-');
      dirs.push(dir);
      return openStores({ dbPath: path.join(dir, 'submissions.db'), databaseUrl: undefined, poolMax: 1 });
    },
    fromVersion5: async () => {
      const dir = tempDir('globaq-contract-');
      dirs.push(dir);
      const file = path.join(dir, 'submissions.db');
      const db = new DatabaseSync(file);
      LEGACY.sqlite(db, 5);
      const insert = (table: string, id: string) =>
        db
          .prepare(`INSERT INTO ${table} (id, form, received_at, fields) VALUES (?, 'contact', ?, ?)`)
          .run(id, OLD_LEAD.receivedAt, JSON.stringify(contactBody({ firstName: 'Old' })));
      insert('submissions', OLD_LEAD.id);
      insert('bot_submissions', OLD_LEAD.bot);
      db.prepare("UPDATE submissions SET status = 'answered'").run();
      db.close();
      await migrateDatabase({ dbPath: file, databaseUrl: undefined });
      return {
        stores: openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 }),
        ids: { lead: OLD_LEAD.id, bot: OLD_LEAD.bot },
      };
    },
    fromVersion8: async () => {
      const dir = tempDir('globaq-contract-');
      dirs.push(dir);
      const file = path.join(dir, 'submissions.db');
      const db = new DatabaseSync(file);
      LEGACY.sqlite(db, 8);
      const insert = db.prepare(
        `INSERT INTO submissions (id, form, received_at, fields, status, status_by, status_at, note, note_by, note_at) VALUES (?, 'contact', ?, ?, ?, ?, ?, ?, ?, ?)`,
      );
      insert.run(
        OLD_NOTED.noted,
        OLD_LEAD.receivedAt,
        JSON.stringify(contactBody()),
        'in_progress',
        'omar@globaq.example',
        '2026-10-02T09:00:00.000Z',
        OLD_NOTED.note,
        'huda@globaq.example',
        '2026-10-03T09:00:00.000Z',
      );
      insert.run(OLD_NOTED.untouched, OLD_LEAD.receivedAt, JSON.stringify(contactBody()), 'new', null, null, '', null, null);
      db.prepare(
        `INSERT INTO notifications (submission_id, status, subject, body_text, body_html, created_at, attempts, next_attempt_at, sent_at) VALUES (?, 'sent', 's', 't', 'h', ?, 1, ?, ?)`,
      ).run(OLD_NOTED.noted, OLD_LEAD.receivedAt, OLD_LEAD.receivedAt, '2026-10-01T08:01:00.000Z');
      db.close();
      await migrateDatabase({ dbPath: file, databaseUrl: undefined });
      return { stores: openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 }), ids: OLD_NOTED };
    },
  },
  {
    kind: 'PostgreSQL',
    skip: unavailable,
    open: async () => {
      const url = await freshDatabase(postgresUrl);
      const stores = openStores({ dbPath: '', databaseUrl: url, poolMax: 5 });
      pgUrls.set(stores, url);
      return stores;
    },
    fromVersion5: async () => {
      const url = await freshDatabase(postgresUrl);
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        await LEGACY.postgres(pool, 5);
        for (const [table, id] of [
          ['submissions', OLD_LEAD.id],
          ['bot_submissions', OLD_LEAD.bot],
        ] as const) {
          await pool.query(`INSERT INTO ${table} (id, form, received_at, fields) VALUES ($1, 'contact', $2, $3)`, [
            id,
            OLD_LEAD.receivedAt,
            JSON.stringify(contactBody({ firstName: 'Old' })),
          ]);
        }
        await pool.query("UPDATE submissions SET status = 'answered'");
      } finally {
        await pool.end();
      }
      await migrateDatabase({ dbPath: '', databaseUrl: url });
      return { stores: openStores({ dbPath: '', databaseUrl: url, poolMax: 2 }), ids: { lead: OLD_LEAD.id, bot: OLD_LEAD.bot } };
    },
    fromVersion8: async () => {
      const url = await freshDatabase(postgresUrl);
      const pool = new pg.Pool({ connectionString: url, max: 1 });
      try {
        await LEGACY.postgres(pool, 8);
        const insert = `INSERT INTO submissions (id, form, received_at, fields, status, status_by, status_at, note, note_by, note_at) VALUES ($1, 'contact', $2, $3, $4, $5, $6, $7, $8, $9)`;
        await pool.query(insert, [
          OLD_NOTED.noted,
          OLD_LEAD.receivedAt,
          JSON.stringify(contactBody()),
          'in_progress',
          'omar@globaq.example',
          '2026-10-02T09:00:00.000Z',
          OLD_NOTED.note,
          'huda@globaq.example',
          '2026-10-03T09:00:00.000Z',
        ]);
        await pool.query(insert, [
          OLD_NOTED.untouched,
          OLD_LEAD.receivedAt,
          JSON.stringify(contactBody()),
          'new',
          null,
          null,
          '',
          null,
          null,
        ]);
        await pool.query(
          `INSERT INTO notifications (submission_id, status, subject, body_text, body_html, created_at, attempts, next_attempt_at, sent_at) VALUES ($1, 'sent', 's', 't', 'h', $2, 1, $2, $3)`,
          [OLD_NOTED.noted, OLD_LEAD.receivedAt, '2026-10-01T08:01:00.000Z'],
        );
      } finally {
        await pool.end();
      }
      await migrateDatabase({ dbPath: '', databaseUrl: url });
      return { stores: openStores({ dbPath: '', databaseUrl: url, poolMax: 2 }), ids: OLD_NOTED };
    },
  },
] as const;

/** Every row of every table of the stores' database (and, for SQLite, the files beside it), as text. */
async function everyRow(stores: Stores): Promise<string> {
  if (stores.kind === 'sqlite') {
    const db = new DatabaseSync(stores.where);
    try {
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (row) => row.name,
      );
      const text = tables.map((table) =>
        JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all(), (_, value: unknown) =>
          value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : value,
        ),
      );
      const folder = path.join(path.dirname(stores.where), 'submissions-files');
      const files = fs.existsSync(folder)
        ? fs.readdirSync(folder).map((name) => fs.readFileSync(path.join(folder, name), 'latin1'))
        : [];
      return [...text, ...files].join('\n');
    } finally {
      db.close();
    }
  }
  const url = pgUrls.get(stores)!;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const tables = (
      await pool.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
      )
    ).rows.map((row) => row.table_name);
    const text: string[] = [];
    for (const table of tables) {
      // bytea as its bytes (latin1), everything else as PostgreSQL writes the row.
      const rows = (await pool.query(`SELECT * FROM "${table}"`)).rows as Record<string, unknown>[];
      text.push(JSON.stringify(rows, (_, value: unknown) => (Buffer.isBuffer(value) ? value.toString('latin1') : value)));
    }
    return text.join('\n');
  } finally {
    await pool.end();
  }
}
const pgUrls = new WeakMap<Stores, string>();

const PDF = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
const T0 = new Date('2026-11-23T08:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

for (const { kind, skip, open, fromVersion5, fromVersion8 } of KINDS) {
  describe.skipIf(skip !== '')(`${kind}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    async function stores(): Promise<Stores> {
      const s = await open();
      opened.push(s);
      await s.ready;
      return s;
    }

    test('a lead, its notification and its files are saved together, read back, and erased together', async () => {
      const { submissions, outbox } = await stores();
      const contact = await submissions.save({
        form: 'contact',
        fields: contactBody(),
        receivedAt: at(0),
        notice: composeLeadNotice,
      });
      const partner = await submissions.save({
        form: 'partner',
        fields: partnerBody({ uploadedFiles: 'cv.pdf' }),
        receivedAt: at(1),
        attachments: [{ name: 'cv.pdf', type: 'application/pdf', bytes: PDF }],
      });
      await submissions.save({
        form: 'contact',
        fields: contactBody(),
        receivedAt: at(2),
        bot: true,
        attachments: [{ name: 'x.pdf', type: 'application/pdf', bytes: PDF }],
      });

      expect((await submissions.list()).map((s) => s.id)).toEqual([partner.id, contact.id]);
      expect(await submissions.count({ form: 'contact' })).toBe(1);
      expect(await submissions.count({ bots: true })).toBe(1);
      const exported: string[] = [];
      for await (const row of submissions.export({ since: at(0) })) exported.push(row.id);
      expect(exported).toEqual([contact.id, partner.id]);
      const [saved] = await submissions.list({ form: 'partner' });
      expect(saved).toEqual({
        id: partner.id,
        form: 'partner',
        receivedAt: at(1).toISOString(),
        language: 'en',
        fields: partnerBody({ uploadedFiles: 'cv.pdf' }),
      });

      const [file] = await submissions.attachments(partner.id);
      expect(file).toMatchObject({ submissionId: partner.id, name: 'cv.pdf', type: 'application/pdf', size: PDF.byteLength });
      expect((await submissions.attachment(file!.id))?.bytes).toEqual(PDF);
      expect(await submissions.attachment('00000000-0000-0000-0000-000000000000')).toBeUndefined();
      expect(await submissions.attachment("x' OR '1'='1")).toBeUndefined();

      expect((await outbox.list(['pending'])).map((e) => e.submissionId)).toEqual([contact.id]);
      expect(await submissions.delete(contact.id)).toMatchObject({
        submission: { id: contact.id },
        notification: true,
        attachments: 0,
      });
      expect(await submissions.delete(partner.id)).toMatchObject({ notification: false, attachments: 1 });
      expect(await submissions.attachment(file!.id)).toBeUndefined();
      expect(await outbox.list(['pending', 'sent', 'failed'])).toEqual([]);
      expect(await submissions.delete(contact.id)).toBeUndefined();
      expect(await submissions.purge(at(60))).toEqual({ leads: 0, bots: 1, notifications: 0, attachments: 0 });
    });

    test('the language a lead was sent in: stored, read back by every path, filtered in the inbox; an unknown code is refused', async () => {
      const { submissions, inbox } = await stores();
      let composedFor: string | undefined;
      const arabic = await submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'سارة' }),
        language: 'ar',
        receivedAt: at(0),
        notice: (lead) => {
          composedFor = lead.language;
          return composeLeadNotice(lead);
        },
      });
      const english = await submissions.save({ form: 'partner', fields: partnerBody(), receivedAt: at(1) });
      const bot = await submissions.save({
        form: 'contact',
        fields: contactBody(),
        language: 'ar',
        bot: true,
        receivedAt: at(2),
      });
      // The notice is composed with the language it will be stored with.
      expect(composedFor).toBe('ar');

      const languages = (leads: readonly { id: string; language: string }[]) =>
        Object.fromEntries(leads.map((lead) => [lead.id, lead.language]));
      expect(languages(await submissions.list())).toEqual({ [arabic.id]: 'ar', [english.id]: 'en' });
      const exported: { id: string; language: string }[] = [];
      for await (const row of submissions.export()) exported.push(row);
      expect(languages(exported)).toEqual({ [arabic.id]: 'ar', [english.id]: 'en' });
      expect((await submissions.list({ bots: true })).map((row) => row.language)).toEqual(['ar']);

      expect((await inbox.lead(arabic.id))?.language).toBe('ar');
      expect((await inbox.lead(english.id))?.language).toBe('en');
      expect((await inbox.leads({ language: 'ar' }, 1)).leads.map((lead) => lead.id)).toEqual([arabic.id]);
      expect((await inbox.leads({ language: 'en' }, 1)).total).toBe(1);
      const exportedLeads: { id: string; language: string }[] = [];
      for await (const lead of inbox.exportLeads({ language: 'en' })) exportedLeads.push(lead);
      expect(languages(exportedLeads)).toEqual({ [english.id]: 'en' });

      // Only the site's codes: anything else is refused and stores nothing.
      await expect(submissions.save({ form: 'contact', fields: contactBody(), language: 'fr' as 'ar' })).rejects.toThrow(
        StoreError,
      );
      expect(await submissions.count()).toBe(2);

      // Erasure hands back what it erased, language included.
      expect((await submissions.delete(arabic.id))?.submission.language).toBe('ar');
      expect((await submissions.delete(bot.id))?.submission.language).toBe('ar');
    });

    test('a database from before the language (schema version 5): migrated to 6, its leads and bots English', async () => {
      const { stores: migrated, ids } = await fromVersion5();
      opened.push(migrated);
      await migrated.ready;
      expect((await migrated.submissions.list()).map((row) => [row.id, row.language])).toEqual([[ids.lead, 'en']]);
      expect((await migrated.submissions.list({ bots: true })).map((row) => [row.id, row.language])).toEqual([[ids.bot, 'en']]);
      expect(await migrated.inbox.lead(ids.lead)).toMatchObject({
        language: 'en',
        status: 'answered',
        fields: contactBody({ firstName: 'Old' }),
      });
      // New leads take their language.
      const { id } = await migrated.submissions.save({ form: 'contact', fields: contactBody(), language: 'ar' });
      expect((await migrated.inbox.lead(id))?.language).toBe('ar');
    });

    test('an id that is not a UUID names nothing, and is never stored as a lead id', async () => {
      const { submissions, outbox, inbox } = await stores();
      const { id } = await submissions.save({
        form: 'contact',
        fields: contactBody(),
        receivedAt: at(0),
        notice: composeLeadNotice,
      });
      for (const wrong of [id.toUpperCase(), `${id} `, "x' OR '1'='1", '']) {
        expect(await inbox.lead(wrong)).toBeUndefined();
        expect(await inbox.setStatus(wrong, 'spam', 'huda@globaq.example', at(1))).toBe(false);
        expect(await inbox.addNote(wrong, 'x', 'huda@globaq.example', at(1))).toBeUndefined();
        expect(await inbox.assign(wrong, null, 'huda@globaq.example', at(1))).toBe(false);
        expect(await inbox.record(wrong, 'reply', '', 'huda@globaq.example', at(1))).toBe(false);
        expect(await inbox.timeline(wrong)).toEqual([]);
        expect(await outbox.retry(wrong, at(1))).toBe(false);
        expect(await submissions.attachments(wrong)).toEqual([]);
        expect(await submissions.delete(wrong)).toBeUndefined();
      }
      await inbox.audit('huda@globaq.example', 'set status', 'not-a-lead', '', at(2));
      expect((await inbox.auditLog({ limit: 1 })).entries[0]).toMatchObject({ action: 'set status', leadId: undefined });
      expect(await inbox.lead(id)).toMatchObject({ status: 'new', note: '' });
    });

    test('a notice that cannot be composed stores nothing', async () => {
      const { submissions } = await stores();
      const failing = submissions.save({
        form: 'contact',
        fields: contactBody(),
        notice: () => {
          throw new Error('no template');
        },
      });
      await expect(failing).rejects.toThrow(StoreError);
      expect(await submissions.count()).toBe(0);
    });

    test('the outbox: due once, retried later, given up, queued again, sent', async () => {
      const { submissions, outbox } = await stores();
      const { id } = await submissions.save({
        form: 'contact',
        fields: contactBody(),
        receivedAt: at(0),
        notice: composeLeadNotice,
      });
      const [due] = await outbox.claimDue(at(0), 10);
      expect(due).toMatchObject({
        submissionId: id,
        form: 'contact',
        status: 'pending',
        attempts: 0,
        createdAt: at(0).toISOString(),
      });
      await outbox.markRetry(id, 1, at(5), 'ECONNREFUSED');
      expect(await outbox.claimDue(at(4), 10)).toEqual([]);
      expect(await outbox.claimDue(at(5), 10)).toHaveLength(1);
      await outbox.markFailed(id, 2, 'gave up');
      expect(await outbox.list(['failed'])).toMatchObject([{ submissionId: id, attempts: 2, lastError: 'gave up' }]);
      expect(await outbox.retry(id, at(10))).toBe(true);
      expect(await outbox.retry('00000000-0000-0000-0000-000000000000', at(10))).toBe(false);
      await outbox.markSent(id, at(11));
      expect(await outbox.list(['sent'])).toMatchObject([{ submissionId: id, status: 'sent', sentAt: at(11).toISOString() }]);
      expect(await outbox.claimDue(at(20), 10)).toEqual([]);
    });

    test('deleting a lead reaches every table that held the person: the audit log, refused sign-ins, failure counts, searches and exports', async () => {
      const s = await stores();
      const { submissions, inbox } = s;
      const NAME = { firstName: 'Zubaida', lastName: 'Qarawiyyin' };
      const EMAIL = 'zubaida.q@example.org';
      const CV = new TextEncoder().encode('%PDF-1.7\nCV-OF-ZUBAIDA-7f3a9c\n%%EOF\n');
      const lead = await submissions.save({
        form: 'partner',
        fields: partnerBody({ name: `${NAME.firstName} ${NAME.lastName}`, email: EMAIL, uploadedFiles: 'cv.pdf' }),
        receivedAt: at(0),
        notice: composeLeadNotice,
        attachments: [{ name: 'zubaida-cv.pdf', type: 'application/pdf', bytes: CV }],
      });
      const other = await submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Keep', email: 'keep@example.org' }),
        receivedAt: at(1),
      });
      await inbox.audit('huda@globaq.example', 'opened lead', lead.id, '', at(2));
      await inbox.addNote(lead.id, `Called ${NAME.firstName} ${NAME.lastName} at ${EMAIL}`, 'huda@globaq.example', at(2));
      await inbox.record(lead.id, 'download', 'zubaida-cv.pdf', 'huda@globaq.example', at(2));
      await inbox.audit(
        'huda@globaq.example',
        'deleted lead',
        lead.id,
        `Partner application from ${NAME.firstName} ${NAME.lastName}`,
        at(2),
      );
      await inbox.audit(
        'huda@globaq.example',
        'searched leads',
        undefined,
        `1 found (filter: ${new URLSearchParams({ q: NAME.lastName })})`,
        at(3),
      );
      await inbox.audit(
        'huda@globaq.example',
        'exported leads',
        undefined,
        `1 lead (filter: ${new URLSearchParams({ q: EMAIL })})`,
        at(4),
      );
      await inbox.audit(
        'huda@globaq.example',
        'searched leads',
        undefined,
        `1 found (filter: ${new URLSearchParams({ q: 'keep' })})`,
        at(5),
      );
      await inbox.refusal({ account: EMAIL, network: '203.0.113.9', reason: 'wrong credentials' }, at(6));
      await inbox.attempt({ account: EMAIL, address: '203.0.113.9' }, at(6));
      expect(await submissions.delete(lead.id)).toMatchObject({ attachments: 1 });
      const dump = await everyRow(s);
      for (const needle of [NAME.firstName, NAME.lastName, EMAIL, encodeURIComponent(EMAIL), 'CV-OF-ZUBAIDA', 'zubaida-cv'])
        expect(dump.toLowerCase(), needle).not.toContain(needle.toLowerCase());
      // The rest stays: the other lead, its search, the entries' actions and the lead's id.
      expect(dump).toContain(other.id);
      expect(dump).toContain('q=keep');
      expect((await inbox.auditLog({ limit: 10, action: 'deleted lead' })).entries).toMatchObject([
        { leadId: lead.id, detail: '' },
      ]);
    });

    test('several mails per lead: one acknowledgement a day per address, none while held; a reply in the timeline; all erased with the lead', async () => {
      const s = await stores();
      const { submissions, outbox, inbox, held } = s;
      const ADDRESS = 'same.sender@example.org';
      const ack = (lead: { fields: Record<string, unknown> }) => ({
        to: String(lead.fields['email']),
        subject: 'Received',
        text: 'We got it',
        html: '<p>We got it</p>',
      });
      const save = (when: Date, extra: Record<string, unknown> = {}, email = ADDRESS) =>
        submissions.save({
          form: 'contact',
          fields: contactBody({ email }),
          receivedAt: when,
          notice: composeLeadNotice,
          acknowledgement: ack,
          ...extra,
        });
      const first = await save(at(0));
      // Saves at once (taking turns on SQLite's connection, concurrent transactions on PostgreSQL): still one.
      await Promise.all([save(at(1)), save(at(2))]);
      const waiting = await save(at(3), { held: 'noProof' }, 'held.sender@example.org');
      const nextDay = await save(new Date(at(0).getTime() + 24 * 60 * 60 * 1000 + 60_000));
      const acks = (await outbox.list(['pending'])).filter((entry) => entry.kind === 'acknowledgement');
      expect(acks.map((entry) => entry.submissionId)).toEqual([first.id, nextDay.id]);
      expect(acks[0]).toMatchObject({ recipients: [ADDRESS], subject: 'Received', text: 'We got it', replyTo: undefined });
      // The notification keeps its lead's id; the acknowledgement has its own.
      expect((await outbox.forLead(first.id)).map((entry) => [entry.kind, entry.id === first.id]).sort()).toEqual([
        ['acknowledgement', false],
        ['notification', true],
      ]);
      expect(await outbox.forLead(waiting.id)).toEqual([]);
      // Released, the held lead gets its notification and its acknowledgement then.
      expect(await held.release(waiting.id, 'huda@globaq.example', at(4), composeLeadNotice, ack)).toBe(true);
      expect((await outbox.forLead(waiting.id)).map((entry) => entry.kind).sort()).toEqual(['acknowledgement', 'notification']);

      const replyId = await outbox.queue(
        {
          kind: 'reply',
          leadId: first.id,
          recipients: [ADDRESS],
          subject: 'Re: Your message',
          text: 'ANSWER-TEXT-4711',
          html: '<p>ANSWER-TEXT-4711</p>',
          replyTo: 'huda@globaq.example',
          inReplyTo: `<lead.${first.id}@globaq.example>`,
          actor: 'huda@globaq.example',
        },
        at(5),
      );
      expect((await inbox.timeline(first.id))[0]).toMatchObject({
        kind: 'reply',
        detail: `mail:${replyId}`,
        actor: 'huda@globaq.example',
      });
      await outbox.markSent(replyId!, at(6));
      expect((await outbox.forLead(first.id)).find((entry) => entry.id === replyId)).toMatchObject({
        status: 'sent',
        inReplyTo: `<lead.${first.id}@globaq.example>`,
        actor: 'huda@globaq.example',
      });
      // A reply's delivery shows with the reply, not as the notification's.
      expect((await inbox.timeline(first.id)).filter((event) => event.kind === 'notification')).toEqual([]);
      expect((await inbox.lead(first.id))?.notification?.status).toBe('pending');
      expect(
        await outbox.queue(
          {
            kind: 'assignment',
            leadId: '00000000-0000-4000-8000-000000000000',
            recipients: ['x@globaq.example'],
            subject: 's',
            text: 't',
            html: 'h',
          },
          at(7),
        ),
      ).toBeUndefined();

      expect(await submissions.delete(first.id)).toMatchObject({ notification: true });
      expect(await outbox.forLead(first.id)).toEqual([]);
      expect(await everyRow(s)).not.toContain('ANSWER-TEXT-4711');
      await submissions.purge(new Date(at(0).getTime() + 2 * 24 * 60 * 60 * 1000));
      expect(await outbox.list(['pending', 'sent', 'failed'])).toEqual([]);
    });

    test('a notification claimed to be sent, whose lead is deleted before its turn, is dropped, not sent', async () => {
      const { submissions, outbox } = await stores();
      const first = await submissions.save({
        form: 'contact',
        fields: contactBody(),
        receivedAt: at(0),
        notice: composeLeadNotice,
      });
      const second = await submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Erased' }),
        receivedAt: at(1),
        notice: composeLeadNotice,
      });
      const sent: string[] = [];
      const transport = {
        async sendMail(message: { headers?: Record<string, string> }) {
          const lead = String(message.headers?.['X-Globaq-Lead']).split(' ')[1]!;
          sent.push(lead);
          // While the first is being sent, the second (already claimed) is erased.
          if (lead === first.id) await submissions.delete(second.id);
        },
        close() {},
      };
      const logs: string[] = [];
      const worker = new OutboxWorker({
        store: outbox,
        transport,
        concurrency: 1,
        now: () => at(2),
        log: (line) => logs.push(line),
        config: { from: 'site@globaq.example', to: ['sales@globaq.example'], retrySeconds: 60, giveUpDays: 3 } as never,
      });
      await worker.tick();
      expect(sent).toEqual([first.id]);
      expect(logs.join('\n')).toContain(`${second.id} dropped`);
      expect(logs.join('\n')).not.toContain('Erased');
    });

    test('staff accounts', async () => {
      const { staff } = await stores();
      await staff.add('huda@globaq.example', 'scrypt$1', at(0));
      await expect(staff.add('huda@globaq.example', 'scrypt$2', at(1))).rejects.toThrow(
        'There is already an account for huda@globaq.example.',
      );
      expect(await staff.list()).toEqual([
        { email: 'huda@globaq.example', createdAt: at(0).toISOString(), passwordChangedAt: at(0).toISOString() },
      ]);
      expect(await staff.passwordHash('huda@globaq.example')).toBe('scrypt$1');
      expect(await staff.setPassword('huda@globaq.example', 'scrypt$3', at(2))).toBe(true);
      expect(await staff.passwordHash('huda@globaq.example')).toBe('scrypt$3');
      expect(await staff.passwordHash('nobody@globaq.example')).toBeUndefined();
      expect(await staff.remove('huda@globaq.example')).toBe(true);
      expect(await staff.remove('huda@globaq.example')).toBe(false);
    });

    test('the inbox: filters, search, status, note, export and the audit log', async () => {
      const { submissions, inbox } = await stores();
      const sara = await submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Sara', lastName: 'Al-Qahtani', message: 'Schedule Q 100% please' }),
        receivedAt: at(0),
      });
      const gulf = await submissions.save({
        form: 'partner',
        fields: partnerBody({ organization: 'Gulf Labs' }),
        receivedAt: at(60 * 24),
      });
      const ids = async (filter: Parameters<typeof inbox.leads>[0]) =>
        (await inbox.leads(filter, 1)).leads.map((lead) => lead.id);
      expect(await ids({})).toEqual([gulf.id, sara.id]);
      expect((await inbox.leads({}, 1)).total).toBe(2);
      expect(await ids({ form: 'partner' })).toEqual([gulf.id]);
      expect(await ids({ search: 'qahtani schedule' })).toEqual([sara.id]);
      expect(await ids({ search: '100%' })).toEqual([sara.id]);
      expect(await ids({ search: '%' })).toEqual([sara.id]);
      expect(await ids({ search: '_' })).toEqual([]);
      expect(await ids({ since: at(60), until: at(60 * 48) })).toEqual([gulf.id]);
      expect(await inbox.setStatus(sara.id, 'answered', 'huda@globaq.example', at(5))).toBe(true);
      expect(await inbox.addNote(sara.id, 'Called back.', 'huda@globaq.example', at(6))).toEqual(expect.any(Number));
      expect(await ids({ status: 'answered' })).toEqual([sara.id]);
      expect(await inbox.lead(sara.id)).toMatchObject({
        status: 'answered',
        statusBy: 'huda@globaq.example',
        statusAt: at(5).toISOString(),
        note: 'Called back.',
        assignedTo: undefined,
      });
      expect(await inbox.lead('00000000-0000-0000-0000-000000000000')).toBeUndefined();
      const exported: string[] = [];
      for await (const lead of inbox.exportLeads({ status: 'new' })) exported.push(lead.id);
      expect(exported).toEqual([gulf.id]);
      await inbox.audit('huda@globaq.example', 'set status', sara.id, 'Answered', at(5));
      await inbox.audit('huda@globaq.example', 'exported leads', undefined, '1 lead', at(7));
      expect((await inbox.auditLog({ limit: 10 })).entries).toEqual([
        {
          seq: expect.any(Number),
          at: at(7).toISOString(),
          actor: 'huda@globaq.example',
          action: 'exported leads',
          leadId: undefined,
          detail: '1 lead',
          leadKept: false,
        },
        {
          seq: expect.any(Number),
          at: at(5).toISOString(),
          actor: 'huda@globaq.example',
          action: 'set status',
          leadId: sara.id,
          detail: 'Answered',
          leadKept: true,
        },
      ]);
      // Views of a lead are left out when asked, unless asked for by name; a deleted lead's entries say so.
      await inbox.audit('huda@globaq.example', 'opened lead', sara.id, '', at(8));
      expect((await inbox.auditLog({ limit: 10 })).total).toBe(3);
      expect((await inbox.auditLog({ limit: 10, hideViews: true })).entries.map((entry) => entry.action)).toEqual([
        'exported leads',
        'set status',
      ]);
      expect((await inbox.auditLog({ limit: 10, hideViews: true, action: 'opened lead' })).total).toBe(1);
      await submissions.delete(sara.id);
      expect((await inbox.auditLog({ limit: 10, action: 'set status' })).entries[0]).toMatchObject({
        leadId: sara.id,
        leadKept: false,
      });
    });

    test('triage: a closed status, tab counts, a selection, sorts that agree, and Previous/Next through the list as ordered', async () => {
      const { submissions, inbox } = await stores();
      const zed = await submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'zed', lastName: 'Omari' }),
        receivedAt: at(0),
      });
      const amal = await submissions.save({ form: 'partner', fields: partnerBody({ name: 'Amal Saleh' }), receivedAt: at(1) });
      const bader = await submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Bader', lastName: '' }),
        receivedAt: at(2),
      });
      const arabic = await submissions.save({ form: 'partner', fields: partnerBody({ name: 'عائشة' }), receivedAt: at(3) });
      const twin = await submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Bader', lastName: '' }),
        receivedAt: at(4),
      });
      expect(await inbox.setStatus(amal.id, 'closed', 'huda@globaq.example', at(5))).toBe(true);
      expect(await inbox.setStatus(arabic.id, 'spam', 'huda@globaq.example', at(5))).toBe(true);
      expect(await inbox.setStatus(bader.id, 'in_progress', 'huda@globaq.example', at(5))).toBe(true);
      expect((await inbox.lead(amal.id))?.status).toBe('closed');
      expect(await inbox.statusCounts({ status: 'new' })).toEqual({
        new: 2,
        in_progress: 1,
        answered: 0,
        closed: 1,
        spam: 1,
        held: 0,
      });
      expect(await inbox.statusCounts({ form: 'contact' })).toEqual({
        new: 2,
        in_progress: 1,
        answered: 0,
        closed: 0,
        spam: 0,
        held: 0,
      });
      const ids = async (filter: Parameters<typeof inbox.leads>[0], order?: Parameters<typeof inbox.leads>[2]) =>
        (await inbox.leads(filter, 1, order)).leads.map((lead) => lead.id);
      expect(await ids({ statuses: ['new', 'in_progress'] })).toEqual([twin.id, bader.id, zed.id]);
      expect(await ids({ statuses: [] })).toEqual([]);
      // A selection: forged and malformed ids name nothing.
      expect(await ids({ ids: [zed.id, '00000000-0000-4000-8000-000000000000', 'not-an-id', "' OR 1=1 --"] })).toEqual([zed.id]);
      expect(await ids({ ids: ['not-an-id'] })).toEqual([]);
      // Names by code point, case aside (ASCII); equal names keep the newest first; Arabic after Latin.
      expect(await ids({}, { by: 'name', direction: 'asc' })).toEqual([amal.id, twin.id, bader.id, zed.id, arabic.id]);
      expect(await ids({}, { by: 'name', direction: 'desc' })).toEqual([arabic.id, zed.id, twin.id, bader.id, amal.id]);
      expect(await ids({}, { by: 'form', direction: 'asc' })).toEqual([twin.id, bader.id, zed.id, arabic.id, amal.id]);
      // Statuses in the workflow's order: new, in progress, answered, closed, spam.
      expect(await ids({}, { by: 'status', direction: 'asc' })).toEqual([twin.id, zed.id, bader.id, amal.id, arabic.id]);
      expect(await ids({}, { by: 'received', direction: 'asc' })).toEqual([zed.id, amal.id, bader.id, arabic.id, twin.id]);
      // Previous and Next walk the list as filtered and ordered.
      const byName = { by: 'name', direction: 'asc' } as const;
      expect(await inbox.neighbours({}, byName, twin.id)).toEqual({ previous: amal.id, next: bader.id, position: 2, total: 5 });
      expect(await inbox.neighbours({}, byName, amal.id)).toEqual({ previous: undefined, next: twin.id, position: 1, total: 5 });
      expect(await inbox.neighbours({ form: 'contact' }, byName, zed.id)).toEqual({
        previous: bader.id,
        next: undefined,
        position: 3,
        total: 3,
      });
      expect(await inbox.neighbours({ form: 'contact' }, byName, amal.id)).toBeUndefined();
      expect(await inbox.neighbours({}, byName, 'not-an-id')).toBeUndefined();
    });

    test('search finds any answer: a phone number however it is written, city, company, a country in either language', async () => {
      const { submissions, inbox } = await stores();
      const bahrain = await submissions.save({
        form: 'partner',
        fields: partnerBody({
          name: 'Yousef',
          phoneNumber: '+973 3312 3456',
          cityName: 'Manama',
          country: 'Bahrain',
          organization: 'Pearl Audits',
        }),
        receivedAt: at(0),
      });
      const indic = await submissions.save({
        form: 'partner',
        fields: partnerBody({ name: 'Maryam', phoneNumber: '+٩٧٣ ٣٩٩٩ ١٢١٢', cityName: 'Muharraq', country: 'Bahrain' }),
        receivedAt: at(1),
      });
      const saudi = await submissions.save({
        form: 'contact',
        fields: contactBody({ country: 'السعودية', city: 'الخبر', company: 'شركة الساحل' }),
        receivedAt: at(2),
      });
      const saudiFull = await submissions.save({
        form: 'contact',
        fields: contactBody({ country: 'المملكة العربية السعودية', city: 'Jeddah' }),
        receivedAt: at(3),
      });
      const egypt = await submissions.save({
        form: 'partner',
        fields: partnerBody({ name: 'Hany', country: 'Egypt', phoneNumber: '+20 100 000 0000', cityName: 'Cairo' }),
        receivedAt: at(4),
      });
      const found = async (search: string) => (await inbox.leads({ search }, 1)).leads.map((lead) => lead.id).sort();
      const sorted = (...leads: { id: string }[]) => leads.map((lead) => lead.id).sort();
      expect(await found('+973')).toEqual(sorted(bahrain, indic));
      expect(await found('+97333123456')).toEqual(sorted(bahrain));
      expect(await found('+973 3312 3456')).toEqual(sorted(bahrain));
      expect(await found('3312-3456')).toEqual(sorted(bahrain));
      expect(await found('0097333123456')).toEqual(sorted(bahrain));
      expect(await found('00973 ٣٣١٢ ٣٤٥٦')).toEqual(sorted(bahrain));
      expect(await found('+٩٧٣ ٣٣١٢')).toEqual(sorted(bahrain));
      expect(await found('39991212')).toEqual(sorted(indic));
      expect(await found('manama')).toEqual(sorted(bahrain));
      expect(await found('pearl')).toEqual(sorted(bahrain));
      expect(await found('الخبر')).toEqual(sorted(saudi));
      expect(await found('الساحل')).toEqual(sorted(saudi));
      // A country by its name in the other language than the one it is stored in.
      expect(await found('saudi')).toEqual(sorted(saudi, saudiFull));
      expect(await found('Saudi Arabia')).toEqual(sorted(saudi, saudiFull));
      expect(await found('البحرين')).toEqual(sorted(bahrain, indic));
      expect(await found('مصر')).toEqual(sorted(egypt));
      expect(await found('bahrain manama')).toEqual(sorted(bahrain));
      expect(await found('nowhere')).toEqual([]);
    });

    test('search finds a Saudi mobile whichever way it was typed or searched, and cities in either language', async () => {
      const { submissions, inbox } = await stores();
      const typings = ['+966504443322', '00966 50 444 3322', '0504443322', '٠٥٠٤٤٤٣٣٢٢', '۰۵۰-۴۴۴-۳۳۲۲'];
      const byTyping = new Map<string, string>();
      for (const [index, phoneNumber] of typings.entries()) {
        const lead = await submissions.save({
          form: 'partner',
          fields: partnerBody({ name: `Lead ${index}`, phoneNumber, cityName: 'Dammam' }),
          receivedAt: at(index),
        });
        byTyping.set(phoneNumber, lead.id);
      }
      const other = await submissions.save({
        form: 'partner',
        fields: partnerBody({ name: 'Other', phoneNumber: '+966 55 444 3322', cityName: 'Dammam' }),
        receivedAt: at(9),
      });
      const taif = await submissions.save({
        form: 'contact',
        fields: contactBody({ city: 'الطائف', country: 'السعودية' }),
        receivedAt: at(10),
      });
      const khobar = await submissions.save({ form: 'contact', fields: contactBody({ city: 'Khobar' }), receivedAt: at(11) });
      const cairo = await submissions.save({
        form: 'contact',
        fields: contactBody({ city: 'القاهرة', country: 'مصر' }),
        receivedAt: at(12),
      });
      const taifLatin = await submissions.save({ form: 'contact', fields: contactBody({ city: 'Taif' }), receivedAt: at(13) });
      const khobarArabic = await submissions.save({
        form: 'contact',
        fields: contactBody({ city: 'الخبر' }),
        receivedAt: at(14),
      });
      const cairoLatin = await submissions.save({ form: 'contact', fields: contactBody({ city: 'Cairo' }), receivedAt: at(15) });
      const found = async (search: string) => (await inbox.leads({ search }, 1)).leads.map((lead) => lead.id).sort();
      const sorted = (...leads: { id: string }[]) => leads.map((lead) => lead.id).sort();

      const samePhone = [...byTyping.values()].sort();
      for (const typed of [...typings, '+966 50 444 3322', '050 444 3322', '504443322'])
        expect(await found(typed), typed).toEqual(samePhone);
      expect(await found('+966554443322')).toEqual(sorted(other));

      expect(await found('Taif')).toEqual(sorted(taif, taifLatin));
      expect(await found('الطائف')).toEqual(sorted(taif, taifLatin));
      expect(await found('طائف')).toEqual(sorted(taif, taifLatin));
      // The contact body's own city is "Al-Khobar": every contact lead but those given another city.
      expect(await found('الخبر')).toEqual(await found('khobar'));
      expect(await found('الخبر')).toEqual(expect.arrayContaining(sorted(khobar, khobarArabic)));
      expect(await found('الخبر')).not.toContain(taif.id);
      expect(await found('Cairo')).toEqual(sorted(cairo, cairoLatin));
      expect(await found('القاهرة')).toEqual(sorted(cairo, cairoLatin));
      expect(await found('cairo egypt')).toEqual(sorted(cairo));
    });

    test('sessions: kept alive by use, ended idle, by sign-out, by a new password', async () => {
      const { staff, inbox } = await stores();
      await staff.add('huda@globaq.example', 'scrypt$1', at(0));
      const { token, csrf } = await inbox.createSession('huda@globaq.example', at(1));
      expect(await inbox.session(token, at(20))).toEqual({
        email: 'huda@globaq.example',
        csrf,
        createdAt: at(1).toISOString(),
        stage: 'signed-in',
        pendingTotp: undefined,
      });
      expect(await inbox.session(token, at(45))).toBeDefined();
      expect(await inbox.session(token, at(80))).toBeUndefined();
      const second = await inbox.createSession('huda@globaq.example', at(100));
      await inbox.endSession(second.token);
      expect(await inbox.session(second.token, at(101))).toBeUndefined();
      const third = await inbox.createSession('huda@globaq.example', at(110));
      await staff.setPassword('huda@globaq.example', 'scrypt$2', at(111));
      expect(await inbox.session(third.token, at(112))).toBeUndefined();
      // Ended by the change itself, not only by comparing times: a session made in the same
      // instant (or by an instance whose clock is behind) ends too; another account's stays.
      await staff.add('omar@globaq.example', 'scrypt$1', at(0));
      const other = await inbox.createSession('omar@globaq.example', at(120));
      const sameInstant = await inbox.createSession('huda@globaq.example', at(120));
      await staff.setPassword('huda@globaq.example', 'scrypt$3', at(120));
      expect(await inbox.session(sameInstant.token, at(120))).toBeUndefined();
      expect(await inbox.session(other.token, at(121))).toBeDefined();
    });

    test("setting up two-step sign-in ends the account's other sessions; the one it was set up in and other accounts' stay", async () => {
      const { staff, inbox } = await stores();
      await staff.add('huda@globaq.example', 'scrypt$1', at(0));
      await staff.add('omar@globaq.example', 'scrypt$1', at(0));
      const here = await inbox.createSession('huda@globaq.example', at(1));
      const elsewhere = await inbox.createSession('huda@globaq.example', at(1));
      const other = await inbox.createSession('omar@globaq.example', at(1));
      expect(await staff.enrolTwoStep('huda@globaq.example', 'v1.secret', 1000, ['hash-a'], at(2), here.token)).toBe(true);
      expect(await inbox.session(here.token, at(3))).toBeDefined();
      expect(await inbox.session(elsewhere.token, at(3))).toBeUndefined();
      expect(await inbox.session(other.token, at(3))).toBeDefined();
    });

    test('two-step sign-in: a session owing its code, set up, each step taken once (also at once), recovery codes once, reset', async () => {
      const { staff, inbox } = await stores();
      const email = 'huda@globaq.example';
      await staff.add(email, 'scrypt$1', at(0));
      expect(await staff.twoStep(email)).toEqual({
        sealedSecret: undefined,
        enrolledAt: undefined,
        lastStep: undefined,
        recoveryLeft: 0,
      });
      expect(await staff.twoStep('nobody@globaq.example')).toBeUndefined();
      // A session that owes its code, with a set-up under way; it ends 10 minutes after the password.
      const pending = await inbox.createSession(email, at(1), 'code');
      await inbox.setPendingTotp(pending.token, 'v1.sealed');
      expect(await inbox.session(pending.token, at(2))).toMatchObject({ stage: 'code', pendingTotp: 'v1.sealed' });
      expect(await inbox.session(pending.token, at(12))).toBeUndefined();

      expect(await staff.enrolTwoStep(email, 'v1.secret', 1000, ['hash-a', 'hash-b'], at(3))).toBe(true);
      expect(await staff.twoStep(email)).toEqual({
        sealedSecret: 'v1.secret',
        enrolledAt: at(3).toISOString(),
        lastStep: 1000,
        recoveryLeft: 2,
      });
      // A step is taken once, and never one before it; the same step sent ten times at once passes once.
      expect(await staff.takeStep(email, 1000)).toBe(false);
      expect(await staff.takeStep(email, 999)).toBe(false);
      expect((await Promise.all(Array.from({ length: 10 }, () => staff.takeStep(email, 1001)))).filter(Boolean)).toHaveLength(1);
      expect((await staff.twoStep(email))?.lastStep).toBe(1001);
      // A recovery code once, also at once; another account's hash is none of this one's.
      expect(
        (await Promise.all(Array.from({ length: 5 }, () => staff.useRecoveryCode(email, 'hash-a', at(4))))).filter(
          (left) => left !== undefined,
        ),
      ).toEqual([1]);
      expect(await staff.useRecoveryCode(email, 'hash-a', at(5))).toBeUndefined();
      expect(await staff.useRecoveryCode('nobody@globaq.example', 'hash-b', at(5))).toBeUndefined();
      // A new set-up replaces the codes.
      expect(await staff.enrolTwoStep(email, 'v1.other', 2000, ['hash-c'], at(6))).toBe(true);
      expect(await staff.useRecoveryCode(email, 'hash-b', at(7))).toBeUndefined();
      expect((await staff.twoStep(email))?.recoveryLeft).toBe(1);
      // The staff command's reset: secret, step, codes and every session of the account (a set-up
      // under way with them) go; another account's session stays.
      const setUp = await inbox.createSession(email, at(8));
      await inbox.setPendingTotp(setUp.token, 'v1.half');
      const signedIn = await inbox.createSession(email, at(8));
      await staff.add('other@globaq.example', 'scrypt$3', at(8));
      const other = await inbox.createSession('other@globaq.example', at(8));
      expect(await staff.resetTwoStep(email)).toBe(true);
      expect(await staff.twoStep(email)).toEqual({
        sealedSecret: undefined,
        enrolledAt: undefined,
        lastStep: undefined,
        recoveryLeft: 0,
      });
      expect(await inbox.session(setUp.token, at(9))).toBeUndefined();
      expect(await inbox.session(signedIn.token, at(9))).toBeUndefined();
      expect((await inbox.session(other.token, at(9)))?.email).toBe('other@globaq.example');
      expect(await staff.takeStep(email, 3000)).toBe(false);
      // Removing the account removes its codes (cascade).
      await staff.enrolTwoStep(email, 'v1.again', 3000, ['hash-d'], at(10));
      expect(await staff.remove(email)).toBe(true);
      await staff.add(email, 'scrypt$2', at(11));
      expect(await staff.useRecoveryCode(email, 'hash-d', at(12))).toBeUndefined();
    });

    test('recovery codes: nothing a plain SHA-256 of the account and code would match is kept; codes kept that way before are rewritten on open and still work, once each', async () => {
      const first = await stores();
      const email = 'huda@globaq.example';
      await first.staff.add(email, 'scrypt$1', at(0));
      const plain = (code: string, encoding: 'hex' | 'base64' | 'base64url' = 'base64url') =>
        createHash('sha256')
          .update(`${email}\n${code.replace('-', '')}`)
          .digest(encoding);
      const plainForms = (code: string) => (['hex', 'base64', 'base64url'] as const).map((encoding) => plain(code, encoding));
      const fresh = newRecoveryCodes();
      await first.staff.enrolTwoStep(
        email,
        'v1.sealed',
        1000,
        await Promise.all(fresh.map((code) => recoveryHash(email, code))),
        at(1),
      );
      let rows = await everyRow(first);
      for (const code of fresh) for (const form of plainForms(code)) expect(rows).not.toContain(form);
      // Codes as the code before kept them: their plain SHA-256 (base64url), written straight in.
      const old = newRecoveryCodes();
      await first.db
        .insertInto('staff_recovery_codes')
        .values(old.map((code) => ({ email, code_hash: plain(code), used_at: null })))
        .execute();
      const where = first.kind === 'sqlite' ? first.where : pgUrls.get(first)!;
      await first.close();
      opened.splice(opened.indexOf(first), 1);
      const again =
        first.kind === 'sqlite'
          ? openStores({ dbPath: where, databaseUrl: undefined, poolMax: 1 }, { create: false })
          : openStores({ dbPath: '', databaseUrl: where, poolMax: 2 });
      opened.push(again);
      if (again.kind === 'postgres') pgUrls.set(again, where);
      await again.ready;
      rows = await everyRow(again);
      for (const code of [...fresh, ...old]) for (const form of plainForms(code)) expect(rows).not.toContain(form);
      for (const code of [old[0]!, fresh[0]!]) {
        const kept = await recoveryHash(email, code.toUpperCase());
        expect(await again.staff.useRecoveryCode(email, kept, at(2))).toBeTypeOf('number');
        expect(await again.staff.useRecoveryCode(email, kept, at(3))).toBeUndefined();
      }
      expect((await again.staff.twoStep(email))?.recoveryLeft).toBe(2 * old.length - 2);
    });

    test(`the sign-in gate: slowed, then locked after ${LOCK_AFTER.account} failures, cleared by a success`, async () => {
      const { inbox } = await stores();
      const keys = { account: 'huda@globaq.example', address: '203.0.113.9' };
      for (let i = 0; i < LOCK_AFTER.account; i++) expect(await inbox.attempt(keys, at(i))).toMatchObject({ open: true });
      expect(await inbox.gate(keys, at(LOCK_AFTER.account))).toEqual({
        open: false,
        locked: true,
        retryAt: at(LOCK_AFTER.account - 1 + 15),
      });
      // Tries during the lock are refused and not counted.
      expect(await inbox.attempt(keys, at(LOCK_AFTER.account + 1))).toMatchObject({
        open: false,
        locked: true,
        retryAt: at(LOCK_AFTER.account - 1 + 15),
      });
      expect(await inbox.gate({ account: 'omar@globaq.example', address: '198.51.100.1' }, at(LOCK_AFTER.account))).toEqual({
        open: true,
      });
      await inbox.clearFailures(keys);
      expect(await inbox.gate(keys, at(LOCK_AFTER.account))).toEqual({ open: true });
    });

    test("200 sign-in attempts at once for one account: each counted in the gate's transaction, so only the first few find it open", async () => {
      const { inbox } = await stores();
      const keys = { account: 'huda@globaq.example', address: '203.0.113.9' };
      const answers = await Promise.all(Array.from({ length: 200 }, () => inbox.attempt(keys, at(0))));
      expect(answers.filter((gate) => gate.open)).toHaveLength(SLOW_AFTER.account);
    });

    test("a device cookie of the account gets past a lock another caused; a forged one or another account's does not", async () => {
      const { inbox, staff } = await stores();
      await staff.add('huda@globaq.example', 'scrypt$1', at(0));
      const device = await inbox.rememberDevice('huda@globaq.example', at(0));
      const keys = { account: 'huda@globaq.example', address: '203.0.113.9' };
      for (let i = 0; i < LOCK_AFTER.account; i++) await inbox.attempt(keys, at(i));
      expect(await inbox.attempt(keys, at(LOCK_AFTER.account))).toMatchObject({ open: false, locked: true });
      expect(await inbox.attempt({ ...keys, device: 'forged' }, at(LOCK_AFTER.account))).toMatchObject({
        open: false,
        trusted: false,
      });
      expect(await inbox.attempt({ ...keys, device }, at(LOCK_AFTER.account))).toMatchObject({ open: true, trusted: true });
    });

    test(`"busy" refusals count against their network alone: slowed after ${SLOW_AFTER.address}, locked after ${LOCK_AFTER.address}; a live device cookie is told apart`, async () => {
      const { inbox, staff } = await stores();
      await staff.add('huda@globaq.example', 'scrypt$1', at(0));
      const device = await inbox.rememberDevice('huda@globaq.example', at(0));
      const keys = { account: 'huda@globaq.example', address: '203.0.113.9' };
      expect(await inbox.trustedDevice({ ...keys, device }, at(0))).toBe(true);
      expect(await inbox.trustedDevice({ ...keys, device: 'forged' }, at(0))).toBe(false);
      expect(await inbox.trustedDevice({ ...keys, account: 'omar@globaq.example', device }, at(0))).toBe(false);
      const answers = await Promise.all(Array.from({ length: 60 }, () => inbox.busy('203.0.113.9', at(1))));
      expect(answers.filter((gate) => gate.open)).toHaveLength(SLOW_AFTER.address);
      // The network's own sign-ins are slowed by them; the account and another network are not.
      expect(await inbox.gate(keys, at(1))).toMatchObject({ open: false, locked: false });
      expect(await inbox.gate({ ...keys, address: '198.51.100.1' }, at(1))).toEqual({ open: true });
      // One a minute gets past the slowing (its wait is at most a minute), until the lock.
      let minute = 2;
      while (!(await inbox.busy('203.0.113.9', at(minute))).lockStarted && minute < 200) minute++;
      expect(minute).toBe(2 + LOCK_AFTER.address - SLOW_AFTER.address - 1);
      expect(await inbox.busy('203.0.113.9', at(minute + 1))).toMatchObject({ open: false, locked: true });
    });

    test('refused sign-ins are kept apart from staff actions; the audit log pages and filters', async () => {
      const { inbox } = await stores();
      for (let i = 0; i < 30; i++)
        await inbox.refusal({ account: `invented${i}@example.com`, network: '203.0.113.9', reason: 'wrong credentials' }, at(i));
      await inbox.audit('huda@globaq.example', 'signed in', undefined, '', at(1));
      const seq = await inbox.audit('omar@globaq.example', 'exported leads', undefined, 'started', at(2));
      await inbox.completeAudit(seq, '3 leads');
      await inbox.audit('huda@globaq.example', 'opened lead', '11111111-2222-4333-8444-555555555555', '', at(3));
      expect((await inbox.auditLog({ limit: 10 })).total).toBe(3);
      expect((await inbox.auditLog({ limit: 1, offset: 1 })).entries.map((entry) => entry.detail)).toEqual(['3 leads']);
      expect((await inbox.auditLog({ limit: 10, actor: 'huda@globaq.example' })).entries.map((entry) => entry.action)).toEqual([
        'opened lead',
        'signed in',
      ]);
      expect((await inbox.auditLog({ limit: 10, action: 'signed in' })).total).toBe(1);
      expect((await inbox.auditLog({ limit: 10, since: at(2), until: at(3) })).entries.map((entry) => entry.action)).toEqual([
        'exported leads',
      ]);
      const refused = await inbox.refusals({ limit: 5 });
      expect(refused.total).toBe(30);
      expect(refused.entries[0]).toEqual({
        at: at(29).toISOString(),
        account: 'invented29@example.com',
        network: '203.0.113.9',
        reason: 'wrong credentials',
      });
    });

    test('the timeline: notes appended never overwritten, a correction keeps the note it corrects, changes and deliveries in order, newest first', async () => {
      const { submissions, inbox, outbox, staff } = await stores();
      await staff.add('huda@globaq.example', 'scrypt$1', at(0));
      await staff.add('omar@globaq.example', 'scrypt$1', at(0));
      const { id } = await submissions.save({
        form: 'contact',
        fields: contactBody(),
        receivedAt: at(0),
        notice: composeLeadNotice,
      });
      const other = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(0) });
      await outbox.markSent(id, at(1));
      const first = await inbox.addNote(id, 'Call back Sunday.', 'huda@globaq.example', at(2));
      expect(first).toEqual(expect.any(Number));
      expect(await inbox.setStatus(id, 'in_progress', 'omar@globaq.example', at(3))).toBe(true);
      // Saving the status it already has adds nothing.
      expect(await inbox.setStatus(id, 'in_progress', 'omar@globaq.example', at(4))).toBe(true);
      expect(await inbox.assign(id, 'omar@globaq.example', 'huda@globaq.example', at(5))).toBe(true);
      expect(await inbox.assign(id, 'omar@globaq.example', 'huda@globaq.example', at(5))).toBe(true);
      const fix = await inbox.addNote(id, 'Call back Monday.', 'omar@globaq.example', at(6), first);
      expect(fix).toEqual(expect.any(Number));
      // A correction names a note of this lead, or nothing is added.
      expect(await inbox.addNote(other.id, 'x', 'omar@globaq.example', at(6), first)).toBeUndefined();
      expect(await inbox.addNote(id, 'x', 'omar@globaq.example', at(6), 999_999)).toBeUndefined();
      expect(await inbox.record(id, 'download', 'cv.pdf', 'omar@globaq.example', at(7))).toBe(true);
      expect(await inbox.record(id, 'reply', '', 'omar@globaq.example', at(8))).toBe(true);
      expect(await inbox.assign(id, null, 'omar@globaq.example', at(9))).toBe(true);

      const timeline = await inbox.timeline(id);
      expect(timeline.map((event) => [event.kind, event.detail, event.actor, event.at])).toEqual([
        ['assigned', '', 'omar@globaq.example', at(9).toISOString()],
        ['reply', '', 'omar@globaq.example', at(8).toISOString()],
        ['download', 'cv.pdf', 'omar@globaq.example', at(7).toISOString()],
        ['note', 'Call back Monday.', 'omar@globaq.example', at(6).toISOString()],
        ['assigned', 'omar@globaq.example', 'huda@globaq.example', at(5).toISOString()],
        ['status', 'in_progress', 'omar@globaq.example', at(3).toISOString()],
        ['note', 'Call back Sunday.', 'huda@globaq.example', at(2).toISOString()],
        ['notification', 'sent', undefined, at(1).toISOString()],
      ]);
      const [correction, original] = timeline.filter((event) => event.kind === 'note');
      expect(correction).toMatchObject({ seq: fix, corrects: first, correctedBy: undefined });
      expect(original).toMatchObject({ seq: first, corrects: undefined, correctedBy: fix, detail: 'Call back Sunday.' });
      expect(await inbox.timeline(other.id)).toEqual([]);
      // The lead shows its newest note.
      expect(await inbox.lead(id)).toMatchObject({ note: 'Call back Monday.', assignedTo: undefined, status: 'in_progress' });
    });

    test('twenty notes written at the same moment by different staff are all kept', async () => {
      const { submissions, inbox } = await stores();
      const { id } = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(0) });
      const texts = Array.from({ length: 20 }, (_, i) => `Note ${i} from ${i % 2 ? 'huda' : 'omar'}`);
      const seqs = await Promise.all(
        texts.map((text, i) => inbox.addNote(id, text, `${i % 2 ? 'huda' : 'omar'}@globaq.example`, at(1))),
      );
      expect(new Set(seqs).size).toBe(20);
      const notes = (await inbox.timeline(id)).filter((event) => event.kind === 'note').map((event) => event.detail);
      expect(notes.sort()).toEqual([...texts].sort());
    });

    test('a notification given up goes into its timeline; assignment: filtered by assignee or nobody, cleared when the account is removed', async () => {
      const { submissions, inbox, outbox, staff } = await stores();
      await staff.add('huda@globaq.example', 'scrypt$1', at(0));
      await staff.add('omar@globaq.example', 'scrypt$1', at(0));
      const a = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(0), notice: composeLeadNotice });
      const b = await submissions.save({ form: 'partner', fields: partnerBody(), receivedAt: at(1) });
      const c = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(2) });
      await outbox.markFailed(a.id, 5, 'gave up', at(3));
      expect((await inbox.timeline(a.id)).map((event) => [event.kind, event.detail, event.at])).toEqual([
        ['notification', 'failed', at(3).toISOString()],
      ]);
      await inbox.assign(a.id, 'huda@globaq.example', 'huda@globaq.example', at(4));
      await inbox.assign(b.id, 'omar@globaq.example', 'huda@globaq.example', at(4));
      const ids = async (filter: Parameters<typeof inbox.leads>[0]) =>
        (await inbox.leads(filter, 1)).leads.map((lead) => lead.id);
      expect(await ids({ assignedTo: 'huda@globaq.example' })).toEqual([a.id]);
      expect(await ids({ assignedTo: 'omar@globaq.example', form: 'partner' })).toEqual([b.id]);
      expect(await ids({ assignedTo: null })).toEqual([c.id]);
      expect((await inbox.leads({ assignedTo: 'huda@globaq.example' }, 1)).total).toBe(1);
      const exported: string[] = [];
      for await (const lead of inbox.exportLeads({ assignedTo: 'omar@globaq.example' })) exported.push(lead.assignedTo!);
      expect(exported).toEqual(['omar@globaq.example']);
      // An address with no account is refused by the database.
      await expect(inbox.assign(c.id, 'nobody@globaq.example', 'huda@globaq.example', at(5))).rejects.toThrow(StoreError);
      expect(await staff.remove('omar@globaq.example')).toBe(true);
      expect((await inbox.lead(b.id))?.assignedTo).toBeUndefined();
      expect(await ids({ assignedTo: null })).toEqual([c.id, b.id]);
    });

    test('one Spam and a held tab: held leads only on their own, with their count; marked as spam they count and list as spam; a held lead opens but cannot be worked until released', async () => {
      const { submissions, inbox, held, staff } = await stores();
      await staff.add('huda@globaq.example', 'scrypt$1', at(0));
      const lead = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(0) });
      const bot = await submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Bot' }),
        receivedAt: at(1),
        held: 'honeypot',
      });
      const waiting = await submissions.save({ form: 'partner', fields: partnerBody(), receivedAt: at(2), held: 'noProof' });
      const junk = await submissions.save({ form: 'contact', fields: contactBody(), receivedAt: at(3) });
      expect(await inbox.setStatus(junk.id, 'spam', 'huda@globaq.example', at(4))).toBe(true);
      const ids = async (filter: Parameters<typeof inbox.leads>[0]) => (await inbox.leads(filter, 1)).leads.map((one) => one.id);
      expect(await ids({})).toEqual([junk.id, lead.id]);
      expect(await ids({ review: 'held' })).toEqual([waiting.id, bot.id]);
      expect(await ids({ review: 'held', form: 'partner' })).toEqual([waiting.id]);
      expect(await inbox.statusCounts({})).toEqual({ new: 1, in_progress: 0, answered: 0, closed: 0, spam: 1, held: 2 });
      expect(await inbox.statusCounts({ form: 'partner', review: 'held' })).toEqual({
        new: 0,
        in_progress: 0,
        answered: 0,
        closed: 0,
        spam: 0,
        held: 1,
      });
      // Previous and Next walk the held tab too.
      expect(await inbox.neighbours({ review: 'held' }, { by: 'received', direction: 'desc' }, bot.id)).toEqual({
        previous: waiting.id,
        next: undefined,
        position: 2,
        total: 2,
      });
      // A held lead opens whole, marked held with its reason; it cannot be worked before release.
      expect(await inbox.lead(bot.id)).toMatchObject({ id: bot.id, review: 'held', holdReason: 'honeypot' });
      expect(await inbox.lead(lead.id)).toMatchObject({ review: undefined, holdReason: undefined });
      expect(await inbox.setStatus(bot.id, 'answered', 'huda@globaq.example', at(5))).toBe(false);
      expect(await inbox.assign(bot.id, 'huda@globaq.example', 'huda@globaq.example', at(5))).toBe(false);
      expect(await inbox.lead(bot.id)).toMatchObject({ status: 'new', assignedTo: undefined, review: 'held' });
      // Marked as spam on the held tab: in the one Spam tab, counted there, not held any more.
      expect(await held.markSpam(bot.id, 'huda@globaq.example', at(6))).toBe(true);
      expect(await ids({ status: 'spam' })).toEqual([junk.id, bot.id]);
      expect(await inbox.statusCounts({})).toEqual({ new: 1, in_progress: 0, answered: 0, closed: 0, spam: 2, held: 1 });
      expect(await inbox.lead(bot.id)).toMatchObject({ status: 'spam', review: 'spam' });
      // Given another status by staff, it is an inbox lead from then on (not mailed, not purged as held).
      expect(await inbox.setStatus(bot.id, 'in_progress', 'huda@globaq.example', at(7))).toBe(true);
      expect(await inbox.lead(bot.id)).toMatchObject({ status: 'in_progress', review: undefined });
      // Old enough, but still held and never warned of by a digest: kept. Warned of, it goes once the warning is old enough.
      const late = at(60 * 24 * 365);
      expect(await held.expired(late, late)).toEqual([]);
      expect(await held.summary(late)).toEqual({
        waiting: 1,
        byReason: { noProof: 1 },
        oldestReceivedAt: waiting.receivedAt,
        unwarnedOverdue: 1,
      });
      expect((await held.dueForErasure(late)).map((due) => [due.id, due.warnedAt])).toEqual([[waiting.id, undefined]]);
      await held.markWarned([waiting.id, 'not-a-uuid'], at(60));
      expect((await held.dueForErasure(late)).map((due) => [due.id, due.warnedAt])).toEqual([[waiting.id, at(60).toISOString()]]);
      expect(await held.summary(late)).toMatchObject({ waiting: 1, unwarnedOverdue: 0 });
      expect(await held.expired(late, at(59))).toEqual([]);
      expect(await held.expired(late, late)).toEqual([waiting.id]);
      // One digest a day, whichever server claims it first; a failed one is given back.
      expect(await held.claimDigest('2026-11-27', at(61))).toBe(true);
      expect(await held.claimDigest('2026-11-27', at(62))).toBe(false);
      await held.unclaimDigest('2026-11-27');
      expect(await held.claimDigest('2026-11-27', at(63))).toBe(true);
      await held.digestSent('2026-11-27', at(64), 1);
      await held.unclaimDigest('2026-11-27');
      expect(await held.claimDigest('2026-11-27', at(65))).toBe(false);
      // Released: in the inbox, no longer in the held tab.
      expect(await held.release(waiting.id, 'huda@globaq.example', at(8), undefined)).toBe(true);
      expect(await ids({ review: 'held' })).toEqual([]);
      expect(await inbox.statusCounts({})).toMatchObject({ new: 2, held: 0 });
      // "Mine": the leads assigned to me, counted with the same filter.
      await inbox.assign(lead.id, 'huda@globaq.example', 'huda@globaq.example', at(9));
      expect(await inbox.statusCounts({ assignedTo: 'huda@globaq.example' })).toEqual({
        new: 1,
        in_progress: 0,
        answered: 0,
        closed: 0,
        spam: 0,
        held: 0,
      });
      expect(await ids({ assignedTo: 'huda@globaq.example', statuses: ['new', 'in_progress'] })).toEqual([lead.id]);
    });

    test('a database from before the timeline (schema version 8): its notes, last status change and delivered notification move into the timeline in time order', async () => {
      const { stores: migrated, ids } = await fromVersion8();
      opened.push(migrated);
      await migrated.ready;
      expect(
        (await migrated.inbox.timeline(ids.noted)).map((event) => [event.kind, event.detail, event.actor, event.at]),
      ).toEqual([
        ['note', 'Old note: call Sunday <b>x</b>', 'huda@globaq.example', '2026-10-03T09:00:00.000Z'],
        ['status', 'in_progress', 'omar@globaq.example', '2026-10-02T09:00:00.000Z'],
        ['notification', 'sent', undefined, '2026-10-01T08:01:00.000Z'],
      ]);
      expect(await migrated.inbox.lead(ids.noted)).toMatchObject({
        note: 'Old note: call Sunday <b>x</b>',
        status: 'in_progress',
        assignedTo: undefined,
      });
      // A lead nobody worked on has an empty timeline.
      expect(await migrated.inbox.timeline(ids.untouched)).toEqual([]);
      // Notes added after the migration come after it.
      await migrated.inbox.addNote(ids.noted, 'New note', 'huda@globaq.example', at(0));
      expect((await migrated.inbox.timeline(ids.noted)).map((event) => event.detail).slice(0, 2)).toEqual([
        'New note',
        'Old note: call Sunday <b>x</b>',
      ]);
    });
  });
}

describe.skipIf(unavailable !== '')(`PostgreSQL with several instances${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  test('instances starting together migrate once, under the lock', async () => {
    const url = await freshDatabase(postgresUrl);
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: url, max: 2 }));
    try {
      expect(await Promise.all(pools.map((pool) => migratePg(pool)))).toEqual(Array(4).fill(SCHEMA_VERSION));
      const versions = await pools[0]!.query('SELECT count(*)::int AS applied FROM kysely_migration');
      expect(versions.rows).toEqual([{ applied: SCHEMA_VERSION }]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  test('two senders claiming at once never get the same notification; a lapsed claim is taken over', async () => {
    const url = await freshDatabase(postgresUrl);
    const a = openPgDatabase(url, { max: 4 });
    const b = openPgDatabase(url, { max: 4 });
    try {
      await Promise.all([a.ready, b.ready]);
      const ids = await Promise.all(
        Array.from({ length: 40 }, () =>
          a.submissions
            .save({ form: 'contact', fields: contactBody(), receivedAt: at(0), notice: composeLeadNotice })
            .then((saved) => saved.id),
        ),
      );
      const claims = await Promise.all([
        a.outbox.claimDue(at(1), 15),
        b.outbox.claimDue(at(1), 15),
        a.outbox.claimDue(at(1), 15),
        b.outbox.claimDue(at(1), 15),
      ]);
      const claimed = claims.flat().map((entry) => entry.submissionId);
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed.length).toBe(40);
      expect(new Set(claimed)).toEqual(new Set(ids));
      // Nobody sent them; nothing is claimable until the lease lapses, then everything is.
      expect(await b.outbox.claimDue(at(2), 50)).toEqual([]);
      expect(await b.outbox.claimDue(at(4), 50)).toHaveLength(40);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
