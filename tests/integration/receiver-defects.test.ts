/**
 * Defects found by an outsider's review of the receiver and the site's server, each proved over HTTP against the built server on a free loopback port.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SECURITY_HEADERS } from '../../src/server/http/security-headers';
import { main } from '../../src/server/cli';
import { PARTNER_REQUIRED } from '../../src/forms/partner';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';
import type { StoredSubmission } from '../../src/server/store/store';
import { heldReasons } from '../helpers/held';
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

let dir: string;
let server: RunningServer;

async function stored(id: string, dbPath = server.dbPath): Promise<StoredSubmission | undefined> {
  const store = openSqliteStore(dbPath, { create: false });
  try {
    for await (const row of store.export({})) if (row.id === id) return row;
    return undefined;
  } finally {
    await store.close();
  }
}

/** A raw request (any method, any header, Host included), answered with its status, headers and body. */
function raw(
  baseUrl: string,
  method: string,
  route: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${baseUrl}${route}`, { method, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  dir = tempDir('globaq-defects-');
  server = await startServer({ dbPath: path.join(dir, 'submissions.db') });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('leads are not refused over fields a client left out', () => {
  test('a partner application with only the ten required fields is stored, the others as empty answers', async () => {
    const full = partnerBody();
    const body = Object.fromEntries(PARTNER_REQUIRED.map((field) => [field, full[field]]));
    expect(Object.keys(body)).toHaveLength(10);
    const response = await postJson(server.baseUrl, '/api/partner', body);
    expect(response.status, await response.clone().text()).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const row = await stored(id);
    expect(row?.fields).toMatchObject({
      ...body,
      presidentName: '',
      numberOfSites: null,
      servicesTypes: [],
      classroomAvailable: '',
      uploadedFiles: '',
    });
  });

  test('a contact message without the browser’s time is stored with the time the server received it', async () => {
    const { submissionDate: _date, submissionTimestamp: _timestamp, ...body } = contactBody({ firstName: 'Timeless' });
    const before = Date.now();
    const response = await postJson(server.baseUrl, '/api/contact', body);
    expect(response.status, await response.clone().text()).toBe(201);
    const row = await stored(((await response.json()) as { id: string }).id);
    const date = Date.parse(String(row?.fields['submissionDate']));
    expect(date).toBeGreaterThanOrEqual(before - 1000);
    expect(date).toBeLessThanOrEqual(Date.now() + 1000);
    expect(String(row?.fields['submissionTimestamp'])).not.toBe('');
  });

  test('a contact message of the three required fields alone is stored', async () => {
    const response = await postJson(server.baseUrl, '/api/contact', {
      firstName: 'Sara',
      lastName: 'Al-Qahtani',
      email: 'sara@example.com',
    });
    expect(response.status).toBe(201);
    const row = await stored(((await response.json()) as { id: string }).id);
    expect(row?.fields).toMatchObject({ firstName: 'Sara', country: '', city: '', company: '', message: '' });
  });
});

describe('invisible text is no answer', () => {
  test('a name of zero-width characters is missing, in JSON and in a form post; real text with marks is kept', async () => {
    const invisible = '\u200B\u200C\u200D\u2060\uFEFF';
    const json = await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: invisible }));
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ issues: [{ field: 'firstName', code: 'required' }] });
    const form = await postForm(server.baseUrl, '/api/partner', asForm(partnerBody({ name: '\u3164\u2800 \u200F' })));
    expect(form.status).toBe(400);
    expect(await form.text()).toMatch(/<strong[^>]*>Full Name<\/strong>/);

    const real = await postJson(server.baseUrl, '/api/contact', contactBody({ firstName: '\u200Fعبدالله 😊', lastName: 'Zoë' }));
    expect(real.status).toBe(201);
    const row = await stored(((await real.json()) as { id: string }).id);
    expect(row?.fields['firstName']).toBe('\u200Fعبدالله 😊');
  });
});

describe('the rate limit counts real clients', () => {
  const spoofs = (i: number) => ({
    'X-Forwarded-For': `198.51.100.${i}`,
    'X-Forwarded-Host': 'www.globaq.example',
    Host: 'www.globaq.example',
  });

  test('X-Forwarded-For from a client that is not a trusted proxy changes nothing', async () => {
    const limited = await startServer({ dbPath: path.join(dir, 'spoof.db'), env: { SUBMISSIONS_RATE_LIMIT: '3' } });
    try {
      const statuses: number[] = [];
      for (let i = 1; i <= 6; i++)
        statuses.push((await postJson(limited.baseUrl, '/api/contact', contactBody(), spoofs(i))).status);
      // Over the rate, a lead is held for review, not refused: three held, counted as one client.
      expect(statuses).toEqual([201, 201, 201, 201, 201, 201]);
      expect(heldReasons(limited.dbPath)).toEqual(['manyPosts', 'manyPosts', 'manyPosts']);
    } finally {
      await limited.stop();
    }
  });

  test('through a trusted proxy the limit applies per real client, the right-most address the proxy added', async () => {
    const proxied = await startServer({
      dbPath: path.join(dir, 'proxy.db'),
      env: { SUBMISSIONS_RATE_LIMIT: '2', TRUSTED_PROXIES: '127.0.0.1, ::1, 10.0.0.0/8' },
    });
    try {
      // The client wrote the left part; our proxies (10.x) appended the rest.
      const via = (client: string, spoof: number) => ({
        ...spoofs(spoof),
        'X-Forwarded-For': `192.0.2.${spoof}, ${client}, 10.1.2.3`,
      });
      const a = [1, 2, 3, 4].map((i) => via('203.0.113.7', i));
      const statuses: number[] = [];
      for (const headers of a) statuses.push((await postJson(proxied.baseUrl, '/api/contact', contactBody(), headers)).status);
      expect(statuses).toEqual([201, 201, 201, 201]);
      expect(heldReasons(proxied.dbPath)).toEqual(['manyPosts', 'manyPosts']);
      // Another visitor behind the same proxy is counted on their own: not held.
      expect((await postJson(proxied.baseUrl, '/api/contact', contactBody(), via('203.0.113.8', 9))).status).toBe(201);
      expect(heldReasons(proxied.dbPath)).toHaveLength(2);
    } finally {
      await proxied.stop();
    }
  });

  test('a malformed TRUSTED_PROXIES stops the server at start, naming it', async () => {
    await expect(startServer({ dbPath: path.join(dir, 'never.db'), env: { TRUSTED_PROXIES: 'nginx.local' } })).rejects.toThrow(
      /TRUSTED_PROXIES[\s\S]*nginx\.local/,
    );
  });
});

describe('no picture is made on request', () => {
  test('/_image answers 404, whatever it is asked for', async () => {
    for (const query of ['?href=/icon-512.png&w=4000&f=avif', '?href=/_headers', '?href=https://evil.example/x.png&w=10', '']) {
      const response = await fetch(`${server.baseUrl}/_image${query}`);
      expect(response.status, query).toBe(404);
      expect(response.headers.get('content-type') ?? '', query).not.toMatch(/^image\//);
    }
  });
});

describe('control characters never reach a staff terminal', () => {
  const OSC_TITLE = '\u001B]0;pwned\u0007';
  const ERASE_LINE = '\u001B[2K';

  test('visitor text is stored without C0/C1 controls; the message keeps its line breaks and tabs', async () => {
    const response = await postJson(
      server.baseUrl,
      '/api/contact',
      contactBody({
        firstName: `Omar${OSC_TITLE}`,
        lastName: `${ERASE_LINE}Al-Harbi\u009B31m`,
        message: `Line one\r\nLine\ttwo\u0000${OSC_TITLE}`,
      }),
    );
    expect(response.status).toBe(201);
    const row = await stored(((await response.json()) as { id: string }).id);
    expect(row?.fields['firstName']).toBe('Omar]0;pwned');
    expect(row?.fields['lastName']).toBe('[2KAl-Harbi31m');
    expect(row?.fields['message']).toBe('Line one\nLine\ttwo]0;pwned');
    expect(JSON.stringify(row?.fields)).not.toMatch(/\\u00(?:0|1)[0-9a-f]|\\u007f|[\u0080-\u009f]/i);
  });

  test('rows stored raw before the cleaning are printed escaped by every staff command', async () => {
    const dbPath = path.join(dir, 'legacy.db');
    const store = openSqliteStore(dbPath);
    await store.save({
      form: 'contact',
      fields: contactBody({ firstName: `Evil${OSC_TITLE}`, lastName: `${ERASE_LINE}X\u009B2J`, company: `\u001B[31mRed` }),
      receivedAt: new Date(),
    });
    await store.close();
    const outputs: string[] = [];
    for (const argv of [
      ['list'],
      ['export', '--form', 'contact', '--format', 'csv'],
      ['export', '--form', 'contact', '--format', 'json'],
    ]) {
      let out = '';
      let err = '';
      const code = await main([...argv, '--db', dbPath], {
        stdout: (t) => (out += t),
        stderr: (t) => (err += t),
        env: {},
        root: dir,
        cwd: dir,
      });
      expect(code, argv.join(' ')).toBe(0);
      expect(`${out}${err}`, argv.join(' ')).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/);
      outputs.push(out);
    }
    const [list, csv, json] = outputs;
    expect(list).toContain('Evil\\x1B]0;pwned\\x07');
    expect(csv).toContain('Evil]0;pwned');
    // JSON keeps the stored text exactly, written as escapes.
    const parsed = JSON.parse(json ?? '') as Record<string, unknown>[];
    expect(parsed[0]?.['lastName']).toBe(`${ERASE_LINE}X\u009B2J`);
  });
});

describe('every method gets an answer, never a 5xx', () => {
  test('TRACE, TRACK and other methods on pages, the receiver and unknown paths: 405 or another 4xx/2xx, nothing logged', async () => {
    const before = server.output().length;
    const methods = [
      'GET',
      'HEAD',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
      'TRACE',
      'TRACK',
      'PROPFIND',
      'MKCOL',
      'LOCK',
      'BREW',
    ];
    const paths = [
      '/',
      '/AboutUs',
      '/api/contact',
      '/api/partner',
      '/_image',
      '/SubmissionProblem',
      '/ar/SubmissionProblem',
      '/no/such/page',
      '/services/unknown',
      '/_astro/nothing.js',
    ];
    const failures: string[] = [];
    for (const method of methods) {
      for (const route of paths) {
        const answer = await raw(server.baseUrl, method, route, { Origin: server.origin });
        if (answer.status >= 500 || answer.status === 0) failures.push(`${method} ${route}: ${answer.status}`);
        // TRACK never gets this far: Node's HTTP parser answers 400 to it itself.
        if (method === 'TRACE' && answer.status !== 405) failures.push(`${method} ${route}: ${answer.status} instead of 405`);
        if (method === 'TRACE' && answer.headers['allow'] === undefined) failures.push(`${method} ${route}: no Allow header`);
      }
    }
    expect(failures).toEqual([]);
    expect(server.output().slice(before)).not.toMatch(/Error|at .*\.js:\d+/);
  });
});

describe('problem pages keep every security header', () => {
  test('a refused form post (400, 413, 429) carries the full header set, frame-ancestors included, and Astro’s hashes', async () => {
    const limited = await startServer({
      dbPath: path.join(dir, 'headers.db'),
      env: { SUBMISSIONS_LEADS_PER_DAY: '2' },
    });
    try {
      // Two valid posts are the network's day; the third is past its budget.
      for (const expected of [303, 303])
        expect(
          (await postForm(limited.baseUrl, '/api/contact', new URLSearchParams(contactBody() as Record<string, string>))).status,
        ).toBe(expected);
      const answers = [
        await postForm(limited.baseUrl, '/api/contact', new URLSearchParams({ firstName: 'A' })),
        await postForm(limited.baseUrl, '/api/contact', new URLSearchParams({ firstName: 'x'.repeat(600 * 1024) })),
        await postForm(limited.baseUrl, '/api/contact', new URLSearchParams(contactBody() as Record<string, string>)),
      ];
      expect(answers.map((a) => a.status)).toEqual([400, 413, 429]);
      for (const answer of answers) {
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
          if (name === 'Content-Security-Policy') continue;
          expect(answer.headers.get(name), `${answer.status} ${name}`).toBe(value);
        }
        const csp = answer.headers.get('content-security-policy') ?? '';
        expect(csp, String(answer.status)).toContain("frame-ancestors 'none'");
        expect(csp, String(answer.status)).toContain("object-src 'none'");
        expect(csp, String(answer.status)).toMatch(/script-src [^;]*'sha(256|384|512)-/);
        expect(csp.match(/(^|;\s*)base-uri /g), String(answer.status)).toHaveLength(1);
      }
    } finally {
      await limited.stop();
    }
  });
});

describe('a flood past the budget is summed in the log', () => {
  test('posts answered 429 write the first refusal and then one line with the count, not a line each', async () => {
    const limited = await startServer({
      dbPath: path.join(dir, 'flood.db'),
      env: { SUBMISSIONS_LEADS_PER_DAY: '2' },
    });
    const flood = 6;
    const statuses: number[] = [];
    try {
      // Two stored: every post after them is past the day's budget.
      for (let i = 0; i < flood + 2; i++) statuses.push((await postJson(limited.baseUrl, '/api/contact', contactBody())).status);
    } finally {
      await limited.stop();
    }
    expect(statuses.slice(2)).toEqual(Array.from({ length: flood }, () => 429));
    const lines = limited
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { event?: string; status?: number; count?: number; reason?: string });
    expect(lines.filter((line) => line.event === 'request' && line.status === 429)).toEqual([]);
    const refused = lines.filter((line) => line.event === 'lead.refused');
    expect(refused.map((line) => line.count ?? 1)).toEqual([1, flood - 1]);
    expect(new Set(refused.map((line) => line.reason)).size).toBe(1);
    const limitedLines = lines.filter((line) => line.event === 'request.limited');
    expect(limitedLines.map((line) => line.count ?? 1)).toEqual([1, flood - 1]);
  });
});
