/**
 * Bots are held, never dropped, and never mailed: the built server with lead notifications on
 * (a real SMTP server on loopback), on SQLite and on PostgreSQL. A lead with a solved proof of
 * work is mailed; one without, with a forged, expired or replayed one, posted without
 * JavaScript, sent too fast, with too many links or with the honeypot filled is stored held with
 * its reason and mailed to nobody. Releasing a held lead sends exactly one mail.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { main } from '../../src/server/cli';
import { openStores, type Stores } from '../../src/server/store/database';
import { sweepHeld } from '../../src/server/inbox/held-digest';
import { releaseHeld } from '../../src/server/inbox/held-release';
import { issueChallenge, proofKeys } from '../../src/server/receiver/proof';
import { freshDatabase } from '../helpers/postgres';
import { challengeFrom, solve, solvedProof } from '../helpers/proof';
import {
  asForm,
  contactBody,
  partnerBody,
  postForm,
  postJson,
  startServer,
  tempDir,
  type RunningServer,
} from '../helpers/server';
import { startSmtp, type MailSink } from '../helpers/smtp';
import { outboxDelivered } from '../helpers/wait';

const KEY = 'k'.repeat(40);
const NOTIFY = {
  LEADS_NOTIFY_TO: 'leads@globaq.example',
  LEADS_NOTIFY_FROM: 'website@globaq.example',
  LEADS_NOTIFY_RETRY_SECONDS: '1',
};

let dir: string;
beforeAll(() => {
  dir = tempDir('globaq-held-');
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Answers told "review" (a lead held for a reason a person's browser can meet), by lead id. */
const told = new Map<string, boolean>();

async function created(response: Response): Promise<string> {
  expect(response.status, await response.clone().text()).toBe(201);
  const answer = (await response.json()) as { id: string; review?: boolean };
  told.set(answer.id, answer.review === true);
  return answer.id;
}

const postgresUrl = inject('postgresUrl');
const unavailable = inject('postgresUnavailable');

