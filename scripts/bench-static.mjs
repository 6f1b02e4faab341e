/**
 * `npm run bench:static`: what the build's precompressed files (`.br` and `.gz` beside each text
 * file, src/integrations/precompress.ts) save the site's own server, measured as time to first
 * byte (figures, not a test).
 *
 * The built site is served by its own server (src/server/http/serve.ts) two ways, alternating,
 * each on a freshly started process:
 * - `precompressed`: the build as it is; the server (sirv) answers from the twins;
 * - `uncompressed`: the twins moved aside for the run; the server sends each file as it is
 *   (it compresses nothing itself), so `cold not br` counts every file.
 * For each, two phases, both asking for Brotli as a browser does:
 * 1. `cold`: every text file of the build (pages, stylesheets, scripts, the sitemap) asked for
 *    once, BENCH_CONCURRENCY (16) at a time, on a server that has served nothing yet: a deploy
 *    or a restart with visitors already arriving. Time to first byte per file: p50, p95, max.
 * 2. `load`: every page asked for again and again by BENCH_CONNECTIONS (50) connections for
 *    BENCH_DURATION (10) seconds, right after the cold pass (autocannon): requests/s, p50, p99.
 * The twins are put back when the run ends, however it ends.
 *
 * Machines here are shared and noisy: compare the two ways within one run, not runs with each other.
 * BENCH_ROUNDS (2) sets how many times each way is measured.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBuilt } from './ensure-built.mjs';
import autocannon from 'autocannon';
import { COMPRESSIBLE_TYPES, EXTENSION, MIN_BYTES } from '../src/lib/compressible.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const client = path.join(root, 'dist', 'client');
const rounds = Number(process.env.BENCH_ROUNDS || 2);
const concurrency = Number(process.env.BENCH_CONCURRENCY || 16);
const connections = Number(process.env.BENCH_CONNECTIONS || 50);
const duration = Number(process.env.BENCH_DURATION || 10);

ensureBuilt(root);

/** Every file under dir, relative, with forward slashes. */
function walk(dir, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = `${prefix}/${entry.name}`;
    return entry.isDirectory() ? walk(path.join(dir, entry.name), relative) : [relative];
  });
}
const files = walk(client);
const twins = files.filter((file) => file.endsWith(EXTENSION.br) || file.endsWith(EXTENSION.gzip));
if (twins.length === 0) {
  console.error('The build has no precompressed files: run `npm run build` (src/integrations/precompress.ts writes them).');
  process.exit(1);
}
/** The text files worth compressing, as the addresses the server answers them at ("/AboutUs", "/_astro/x.css"). */
const textFiles = files
  .filter((file) => COMPRESSIBLE_TYPES.has(path.extname(file)) && fs.statSync(path.join(client, file)).size >= MIN_BYTES)
  .map((file) => (file === '/index.html' ? '/' : file.replace(/\/index\.html$/, '/').replace(/\.html$/, '')))
  .filter((address) => address !== '/404');
const pages = textFiles.filter((address) => !/\.\w+$/.test(address));

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** The site's own server on a free loopback port, with a throwaway database; resolves once /healthz answers. */
async function startServer(dbDir) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(root, 'src/server/http/serve.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SUBMISSIONS_DB: path.join(dbDir, `${port}.db`),
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, child };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  child.kill();
  throw new Error('The server did not start: run `npm start` to see why.');
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Phase 1: each address once, `concurrency` at a time; milliseconds to the response's headers (the first byte). */
async function coldPass(base) {
  const ttfb = [];
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < textFiles.length) {
      const address = textFiles[next++];
      const start = performance.now();
      const response = await fetch(base + address, { headers: { 'accept-encoding': 'br, gzip' } });
      ttfb.push(performance.now() - start);
      if (!response.ok || response.headers.get('content-encoding') !== 'br') failed += 1;
      await response.arrayBuffer();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const wall = performance.now() - started;
  const sorted = ttfb.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1), wall, failed };
}

/** Phase 2: every page over and over, `connections` at a time, for `duration` seconds. */
function loadPass(base) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections,
        duration,
        headers: { 'accept-encoding': 'br, gzip' },
        requests: pages.map((address) => ({ method: 'GET', path: address })),
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const aside = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-static-twins-'));
const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-static-db-'));
const moveTwins = (from, to) => {
  for (const twin of twins) {
    fs.mkdirSync(path.dirname(path.join(to, twin)), { recursive: true });
    fs.renameSync(path.join(from, twin), path.join(to, twin));
  }
};
let twinsAside = false;
const putBack = () => {
  if (twinsAside) moveTwins(aside, client);
  twinsAside = false;
};
process.on('SIGINT', () => {
  putBack();
  process.exit(130);
});

console.log(`${textFiles.length} text files (${pages.length} pages); ${twins.length} precompressed twins in the build.`);
const rows = [];
try {
  for (let round = 1; round <= rounds; round++) {
    for (const way of ['precompressed', 'uncompressed']) {
      if (way === 'uncompressed') {
        moveTwins(client, aside);
        twinsAside = true;
      }
      const { base, child } = await startServer(dbDir);
      try {
        const cold = await coldPass(base);
        const load = await loadPass(base);
        rows.push({
          way,
          round,
          'cold TTFB p50 ms': cold.p50.toFixed(1),
          'cold TTFB p95 ms': cold.p95.toFixed(1),
          'cold TTFB max ms': cold.max.toFixed(1),
          'cold pass ms': Math.round(cold.wall),
          'cold not br': cold.failed,
          'load req/s': Math.round(load.requests.average),
          'load p50 ms': load.latency.p50,
          'load p99 ms': load.latency.p99,
          'load non-2xx': load.non2xx + load.errors,
        });
      } finally {
        child.kill();
        putBack();
      }
    }
  }
} finally {
  putBack();
  fs.rmSync(aside, { recursive: true, force: true });
  fs.rmSync(dbDir, { recursive: true, force: true });
}

console.log(
  `\nTime to first byte, the server's own (${concurrency} at a time for the cold pass; ${connections} connections for ${duration} s of load over every page), Brotli asked for:`,
);
console.table(rows);
const medianOf = (way, key) => {
  const values = rows
    .filter((row) => row.way === way)
    .map((row) => Number(row[key]))
    .sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
};
for (const key of ['cold TTFB p95 ms', 'cold pass ms', 'load p99 ms']) {
  console.log(
    `${key}: uncompressed / precompressed = ${(medianOf('uncompressed', key) / medianOf('precompressed', key)).toFixed(2)}`,
  );
}
