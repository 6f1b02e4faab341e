/**
 * /metrics on the built server exports the time to each lead's first answer, in Riyadh working
 * seconds, read from the store at scrape (so every server reports the same), as one histogram
 * with no per-lead label and none of the visitor's text; a lead answered later shows at the next
 * scrape.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStores } from '../../src/server/store/database';
import { contactBody, startServer, tempDir, type RunningServer } from '../helpers/server';

let dir: string;
let server: RunningServer;
let dbPath: string;
const ids: string[] = [];
/** Monday 23 November 2026 in Riyadh. */
const riyadh = (time: string) => new Date(`2026-11-23T${time}:00+03:00`);

beforeAll(async () => {
  dir = tempDir('timely-metric-');
  dbPath = path.join(dir, 'metric.db');
  const stores = openStores({ dbPath, databaseUrl: undefined, poolMax: 1 }, { create: true });
  await stores.ready;
  for (const [received, answered] of [
    ['09:00', '09:40'],
    // Sent at 16:30, answered the next morning at 09:00: half an hour and an hour of working time.
    ['16:30', undefined],
  ] as const) {
    const lead = await stores.submissions.save({
      form: 'contact',
      fields: contactBody({ firstName: 'Zainab', message: 'Visitor words' }),
      receivedAt: riyadh(received),
    });
    ids.push(lead.id);
    if (answered) await stores.inbox.setStatus(lead.id, 'answered', 'huda@globaq.example', riyadh(answered));
  }
  await stores.close();
  server = await startServer({ dbPath });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const scrape = async () => (await fetch(`${server.baseUrl}/metrics`)).text();

test('the histogram of first answers, in working seconds, without lead labels or visitor text', async () => {
  const text = await scrape();
  expect(text).toContain('# TYPE globaq_first_answer_working_seconds histogram');
  expect(text).toMatch(/^globaq_first_answer_working_seconds_bucket\{le="1800"\} 0$/m);
  expect(text).toMatch(/^globaq_first_answer_working_seconds_bucket\{le="3600"\} 1$/m);
  expect(text).toMatch(/^globaq_first_answer_working_seconds_sum 2400$/m);
  expect(text).toMatch(/^globaq_first_answer_working_seconds_count 1$/m);
  for (const id of ids) expect(text).not.toContain(id);
  expect(text).not.toMatch(/Zainab|Visitor words/);

  // Answered the next working morning: 30 minutes on Monday and an hour on Tuesday, 5400 s.
  const stores = openStores({ dbPath, databaseUrl: undefined, poolMax: 1 });
  await stores.ready;
  await stores.inbox.setStatus(ids[1]!, 'answered', 'huda@globaq.example', new Date('2026-11-24T09:00:00+03:00'));
  await stores.close();
  const later = await scrape();
  expect(later).toMatch(/^globaq_first_answer_working_seconds_count 2$/m);
  expect(later).toMatch(/^globaq_first_answer_working_seconds_sum 7800$/m);
  expect(later).toMatch(/^globaq_first_answer_working_seconds_bucket\{le="7200"\} 2$/m);
});
