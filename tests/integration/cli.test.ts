/** The staff command (`npm run submissions -- ...`) on a real database in a temporary folder. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/server/cli';
import { CSV_BOM } from '../../src/server/inbox/export-format';
import { composeLeadNotice } from '../../src/server/mail/lead-mail';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';
import { DatabaseSync } from 'node:sqlite';
import os from 'node:os';
import { ROOT } from '../helpers/frontmatter';
import { contactBody, partnerBody, tempDir } from '../helpers/server';

let dir: string;
let dbPath: string;

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { SUBMISSIONS_DB: dbPath },
    root: dir,
    cwd: dir,
  });
  return { code, stdout, stderr };
}

/** Parses our RFC 4180 output (every cell quoted) back into rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

beforeAll(async () => {
  dir = tempDir('globaq-cli-');
  dbPath = path.join(dir, 'submissions.db');
  const store = openSqliteStore(dbPath);
  const at = (day: number) => new Date(Date.UTC(2026, 10, day, 9, 0, 0));
  await store.save({
    form: 'contact',
    fields: contactBody({
      firstName: 'عبدالله',
      lastName: 'الشمري',
      company: '=HYPERLINK("http://evil.example","x")',
      message: 'Line one\nLine "two", with a comma',
    }),
    receivedAt: at(1),
  });
  await store.save({
    form: 'contact',
    fields: contactBody({ firstName: '@SUM(1+1)', lastName: '-2+3', city: '\tTabbed', country: '\rReturn', message: '+cmd' }),
    receivedAt: at(10),
  });
  await store.save({ form: 'contact', fields: contactBody({ firstName: 'Spam' }), receivedAt: at(11), bot: true });
  await store.save({ form: 'partner', fields: partnerBody(), receivedAt: at(12) });
  await store.close();
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('export', () => {
  test('CSV: UTF-8 with BOM, Arabic intact, one column per field, formulas neutralised, bots left out', async () => {
    const { code, stdout, stderr } = await run('export', '--form', 'contact', '--format', 'csv');
    expect(code).toBe(0);
    expect(stderr).toMatch(/^2 contact submissions exported/);
    expect(stdout.startsWith(CSV_BOM)).toBe(true);
    const [header, first, second, ...rest] = parseCsv(stdout.slice(1));
    expect(rest).toEqual([]);
    // The inbox export's columns, in staff's words (tests/integration/inbox-http.test.ts holds the web's to the same).
    expect(header).toEqual([
      'Lead ID',
      'Received (Riyadh time)',
      'Form',
      'Language',
      'Status',
      'Status set by',
      'Assigned to',
      'First answered (Riyadh time)',
      'Follow-up on',
      'Latest note',
      'First Name',
      'Last Name',
      'Email',
      'Country',
      'City',
      'Company',
      'Message',
      'Sent (visitor’s clock, UTC)',
      'Sent (visitor’s clock, as text)',
    ]);
    const cell = (row: string[] | undefined, column: string) => row?.[header?.indexOf(column) ?? -1];
    expect(cell(first, 'First Name')).toBe('عبدالله');
    expect(cell(first, 'Received (Riyadh time)')).toBe('2026-11-01 12:00 +03:00');
    expect(cell(first, 'Form')).toBe('Contact message');
    expect(cell(first, 'Language')).toBe('English');
    expect(cell(first, 'Status')).toBe('New');
    expect(cell(first, 'Company')).toBe('\'=HYPERLINK("http://evil.example","x")');
    expect(cell(first, 'Message')).toBe('Line one\nLine "two", with a comma');
    expect(cell(second, 'First Name')).toBe("'@SUM(1+1)");
    expect(cell(second, 'Last Name')).toBe("'-2+3");
    expect(cell(second, 'City')).toBe("'\tTabbed");
    expect(cell(second, 'Country')).toBe("'\rReturn");
    expect(cell(second, 'Message')).toBe("'+cmd");
    expect(stdout).not.toContain('Spam');
  });

  test('JSON: values exactly as stored; --since filters; --out writes the file', async () => {
    const out = path.join(dir, 'contacts.json');
    const { code, stdout, stderr } = await run(
      'export',
      '--form',
      'contact',
      '--format',
      'json',
      '--since',
      '2026-11-05',
      '--out',
      'contacts.json',
    );
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(stderr).toContain(`1 contact submission exported to ${out}`);
    const rows = JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ receivedAt: '2026-11-10T09:00:00.000Z', firstName: '@SUM(1+1)', city: '\tTabbed' });
    expect(fs.readdirSync(dir).filter((name) => name.includes('.partial-'))).toEqual([]);
  });

  test('partner CSV: lists joined, numbers as numbers, an empty number empty, the phone as text in E.164', async () => {
    const { stdout } = await run('export', '--form', 'partner', '--format', 'csv');
    const [header, row] = parseCsv(stdout.slice(1));
    const cell = (column: string) => row?.[header?.indexOf(column) ?? -1];
    expect(cell('Services You Would Like to Offer')).toBe('Training Courses; Inspection Services');
    expect(cell('Years in Business')).toBe('7');
    expect(cell('Number of Employees')).toBe('');
    expect(cell('Phone Number')).toBe('="+966501234567"');
  });

  test('--bots exports what the honeypot caught, and only that', async () => {
    const { stdout } = await run('export', '--form', 'contact', '--format', 'json', '--bots');
    expect((JSON.parse(stdout) as { firstName: string }[]).map((row) => row.firstName)).toEqual(['Spam']);
  });
});

describe('list and count', () => {
  test('count per form, or for one form; --since; --bots', async () => {
    expect((await run('count')).stdout).toBe('contact\t2\npartner\t1\n');
    expect((await run('count', '--form', 'contact', '--since', '2026-11-05T00:00:00+03:00')).stdout).toBe('contact\t1\n');
    expect((await run('count', '--bots')).stdout).toBe('contact\t1\npartner\t0\n');
  });

  test('list: newest first, one line each', async () => {
    const { stdout } = await run('list', '--limit', '2');
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^2026-11-12T09:00:00.000Z {2}partner {2}[0-9a-f-]{36} {2}Aisha Al-Qahtani, Eastern Quality Training <aisha@example.com>$/,
    );
    expect(lines[1]).toMatch(/^2026-11-10T09:00:00.000Z {2}contact /);
  });
});

describe('spam', () => {
  test('one Spam, as in the inbox: a held lead marked as spam is left out as spam (--include-spam takes it in), a lead still held only with --with-held', async () => {
    const store = openSqliteStore(dbPath);
    await store.save({
      form: 'contact',
      fields: contactBody({ firstName: 'Held' }),
      receivedAt: new Date(Date.UTC(2026, 10, 13, 9)),
      held: 'noProof',
    });
    await store.close();
    const db = new DatabaseSync(dbPath);
    try {
      expect((db.prepare("SELECT count(*) AS n FROM submissions WHERE review = 'held'").get() as { n: number }).n).toBe(1);
      expect((await run('count')).stdout).toBe('contact\t2\npartner\t1\n');
      expect((await run('count', '--with-held')).stdout).toBe('contact\t3\npartner\t1\n');
      expect((await run('count', '--include-spam')).stdout).toBe('contact\t2\npartner\t1\n');
      // Marked as spam on the held tab (what markSpam stores): spam like any other.
      db.prepare("UPDATE submissions SET review = 'spam', status = 'spam' WHERE review = 'held'").run();
      expect((await run('count')).stdout).toBe('contact\t2\npartner\t1\n');
      expect((await run('count', '--with-held')).stdout).toBe('contact\t2\npartner\t1\n');
      expect((await run('count', '--include-spam')).stdout).toBe('contact\t3\npartner\t1\n');
      expect((await run('list', '--include-spam')).stdout.split('\n').filter(Boolean)).toHaveLength(4);
    } finally {
      db.prepare('DELETE FROM submissions WHERE review IS NOT NULL').run();
      db.close();
    }
  });

  test('list, count and export leave out the leads staff marked as spam, unless --include-spam', async () => {
    const db = new DatabaseSync(dbPath);
    try {
      db.prepare(
        "INSERT INTO staff (email, password_hash, created_at, password_changed_at) VALUES ('omar@globaq.example', 'scrypt$x', '2026-11-01T00:00:00.000Z', '2026-11-01T00:00:00.000Z')",
      ).run();
      db.prepare(
        "UPDATE submissions SET status = 'spam', status_by = 'huda@globaq.example', assigned_to = 'omar@globaq.example' WHERE form = 'partner'",
      ).run();
      expect((await run('count')).stdout).toBe('contact\t2\npartner\t0\n');
      expect((await run('count', '--include-spam')).stdout).toBe('contact\t2\npartner\t1\n');
      expect((await run('list')).stdout).not.toContain('partner');
      expect((await run('list', '--include-spam')).stdout).toMatch(/ partner {2}/);
      expect((await run('export', '--form', 'partner', '--format', 'csv')).stderr).toMatch(/^0 partner submissions exported/);
      const { stdout } = await run('export', '--form', 'partner', '--format', 'csv', '--include-spam');
      const [header, row] = parseCsv(stdout.slice(1));
      expect(row?.[header?.indexOf('Status') ?? -1]).toBe('Spam');
      expect(row?.[header?.indexOf('Status set by') ?? -1]).toBe('huda@globaq.example');
      // The assignment, as the inbox's export writes it (the same columns from both).
      expect(row?.[header?.indexOf('Assigned to') ?? -1]).toBe('omar@globaq.example');
      expect((await run('export', '--form', 'partner', '--format', 'json')).stdout).toBe('[]\n');
    } finally {
      db.prepare("UPDATE submissions SET status = 'new', status_by = NULL, assigned_to = NULL").run();
      db.prepare("DELETE FROM staff WHERE email = 'omar@globaq.example'").run();
      db.close();
    }
  });
});

describe('mistakes', () => {
  test('a wrong option or value exits 2 with the usage; nothing is opened or created', async () => {
    for (const argv of [
      [],
      ['export'],
      ['export', '--form', 'contact'],
      ['export', '--form', 'leads', '--format', 'csv'],
      ['export', '--form', 'contact', '--format', 'xlsx'],
      ['count', '--since', 'last week'],
      ['list', '--limit', '0'],
      ['frobnicate'],
      ['count', '--colour'],
    ]) {
      const { code, stderr } = await run(...argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(stderr, argv.join(' ')).toContain('Usage: npm run submissions');
    }
  });

  test('a missing database is an error, not a new empty file', async () => {
    const { code, stderr } = await run('count', '--db', 'nowhere.db');
    expect(code).toBe(1);
    expect(stderr).toContain('No submissions database at');
    expect(fs.existsSync(path.join(dir, 'nowhere.db'))).toBe(false);
  });
});

test('npm run submissions runs the command, from the project folder, on the database SUBMISSIONS_DB names', () => {
  const out = path.join(dir, 'via-npm.csv');
  const result = spawnSync(
    'npm',
    ['run', '--silent', 'submissions', '--', 'export', '--form', 'contact', '--format', 'csv', '--out', out],
    {
      cwd: ROOT,
      env: { ...process.env, SUBMISSIONS_DB: dbPath },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  expect(result.status, result.stderr).toBe(0);
  expect(result.stderr).not.toContain('ExperimentalWarning');
  expect(fs.readFileSync(out, 'utf8').startsWith(`${CSV_BOM}"Lead ID","Received (Riyadh time)","Form","Language","Status"`)).toBe(
    true,
  );
});

describe('the audit log', () => {
  test('export, delete, purge and staff add/password/remove are recorded, the actor the operating-system user; a lead by its id only', async () => {
    const actor = `${os.userInfo().username} (staff command)`;
    const store = openSqliteStore(dbPath);
    const doomed = await store.save({
      form: 'contact',
      fields: contactBody({ firstName: 'Layla', lastName: 'Doomed', email: 'layla@example.com' }),
      receivedAt: new Date(Date.UTC(2026, 10, 13)),
    });
    await store.close();
    const secret = { readSecret: async () => 'a long enough password', interactive: false };
    const runWith = async (...argv: string[]) =>
      main(argv, {
        stdout: () => undefined,
        stderr: () => undefined,
        env: { SUBMISSIONS_DB: dbPath },
        root: dir,
        cwd: dir,
        ...secret,
      });
    expect(await runWith('export', '--form', 'partner', '--format', 'json', '--out', path.join(dir, 'partner.json'))).toBe(0);
    expect(await runWith('delete', doomed.id)).toBe(0);
    expect(await runWith('purge', '--older-than', '100y')).toBe(0);
    expect(await runWith('staff', 'add', 'huda@globaq.example')).toBe(0);
    expect(await runWith('staff', 'password', 'huda@globaq.example')).toBe(0);
    expect(await runWith('staff', 'remove', 'huda@globaq.example')).toBe(0);
    // The newest six: this test's (the exports of the tests above come before).
    const db = new DatabaseSync(dbPath);
    let entries: { actor: string; action: string; leadId: string | null; detail: string }[];
    try {
      entries = db
        .prepare('SELECT actor, action, lead_id AS leadId, detail FROM audit_log ORDER BY seq DESC LIMIT 6')
        .all() as typeof entries;
    } finally {
      db.close();
    }
    expect(entries.map((entry) => [entry.actor, entry.action])).toEqual(
      [
        'removed staff account',
        'set staff password',
        'added staff account',
        'purged leads',
        'deleted lead',
        'exported leads',
      ].map((action) => [actor, action]),
    );
    expect(entries.find((entry) => entry.action === 'exported leads')?.detail).toMatch(
      /partner submissions as JSON.*: 1 exported$/,
    );
    expect(entries.find((entry) => entry.action === 'deleted lead')?.leadId).toBe(doomed.id);
    expect(JSON.stringify(entries)).not.toMatch(/Layla|Doomed|layla@example\.com/);
  });
});

describe('the actor, through the real command', () => {
  /** `npm run submissions -- ...` as a person who typed it through sudo (SUDO_USER). */
  function typed(env: Record<string, string>, ...argv: string[]) {
    const result = spawnSync('npm', ['run', '--silent', 'submissions', '--', ...argv], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status, `${argv.join(' ')}: ${result.stderr}`).toBe(0);
    return result;
  }

  const entriesOf = (file: string) => {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return db.prepare('SELECT actor, action, lead_id AS leadId, detail FROM audit_log ORDER BY seq').all() as {
        actor: string;
        action: string;
        leadId: string | null;
        detail: string;
      }[];
    } finally {
      db.close();
    }
  };

  test('every command that reads or changes leads or accounts is recorded under the person behind sudo, not the service', async () => {
    const own = tempDir('globaq-cli-actor-');
    try {
      const file = path.join(own, 'submissions.db');
      const store = openSqliteStore(file);
      const { id } = await store.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Layla', lastName: 'Private', email: 'layla@example.com' }),
        receivedAt: new Date(),
        notice: composeLeadNotice,
      });
      await store.close();
      const amal = { SUDO_USER: 'amal' };
      const db = ['--db', file];
      typed(amal, 'list', ...db);
      typed(amal, 'count', ...db);
      typed(amal, 'held', ...db);
      typed(amal, 'outbox', ...db);
      typed(amal, 'outbox', 'retry', id, ...db);
      typed(amal, 'staff', 'list', ...db);
      typed(amal, 'backup', path.join(own, 'backup'), ...db);
      expect(entriesOf(file).map((entry) => [entry.actor, entry.action])).toEqual(
        [
          'listed leads',
          'counted leads',
          'listed held leads',
          'listed undelivered notifications',
          'queued a notification again',
          'listed staff accounts',
          'backed up the database',
        ].map((action) => ['amal (staff command)', action]),
      );
      expect(entriesOf(file).find((entry) => entry.action === 'queued a notification again')?.leadId).toBe(id);
      expect(JSON.stringify(entriesOf(file))).not.toMatch(/Layla|Private|layla@example\.com/);
      // Restored elsewhere: the entry is in the database restored, the one read from then on.
      // Without sudo, the login user names it.
      const restored = path.join(own, 'restored', 'submissions.db');
      fs.mkdirSync(path.dirname(restored));
      typed({ SUDO_USER: '' }, 'restore', path.join(own, 'backup'), '--db', restored);
      expect(entriesOf(restored).at(-1)).toMatchObject({
        actor: `${os.userInfo().username} (staff command)`,
        action: 'restored the database',
      });
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  }, 180_000);
});
