/**
 * The outbox's schedule, on a real database and nodemailer against a loopback port where no
 * mail server listens (every send is refused, as when the company's mail server is down), then a
 * real SMTP server on that port (tests/helpers/smtp.ts) once it is back: every kind of mail about
 * a lead (notification, acknowledgement, reply, assignment) is retried alike and sent once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { main } from '../../src/server/cli';
import { composeLeadNotice } from '../../src/server/mail/lead-mail';
import { OutboxWorker, smtpTransport, type OutboxStore } from '../../src/server/mail/outbox';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';
import { openStores, type Stores } from '../../src/server/store/database';
import { contactBody, tempDir } from '../helpers/server';
import { freePort, startSmtp } from '../helpers/smtp';

let dir: string;
let dbPath: string;
let stores: Stores;
let outbox: OutboxStore;

beforeEach(() => {
  dir = tempDir('globaq-outbox-');
  dbPath = path.join(dir, 'submissions.db');
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function lead(receivedAt: Date): Promise<string> {
  const store = openSqliteStore(dbPath);
  const { id } = await store.save({ form: 'contact', fields: contactBody(), receivedAt, notice: composeLeadNotice });
  await store.close();
  return id;
}

async function worker(clock: { now: Date }) {
  const port = await freePort();
  stores = openStores({ dbPath, databaseUrl: undefined, poolMax: 1 });
  outbox = stores.outbox;
  const logged: string[] = [];
  const transport = smtpTransport(`smtp://127.0.0.1:${port}`, false);
  const run = new OutboxWorker({
    store: outbox,
    config: {
      smtpUrl: `smtp://127.0.0.1:${port}`,
      requireTls: false,
      to: ['leads@globaq.example'],
      from: 'web@globaq.example',
      retrySeconds: 30,
      giveUpDays: 3,
    },
    transport,
    now: () => clock.now,
    log: (message) => logged.push(message),
  });
  // The transport is the worker's caller's: closed after the worker has stopped.
  const stop = async () => {
    await run.stop();
    transport.close();
  };
  return { run, stop, logged, port };
}

async function staff(...argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main([...argv, '--db', dbPath], {
    stdout: (t) => (out += t),
    stderr: (t) => (out += t),
    env: {},
    root: dir,
    cwd: dir,
  });
  return { code, out };
}

test('a refused send is retried after 30 s, then 60 s, then 120 s: nothing is sent before its time', async () => {
  const start = new Date('2026-11-23T08:00:00.000Z');
  const id = await lead(start);
  const clock = { now: start };
  const { run, stop, logged } = await worker(clock);
  const entry = async () => (await outbox.list(['pending', 'failed'])).find((e) => e.submissionId === id)!;
  await run.tick();
  expect(await entry()).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: '2026-11-23T08:00:30.000Z' });
  expect((await entry()).lastError).toMatch(/ECONNREFUSED/);
  expect(logged[0]).toContain(`Lead notification ${id} not sent (attempt 1)`);
  clock.now = new Date('2026-11-23T08:00:29.000Z');
  await run.tick();
  expect((await entry()).attempts).toBe(1);
  clock.now = new Date('2026-11-23T08:00:30.000Z');
  await run.tick();
  expect(await entry()).toMatchObject({ attempts: 2, nextAttemptAt: '2026-11-23T08:01:30.000Z' });
  clock.now = new Date('2026-11-23T08:01:30.000Z');
  await run.tick();
  expect(await entry()).toMatchObject({ attempts: 3, nextAttemptAt: '2026-11-23T08:03:30.000Z' });
  await stop();
  await stores.close();
});

test('past LEADS_NOTIFY_GIVE_UP_DAYS it is marked failed, listed for staff, and staff can queue it again', async () => {
  const received = new Date('2026-11-19T08:00:00.000Z');
  const id = await lead(received);
  const clock = { now: new Date('2026-11-22T08:00:00.000Z') };
  const { run, stop, logged } = await worker(clock);
  await run.tick();
  await stop();
  await stores.close();
  expect(logged.join('\n')).toContain(`Lead notification ${id} given up after 1 attempt:`);
  const listed = await staff('outbox');
  expect(listed.code).toBe(0);
  expect(listed.out).toMatch(new RegExp(`failed +${id}  1 attempt, given up  New contact message from Omar Al-Harbi`));
  expect(listed.out).toContain('ECONNREFUSED');

  const retried = await staff('outbox', 'retry', id);
  expect(retried.code).toBe(0);
  expect(retried.out).toContain(`The notification of ${id} is queued`);
  expect((await staff('outbox')).out).toMatch(new RegExp(`pending +${id}`));
  expect((await staff('outbox', 'retry', 'no-such-lead')).code).toBe(1);
});

test('an acknowledgement, a reply and an assignment mail refused are retried like the notification, and sent once the mail server accepts', async () => {
  const start = new Date('2026-11-23T08:00:00.000Z');
  const id = await lead(start);
  const clock = { now: start };
  const { run, stop, logged, port } = await worker(clock);
  const mail = { leadId: id, text: 'Text', html: '<p>Text</p>' };
  const queued = {
    acknowledgement: await outbox.queue(
      { ...mail, kind: 'acknowledgement', recipients: ['omar@acme.example'], subject: 'We received your message' },
      start,
    ),
    reply: await outbox.queue(
      {
        ...mail,
        kind: 'reply',
        recipients: ['omar@acme.example'],
        subject: 'Re: your message',
        replyTo: 'huda@globaq.example',
        actor: 'huda@globaq.example',
      },
      start,
    ),
    assignment: await outbox.queue(
      { ...mail, kind: 'assignment', recipients: ['huda@globaq.example'], subject: 'A lead for you' },
      start,
    ),
  };
  const entries = async () => new Map((await outbox.forLead(id)).map((entry) => [entry.id, entry]));
  // No mail server listening: each is refused, kept and due again in 30 s, like the notification.
  await run.tick();
  for (const [kind, entryId] of Object.entries(queued)) {
    expect((await entries()).get(entryId!), kind).toMatchObject({
      status: 'pending',
      attempts: 1,
      nextAttemptAt: '2026-11-23T08:00:30.000Z',
    });
    expect(logged.join('\n')).toContain(`Lead ${kind} mail ${entryId} not sent (attempt 1)`);
  }
  // The mail server is back on that port: the next tick at their time sends each, once.
  const smtp = await startSmtp(port);
  try {
    clock.now = new Date('2026-11-23T08:00:30.000Z');
    await run.tick();
    const arrived = await smtp.waitFor(4);
    expect(arrived.map((received) => received.parsed.subject).sort()).toEqual(
      [
        'A lead for you',
        'New contact message from Omar Al-Harbi, Eastern Fabrication Co.',
        'Re: your message',
        'We received your message',
      ].sort(),
    );
    for (const entryId of Object.values(queued))
      expect((await entries()).get(entryId!)).toMatchObject({ status: 'sent', attempts: 2 });
    clock.now = new Date('2026-11-23T08:05:00.000Z');
    await run.tick();
    expect(smtp.mails).toHaveLength(4);
  } finally {
    await stop();
    await stores.close();
    await smtp.close();
  }
});
