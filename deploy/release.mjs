/**
 * Installs the release this file came in (an archive from `npm run release:pack`, unpacked into
 * BASE/releases/STAMP by the guide's globaq-release) and switches the site to it without a gap:
 *
 *  1. checks every file against MANIFEST.json (a damaged or altered archive stops here);
 *  2. keeps the previous release's own /_astro/ files beside this one's, so a page a visitor
 *     opened before the switch still gets its scripts and styles;
 *  3. backs the database up with the running release's code, then migrates it with this one's;
 *  4. starts this release as the other of the two instances (globaq-site@PORT and @PORT+1, PORT
 *     from the settings file), waits for its /readyz, points `current` at it, and only then
 *     stops the old instance, which finishes what it has in hand (nginx sends new requests to
 *     the instance that answers);
 *  5. appends to BASE/releases.jsonl, the history rollback and pruning read (never folder dates),
 *     and prunes releases and their backups past the newest three.
 *
 * `--rollback` switches back to the release before the current one the same way (no migration:
 * when the schema moved, it stops and names the backup to restore).
 *
 *   node deploy/release.mjs --base /srv/globaq --settings /etc/globaq/site.env
 *        [--backups /var/backups/globaq] [--systemctl systemctl] [--rollback]
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, parseEnv } from 'node:util';

const { values: opts } = parseArgs({
  options: {
    base: { type: 'string', default: '/srv/globaq' },
    settings: { type: 'string', default: '/etc/globaq/site.env' },
    backups: { type: 'string', default: '/var/backups/globaq' },
    systemctl: { type: 'string', default: 'systemctl' },
    rollback: { type: 'boolean', default: false },
    keep: { type: 'string', default: '3' },
  },
});
const base = path.resolve(opts.base);
const historyFile = path.join(base, 'releases.jsonl');
const started = Date.now();

function fail(message) {
  console.error(`release: ${message}`);
  process.exit(1);
}
const say = (message) => console.log(`release: ${message}`);

/** Runs a command, its output shown; stops the release when it fails. */
function run(command, args, what) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) fail(`${what} failed (${command} ${args.join(' ')}: exit ${result.status ?? result.signal})`);
}

const history = () =>
  fs.existsSync(historyFile)
    ? fs
        .readFileSync(historyFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : [];
const manifestOf = (dir) => JSON.parse(fs.readFileSync(path.join(dir, 'MANIFEST.json'), 'utf8'));
const nodeOf = (dir) => path.join(dir, 'node_modules/.bin/node');
const staff = (dir, args, what) =>
  run(
    nodeOf(dir),
    ['--disable-warning=ExperimentalWarning', path.join(dir, 'src/server/cli.ts'), '--settings', opts.settings, ...args],
    what,
  );

/** Switches `link` to `target` in one rename: there is never a moment without it. */
function pointLink(link, target) {
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.rmSync(`${link}.next`, { force: true });
  fs.symlinkSync(target, `${link}.next`);
  fs.renameSync(`${link}.next`, link);
}

async function ready(port) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (response.ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

const settings = parseEnv(fs.readFileSync(opts.settings, 'utf8'));
const ports = [Number(settings.PORT || 4321), Number(settings.PORT || 4321) + 1];
const past = history();
const last = past.at(-1);

let dir;
if (opts.rollback) {
  const previous = past.findLast((entry) => entry.dir !== last?.dir && fs.existsSync(entry.dir));
  if (!last || !previous) fail(`no earlier release to go back to in ${historyFile}`);
  dir = previous.dir;
  say(`rolling back from ${path.basename(last.dir)} to ${path.basename(dir)}`);
} else {
  dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const manifest = manifestOf(dir);
  const damaged = Object.entries(manifest.files).filter(([file, sum]) => {
    try {
      return (
        crypto
          .createHash('sha256')
          .update(fs.readFileSync(path.join(dir, file)))
          .digest('hex') !== sum
      );
    } catch {
      return true;
    }
  });
  if (damaged.length > 0) fail(`${damaged.length} files differ from MANIFEST.json (first: ${damaged[0][0]}): not installed`);
  say(`${manifest.version} (${manifest.commit}), ${Object.keys(manifest.files).length} files checked`);

  if (last && fs.existsSync(last.dir)) {
    // The previous release's own built assets (not those it kept from the one before).
    const assets = Object.keys(manifestOf(last.dir).files).filter((file) => file.startsWith('dist/client/_astro/'));
    for (const file of assets) {
      const to = path.join(dir, file);
      if (!fs.existsSync(to)) fs.copyFileSync(path.join(last.dir, file), to);
    }
    // The way back: a backup by the code that wrote the database, before the new code migrates it.
    const backup = path.join(opts.backups, `release-${path.basename(dir)}`);
    staff(last.dir, ['backup', backup], 'the backup');
  }
  // A database not made yet gets its schema from the server that opens it first.
  const db = settings.DATABASE_URL ? undefined : settings.SUBMISSIONS_DB;
  if (db === undefined || fs.existsSync(db)) staff(dir, ['migrate'], 'the migration');
}

const oldPort = last?.port;
const port = oldPort === ports[0] ? ports[1] : ports[0];
const unit = (p) => `globaq-site@${p}`;
pointLink(path.join(base, 'run', String(port)), dir);
const startedOk = spawnSync(opts.systemctl, ['start', unit(port)], { stdio: 'inherit' }).status === 0;
if (!startedOk || !(await ready(port))) {
  spawnSync(opts.systemctl, ['stop', unit(port)], { stdio: 'inherit' });
  const restore = opts.rollback
    ? `; if its schema is older than the database's, restore ${path.join(opts.backups, `release-${path.basename(last.dir)}`)} with it first (docs/deploy.md, "Rolling back")`
    : '';
  fail(
    `${unit(port)} did not start or become ready in 60 s${restore}; ${last ? `${unit(oldPort)} still serves ${path.basename(last.dir)}` : 'nothing serves'}`,
  );
}
pointLink(path.join(base, 'current'), dir);
run(opts.systemctl, ['enable', unit(port)], `enabling ${unit(port)}`);
if (oldPort !== undefined && oldPort !== port) {
  run(opts.systemctl, ['disable', unit(oldPort)], `disabling ${unit(oldPort)}`);
  run(opts.systemctl, ['stop', unit(oldPort)], `stopping ${unit(oldPort)}`);
}
const { version, commit } = manifestOf(dir);
fs.appendFileSync(
  historyFile,
  `${JSON.stringify({ dir, version, commit, port, at: new Date().toISOString(), rollback: opts.rollback || undefined })}\n`,
);

// The newest releases by history (the current one and those before it) stay; older ones in the
// history go, with the backups taken when installing them. A folder the history never named is
// left alone.
const dirs = [
  ...new Set(
    history()
      .map((entry) => entry.dir)
      .reverse(),
  ),
];
for (const old of dirs.slice(Number(opts.keep))) {
  fs.rmSync(old, { recursive: true, force: true });
  fs.rmSync(path.join(opts.backups, `release-${path.basename(old)}`), { recursive: true, force: true });
}
say(`${unit(port)} serves ${path.basename(dir)} (${version}, ${commit}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
