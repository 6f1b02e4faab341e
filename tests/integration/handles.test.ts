/**
 * One set of database handles per process (src/server/ops/app.ts): once the start-up check, the
 * receiver, the staff inbox, the readiness probe, the metrics, the outbox worker and the sweeper
 * have all run, the built server holds the SQLite file open once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { contactBody, postJson, startServer, tempDir, type RunningServer } from '../helpers/server';
import { freePort } from '../helpers/smtp';
import { pendingMails, until } from '../helpers/wait';

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = tempDir('globaq-handles-');
  server = await startServer({
    dbPath: path.join(dir, 'handles.db'),
    env: {
      // Nothing listens: the outbox worker runs and keeps every notification pending.
      SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
      LEADS_NOTIFY_TO: 'leads@globaq.example',
      LEADS_NOTIFY_FROM: 'website@globaq.example',
    },
  });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The server's open file descriptors on `file`. */
function openOn(file: string): number {
  const fdDir = `/proc/${server.child.pid}/fd`;
  return fs.readdirSync(fdDir).filter((fd) => {
    try {
      return fs.readlinkSync(path.join(fdDir, fd)) === file;
    } catch {
      return false;
    }
  }).length;
}

test.runIf(process.platform === 'linux')('the server opens its SQLite file once, whatever has used it', async () => {
  expect((await postJson(server.baseUrl, '/api/contact', contactBody())).status).toBe(201);
  expect((await fetch(`${server.baseUrl}/api/challenge`)).status).toBe(200);
  expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
  expect(await (await fetch(`${server.baseUrl}/metrics`)).text()).toMatch(/^globaq_notifications_pending 1$/m);
  const signIn = await fetch(`${server.baseUrl}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin },
    body: new URLSearchParams({ email: 'nobody@globaq.example', password: 'wrong' }).toString(),
  });
  expect(signIn.status).toBe(401);
  // Once the outbox worker has tried the notification (and found nothing listening):
  await until(() => pendingMails(server.dbPath)[0]!.attempts >= 1);
  const file = fs.realpathSync(server.dbPath);
  expect(openOn(file)).toBe(1);
  expect(openOn(`${file}-wal`)).toBe(1);
});
