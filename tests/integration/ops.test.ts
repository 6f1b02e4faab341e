/**
 * Running the site like a service, against the built server (no mocks): the health probes, the
 * metrics and who may read them, the structured log with its request ids, and the request id
 * on the problem page.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { asForm, contactBody, postForm, postJson, startServer, tempDir, type RunningServer } from '../helpers/server';
import { freePort } from '../helpers/smtp';
import { ROOT } from '../helpers/frontmatter';
import { until } from '../helpers/wait';

const TOKEN = 'ops-token-for-the-tests-0123456789';
const STRANGER = { 'X-Forwarded-For': '203.0.113.9' };

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = tempDir('globaq-ops-');
  server = await startServer({ dbPath: path.join(dir, 'ops.db'), env: { OPS_TOKEN: TOKEN } });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every JSON line the server wrote on standard output. */
function logLines(of: RunningServer): Record<string, unknown>[] {
  return of
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** What `read` finds once it finds something (the server writes its log line after the answer). */
function eventually<T>(read: () => T | undefined): Promise<T> {
  return until(() => {
    const value = read();
    if (value === undefined) throw new Error('not in the log yet');
    return value;
  });
}

describe('health', () => {
  test('/healthz answers ok, uncached, to anyone', async () => {
    for (const headers of [{}, STRANGER]) {
      const answer = await fetch(`${server.baseUrl}/healthz`, { headers });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toBe('ok\n');
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }
  });

  test('/readyz: ready; the checks are shown to loopback only, never to a stranger', async () => {
    const local = await fetch(`${server.baseUrl}/readyz`);
    expect(local.status).toBe(200);
    const body = (await local.json()) as { status: string; checks: Record<string, { ok: boolean }> };
    expect(body.status).toBe('ready');
    expect(Object.keys(body.checks).sort()).toEqual(['files', 'held', 'migrations', 'notifications', 'signIn', 'store']);
    const stranger = await fetch(`${server.baseUrl}/readyz`, { headers: STRANGER });
    expect(stranger.status).toBe(200);
    expect(await stranger.json()).toEqual({ status: 'ready' });
  });

  test('without STAFF_TOTP_KEY the start log warns that the inbox is password-only, and /readyz says so (still ready); with the key and required, both say two-step', async () => {
    const local = (await (await fetch(`${server.baseUrl}/readyz`)).json()) as {
      checks: Record<string, { ok: boolean; detail: string }>;
    };
    expect(local.checks['signIn']).toEqual({
      ok: true,
      detail: expect.stringMatching(/^password only: STAFF_TOTP_KEY is not set/),
    });
    const warning = logLines(server).find((line) => String(line['msg']).startsWith('Staff inbox sign-in:'));
    expect(warning).toMatchObject({ level: 'warn', msg: expect.stringMatching(/password only/) });
    const guarded = await startServer({
      dbPath: path.join(dir, 'two-step.db'),
      env: { STAFF_TOTP_KEY: 'ab'.repeat(32), STAFF_TWO_STEP: 'required' },
    });
    try {
      const checks = ((await (await fetch(`${guarded.baseUrl}/readyz`)).json()) as typeof local).checks;
      expect(checks['signIn']).toEqual({ ok: true, detail: expect.stringMatching(/^two-step sign-in required/) });
      const line = logLines(guarded).find((entry) => String(entry['msg']).startsWith('Staff inbox sign-in:'));
      expect(line).toMatchObject({ level: 'info', msg: expect.stringMatching(/two-step sign-in required/) });
      expect(guarded.output()).not.toMatch(/password only/);
    } finally {
      await guarded.stop();
    }
  });

  test('the probes are in no sitemap', () => {
    const client = path.join(ROOT, 'dist', 'client');
    const maps = fs.readdirSync(client).filter((name) => name.startsWith('sitemap'));
    expect(maps.length).toBeGreaterThan(0);
    for (const name of maps) expect(fs.readFileSync(path.join(client, name), 'utf8')).not.toMatch(/healthz|readyz|metrics/);
  });

  test('/readyz fails, naming the check, when the schema is not current, the files folder cannot be written or a notification waits too long', async () => {
    const smtpPort = await freePort(); // nothing listens: every notification stays pending
    const dbPath = path.join(dir, 'failing.db');
    const failing = await startServer({
      dbPath,
      env: {
        OPS_TOKEN: TOKEN,
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        LEADS_NOTIFY_TO: 'leads@globaq.example',
        LEADS_NOTIFY_FROM: 'website@globaq.example',
      },
    });
    try {
      expect((await postJson(failing.baseUrl, '/api/contact', contactBody())).status).toBe(201);
      expect((await fetch(`${failing.baseUrl}/readyz`)).status).toBe(200);

      const db = new DatabaseSync(dbPath);
      db.exec("UPDATE notifications SET created_at = '2020-01-01T00:00:00.000Z'");
      let answer = await fetch(`${failing.baseUrl}/readyz`);
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { failing: string[] }).failing).toEqual(['notifications']);
      // A stranger learns nothing but that it is unavailable; the token opens the details.
      answer = await fetch(`${failing.baseUrl}/readyz`, { headers: STRANGER });
      expect(answer.status).toBe(503);
      expect(await answer.json()).toEqual({ status: 'unavailable' });
      answer = await fetch(`${failing.baseUrl}/readyz`, { headers: { ...STRANGER, Authorization: `Bearer ${TOKEN}` } });
      expect(((await answer.json()) as { failing: string[] }).failing).toEqual(['notifications']);
      const scraped = await (await fetch(`${failing.baseUrl}/metrics`)).text();
      expect(scraped).toMatch(/^globaq_ready 0$/m);
      expect(scraped).toMatch(/^globaq_ready_check\{check="notifications"\} 0$/m);
      expect(scraped).toMatch(/^globaq_notifications_pending 1$/m);
      expect(Number(/^globaq_notifications_oldest_pending_age_seconds (\S+)$/m.exec(scraped)?.[1])).toBeGreaterThan(86_400);
      db.exec("UPDATE notifications SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')");

      // The last migration unrecorded: the schema is one version behind the code.
      const last = db.prepare('SELECT name, timestamp FROM kysely_migration ORDER BY name DESC LIMIT 1').get() as {
        name: string;
        timestamp: string;
      };
      db.prepare('DELETE FROM kysely_migration WHERE name = ?').run(last.name);
      answer = await fetch(`${failing.baseUrl}/readyz`);
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { failing: string[] }).failing).toEqual(['migrations']);
      db.prepare('INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)').run(last.name, last.timestamp);
      db.close();

      const files = path.join(dir, 'failing-files');
      fs.rmSync(files, { recursive: true, force: true });
      fs.writeFileSync(files, 'not a folder');
      answer = await fetch(`${failing.baseUrl}/readyz`);
      expect(answer.status).toBe(503);
      expect(((await answer.json()) as { failing: string[] }).failing).toEqual(['files']);
      fs.rmSync(files);
      expect((await fetch(`${failing.baseUrl}/readyz`)).status).toBe(200);
    } finally {
      await failing.stop('SIGKILL');
    }
  });
});

