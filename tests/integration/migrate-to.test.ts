/**
 * `npm run submissions -- migrate-to DATABASE_URL`: a SQLite database with leads,
 * a worked lead (status, notes, a correction, an assignment) sent in Arabic, a notification, a CV file, a staff account and audit entries,
 * moved into an empty PostgreSQL database by the staff command itself; then read back through the
 * PostgreSQL stores exactly as they were. A second run, or a full target, is refused and moves
 * nothing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { main } from '../../src/server/cli';
import { openStores, type Stores } from '../../src/server/store/database';
import { composeLeadNotice } from '../../src/server/mail/lead-mail';
import { freshDatabase } from '../helpers/postgres';
import { ROOT } from '../helpers/frontmatter';
import { contactBody, partnerBody, tempDir } from '../helpers/server';

const postgresUrl = inject('postgresUrl');
const unavailable = inject('postgresUnavailable');
const PDF = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');

async function run(dir: string, ...argv: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = '';
  const code = await main(argv, {
    stdout: () => undefined,
    stderr: (text) => (stderr += text),
    env: { SUBMISSIONS_DB: path.join(dir, 'submissions.db') },
    root: dir,
    cwd: dir,
  });
  return { code, stderr };
}

describe.skipIf(unavailable !== '')(`migrate-to${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let dir: string;
  let sqlite: Stores;
  const ids: Record<string, string> = {};
  let secret = '';

  beforeAll(async () => {
    dir = tempDir('globaq-migrate-');
    sqlite = openStores({ dbPath: path.join(dir, 'submissions.db'), databaseUrl: undefined, poolMax: 1 });
    ids['contact'] = (
      await sqlite.submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Sara' }),
        language: 'ar',
        receivedAt: new Date('2026-10-01T08:00:00Z'),
        notice: composeLeadNotice,
      })
    ).id;
    ids['partner'] = (
      await sqlite.submissions.save({
        form: 'partner',
        fields: partnerBody(),
        receivedAt: new Date('2026-10-02T08:00:00Z'),
        attachments: [{ name: 'سيرة.pdf', type: 'application/pdf', bytes: PDF }],
      })
    ).id;
    ids['bot'] = (await sqlite.submissions.save({ form: 'contact', fields: contactBody(), language: 'ar', bot: true })).id;
    ids['held'] = (
      await sqlite.submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Held' }),
        receivedAt: new Date('2026-10-04T08:00:00Z'),
        held: 'tooFast',
        challenge: { id: 'c'.repeat(64), expiresAt: new Date('2099-01-01T00:00:00Z') },
        notice: composeLeadNotice,
      })
    ).id;
    ids['released'] = (
      await sqlite.submissions.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Released' }),
        receivedAt: new Date('2026-10-05T08:00:00Z'),
        held: 'tooFast',
      })
    ).id;
    await sqlite.held.release(ids['released']!, 'huda@globaq.example', new Date('2026-10-06T08:00:00Z'), undefined);
    secret = await sqlite.held.secret('altcha-hmac-key', new Date('2026-09-01T08:00:00Z'));
    await sqlite.inbox.setStatus(ids['contact']!, 'answered', 'huda@globaq.example', new Date('2026-10-03T08:00:00Z'));
    const first = await sqlite.inbox.addNote(
      ids['contact']!,
      'Proposal sent Sunday.',
      'huda@globaq.example',
      new Date('2026-10-03T09:00:00Z'),
    );
    await sqlite.inbox.addNote(ids['contact']!, 'Proposal sent.', 'huda@globaq.example', new Date('2026-10-03T09:05:00Z'), first);
    await sqlite.staff.add('huda@globaq.example', 'scrypt$65536$8$2$c2FsdA==$aGFzaA==', new Date('2026-09-01T08:00:00Z'));
    // Two-step sign-in moves with the account: its sealed secret, last step and recovery codes.
    await sqlite.staff.enrolTwoStep(
      'huda@globaq.example',
      'v1.sealed',
      59_000_000,
      ['hash-a', 'hash-b'],
      new Date('2026-09-02T08:00:00Z'),
    );
    await sqlite.staff.useRecoveryCode('huda@globaq.example', 'hash-a', new Date('2026-09-03T08:00:00Z'));
    await sqlite.inbox.assign(ids['contact']!, 'huda@globaq.example', 'huda@globaq.example', new Date('2026-10-03T09:10:00Z'));
    await sqlite.inbox.setFollowUp(ids['contact']!, '2026-10-20', 'huda@globaq.example', new Date('2026-10-03T09:20:00Z'));
    await sqlite.inbox.claimStaffDigest('2026-10-04', 'huda@globaq.example', new Date('2026-10-04T04:00:00Z'));
    await sqlite.inbox.refusal(
      { account: 'huda@globaq.example', network: '203.0.113.0/24', reason: 'busy' },
      new Date('2026-10-04T05:00:00Z'),
    );
    await sqlite.inbox.audit('huda@globaq.example', 'set status', ids['contact'], 'Answered', new Date('2026-10-03T08:00:00Z'));
    await sqlite.close();
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('moves everything into an empty PostgreSQL database, as it was', async () => {
    const url = await freshDatabase(postgresUrl);
    const { code, stderr } = await run(dir, 'migrate-to', url);
    expect(stderr).toMatch(
      /^Moved from .*submissions\.db to postgres:\/\/globaq@127\.0\.0\.1:\d+\/t_\w+: 4 leads, 1 caught by the honeypot, 1 notification, 1 file, 1 staff account, 2 audit entries\./,
    );
    expect(code).toBe(0);

    const pg = openStores({ dbPath: '', databaseUrl: url, poolMax: 2 });
    try {
      expect((await pg.submissions.list()).map((lead) => lead.id)).toEqual([
        ids['released'],
        ids['held'],
        ids['partner'],
        ids['contact'],
      ]);
      // The answer and follow-up times, and a released lead's wait counted from its release.
      expect(await pg.inbox.lead(ids['released']!)).toMatchObject({ waitingSince: '2026-10-06T08:00:00.000Z' });
      expect(await pg.inbox.firstAnswers()).toContainEqual({
        waitingSince: '2026-10-01T08:00:00.000Z',
        firstAnsweredAt: '2026-10-03T08:00:00.000Z',
      });
      // Today's morning digest stays sent once; the refused sign-ins stay on their page.
      expect(await pg.inbox.claimStaffDigest('2026-10-04', 'huda@globaq.example', new Date())).toBe(false);
      expect((await pg.inbox.refusals({ limit: 10 })).entries).toEqual([
        { at: '2026-10-04T05:00:00.000Z', account: 'huda@globaq.example', network: '203.0.113.0/24', reason: 'busy' },
      ]);
      // Held as it was, with its reason and no notification; the kept key and the used challenge came along.
      expect((await pg.held.list('held', 10)).map((lead) => [lead.id, lead.reason])).toEqual([[ids['held'], 'tooFast']]);
      expect(await pg.held.secret('altcha-hmac-key', new Date())).toBe(secret);
      expect(await pg.held.forgetChallenges(new Date('2098-01-01T00:00:00Z'))).toBe(0);
      expect(await pg.held.forgetChallenges(new Date('2099-06-01T00:00:00Z'))).toBe(1);
      expect(await pg.submissions.count({ bots: true })).toBe(1);
      expect((await pg.submissions.list({ bots: true })).map((bot) => [bot.id, bot.language])).toEqual([[ids['bot'], 'ar']]);
      expect((await pg.inbox.lead(ids['partner']!))?.language).toBe('en');
      expect(await pg.inbox.lead(ids['contact']!)).toMatchObject({
        receivedAt: '2026-10-01T08:00:00.000Z',
        language: 'ar',
        fields: contactBody({ firstName: 'Sara' }),
        status: 'answered',
        statusBy: 'huda@globaq.example',
        note: 'Proposal sent.',
        assignedTo: 'huda@globaq.example',
        followUpOn: '2026-10-20',
        notification: { status: 'pending', attempts: 0 },
      });
      // The timeline as it was, its correction still naming the note it corrects.
      const timeline = await pg.inbox.timeline(ids['contact']!);
      expect(timeline.map((event) => [event.kind, event.detail, event.at])).toEqual([
        ['follow_up', '2026-10-20', '2026-10-03T09:20:00.000Z'],
        ['assigned', 'huda@globaq.example', '2026-10-03T09:10:00.000Z'],
        ['note', 'Proposal sent.', '2026-10-03T09:05:00.000Z'],
        ['note', 'Proposal sent Sunday.', '2026-10-03T09:00:00.000Z'],
        ['status', 'answered', '2026-10-03T08:00:00.000Z'],
      ]);
      expect(timeline[2]!.corrects).toBe(timeline[3]!.seq);
      expect(timeline[3]!.correctedBy).toBe(timeline[2]!.seq);
      const [file] = await pg.submissions.attachments(ids['partner']!);
      expect(file?.name).toBe('سيرة.pdf');
      expect((await pg.submissions.attachment(file!.id))?.bytes).toEqual(PDF);
      expect(await pg.staff.passwordHash('huda@globaq.example')).toBe('scrypt$65536$8$2$c2FsdA==$aGFzaA==');
      expect(await pg.staff.twoStep('huda@globaq.example')).toEqual({
        sealedSecret: 'v1.sealed',
        enrolledAt: '2026-09-02T08:00:00.000Z',
        lastStep: 59_000_000,
        recoveryLeft: 1,
      });
      expect(await pg.staff.useRecoveryCode('huda@globaq.example', 'hash-a', new Date())).toBeUndefined();
      expect((await pg.inbox.auditLog({ limit: 10 })).entries.map((entry) => entry.action)).toEqual([
        'moved from SQLite',
        'set status',
        'released held lead',
      ]);
    } finally {
      await pg.close();
    }

    // A second run finds the target full and moves nothing.
    const again = await run(dir, 'migrate-to', url);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds leads or staff accounts: migrate-to only fills an empty one.');
    expect(again.stderr).not.toContain('secret');
  }, 60_000);

  test('through the real command, the move is recorded under the person behind sudo', async () => {
    const own = tempDir('globaq-migrate-actor-');
    try {
      const file = path.join(own, 'submissions.db');
      const stores = openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 });
      await stores.submissions.save({ form: 'contact', fields: contactBody(), receivedAt: new Date() });
      await stores.close();
      const url = await freshDatabase(postgresUrl);
      const result = spawnSync('npm', ['run', '--silent', 'submissions', '--', 'migrate-to', url, '--db', file], {
        cwd: ROOT,
        env: { ...process.env, SUDO_USER: 'amal' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status, result.stderr).toBe(0);
      const pg = openStores({ dbPath: '', databaseUrl: url, poolMax: 1 });
      try {
        const [newest] = (await pg.inbox.auditLog({ limit: 1 })).entries;
        expect(newest).toMatchObject({ actor: 'amal (staff command)', action: 'moved from SQLite' });
      } finally {
        await pg.close();
      }
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  }, 90_000);

  test('a URL that is not PostgreSQL is a usage error', async () => {
    const { code, stderr } = await run(dir, 'migrate-to', 'mysql://root:secret@localhost/db');
    expect(code).toBe(2);
    expect(stderr).toContain('must start with postgres://');
    expect(stderr).not.toContain('secret');
  });
});
