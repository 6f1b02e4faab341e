/**
 * The settings file is read only when a process is told (`--settings FILE`; the systemd unit gives
 * it to the server as EnvironmentFile=), never from a default path: on a machine that has the
 * operator's /etc/globaq/site.env (with the real database and SMTP account in it), `npm start` or
 * `npm run submissions` in another checkout reads none of it. Told, every setting of the file is
 * read, PORT included.
 *
 * The machine's /etc is not touched: a run "on the operator's machine" gets a private mount
 * namespace (unshare) with an overlay on /etc, in which /etc/globaq/site.env names a database of
 * the test's. Those runs need root and util-linux's unshare, as CI has.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';
import { ROOT } from '../helpers/frontmatter';
import { assertBuilt, tempDir } from '../helpers/server';
import { freePort } from '../helpers/smtp';

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const canIsolate = isRoot && spawnSync('unshare', ['--mount', 'true']).status === 0;
const node = [process.execPath, '--disable-warning=ExperimentalWarning'];
const SERVE = [...node, path.join(ROOT, 'src', 'server', 'http', 'serve.ts')];
const CLI = [...node, path.join(ROOT, 'src', 'server', 'cli.ts')];

let dir: string;

beforeAll(() => {
  dir = tempDir('globaq-operator-');
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The environment of a shell a developer types in: none of the tests' own settings. */
function developerEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of ['HOST', 'PORT', 'SUBMISSIONS_DB', 'DATABASE_URL', 'SMTP_URL']) delete env[name];
  return env;
}

/** `command`, run where /etc/globaq/site.env exists (a private overlay on /etc) and holds `settings`. */
function withOperatorSettings(command: string[], settings: string): string[] {
  const upper = fs.mkdtempSync(path.join(dir, 'upper-'));
  const work = fs.mkdtempSync(path.join(dir, 'work-'));
  // What the upper layer holds is in the overlay's /etc.
  fs.mkdirSync(path.join(upper, 'globaq'));
  fs.writeFileSync(path.join(upper, 'globaq', 'site.env'), settings);
  const script = `mount -t overlay overlay -o lowerdir=/etc,upperdir=${upper},workdir=${work} /etc && exec "$@"`;
  return ['unshare', '--mount', '--propagation', 'private', 'sh', '-c', script, 'sh', ...command];
}

/** Starts the server `command` runs, waits until it listens and answers, stops it: its port and log. */
async function serve(command: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ port: number; output: string }> {
  const [bin, ...args] = command;
  const child = spawn(bin!, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once('exit', (code, signal) => reject(new Error(`the server exited (${code ?? signal}):\n${output}`)));
      readline.createInterface({ input: child.stdout }).on('line', (line) => {
        output += `${line}\n`;
        const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
        if (match) resolve(Number(match[1]));
      });
    });
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    return { port, output };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

test('PORT in the settings file --settings names is the port the server listens on', async () => {
  assertBuilt();
  const port = await freePort();
  const settings = path.join(dir, 'told.env');
  fs.writeFileSync(settings, `PORT="${port}"\nSUBMISSIONS_DB="${path.join(dir, 'told.db')}"\n`);
  const served = await serve([...SERVE, '--settings', settings], dir, developerEnv());
  expect(served.port).toBe(port);
  expect(served.output).toContain(`stored in ${path.join(dir, 'told.db')}`);
});

test.skipIf(!canIsolate)(
  'on a machine with /etc/globaq/site.env, the server and the staff command of another checkout read none of it unless told',
  async () => {
    assertBuilt();
    const operatorDb = path.join(dir, 'operator.db');
    const store = openSqliteStore(operatorDb);
    await store.save({ form: 'contact', fields: { email: 'a@example.com' } });
    await store.close();
    const port = await freePort();
    const settings = [
      `PORT="${port}"`,
      `SUBMISSIONS_DB="${operatorDb}"`,
      'SMTP_URL="smtp://127.0.0.1:9"',
      'LEADS_NOTIFY_TO="staff@example.com"',
      'LEADS_NOTIFY_FROM="website@example.com"',
      '',
    ].join('\n');
    const checkout = fs.mkdtempSync(path.join(dir, 'checkout-'));
    const ownDb = path.join(checkout, 'data', 'submissions.db');
    const command = (args: string[]) => {
      const [bin, ...rest] = withOperatorSettings([...CLI, ...args], settings);
      return spawnSync(bin!, rest, { cwd: checkout, env: developerEnv(), encoding: 'utf8' });
    };

    // The staff command looks for the checkout's own database, which does not exist; told, it counts the operator's.
    const untold = command(['count']);
    expect(untold.status).toBe(1);
    expect(untold.stderr).toContain(`No submissions database at ${ownDb}`);
    const told = command(['--settings', '/etc/globaq/site.env', 'count']);
    expect(told.status, told.stderr).toBe(0);
    expect(told.stdout).toContain('contact\t1');

    // The server as `npm start` starts it (on a free port: 4321 may be taken): its own database, no
    // mail; told, the file's port, database and mail.
    const untoldServer = await serve(withOperatorSettings(SERVE, settings), checkout, { ...developerEnv(), PORT: '0' });
    expect(untoldServer.output).toContain(`stored in ${ownDb}`);
    expect(untoldServer.output).toContain('Lead notifications are off');
    const toldServer = await serve(
      withOperatorSettings([...SERVE, '--settings', '/etc/globaq/site.env'], settings),
      checkout,
      developerEnv(),
    );
    expect(toldServer.port).toBe(port);
    expect(toldServer.output).toContain(`stored in ${operatorDb}`);
    expect(toldServer.output).toContain('Lead notifications are e-mailed to staff@example.com');
  },
);
