/** The receiver's pure parts: rate limit, CSV cells, configuration, content types. */
import { describe, expect, test } from 'vitest';
import { RateLimiter, clientNetwork } from '../../src/server/receiver/rate-limit';
import {
  CSV_BOM,
  csvCell,
  csvRow,
  csvText,
  fieldColumns,
  terminalText,
  toCsv,
  toJson,
} from '../../src/server/inbox/export-format';
import { TrustedProxies, clientAddressOf, parseTrustedProxies } from '../../src/server/http/client-address';
import { mergeCsp } from '../../src/server/http/security-headers';
import { BODY_LIMIT_BYTES, DEFAULT_RATE_LIMIT, receiverConfig } from '../../src/server/config';
import { isLanguage, requestLanguage } from '../../src/server/receiver/receiver';
import { countDelimiters, jsonTextProblem, parseContentType } from '../../src/server/receiver/body';
import type { StoredSubmission } from '../../src/server/store/store';

async function text(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const chunk of chunks) out += chunk;
  return out;
}

describe('rate limit', () => {
  test('allows `limit` at once, then refuses with the seconds until the next one is allowed', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 3, windowMs: 60_000, now: () => now });
    expect([1, 2, 3].map(() => limiter.take('203.0.113.9').ok)).toEqual([true, true, true]);
    expect(limiter.take('203.0.113.9')).toEqual({ ok: false, retryAfterSeconds: 20 });
    expect(limiter.take('198.51.100.1').ok).toBe(true);
    now += 19_000;
    expect(limiter.take('203.0.113.9')).toEqual({ ok: false, retryAfterSeconds: 1 });
    now += 1_000;
    expect(limiter.take('203.0.113.9').ok).toBe(true);
    expect(limiter.take('203.0.113.9').ok).toBe(false);
  });

  test('0 turns it off', () => {
    const limiter = new RateLimiter({ limit: 0, windowMs: 1000 });
    for (let i = 0; i < 100; i++) expect(limiter.take('203.0.113.9').ok).toBe(true);
    expect(limiter.size).toBe(0);
  });

  test('remembers clients under a keyed hash, never the address', () => {
    const a = new RateLimiter({ limit: 1, windowMs: 1000 });
    const b = new RateLimiter({ limit: 1, windowMs: 1000 });
    expect(a.keyFor('203.0.113.9')).not.toContain('203');
    expect(a.keyFor('203.0.113.9')).toBe(a.keyFor('203.0.113.9'));
    // Another process (another secret) gives another key: the keys mean nothing outside it.
    expect(a.keyFor('203.0.113.9')).not.toBe(b.keyFor('203.0.113.9'));
  });

  test('an IPv6 /64 is one client; an IPv4-mapped address is its IPv4 address', () => {
    expect(clientNetwork('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:0db8:0001:0002:ffff:1:2:3')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(clientNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientNetwork('198.51.100.7')).toBe('198.51.100.7');
    const limiter = new RateLimiter({ limit: 1, windowMs: 60_000 });
    expect(limiter.take('2001:db8:1:2::1').ok).toBe(true);
    expect(limiter.take('2001:db8:1:2::ffff').ok).toBe(false);
    expect(limiter.take('2001:db8:1:3::1').ok).toBe(true);
  });

  test('the table of clients is bounded', () => {
    let now = 0;
    const limiter = new RateLimiter({ limit: 2, windowMs: 1000, maxClients: 100, now: () => now });
    for (let i = 0; i < 1000; i++) {
      now += 1;
      limiter.take(`10.0.${Math.floor(i / 250)}.${i % 250}`);
    }
    expect(limiter.size).toBeLessThanOrEqual(100);
  });
});

