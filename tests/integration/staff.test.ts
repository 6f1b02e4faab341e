/**
 * Staff accounts for the inbox: made, listed, re-passworded and removed
 * with the staff command on a real database; passwords kept only as salted scrypt hashes.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { main } from '../../src/server/cli';
import { openSqliteStore, openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword, passwordProblem, staffEmail, verifyPassword } from '../../src/server/inbox/staff';
import { ROOT } from '../helpers/frontmatter';
import { tempDir } from '../helpers/server';

let dir: string;
let dbPath: string;

beforeEach(async () => {
  dir = tempDir('globaq-staff-');
  dbPath = path.join(dir, 'submissions.db');
  await openSqliteStore(dbPath).close();
});

afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The command with the passwords a person would type, in order; `interactive` as at a terminal. */
async function staff(
  argv: string[],
  secrets: string[] = [],
  interactive = true,
): Promise<{ code: number; out: string; asked: string[] }> {
  let out = '';
  const asked: string[] = [];
  const code = await main(['staff', ...argv, '--db', dbPath], {
    stdout: (t) => (out += t),
    stderr: (t) => (out += t),
    env: {},
    root: dir,
    cwd: dir,
    interactive,
    readSecret: async (prompt) => {
      asked.push(prompt);
      return secrets.shift() ?? '';
    },
  });
  return { code, out, asked };
}

const GOOD = 'correct horse battery staple';

describe('passwords', () => {
  test('a hash checks its own password only; it carries its salt and parameters; two hashes of one password differ', async () => {
    const hash = await hashPassword(GOOD);
    expect(hash).toMatch(/^scrypt\$65536\$8\$2\$[A-Za-z0-9+/=]{24}\$[A-Za-z0-9+/=]{44}$/);
    expect(await verifyPassword(GOOD, hash)).toBe(true);
    expect(await verifyPassword(`${GOOD}!`, hash)).toBe(false);
    expect(await verifyPassword(GOOD, await hashPassword(GOOD))).toBe(true);
    expect(await hashPassword(GOOD)).not.toBe(hash);
  }, 120_000);

  test('a tampered or malformed hash never verifies, and absurd parameters are not run', async () => {
    const hash = await hashPassword(GOOD);
    const parts = hash.split('$');
    expect(await verifyPassword(GOOD, [...parts.slice(0, 5), Buffer.alloc(32).toString('base64')].join('$'))).toBe(false);
    expect(await verifyPassword(GOOD, ['scrypt', 2 ** 30, 8, 1, parts[4], parts[5]].join('$'))).toBe(false);
    for (const bad of ['', 'plain', 'bcrypt$x', '$$$$$']) expect(await verifyPassword(GOOD, bad)).toBe(false);
  }, 120_000);

  test('at least 12 characters, not only spaces, at most 1024', () => {
    expect(passwordProblem('short pass1')).toBe('A password needs at least 12 characters.');
    expect(passwordProblem(' '.repeat(20))).toBe('A password cannot be only spaces.');
    expect(passwordProblem('x'.repeat(1025))).toBe('A password may have at most 1024 characters.');
    expect(passwordProblem('كلمة مرور طويلة')).toBeUndefined();
  });

  test('e-mail addresses are stored trimmed and lower-case', () => {
    expect(staffEmail('  Sara@Globaq.Example ')).toBe('sara@globaq.example');
    expect(() => staffEmail('sara')).toThrow('"sara" is not an e-mail address.');
  });
});

describe('npm run submissions -- staff', () => {
  test('add asks twice at a terminal, stores only a hash, and list shows the account without it', async () => {
    const added = await staff(['add', 'Sara@Globaq.example'], [GOOD, GOOD]);
    expect(added).toMatchObject({ code: 0, out: 'Made an account for sara@globaq.example.\n' });
    expect(added.asked).toHaveLength(2);
    const listed = await staff(['list']);
    expect(listed.out).toMatch(
      /^sara@globaq\.example {2}created \d{4}-.* {2}password set \d{4}-.* {2}password only \(no two-step\)$/m,
    );
    expect(listed.out).not.toContain('scrypt');
    // Nowhere in the database file (nor its write-ahead log) is the password itself.
    for (const file of fs.readdirSync(dir))
      expect(fs.readFileSync(path.join(dir, file)).includes(Buffer.from(GOOD)), file).toBe(false);
    const accounts = openStaffStore(dbPath);
    expect(await verifyPassword(GOOD, (await accounts.passwordHash('sara@globaq.example')) ?? '')).toBe(true);
    // Once the account has set up two-step sign-in, the list says since when.
    await accounts.enrolTwoStep('sara@globaq.example', 'sealed', 1, [], new Date('2026-12-01T08:00:00Z'));
    await accounts.close();
    expect((await staff(['list'])).out).toMatch(/^sara@globaq\.example .* {2}two-step since 2026-12-01T08:00/m);
  }, 120_000);

  test('piped in, the password is read once from standard input', async () => {
    const added = await staff(['add', 'omar@globaq.example'], [GOOD], false);
    expect(added.code).toBe(0);
    expect(added.asked).toHaveLength(1);
  }, 120_000);

  test('refused: a short password, two that differ, a second account for one address; nothing is stored', async () => {
    expect(await staff(['add', 'sara@globaq.example'], ['too short'])).toMatchObject({ code: 2 });
    expect((await staff(['add', 'sara@globaq.example'], [GOOD, `${GOOD}.`])).out).toContain(
      'The two passwords differ: nothing was changed.',
    );
    expect((await staff(['list'])).out).toContain('No staff accounts yet');
    await staff(['add', 'sara@globaq.example'], [GOOD, GOOD]);
    const again = await staff(['add', 'SARA@globaq.example'], [GOOD, GOOD]);
    expect(again.code).toBe(1);
    expect(again.out).toContain('There is already an account for sara@globaq.example');
    expect((await staff(['add', 'not-an-address'])).code).toBe(2);
  }, 120_000);

  test('password changes the password; remove removes the account', async () => {
    await staff(['add', 'sara@globaq.example'], [GOOD, GOOD]);
    const changed = await staff(['password', 'sara@globaq.example'], ['another long passphrase', 'another long passphrase']);
    expect(changed.out).toBe('Set a new password for sara@globaq.example.\n');
    const accounts = openStaffStore(dbPath);
    const hash = (await accounts.passwordHash('sara@globaq.example')) ?? '';
    await accounts.close();
    expect(await verifyPassword('another long passphrase', hash)).toBe(true);
    expect(await verifyPassword(GOOD, hash)).toBe(false);
    expect((await staff(['password', 'nobody@globaq.example'], [GOOD, GOOD])).code).toBe(1);
    expect((await staff(['remove', 'sara@globaq.example'])).out).toBe('Removed the account of sara@globaq.example.\n');
    expect((await staff(['remove', 'sara@globaq.example'])).code).toBe(1);
  }, 60_000);

  test('the real command reads a piped password (npm run submissions -- staff add)', () => {
    const run = spawnSync(
      process.execPath,
      [
        '--disable-warning=ExperimentalWarning',
        path.join(ROOT, 'src/server/cli.ts'),
        'staff',
        'add',
        'huda@globaq.example',
        '--db',
        dbPath,
      ],
      {
        input: `${GOOD}\n`,
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toBe('Made an account for huda@globaq.example.\n');
    expect(run.status).toBe(0);
  }, 120_000);
});