describe('metrics', () => {
  test('loopback and the bearer token read them; a stranger or a wrong token gets 404', async () => {
    expect((await fetch(`${server.baseUrl}/metrics`)).status).toBe(200);
    expect((await fetch(`${server.baseUrl}/metrics`, { headers: STRANGER })).status).toBe(404);
    expect(
      (
        await fetch(`${server.baseUrl}/metrics`, {
          headers: { ...STRANGER, Authorization: 'Bearer wrong-token-wrong-token-wrong' },
        })
      ).status,
    ).toBe(404);
    const withToken = await fetch(`${server.baseUrl}/metrics`, { headers: { ...STRANGER, Authorization: `Bearer ${TOKEN}` } });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('content-type')).toContain('text/plain');
  });

  test('leads stored by form and language, refused by reason, request durations by route kind, the store queue', async () => {
    expect((await postJson(server.baseUrl, '/api/contact?lang=ar', contactBody())).status).toBe(201);
    expect((await postJson(server.baseUrl, '/api/contact', contactBody({ email: 'not an address' }))).status).toBe(400);
    expect((await postForm(server.baseUrl, '/api/contact', asForm(contactBody({ email: '' })))).status).toBe(400);
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(text).toMatch(/^globaq_leads_stored_total\{form="contact",language="ar"\} 1$/m);
    expect(text).toMatch(/^globaq_leads_refused_total\{form="contact",reason="invalidFields"\} 2$/m);
    expect(text).toMatch(/^globaq_http_request_duration_seconds_count\{kind="api",status="2xx"\} [1-9]/m);
    expect(text).toMatch(/^globaq_http_request_duration_seconds_count\{kind="health",status="2xx"\} [1-9]/m);
    expect(text).toMatch(/^globaq_store_waiting 0$/m);
    expect(text).toMatch(/^globaq_notifications_pending 0$/m);
    expect(text).toMatch(/^globaq_notifications_oldest_pending_age_seconds 0$/m);
    expect(text).toMatch(/^globaq_signin_failures_total 0$/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^globaq_ready 1$/m);
    expect(text).toMatch(/^globaq_ready_check\{check="store"\} 1$/m);
  });

  test('a refused staff sign-in is counted (after the test above, which reads 0)', async () => {
    const refused = await fetch(`${server.baseUrl}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin },
      body: new URLSearchParams({ email: 'nobody@globaq.example', password: 'not the password' }),
    });
    expect(refused.status).toBeLessThan(500);
    const text = await (await fetch(`${server.baseUrl}/metrics`)).text();
    expect(text).toMatch(/^globaq_signin_failures_total 1$/m);
  });
});

describe('structured logs', () => {
  test('one JSON line per request with its id, echoed in the header; one per stored lead by id; no visitor text', async () => {
    const marker = 'Zubair-unique-visitor-text-7731';
    const answer = await postJson(
      server.baseUrl,
      '/api/contact',
      contactBody({ lastName: marker, message: `Please call ${marker}` }),
    );
    expect(answer.status).toBe(201);
    const requestId = answer.headers.get('x-request-id');
    expect(requestId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const { id } = (await answer.json()) as { id: string };
    const line = await eventually(() =>
      logLines(server).find((entry) => entry['event'] === 'request' && entry['requestId'] === requestId),
    );
    expect(line).toMatchObject({ route: 'api', path: '/api/contact', status: 201, method: 'POST' });
    expect(typeof line['durationMs']).toBe('number');
    const stored = logLines(server).find((entry) => entry['event'] === 'lead.stored' && entry['leadId'] === id);
    expect(stored).toMatchObject({ form: 'contact', language: 'en', requestId });
    expect(server.output()).not.toContain(marker);
    expect(server.output()).not.toContain('omar@example.com');
  });

  test('a page request gets its own id; a path nobody built is not logged as written', async () => {
    const page = await fetch(`${server.baseUrl}/AboutUs`);
    const pageId = page.headers.get('x-request-id');
    const other = await fetch(`${server.baseUrl}/no-such-page-secret-text`);
    const otherId = other.headers.get('x-request-id');
    expect(pageId).not.toBe(otherId);
    const lines = await eventually(() => {
      const found = logLines(server).filter((entry) => entry['requestId'] === pageId || entry['requestId'] === otherId);
      return found.length === 2 ? found : undefined;
    });
    expect(lines.find((entry) => entry['requestId'] === pageId)).toMatchObject({ route: 'page', path: '/AboutUs', status: 200 });
    expect(server.output()).not.toContain('no-such-page-secret-text');
  });

  test("an inbox path is logged with its lead's id as :id, whatever the path's other segments", async () => {
    const id = '0b9f6f2e-1c3d-4e5f-8a7b-9c0d1e2f3a4b';
    const answer = await fetch(`${server.baseUrl}/admin/leads/${id}`, { redirect: 'manual' });
    const requestId = answer.headers.get('x-request-id');
    const line = await eventually(() =>
      logLines(server).find((entry) => entry['event'] === 'request' && entry['requestId'] === requestId),
    );
    expect(line).toMatchObject({ route: 'admin', path: '/admin/leads/:id' });
    expect(server.output()).not.toContain(id);
  });

  test('LOG_LEVEL=silent keeps the log quiet, but the address is still printed for whoever waits for it', async () => {
    const quiet = await startServer({ dbPath: path.join(dir, 'quiet.db'), env: { LOG_LEVEL: 'silent' } });
    try {
      expect((await fetch(`${quiet.baseUrl}/AboutUs`)).status).toBe(200);
      // Stopped, and everything it wrote read: the request's line, had it been written, is in it.
      await quiet.stop();
      expect(quiet.child.exitCode).toBe(0);
      expect(logLines(quiet).map((entry) => entry['event'])).toEqual(['start.listening']);
    } finally {
      await quiet.stop();
    }
  });

  test('the problem page shows the request id a visitor can quote', async () => {
    const answer = await postForm(server.baseUrl, '/api/contact', asForm(contactBody({ email: '' })));
    expect(answer.status).toBe(400);
    const requestId = answer.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    const html = await answer.text();
    expect(/<code[^>]*data-request-id[^>]*>([^<]+)<\/code>/.exec(html)?.[1]).toBe(requestId);
  });
});
