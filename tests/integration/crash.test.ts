/**
 * Crash test: the server is killed with SIGKILL in the middle of a stream of submissions,
 * three times over, and started again on the same database file. Every submission that was
 * answered 201 must be there, and SQLite's integrity check must pass.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, test } from 'vitest';
import { contactBody, postJson, startServer, tempDir, type RunningServer } from '../helpers/server';
import { until } from '../helpers/wait';

const dir = tempDir('globaq-crash-');
const dbPath = path.join(dir, 'submissions.db');
let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sends submissions from `senders` loops until the server stops answering; returns the acknowledged ids. */
async function stream(
  target: RunningServer,
  round: number,
  senders: number,
  acknowledged: Set<string>,
): Promise<{ attempts: number; refused: number }> {
  let attempts = 0;
  let refused = 0;
  let alive = true;
  await Promise.all(
    Array.from({ length: senders }, async (_, sender) => {
      // Bounded: a sender stops at its first failed request, or after 2,000 submissions.
      for (let n = 0; alive && n < 2000; n++) {
        attempts += 1;
        try {
          const response = await postJson(
            target.baseUrl,
            '/api/contact',
            contactBody({ lastName: `round ${round} sender ${sender} #${n}` }),
          );
          if (response.status === 201) acknowledged.add(((await response.json()) as { id: string }).id);
          else refused += 1;
        } catch {
          alive = false;
        }
      }
    }),
  );
  return { attempts, refused };
}

test('every submission answered 201 survives SIGKILL mid-stream, and the database stays whole', async () => {
  const acknowledged = new Set<string>();
  for (let round = 1; round <= 3; round++) {
    const current = await startServer({ dbPath });
    server = current;
    const before = acknowledged.size;
    const sending = stream(current, round, 8, acknowledged);
    // Kill once the stream is well under way: after 150 acknowledgements.
    await until(() => acknowledged.size - before >= 150, 5);
    await current.stop('SIGKILL');
    expect(current.child.signalCode).toBe('SIGKILL');
    const { refused } = await sending;
    expect(refused).toBe(0);
    expect(acknowledged.size - before).toBeGreaterThan(0);
  }

  // Started again: the server recovers the write-ahead log and serves on.
  const restarted = await startServer({ dbPath });
  server = restarted;
  const after = await postJson(restarted.baseUrl, '/api/contact', contactBody({ lastName: 'after the crashes' }));
  expect(after.status).toBe(201);
  const afterId = ((await after.json()) as { id: string }).id;

  const db = new DatabaseSync(dbPath, { readOnly: true });
  try {
    expect(db.prepare('PRAGMA integrity_check').all()).toEqual([{ integrity_check: 'ok' }]);
    const stored = new Set(
      db
        .prepare('SELECT id FROM submissions')
        .all()
        .map((row) => String(row['id'])),
    );
    const missing = [...acknowledged].filter((id) => !stored.has(id));
    expect(missing).toEqual([]);
    expect(stored.has(afterId)).toBe(true);
    // Stored but never acknowledged (the answer was cut off by the kill): at most one per sender per round.
    expect(stored.size - acknowledged.size - 1).toBeLessThanOrEqual(3 * 8);
    // Every stored row is whole: valid JSON with the fields it was sent with.
    const broken = db
      .prepare("SELECT count(*) AS n FROM submissions WHERE json_extract(fields, '$.email') IS NOT 'omar@example.com'")
      .get();
    expect(broken).toEqual({ n: 0 });
  } finally {
    db.close();
  }
  await restarted.stop();
  // Four server starts and 450 posts or more: bounded by the work, not by the machine's speed.
}, 240_000);