describe('CSV export cells', () => {
  test('cells a spreadsheet would run as a formula are neutralised: = + - @ tab CR', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvText(`${start}SUM(A1:A9)`)).toBe(`'${start}SUM(A1:A9)`);
    expect(csvText('=HYPERLINK("http://evil.example")')).toBe('\'=HYPERLINK("http://evil.example")');
    expect(csvText('+966 50 123 4567')).toBe("'+966 50 123 4567");
    expect(csvText('Plain text = fine')).toBe('Plain text = fine');
    expect(csvText(['=1+1', 'Training Courses'])).toBe("'=1+1; Training Courses");
  });

  test('numbers, empty values and lists', () => {
    expect(csvText(7)).toBe('7');
    expect(csvText(null)).toBe('');
    expect(csvText(undefined)).toBe('');
    expect(csvText(['Manufacturing', 'Healthcare'])).toBe('Manufacturing; Healthcare');
  });

  test('every cell quoted, quotes doubled, line breaks kept inside the cell, CRLF between rows', () => {
    expect(csvCell('He said "hi"')).toBe('"He said ""hi"""');
    expect(csvRow(['a,b', 'line 1\nline 2', 'عبدالله'])).toBe('"a,b","line 1\nline 2","عبدالله"\r\n');
  });

  test('a whole CSV: BOM, header of id, receivedAt, language and the fields in the order first met', async () => {
    const rows: StoredSubmission[] = [
      {
        id: 'a',
        form: 'contact',
        receivedAt: '2026-11-22T10:00:00.000Z',
        language: 'en',
        fields: { firstName: 'عبدالله', email: 'a@example.com' },
      },
      {
        id: 'b',
        form: 'contact',
        receivedAt: '2026-11-22T11:00:00.000Z',
        language: 'ar',
        fields: { firstName: '=cmd|calc', company: 'X' },
      },
    ];
    const columns = fieldColumns(rows);
    expect(columns).toEqual(['firstName', 'email', 'company']);
    const csv = await text(toCsv(columns, rows));
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      '"id","receivedAt","language","firstName","email","company"',
      '"a","2026-11-22T10:00:00.000Z","en","عبدالله","a@example.com",""',
      `"b","2026-11-22T11:00:00.000Z","ar","'=cmd|calc","","X"`,
      '',
    ]);
  });

  test('JSON: an array of { id, receivedAt, language, ...fields }, values untouched', async () => {
    const rows: StoredSubmission[] = [
      { id: 'a', form: 'contact', receivedAt: 't', language: 'ar', fields: { firstName: '=1+1' } },
    ];
    expect(JSON.parse(await text(toJson(rows)))).toEqual([{ id: 'a', receivedAt: 't', language: 'ar', firstName: '=1+1' }]);
    expect(JSON.parse(await text(toJson([])))).toEqual([]);
  });
});

