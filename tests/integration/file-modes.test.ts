/**
 * People's data on disk is its owner's alone, whatever the umask: the SQLite database, its -wal
 * and -shm, the CV files and their folders, a backup and its manifest (0600 files in 0700
 * folders). Run as an operator would, with the loosest umask (000), through the real server and
 * the staff command.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ROOT } from '../helpers/frontmatter';
import { asForm, assertBuilt, partnerBody, tempDir } from '../helpers/server';
import { attachmentsDir, openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';

let dir: string;

beforeAll(() => {
  dir = tempDir('globaq-modes-');
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** `node` with these arguments under umask 000, as a shell with a careless profile starts it. */
function underOpenUmask(args: string[], env: Record<string, string>) {
  return spawn('sh', ['-c', 'umask 000 && exec "$@"', 'sh', process.execPath, '--disable-warning=ExperimentalWarning', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

const mode = (file: string) => (fs.statSync(file).mode & 0o777).toString(8);

test('the database, its log, the CV files and a backup are 0600 in 0700 folders under umask 000', async () => {
  assertBuilt();
  const dbPath = path.join(dir, 'state', 'submissions.db');
  const server = underOpenUmask([path.join(ROOT, 'src', 'server', 'http', 'serve.ts')], {
    HOST: '127.0.0.1',
    PORT: '0',
    SUBMISSIONS_DB: dbPath,
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  try {
    const baseUrl = await new Promise<string>((resolve, reject) => {
      let output = '';
      server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      server.once('exit', (code) => reject(new Error(`the server exited (${code}): ${output}`)));
      readline.createInterface({ input: server.stdout }).on('line', (line) => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match?.[1]) resolve(match[1]);
      });
    });
    const data = new FormData();
    for (const [name, value] of asForm(partnerBody()).entries()) if (name !== 'uploadedFiles') data.append(name, value);
    data.append(
      'uploadedFiles',
      new Blob([new TextEncoder().encode('%PDF-1.4\n% cv\n%%EOF\n')], { type: 'application/pdf' }),
      'cv.pdf',
    );
    const answer = await fetch(`${baseUrl}/api/partner`, {
      method: 'POST',
      body: data,
      headers: { Origin: baseUrl, Accept: 'application/json' },
    });
    expect(answer.status).toBe(201);

    expect(mode(path.dirname(dbPath))).toBe('700');
    expect(mode(dbPath)).toBe('600');
    expect(mode(`${dbPath}-wal`)).toBe('600');
    expect(mode(`${dbPath}-shm`)).toBe('600');
    const files = attachmentsDir(dbPath);
    expect(mode(files)).toBe('700');
    for (const name of fs.readdirSync(files)) expect(mode(path.join(files, name)), name).toBe('600');

    const backupDir = path.join(dir, 'backups', 'nightly');
    const backup = underOpenUmask([path.join(ROOT, 'src', 'server', 'cli.ts'), 'backup', backupDir, '--db', dbPath], {});
    let output = '';
    backup.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    backup.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await new Promise((resolve) => backup.once('exit', resolve)), output).toBe(0);
    expect(mode(backupDir)).toBe('700');
    for (const name of ['submissions.db', 'manifest.json']) expect(mode(path.join(backupDir, name)), name).toBe('600');
    expect(mode(path.join(backupDir, 'files'))).toBe('700');
    const copied = fs.readdirSync(path.join(backupDir, 'files'));
    expect(copied).toHaveLength(1);
    for (const name of copied) expect(mode(path.join(backupDir, 'files', name)), name).toBe('600');
  } finally {
    server.kill('SIGTERM');
    await exited;
  }
});

test('a database an older version left 0644 is narrowed to 0600 when it is next opened', async () => {
  const dbPath = path.join(dir, 'old', 'submissions.db');
  await openSqliteStore(dbPath).close();
  // As an older version left it: an ordinary file under umask 022.
  fs.chmodSync(dbPath, 0o644);
  const again = underOpenUmask([path.join(ROOT, 'src', 'server', 'cli.ts'), 'count', '--db', dbPath], {});
  expect(await new Promise((resolve) => again.once('exit', resolve))).toBe(0);
  expect(mode(dbPath)).toBe('600');
});
