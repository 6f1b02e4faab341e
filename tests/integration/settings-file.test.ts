/**
 * The staff command reads the service's settings file when told (--settings FILE), and never
 * leaves root-owned files beside the service's database (the operator's findings in
 * docs/deploy.md), run as a real process.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';
import { ROOT } from '../helpers/frontmatter';
import { tempDir } from '../helpers/server';

let dir: string;

beforeAll(() => {
  dir = tempDir('globaq-settings-');
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The command run from a folder of its own (its default database is not there). */
function submissions(args: string[]): { code: number; output: string } {
  const clean = { ...process.env };
  delete clean['SUBMISSIONS_DB'];
  delete clean['DATABASE_URL'];
  const result = spawnSync(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', path.join(ROOT, 'src', 'server', 'cli.ts'), ...args],
    { cwd: dir, env: clean, encoding: 'utf8' },
  );
  return { code: result.status ?? 1, output: `${result.stdout}${result.stderr}` };
}

test('the command reads SUBMISSIONS_DB from the settings file --settings names, and none without it; a named file that is missing stops it', async () => {
  const dbPath = path.join(dir, 'service.db');
  const store = openSqliteStore(dbPath);
  await store.save({ form: 'contact', fields: { email: 'a@example.com' } });
  await store.close();
  const settings = path.join(dir, 'site.env');
  fs.writeFileSync(
    settings,
    `# as systemd reads it\nSUBMISSIONS_DB="${dbPath}"\nSMTP_URL="smtp://mail.example.com:587"\nLEADS_NOTIFY_TO="a@example.com"\nLEADS_NOTIFY_FROM="b@example.com"\n`,
  );
  const counted = submissions(['count', '--settings', settings]);
  expect(counted.code, counted.output).toBe(0);
  expect(counted.output).toContain('contact\t1');
  const without = submissions(['count']);
  expect(without.code).toBe(1);
  const missing = submissions([`--settings=${path.join(dir, 'nowhere.env')}`, 'count']);
  expect(missing.code).toBe(1);
  expect(missing.output).toContain('--settings: cannot read');
});

test.skipIf(typeof process.getuid !== 'function' || process.getuid() !== 0)(
  'run as root on the service user’s database, it acts as that user: nothing it writes is root’s',
  async () => {
    const folder = path.join(dir, 'state');
    fs.mkdirSync(folder);
    const dbPath = path.join(folder, 'submissions.db');
    const store = openSqliteStore(dbPath);
    await store.save({ form: 'contact', fields: { email: 'a@example.com' } });
    await store.close();
    const nobody = 65534;
    for (const file of [folder, ...fs.readdirSync(folder).map((name) => path.join(folder, name))])
      fs.chownSync(file, nobody, nobody);
    fs.chmodSync(dir, 0o755);
    const listed = submissions(['list', '--db', dbPath]);
    expect(listed.code, listed.output).toBe(0);
    // A backup made by root into the service's folder: the service's, like everything the command wrote.
    const backup = submissions(['backup', path.join(folder, 'backup'), '--db', dbPath]);
    expect(backup.code, backup.output).toBe(0);
    const written = (at: string): string[] =>
      fs
        .readdirSync(at, { withFileTypes: true })
        .flatMap((entry) => [path.join(at, entry.name), ...(entry.isDirectory() ? written(path.join(at, entry.name)) : [])]);
    const rootOwned = written(folder).filter((file) => fs.statSync(file).uid === 0);
    expect(rootOwned).toEqual([]);
    expect(fs.statSync(path.join(folder, 'backup', 'manifest.json')).uid).toBe(nobody);
  },
);
