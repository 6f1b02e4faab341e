/**
 * Absolute links come from the configured site address (SITE_URL), never from the request: a
 * client talking to the server directly with a forged Host (and X-Forwarded-Host, X-Forwarded-Proto)
 * must not make the staff e-mail link to its own host, which would be a ready-made phishing page
 * ("Open this lead in the staff inbox" on globaq-login.evil). The built server and a real SMTP
 * server on loopback (tests/helpers/smtp.ts), nothing mocked.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { asForm, contactBody, partnerBody, startServer, tempDir, type RunningServer } from '../helpers/server';
import { startSmtp, type MailSink, type ReceivedMail } from '../helpers/smtp';
import { solvedProof } from '../helpers/proof';

const SITE_URL = 'https://leads.globaq.example';
const EVIL = 'globaq-login.evil';
const FORGED = { Host: EVIL, 'X-Forwarded-Host': EVIL, 'X-Forwarded-Proto': 'https', Forwarded: `host=${EVIL};proto=https` };

let dir: string;
const cleanup: (() => Promise<void>)[] = [];

beforeAll(() => {
  dir = tempDir('globaq-links-');
});

afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
async function mailingServer(env: Record<string, string>): Promise<{ server: RunningServer; smtp: MailSink }> {
  const smtp = await startSmtp();
  cleanup.push(() => smtp.close());
  const server = await startServer({
    dbPath: path.join(dir, `leads-${++counter}.db`),
    env: {
      SMTP_URL: smtp.url,
      LEADS_NOTIFY_TO: 'leads@globaq.example',
      LEADS_NOTIFY_FROM: 'website@globaq.example',
      LEADS_NOTIFY_RETRY_SECONDS: '1',
      ...env,
    },
  });
  cleanup.push(() => server.stop('SIGKILL'));
  return { server, smtp };
}

/** A POST with headers fetch would not send as given (Host): straight over node:http. */
function rawPost(
  baseUrl: string,
  route: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; location: string | undefined; body: string }> {
  const url = new URL(route, baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: 'POST',
        headers: { ...headers, 'Content-Length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, location: response.headers.location, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** Every absolute address in a mail: in its text, and every href and src of its HTML. */
function linksOf(mail: ReceivedMail): string[] {
  const text = mail.parsed.text ?? '';
  const html = String(mail.parsed.html || '');
  return [...text.matchAll(/\bhttps?:\/\/[^\s<>"')\u2066-\u2069]+/gi), ...html.matchAll(/\b(?:href|src)\s*=\s*"([^"]*)"/gi)].map(
    (match) => match[1] ?? match[0],
  );
}

describe('a forged Host never reaches a link', () => {
  test('a lead posted with a forged Host and X-Forwarded-Host: every link of the staff e-mail points at SITE_URL', async () => {
    const { server, smtp } = await mailingServer({ SITE_URL });
    const sent = await rawPost(
      server.baseUrl,
      '/api/contact',
      JSON.stringify(contactBody({ altcha: await solvedProof(server.baseUrl) })),
      { ...FORGED, 'Content-Type': 'application/json' },
    );
    expect(sent.status, sent.body).toBe(201);
    const id = (JSON.parse(sent.body) as { id: string }).id;
    const [mail] = await smtp.waitFor(1);
    const links = linksOf(mail!);
    for (const link of links) expect(link.startsWith(`${SITE_URL}/`), link).toBe(true);
    expect(links).toContain(`${SITE_URL}/admin/leads/${id}`);
    expect(mail!.raw).not.toContain(EVIL);
  });

  test('the same behind a trusted proxy that passes the forged headers on', async () => {
    const { server, smtp } = await mailingServer({ SITE_URL, TRUSTED_PROXIES: '127.0.0.1,::1' });
    // A form post, with the Origin the forged host would have (and a solved proof, so it is mailed).
    const form = asForm(partnerBody({ altcha: await solvedProof(server.baseUrl) })).toString();
    const sent = await rawPost(server.baseUrl, '/api/partner', form, {
      ...FORGED,
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: `https://${EVIL}`,
    });
    expect(sent.status, sent.body).toBeLessThan(500);
    // Whatever the answer, a redirect names a path of this site, not a host.
    if (sent.location !== undefined) expect(sent.location).toMatch(/^\/(?!\/)/);
    const json = await rawPost(
      server.baseUrl,
      '/api/contact',
      JSON.stringify(contactBody({ altcha: await solvedProof(server.baseUrl) })),
      { ...FORGED, 'Content-Type': 'application/json' },
    );
    expect(json.status, json.body).toBe(201);
    const mails = await smtp.waitFor(sent.status === 303 ? 2 : 1);
    for (const mail of mails) {
      const links = linksOf(mail).filter((link) => link !== String(partnerBody()['companyWebsite']));
      for (const link of links) expect(link.startsWith(`${SITE_URL}/`), link).toBe(true);
      expect(links.some((link) => link.startsWith(`${SITE_URL}/admin/leads/`))).toBe(true);
      expect(mail.raw).not.toContain(EVIL);
    }
  });

  test('a form post with a forged Host is sent on to a path, never to another host', async () => {
    const { server } = await mailingServer({ SITE_URL });
    const sent = await rawPost(server.baseUrl, '/api/contact', asForm(contactBody()).toString(), {
      ...FORGED,
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: `http://${EVIL}`,
    });
    expect(sent.location ?? '').not.toContain(EVIL);
    if (sent.status === 303) expect(sent.location).toBe('/ThanksPage');
  });

  test('without SITE_URL the e-mail carries no link at all, and the server says so when it starts', async () => {
    const { server, smtp } = await mailingServer({ SITE_URL: '' });
    expect(server.output()).toContain('SITE_URL is not set');
    const sent = await rawPost(
      server.baseUrl,
      '/api/contact',
      JSON.stringify(contactBody({ altcha: await solvedProof(server.baseUrl) })),
      { ...FORGED, 'Content-Type': 'application/json' },
    );
    expect(sent.status, sent.body).toBe(201);
    const [mail] = await smtp.waitFor(1);
    expect(linksOf(mail!)).toEqual([]);
    expect(mail!.raw).not.toContain(EVIL);
    expect(mail!.parsed.text).toContain(`Lead ${(JSON.parse(sent.body) as { id: string }).id}`);
  });

  test('a SITE_URL that is not an address stops the server at start, naming the variable', async () => {
    await expect(mailingServer({ SITE_URL: 'www.globaq.example/leads' })).rejects.toThrow(/SITE_URL/);
  });
});
