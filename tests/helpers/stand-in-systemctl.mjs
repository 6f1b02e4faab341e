#!/usr/bin/env node
/**
 * What deploy/release.mjs asks of systemctl, for a test without systemd: `start globaq-site@PORT`
 * runs STAND_IN_BASE/run/PORT's server as the guide's template unit does (its own Node, PORT=%i,
 * `--settings` STAND_IN_SETTINGS, in the background); `stop` sends SIGTERM and waits for the exit,
 * as systemd does; `enable` and `disable` have nothing to do here.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const [command, unit = ''] = process.argv.slice(2);
const port = unit.replace(/^globaq-site@/, '');
const base = process.env.STAND_IN_BASE;
if (!base || !/^\d+$/.test(port)) {
  console.error(`stand-in systemctl: ${command} ${unit}: needs STAND_IN_BASE and globaq-site@PORT`);
  process.exit(2);
}
const pidFile = path.join(base, 'pids', port);
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

if (command === 'start') {
  const dir = path.join(base, 'run', port);
  fs.mkdirSync(path.dirname(pidFile), { recursive: true });
  const log = fs.openSync(path.join(base, `instance-${port}.log`), 'a');
  const child = spawn(
    path.join(dir, 'node_modules/.bin/node'),
    ['--disable-warning=ExperimentalWarning', 'src/server/http/serve.ts', '--settings', process.env.STAND_IN_SETTINGS ?? ''],
    { cwd: fs.realpathSync(dir), env: { ...process.env, PORT: port }, detached: true, stdio: ['ignore', log, log] },
  );
  fs.writeFileSync(pidFile, String(child.pid));
  child.unref();
} else if (command === 'stop') {
  const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0;
  if (pid && alive(pid)) {
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 30_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
  fs.rmSync(pidFile, { force: true });
} else if (command !== 'enable' && command !== 'disable') {
  console.error(`stand-in systemctl: ${command} is not one the release uses`);
  process.exit(2);
}
