/**
 * The server's hourly round (src/server/inbox/sweeper.ts) against a real SMTP server on loopback
 * and a SQLite file: stopping waits for a digest already on its way, so the server closes the
 * transport and the database after it, and no round runs after the stop; a mail server that
 * refuses makes the round count its failures and end, never throw.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, expect, test } from 'vitest';
import { receiverConfig } from '../../src/server/config';
import { smtpTransport } from '../../src/server/mail/outbox';
import { Sweeper } from '../../src/server/inbox/sweeper';
import { makeMetrics } from '../../src/server/ops/metrics';
import { openStores, type Stores } from '../../src/server/store/database';
import { contactBody, tempDir } from '../helpers/server';
import { startSmtp } from '../helpers/smtp';
import { until } from '../helpers/wait';

const HUDA = 'huda@globaq.example';
/** Sunday 29 November 2026 in Riyadh. */
const riyadh = (time: string, day = 29) => new Date(`2026-11-${day}T${time}:00+03:00`);

let dir: string;
let stores: Stores | undefined;
afterEach(async () => {
  await stores?.close();
  stores = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The parts of the application object the round uses, with a lead assigned to Huda on Thursday. */
async function appWith(smtpUrl: string) {
  dir = tempDir('globaq-sweeper-');
  const config = receiverConfig({
    SUBMISSIONS_DB: path.join(dir, 'submissions.db'),
    SMTP_URL: smtpUrl,
    LEADS_NOTIFY_TO: 'leads@globaq.example',
    LEADS_NOTIFY_FROM: 'website@globaq.example',
  });
  const opened = openStores(config);
  stores = opened;
  await opened.ready;
  await opened.staff.add(HUDA, 'scrypt$1', riyadh('00:00'));
  const thursday = new Date('2026-11-26T16:00:00+03:00');
  const lead = await opened.submissions.save({ form: 'contact', fields: contactBody(), receivedAt: thursday });
  await opened.inbox.assign(lead.id, HUDA, HUDA, thursday);
  return { config, stores: opened, log: pino({ level: 'silent' }), metrics: makeMetrics(() => opened.depth()) };
}

test('stop waits for the digest on its way; no round runs after it', async () => {
  const smtp = await startSmtp(0, { delayMs: 1000 });
  const app = await appWith(smtp.url);
  const transport = smtpTransport(smtp.url, false);
  const clock = { now: riyadh('07:10') };
  try {
    const sweeper = new Sweeper(app, transport, () => clock.now);
    const round = sweeper.round();
    // The morning digest is on its way: its data is at the mail server, which holds it a second.
    await until(() => smtp.arrived() === 1, 10);
    const stopped = sweeper.stop();
    // Not accepted yet: the stop cannot have returned with the digest sent.
    expect(smtp.mails).toHaveLength(0);
    await stopped;
    expect(smtp.mails.map((mail) => mail.recipients)).toEqual([[HUDA]]);
    await round;
    expect((await app.metrics.morningDigests.get()).values).toEqual([
      expect.objectContaining({ labels: { outcome: 'sent' }, value: 1 }),
    ]);
    // The next morning's round would send again (awaited, its mail would be at the sink by now);
    // after the stop there is none.
    clock.now = riyadh('07:10', 30);
    await sweeper.round();
    expect(smtp.arrived()).toBe(1);
    expect(smtp.mails).toHaveLength(1);
  } finally {
    transport.close();
    await smtp.close();
  }
});

test('a mail server that refuses: the round counts each digest failed and ends without throwing', async () => {
  const app = await appWith('smtp://127.0.0.1:1');
  await app.stores.submissions.save({
    form: 'contact',
    fields: contactBody(),
    receivedAt: riyadh('06:00'),
    held: 'noProof',
  });
  const transport = smtpTransport('smtp://127.0.0.1:1', false);
  try {
    await new Sweeper(app, transport, () => riyadh('07:10')).round();
    expect((await app.metrics.heldDigests.get()).values).toEqual([
      expect.objectContaining({ labels: { outcome: 'failed' }, value: 1 }),
    ]);
    expect((await app.metrics.morningDigests.get()).values).toEqual([
      expect.objectContaining({ labels: { outcome: 'failed' }, value: 1 }),
    ]);
    // Both days are given back: the next round tries again.
    expect(await app.stores.held.claimDigest('2026-11-29', riyadh('07:20'))).toBe(true);
  } finally {
    transport.close();
  }
});
