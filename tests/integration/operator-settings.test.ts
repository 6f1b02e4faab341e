/**
 * A test run on a machine that has the operator's settings file (/etc/globaq/site.env, with the
 * real SMTP account in it) mails nobody: only the server and the staff command read that file,
 * and every test and script that starts them says GLOBAQ_SETTINGS=none.
 *
 * The machine's /etc is not touched: each run gets a private mount namespace (unshare) with an
 * overlay on /etc, in which /etc/globaq/site.env names a loopback SMTP server of the test's. The
 * control proves the overlay works: the real server started there (as `npm start` starts it)
 * reads the file and mails a lead. Needs root and util-linux's unshare, as CI has.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ROOT } from '../helpers/frontmatter';
import { assertBuilt, contactBody, postJson, tempDir } from '../helpers/server';
import { startSmtp, type MailSink } from '../helpers/smtp';
import { until } from '../helpers/wait';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const canIsolate = isRoot && spawnSync('unshare', ['--mount', 'true']).status === 0;

let dir: string;
let smtp: MailSink;

/** The environment of a shell a developer types in: none of the tests' own settings. */
function developerEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'GLOBAQ_SETTINGS',
    'SUBMISSIONS_DB',
    'DATABASE_URL',
    'SMTP_URL',
    'VITEST',
    'VITEST_WORKER_ID',
    'VITEST_POOL_ID',
    'TEST',
    'NODE_ENV',
  ])
    delete env[name];
  return env;
}

/**
 * Runs `command` where /etc/globaq/site.env exists (a private overlay on /etc) and holds `settings`,
 * in a process group of its own: whatever it starts is in that group (`groupEnded`).
 */
function withOperatorSettings(command: string[], settings: string) {
  const upper = fs.mkdtempSync(path.join(dir, 'upper-'));
  const work = fs.mkdtempSync(path.join(dir, 'work-'));
  fs.writeFileSync(path.join(dir, 'site.env'), settings);
  const script = `mount -t overlay overlay -o lowerdir=/etc,upperdir=${upper},workdir=${work} /etc && mkdir -p /etc/globaq && cp ${path.join(dir, 'site.env')} /etc/globaq/site.env && exec "$@"`;
  return spawn('unshare', ['--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', ...command], {
    cwd: ROOT,
    env: developerEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
}

/** Whether no process of the group `pid` leads is left (the command and everything it started). */
function groupEnded(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return true;
    throw error;
  }
}

beforeAll(async () => {
  dir = tempDir('globaq-operator-');
  if (canIsolate) smtp = await startSmtp();
});

afterAll(async () => {
  await smtp?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function settingsFile(dbPath: string): string {
  return [
    `SUBMISSIONS_DB=${dbPath}`,
    `SMTP_URL=${smtp.url}`,
    'LEADS_NOTIFY_TO=staff@example.com',
    'LEADS_NOTIFY_FROM=website@example.com',
    'ALTCHA_COST=1',
    'ALTCHA_MAX_NUMBER=100',
    'SUBMISSIONS_MIN_SECONDS=0',
    '',
  ].join('\n');
}

test.skipIf(!canIsolate)(
  'control: the server started as npm start does reads /etc/globaq/site.env and mails a lead through its SMTP',
  async () => {
    assertBuilt();
    const before = smtp.mails.length;
    const child = withOperatorSettings(
      [process.execPath, '--disable-warning=ExperimentalWarning', path.join(ROOT, 'src', 'server', 'http', 'serve.ts')],
      settingsFile(path.join(dir, 'operator.db')),
    );
    child.stdout.pipe(process.stderr, { end: false });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      let output = '';
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const baseUrl = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${output}`)));
        readline.createInterface({ input: child.stdout }).on('line', (line) => {
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
          if (match?.[1]) resolve(match[1]);
        });
      });
      const response = await postJson(baseUrl, '/api/contact', contactBody());
      expect(response.status).toBe(201);
      await smtp.waitFor(before + 1);
      expect(smtp.mails.at(-1)?.recipients).toEqual(['staff@example.com']);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  },
);

test.skipIf(!canIsolate)(
  'a test run on that machine reads no settings file: leads stored through the real server, no mail sent',
  async () => {
    const before = smtp.mails.length;
    const child = withOperatorSettings(
      [
        process.execPath,
        path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        'tests/integration/receiver-defects.test.ts',
        '--reporter=dot',
      ],
      settingsFile(path.join(dir, 'operator.db')),
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(0);
    expect(output.replace(/\u001b\[[0-9;]*m/g, '')).toMatch(/Tests\s+\d+ passed/);
    // Every server the run started has ended (its group is empty) and the mail server has no
    // client and no mail half-received: a server that read the file can send nothing more.
    await until(() => groupEnded(child.pid!) && smtp.idle());
    expect(smtp.mails.length - before, 'mails sent through the operator’s SMTP by a test run').toBe(0);
  },
  // A whole vitest run of its own, with a server per test: minutes on a busy machine.
  240_000,
);
