/**
 * SIGTERM under load, against the built server and a real (slow) SMTP server: no acknowledged
 * lead is lost, the mail being sent when the signal came is finished and marked sent (so a
 * restart does not send it again), and the process exits within its bound; a SIGTERM right after
 * start stops as cleanly.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { contactBody, postJson, startServer, tempDir } from '../helpers/server';
import { startSmtp } from '../helpers/smtp';
import { outboxDelivered } from '../helpers/wait';

let dir: string;

beforeAll(() => {
  dir = tempDir('globaq-stop-');
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test('SIGTERM under load: every acknowledged lead is stored, each is mailed exactly once across a restart, exit 0 within the bound', async () => {
  const slow = { delayMs: 400 };
  const smtp = await startSmtp(0, slow);
  const dbPath = path.join(dir, 'stop.db');
  const env = {
    SMTP_URL: smtp.url,
    LEADS_NOTIFY_TO: 'leads@globaq.example',
    LEADS_NOTIFY_FROM: 'website@globaq.example',
    SHUTDOWN_TIMEOUT_SECONDS: '15',
  };
  try {
    const server = await startServer({ dbPath, env });
    const acknowledged: string[] = [];
    let posting = true;
    const lane = async () => {
      while (posting) {
        try {
          const answer = await postJson(server.baseUrl, '/api/contact', contactBody());
          if (answer.status === 201) acknowledged.push(((await answer.json()) as { id: string }).id);
        } catch {
          // The server stopped taking connections: this post was never acknowledged, nor will a later one be.
          return;
        }
      }
    };
    const lanes = Array.from({ length: 8 }, lane);
    // Under load, with mails being sent (each takes 400 ms to be accepted).
    await smtp.waitFor(3, 20_000);
    const beforeSignal = acknowledged.length;
    await server.stop('SIGTERM');
    posting = false;
    await Promise.all(lanes);
    // Within the bound: past SHUTDOWN_TIMEOUT_SECONDS the server exits 1 without "stop.done".
    expect(server.child.exitCode, server.output().slice(-2000)).toBe(0);
    expect(server.output()).toContain('"event":"stop.done"');
    expect(server.output()).not.toContain('"event":"stop.timeout"');
    expect(beforeSignal).toBeGreaterThan(10);

    const db = new DatabaseSync(dbPath, { readOnly: true });
    const stored = new Set((db.prepare('SELECT id FROM submissions').all() as { id: string }[]).map((row) => row.id));
    const sentBefore = (
      db.prepare("SELECT submission_id FROM notifications WHERE status = 'sent'").all() as { submission_id: string }[]
    ).map((row) => row.submission_id);
    db.close();
    const lost = acknowledged.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    // Every mail the SMTP server accepted before the exit is marked sent: none is sent again.
    const mailedBefore = smtp.mails.map((mail) => mail.parsed.messageId);
    expect(new Set(mailedBefore).size).toBe(mailedBefore.length);
    expect(sentBefore.length).toBe(mailedBefore.length);

    // The restart sends the rest, each once (quickly now).
    slow.delayMs = 0;
    const again = await startServer({ dbPath, env });
    try {
      await smtp.waitFor(stored.size, 60_000);
      // Every mail sent; then stopped (its outbox round ends first): nothing more can arrive.
      await outboxDelivered(dbPath);
    } finally {
      await again.stop();
    }
    const ids = smtp.mails.map((mail) => mail.parsed.messageId ?? '');
    const twice = ids.filter((id, index) => ids.indexOf(id) !== index);
    expect(twice).toEqual([]);
    expect(ids.length).toBe(stored.size);
    expect(new Set(ids)).toEqual(new Set([...stored].map((id) => `<lead.${id}@globaq.example>`)));
  } finally {
    await smtp.close();
  }
}, 120_000);

test('SIGTERM as soon as the address is printed: a clean stop, not the default death', async () => {
  // Whoever waits for the listening line (a script, systemd, a test) may stop the server at once.
  const server = await startServer({ dbPath: path.join(dir, 'at-once.db') });
  await server.stop('SIGTERM');
  expect(server.child.exitCode, server.output()).toBe(0);
  expect(server.output()).toContain('"event":"stop.done"');
});