describe('receiver configuration', () => {
  test('defaults', () => {
    const config = receiverConfig({}, '/srv/site');
    expect(config).toEqual({
      dbPath: '/srv/site/data/submissions.db',
      databaseUrl: undefined,
      poolMax: 10,
      rateLimit: DEFAULT_RATE_LIMIT,
      rateWindowSeconds: 600,
      budget: { held: 100, unprovenFileBytes: 20 * 1024 * 1024, leads: 30, fileBytes: 60 * 1024 * 1024 },
      minFreeDiskBytes: 512 * 1024 * 1024,
      allowedOrigins: [],
      bodyLimitBytes: BODY_LIMIT_BYTES,
      trustedProxies: [],
      siteUrl: undefined,
      notifications: undefined,
      proof: {
        hmacKey: undefined,
        expireSeconds: 3600,
        cost: 10,
        maxNumber: 20_000,
        minSeconds: 3,
        maxLinks: 3,
        heldPurgeDays: 30,
        digestHour: 7,
      },
    });
  });

  test('the proof of work: a key of 32 characters or more (unset: generated and kept in the database), the signals that hold a lead', () => {
    const config = receiverConfig(
      { ALTCHA_HMAC_KEY: 'k'.repeat(32), SUBMISSIONS_MIN_SECONDS: '0', SUBMISSIONS_MAX_LINKS: '5', HELD_PURGE_DAYS: '90' },
      '/srv/site',
    );
    expect(config.proof).toMatchObject({ hmacKey: 'k'.repeat(32), minSeconds: 0, maxLinks: 5, heldPurgeDays: 90 });
    expect(() => receiverConfig({ ALTCHA_HMAC_KEY: 'short' })).toThrow(/ALTCHA_HMAC_KEY: must be at least 32 characters/);
    expect(() => receiverConfig({ ALTCHA_HMAC_KEY: 'short' })).not.toThrow(/short/);
    expect(() => receiverConfig({ HELD_PURGE_DAYS: '0' })).toThrow(/HELD_PURGE_DAYS/);
  });

  test('DATABASE_URL chooses PostgreSQL; a malformed one is refused without showing its password', () => {
    const config = receiverConfig(
      { DATABASE_URL: 'postgres://globaq:secret@db.example.com.sa:5432/globaq', DATABASE_POOL_MAX: '20' },
      '/srv/site',
    );
    expect(config.databaseUrl).toBe('postgres://globaq:secret@db.example.com.sa:5432/globaq');
    expect(config.poolMax).toBe(20);
    expect(() => receiverConfig({ DATABASE_URL: 'mysql://globaq:secret@db/globaq' })).toThrow(
      /DATABASE_URL: must start with postgres:\/\//,
    );
    expect(() => receiverConfig({ DATABASE_URL: 'postgres://globaq:secret@db.example.com.sa' })).toThrow(
      /DATABASE_URL: must name a server and a database/,
    );
    expect(() => receiverConfig({ DATABASE_URL: 'postgres://globaq:secret@db.example.com.sa' })).not.toThrow(/secret/);
    expect(() => receiverConfig({ DATABASE_POOL_MAX: '0' })).toThrow(/DATABASE_POOL_MAX/);
  });

  test('values from the environment', () => {
    const config = receiverConfig(
      {
        SUBMISSIONS_DB: '/var/lib/globaq/s.db',
        SUBMISSIONS_RATE_LIMIT: '0',
        SUBMISSIONS_RATE_WINDOW: '60',
        SUBMISSIONS_ALLOWED_ORIGINS: 'https://www.example.com.sa, https://example.pages.dev/',
      },
      '/srv/site',
    );
    expect(config.dbPath).toBe('/var/lib/globaq/s.db');
    expect(config.rateLimit).toBe(0);
    expect(config.rateWindowSeconds).toBe(60);
    expect(config.allowedOrigins).toEqual(['https://www.example.com.sa', 'https://example.pages.dev']);
    expect(receiverConfig({ SITE_URL: 'https://www.example.com.sa/' }).siteUrl).toBe('https://www.example.com.sa');
  });

  test('a malformed value is refused, naming the variable', () => {
    expect(() => receiverConfig({ SUBMISSIONS_RATE_LIMIT: 'ten' })).toThrow(/SUBMISSIONS_RATE_LIMIT/);
    expect(() => receiverConfig({ SUBMISSIONS_RATE_WINDOW: '0' })).toThrow(/SUBMISSIONS_RATE_WINDOW/);
    expect(() => receiverConfig({ SUBMISSIONS_ALLOWED_ORIGINS: 'www.example.com' })).toThrow(/SUBMISSIONS_ALLOWED_ORIGINS/);
    expect(() => receiverConfig({ SUBMISSIONS_ALLOWED_ORIGINS: 'https://example.com/contact' })).toThrow(
      /SUBMISSIONS_ALLOWED_ORIGINS/,
    );
    expect(() => receiverConfig({ SITE_URL: 'www.example.com.sa' })).toThrow(/SITE_URL/);
    expect(() => receiverConfig({ SITE_URL: 'https://www.example.com.sa/leads' })).toThrow(/SITE_URL/);
  });

  test('the body limit admits the longest valid partner application, in Arabic, url-encoded', () => {
    // Ten long answers of 5,000 Arabic letters, six bytes each once percent-encoded.
    const answer = encodeURIComponent('ع'.repeat(5000));
    expect(answer.length).toBe(30_000);
    expect(10 * answer.length + 20_000).toBeLessThan(BODY_LIMIT_BYTES);
  });
});

