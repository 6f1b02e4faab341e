/**
 * Two receiver instances on one PostgreSQL, as real server processes: leads posted to
 * both are each stored once, each lead's notification is sent once (by one instance), a staff
 * member signed in on one is signed in on the other, and an instance killed with `kill -9` in
 * the middle of the load loses nothing it acknowledged.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import pg from 'pg';
import { hashPassword } from '../../src/server/inbox/staff';
import { freshDatabase } from '../helpers/postgres';
import { contactBody, postJson, startServer, tempDir, type RunningServer } from '../helpers/server';
import { startSmtp, type MailSink } from '../helpers/smtp';
import { until } from '../helpers/wait';

const postgresUrl = inject('postgresUrl');
const unavailable = inject('postgresUnavailable');

describe.skipIf(unavailable !== '')(`two instances on one PostgreSQL${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let url: string;
  let smtp: MailSink;
  const servers: RunningServer[] = [];

  async function start(): Promise<RunningServer> {
    const server = await startServer({
      dbPath: tempDir('globaq-unused-'),
      env: {
        DATABASE_URL: url,
        DATABASE_POOL_MAX: '8',
        SMTP_URL: smtp.url,
        LEADS_NOTIFY_TO: 'leads@globaq.example',
        LEADS_NOTIFY_FROM: 'website@globaq.example',
      },
    });
    servers.push(server);
    return server;
  }

  async function query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    url = await freshDatabase(postgresUrl);
    smtp = await startSmtp();
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop('SIGKILL')));
    await smtp?.close();
  });

  test('200 leads split across both: 200 stored once each, 200 notifications, none sent twice', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a!.output()).toContain('Submissions are stored in PostgreSQL at postgres://globaq@127.0.0.1');
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        const server = i % 2 === 0 ? a! : b!;
        return postJson(server.baseUrl, '/api/contact', contactBody({ firstName: `Lead${i}` }), { Origin: server.origin });
      }),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(200).fill(201));
    const ids = await Promise.all(answers.map(async (answer) => ((await answer.json()) as { id: string }).id));
    const stored = await query<{ id: string }>('SELECT id FROM submissions');
    expect(stored.map((row) => row.id).sort()).toEqual([...ids].sort());

    const mails = await smtp.waitFor(200, 60_000);
    // Every notification marked sent, then both instances stopped (SIGTERM: a send under way ends
    // first, and no round starts after): a duplicate would be at the mail server by now.
    await until(async () =>
      expect(await query<{ n: string }>("SELECT count(*) AS n FROM notifications WHERE status <> 'sent'")).toEqual([{ n: '0' }]),
    );
    await Promise.all([a!.stop(), b!.stop()]);
    const leadsMailed = smtp.mails.map((mail) => String(mail.parsed.headers.get('x-globaq-lead') ?? '').split(' ')[1]);
    expect(smtp.mails.length).toBe(200);
    expect(new Set(leadsMailed)).toEqual(new Set(ids));
    expect(mails.every((mail) => mail.recipients.includes('leads@globaq.example'))).toBe(true);
    expect(await query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM notifications GROUP BY status')).toEqual(
      [{ status: 'sent', n: '200' }],
    );
  }, 120_000);

  test('signed in on one instance is signed in on the other', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    await query(
      "INSERT INTO staff (email, password_hash, created_at, password_changed_at) VALUES ('huda@globaq.example', $1, now(), now())",
      [await hashPassword('a long enough password')],
    );
    const login = await fetch(`${a!.baseUrl}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: a!.origin },
      body: new URLSearchParams({ email: 'huda@globaq.example', password: 'a long enough password' }).toString(),
    });
    expect(login.status).toBe(303);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const onB = await fetch(`${b!.baseUrl}/admin`, { headers: { Cookie: cookie }, redirect: 'manual' });
    expect(onB.status).toBe(200);
    expect(await onB.text()).toContain('200 leads');
  }, 60_000);

  test('an instance killed with kill -9 mid-load loses nothing it acknowledged', async () => {
    const [a, b] = servers.slice(-2);
    const before = Number((await query<{ n: string }>('SELECT count(*) AS n FROM submissions'))[0]!.n);
    const acknowledged: string[] = [];
    const post = async (server: RunningServer, i: number) => {
      try {
        const answer = await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: `Crash${i}` }), {
          Origin: server.origin,
        });
        if (answer.status === 201) acknowledged.push(((await answer.json()) as { id: string }).id);
      } catch {
        // The killed instance's connections break: those leads were never acknowledged.
      }
    };
    const load = Array.from({ length: 300 }, (_, i) => post(i % 2 === 0 ? a! : b!, i));
    // Mid-load: the first leads acknowledged, most still on their way.
    await until(() => acknowledged.length >= 10, 5);
    await a!.stop('SIGKILL');
    await Promise.all(load);
    const rows = await query<{ id: string }>('SELECT id FROM submissions WHERE fields->>$1 LIKE $2', ['firstName', 'Crash%']);
    const stored = new Set(rows.map((row) => row.id));
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const id of acknowledged) expect(stored.has(id), id).toBe(true);
    expect(Number((await query<{ n: string }>('SELECT count(*) AS n FROM submissions'))[0]!.n)).toBe(before + stored.size);
    // The survivor sends every notification, the killed one's included: those the dead instance
    // had claimed wait for their lease (two minutes), cut short here as if it had passed.
    await query("UPDATE notifications SET claimed_until = now() - interval '1 second' WHERE status = 'pending'");
    await smtp.waitFor(200 + stored.size, 60_000);
    // A mail the killed instance handed to the mail server just before it died, without marking
    // it sent, is sent again by the survivor (at least once, never lost): the mail count can be
    // reached while the last notification is still on its way, so wait for every row to be sent.
    await expect
      .poll(async () => (await query<{ n: string }>("SELECT count(*) AS n FROM notifications WHERE status <> 'sent'"))[0]!.n, {
        timeout: 60_000,
      })
      .toBe('0');
  }, 120_000);
});