for (const kind of ['SQLite', 'PostgreSQL'] as const) {
  const skip = kind === 'PostgreSQL' ? unavailable : '';
  describe.skipIf(skip !== '')(`on ${kind}${skip ? ` (skipped: ${skip})` : ''}`, () => {
    let server: RunningServer;
    let smtp: MailSink;
    let databaseUrl: string | undefined;
    let stores: Stores;

    beforeAll(async () => {
      databaseUrl = kind === 'PostgreSQL' ? await freshDatabase(postgresUrl) : undefined;
      smtp = await startSmtp();
      server = await startServer({
        dbPath: path.join(dir, `${kind}.db`),
        env: {
          ...NOTIFY,
          SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
          ALTCHA_HMAC_KEY: KEY,
          SUBMISSIONS_MAX_LINKS: '2',
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        },
      });
      stores = openStores({ dbPath: server.dbPath, databaseUrl, poolMax: 2 }, { create: false });
      await stores.ready;
    });

    afterAll(async () => {
      await stores?.close();
      await server?.stop();
      await smtp?.close();
    });

    const heldReasons = async () =>
      Object.fromEntries((await stores.held.list('held', 100)).map((lead) => [lead.id, lead.reason]));

    test('a solved proof: stored in the inbox and mailed once; the challenge endpoint is never cached', async () => {
      const before = smtp.mails.length;
      const challenge = await fetch(`${server.baseUrl}/api/challenge`);
      expect(challenge.status).toBe(200);
      expect(challenge.headers.get('cache-control')).toBe('no-store');
      const id = await created(await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: 'Verified' })));
      await smtp.waitFor(before + 1);
      expect(smtp.mails.at(-1)!.parsed.text).toContain(`Lead ${id}`);
      expect((await heldReasons())[id]).toBeUndefined();
      expect((await stores.inbox.lead(id))?.id).toBe(id);
    });

    test('no proof, a forged one, an expired one, one replayed twice, no JavaScript, too many links, the honeypot: each held with its reason, none mailed', async () => {
      const before = smtp.mails.length;
      const noProof = await created(await postJson(server.baseUrl, '/api/contact', contactBody({ altcha: undefined })));

      const valid = await solvedProof(server.baseUrl);
      const payload = JSON.parse(Buffer.from(valid, 'base64').toString()) as {
        challenge: { parameters: Record<string, unknown>; signature: string };
      };
      payload.challenge.parameters['expiresAt'] = Number(payload.challenge.parameters['expiresAt']) + 86_400;
      const forged = await created(
        await postJson(
          server.baseUrl,
          '/api/contact',
          contactBody({ altcha: Buffer.from(JSON.stringify(payload)).toString('base64') }),
        ),
      );
      const garbage = await created(await postJson(server.baseUrl, '/api/contact', contactBody({ altcha: 'bm90IGEgcHJvb2Y=' })));

      const old = await issueChallenge(
        proofKeys(KEY),
        { cost: 1, maxNumber: 100, expireSeconds: 60, minSeconds: 0 },
        new Date(Date.now() - 2 * 3600_000),
      );
      const expired = await created(await postJson(server.baseUrl, '/api/contact', contactBody({ altcha: await solve(old) })));

      const once = await solvedProof(server.baseUrl);
      const first = await created(await postJson(server.baseUrl, '/api/contact', contactBody({ altcha: once })));
      const [second, third] = await Promise.all([
        postJson(server.baseUrl, '/api/contact', contactBody({ altcha: once })).then(created),
        postJson(server.baseUrl, '/api/contact', contactBody({ altcha: once })).then(created),
      ]);

      const noScript = await postForm(server.baseUrl, '/api/contact', asForm(contactBody({ altcha: undefined })));
      expect(noScript.status).toBe(303);
      const links = await created(
        await postJson(
          server.baseUrl,
          '/api/contact',
          contactBody({ message: 'See http://a.example http://b.example www.c.example' }),
        ),
      );
      const honeypot = await created(
        await postJson(server.baseUrl, '/api/contact', contactBody({ homepage: 'http://spam.example' })),
      );

      const reasons = await heldReasons();
      expect(reasons[noProof]).toBe('noProof');
      expect(reasons[forged]).toBe('invalidProof');
      expect(reasons[garbage]).toBe('invalidProof');
      expect(reasons[expired]).toBe('expiredProof');
      expect(reasons[first]).toBeUndefined();
      expect([reasons[second], reasons[third]]).toEqual(['replayedProof', 'replayedProof']);
      expect(reasons[links]).toBe('tooManyLinks');
      expect(reasons[honeypot]).toBe('honeypot');
      expect(Object.values(reasons).filter((reason) => reason === 'noScript')).toHaveLength(1);
      // The visitor is told of the holds their own browser can meet; the bots' holds stay silent.
      const review = (ids: string[]) => ids.map((id) => told.get(id));
      expect(review([noProof, forged, garbage, expired, second!, third!])).toEqual(Array(6).fill(true));
      expect(review([first, links, honeypot])).toEqual([false, false, false]);
      // Only the first use of the proof was mailed.
      await smtp.waitFor(before + 1);
      await outboxDelivered(stores.outbox);
      expect(smtp.mails.slice(before).map((mail) => mail.parsed.text?.match(/Lead (\S+)/)?.[1])).toEqual([first]);
      // Held leads stay out of the inbox's list and the staff command's export.
      const { leads } = await stores.inbox.leads({}, 1);
      expect(leads.map((lead) => lead.id)).not.toContain(noProof);
    });

    test('a partner application with CV files, held: the files are kept with it; released, it is mailed exactly once and audited', async () => {
      const form = new FormData();
      for (const [key, value] of asForm(partnerBody({ uploadedFiles: undefined })))
        if (key !== 'uploadedFiles') form.append(key, value);
      form.append(
        'uploadedFiles',
        new File([new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n')], 'cv.pdf', {
          type: 'application/pdf',
        }),
      );
      const response = await fetch(`${server.baseUrl}/api/partner`, {
        method: 'POST',
        body: form,
        headers: { Accept: 'application/json', Origin: server.origin },
      });
      const id = await created(response);
      const held = (await stores.held.list('held', 100)).find((lead) => lead.id === id);
      expect(held).toMatchObject({ reason: 'noProof', files: 1 });
      expect((await stores.submissions.attachments(id)).map((file) => file.name)).toEqual(['cv.pdf']);

      const before = smtp.mails.length;
      await outboxDelivered(stores.outbox);
      expect(smtp.mails.length).toBe(before);
      const config = {
        notifications: { smtpUrl: '', requireTls: false, to: [], from: '', retrySeconds: 1, giveUpDays: 1 },
        siteUrl: undefined,
      };
      expect(await releaseHeld(stores, config, id, 'sara@globaq.example', new Date())).toBe(true);
      expect(await releaseHeld(stores, config, id, 'sara@globaq.example', new Date())).toBe(false);
      await smtp.waitFor(before + 1);
      await outboxDelivered(stores.outbox);
      expect(smtp.mails.length).toBe(before + 1);
      expect(smtp.mails.at(-1)!.parsed.text).toContain(`Lead ${id}`);
      expect((await stores.inbox.lead(id))?.id).toBe(id);
      const audit = await stores.inbox.auditLog({ limit: 10 });
      expect(audit.entries.some((entry) => entry.action === 'released held lead' && entry.leadId === id)).toBe(true);
    });

    test('marked as spam: out of the held view, audited, never mailed; purged with what was held once old enough', async () => {
      const spam = await created(await postJson(server.baseUrl, '/api/contact', contactBody({ altcha: undefined })));
      expect(await stores.held.markSpam(spam, 'sara@globaq.example', new Date())).toBe(true);
      expect((await stores.held.list('held', 100)).map((lead) => lead.id)).not.toContain(spam);
      expect((await stores.held.list('spam', 100)).map((lead) => lead.id)).toContain(spam);
      expect(
        await releaseHeld(stores, { notifications: undefined, siteUrl: undefined }, spam, 'sara@globaq.example', new Date()),
      ).toBe(false);
      const heldBefore = await stores.held.count('held');
      expect(heldBefore).toBeGreaterThan(0);
      // 31 days on, with the default of 30: spam leads go, inbox leads stay (the held ones marked as
      // spam are listed with the inbox's spam, and go). Held leads no digest warned of stay.
      const inboxBefore = (await stores.inbox.leads({}, 1)).total;
      const spamBefore = await stores.held.count('spam');
      expect(spamBefore).toBeGreaterThan(0);
      const config = { proof: { heldPurgeDays: 30 } as never };
      const day31 = new Date(Date.now() + 31 * 86_400_000);
      const first = await sweepHeld(stores, config, day31);
      expect(first.leads).toBe(spamBefore);
      expect(await stores.held.count('held')).toBe(heldBefore);
      // A digest warns of them on day 31: still kept a week, then erased with what was held.
      await stores.held.markWarned(
        (await stores.held.dueForErasure(day31)).map((lead) => lead.id),
        day31,
      );
      expect((await sweepHeld(stores, config, new Date(day31.getTime() + 6 * 86_400_000))).leads).toBe(0);
      const gone = await sweepHeld(stores, config, new Date(day31.getTime() + 7 * 86_400_000));
      expect(gone.leads).toBe(heldBefore);
      expect(await stores.held.count('held')).toBe(0);
      expect(await stores.held.count('spam')).toBe(0);
      expect((await stores.inbox.leads({}, 1)).total).toBe(inboxBefore - spamBefore);
      expect(first.challenges).toBeGreaterThan(0);
    });

    test('`npm run submissions -- held` lists held leads with their reasons', async () => {
      const id = await created(await postJson(server.baseUrl, '/api/partner?lang=ar', partnerBody({ altcha: undefined })));
      let out = '';
      let err = '';
      const env = databaseUrl ? { DATABASE_URL: databaseUrl } : { SUBMISSIONS_DB: server.dbPath };
      const code = await main(['held'], {
        stdout: (text) => (out += text),
        stderr: (text) => (err += text),
        env,
        root: process.cwd(),
        cwd: process.cwd(),
      });
      expect(code, err).toBe(0);
      expect(out).toMatch(new RegExp(`partner\\s+${id}\\s+noProof`));
      expect(err).toMatch(/^\d+ held for review/);
    });
  });
}

test('too fast: a lead sent sooner after its challenge than SUBMISSIONS_MIN_SECONDS is held', async () => {
  const server = await startServer({ dbPath: path.join(dir, 'fast.db'), env: { SUBMISSIONS_MIN_SECONDS: '30' } });
  try {
    const challenge = await challengeFrom(server.baseUrl);
    const id = await created(await postJson(server.baseUrl, '/api/contact', contactBody({ altcha: await solve(challenge) })));
    const stores = openStores({ dbPath: server.dbPath, databaseUrl: undefined, poolMax: 1 }, { create: false });
    try {
      expect((await stores.held.list('held', 10)).map((lead) => [lead.id, lead.reason])).toEqual([[id, 'tooFast']]);
      expect(told.get(id)).toBe(true);
    } finally {
      await stores.close();
    }
  } finally {
    await server.stop();
  }
});