describe('content types', () => {
  test('media type and charset', () => {
    expect(parseContentType('Application/JSON; charset="UTF-8"')).toEqual({ type: 'application/json', charset: 'utf-8' });
    expect(parseContentType('application/x-www-form-urlencoded')).toEqual({
      type: 'application/x-www-form-urlencoded',
      charset: undefined,
    });
    expect(parseContentType(null)).toEqual({ type: '', charset: undefined });
  });

  test('a JSON body’s members are counted before it is parsed: the outermost object’s only, strings skipped', () => {
    const body = JSON.stringify({ a: 'x:y', b: { c: 1, d: 2 }, 'e:f': ['g:h', { i: 1 }], j: '\\":' });
    expect(jsonTextProblem(body, 8, 4)).toBeUndefined();
    expect(jsonTextProblem(body, 8, 3)).toBe('tooManyFields');
    expect(jsonTextProblem(body, 2, 4)).toBe('tooDeep');
    const many = `{${Array.from({ length: 50_000 }, (_, i) => `"${i}":0`).join(',')}}`;
    expect(jsonTextProblem(many, 8, 49)).toBe('tooManyFields');
    expect(jsonTextProblem(`[${many}]`, 8, 49)).toBeUndefined();
  });

  test('a multipart body’s parts are counted before it is parsed, by its boundary, up to a bound', async () => {
    const data = new FormData();
    for (let i = 0; i < 6; i++) {
      if (i % 2) data.append(`field${i}`, 'x');
      else data.append(`field${i}`, new Blob(['--not-the-boundary']), 'a.pdf');
    }
    const request = new Request('https://www.globaq.example/', { method: 'POST', body: data });
    const type = request.headers.get('content-type') ?? '';
    const body = new Uint8Array(await request.arrayBuffer());
    // Six parts, and the delimiter that closes the body.
    expect(countDelimiters(body, type, 100)).toBe(7);
    // Counting stops at the bound: the rest of the body is not searched.
    expect(countDelimiters(body, type, 3)).toBe(3);
    const boundary = /boundary=(.*)$/.exec(type)?.[1] ?? '';
    expect(countDelimiters(body, `multipart/form-data; boundary="${boundary}"; boundary=other`, 100)).toBe(7);
    expect(countDelimiters(body, 'multipart/form-data', 100)).toBeUndefined();
    expect(countDelimiters(body, 'multipart/form-data; boundary=""', 100)).toBeUndefined();
    expect(countDelimiters(body, 'not a media type', 100)).toBeUndefined();
  });
});

describe('the language a form was sent in (?lang=)', () => {
  const language = (query: string) => requestLanguage(new URL(`https://www.globaq.example/api/contact${query}`));

  test("none is English; each of the site's codes is itself", () => {
    expect(language('')).toBe('en');
    expect(language('?other=1')).toBe('en');
    expect(language('?lang=ar')).toBe('ar');
    expect(language('?lang=en')).toBe('en');
    expect(language('?x=1&lang=ar')).toBe('ar');
  });

  test('anything else is no language (a bad request): unknown, empty, another case, twice, an object key', () => {
    for (const query of [
      '?lang=fr',
      '?lang=',
      '?lang',
      '?lang=AR',
      '?lang=ar%20',
      '?lang=ar&lang=ar',
      '?lang=ar&lang=en',
      '?lang=toString',
      '?lang=__proto__',
    ]) {
      expect(language(query), query).toBeUndefined();
    }
    expect(isLanguage('ar')).toBe(true);
    expect(isLanguage('hasOwnProperty')).toBe(false);
    expect(isLanguage(undefined)).toBe(false);
  });
});

describe('the client address behind proxies', () => {
  const trusted = new TrustedProxies(parseTrustedProxies('127.0.0.1, ::1, 10.0.0.0/8'));

  test('an untrusted peer is the client, whatever X-Forwarded-For says', () => {
    expect(clientAddressOf('203.0.113.9', '198.51.100.1', trusted)).toBe('203.0.113.9');
    expect(clientAddressOf('203.0.113.9', undefined, new TrustedProxies([]))).toBe('203.0.113.9');
    expect(clientAddressOf('127.0.0.1', '198.51.100.1', new TrustedProxies([]))).toBe('127.0.0.1');
  });

  test('through trusted proxies: the right-most address that is not one of them', () => {
    expect(clientAddressOf('127.0.0.1', '198.51.100.1', trusted)).toBe('198.51.100.1');
    expect(clientAddressOf('::ffff:127.0.0.1', 'made-up, 192.0.2.1, 198.51.100.1, 10.1.1.1', trusted)).toBe('198.51.100.1');
    expect(clientAddressOf('::1', ['192.0.2.1', '198.51.100.1'], trusted)).toBe('198.51.100.1');
    // Only proxies in the list: the first of them. Garbage where the client should be: the last proxy.
    expect(clientAddressOf('127.0.0.1', '10.0.0.5, 10.0.0.6', trusted)).toBe('10.0.0.5');
    expect(clientAddressOf('127.0.0.1', '<script>, 10.0.0.6', trusted)).toBe('10.0.0.6');
    expect(clientAddressOf('127.0.0.1', '', trusted)).toBe('127.0.0.1');
  });

  test('TRUSTED_PROXIES takes addresses and ranges, and names what it cannot read', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies(' 127.0.0.1 ,fd00::/8,, ')).toEqual(['127.0.0.1', 'fd00::/8']);
    for (const bad of ['nginx', '10.0.0.0/33', '::1/129', '1.2.3.4/8/9', '300.1.1.1'])
      expect(() => parseTrustedProxies(bad), bad).toThrow(bad);
    expect(() => receiverConfig({ TRUSTED_PROXIES: 'proxy.local' })).toThrow(/TRUSTED_PROXIES.*proxy\.local/);
    expect(receiverConfig({ TRUSTED_PROXIES: '127.0.0.1' }).trustedProxies).toEqual(['127.0.0.1']);
  });
});

describe('staff output never obeys visitor text', () => {
  test('terminal text: controls written out, line breaks and tabs as spaces', () => {
    expect(terminalText('Evil\u001B]0;t\u0007\u009B2J\u007F\nnext\tcol')).toBe('Evil\\x1B]0;t\\x07\\x9B2J\\x7F next col');
    expect(terminalText('عبدالله <a@example.com>')).toBe('عبدالله <a@example.com>');
  });

  test('CSV drops controls but keeps tabs and line breaks; JSON escapes them and reads back the same', async () => {
    expect(csvText('A\u001B[31mB\u0007\u0085C\nD\tE')).toBe('A[31mBC\nD\tE');
    expect(csvText('\u001B=cmd')).toBe("'=cmd");
    const row: StoredSubmission = {
      id: 'x',
      form: 'contact',
      receivedAt: '2026-11-01T00:00:00.000Z',
      language: 'en',
      fields: { firstName: 'A\u001B[2K\u009B\u007F' },
    };
    const out = await text(toJson([row]));
    expect(out).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/);
    expect((JSON.parse(out) as Record<string, unknown>[])[0]?.['firstName']).toBe('A\u001B[2K\u009B\u007F');
  });
});

describe('one content security policy', () => {
  test("Astro's policy keeps its directives and gains the server's that it lacks", () => {
    const merged = mergeCsp(
      "default-src 'self'; script-src 'self' 'sha256-abc'; base-uri 'self'",
      "frame-ancestors 'none'; object-src 'none'; base-uri 'none'",
    );
    expect(merged).toBe(
      "default-src 'self'; script-src 'self' 'sha256-abc'; base-uri 'self'; frame-ancestors 'none'; object-src 'none'",
    );
    expect(mergeCsp("script-src 'self'")).toContain("frame-ancestors 'none'");
  });
});
