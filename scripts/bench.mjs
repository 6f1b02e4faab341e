/**
 * `npm run bench`: figures, not pass/fail. A clean `astro build` timed, then Lighthouse
 * (mobile and desktop presets, median of 3 runs) on the built site served by its own server,
 * over home, a content page, a service page, /ContactUs and /Partner. Prints a table of
 * performance, accessibility, best practices, SEO, LCP, TBT, CLS, total bytes and JavaScript
 * bytes, plus each page's JavaScript before interaction from the build output.
 *
 * Then the goals table (mobile preset, the goals of the "first view at the limit of the network"
 * work): each page's LCP against its page kind's goal (home 1.1 s, content 0.9 s, forms 1.0 s)
 * as a ratio (1.00 or less: reached), TBT, long tasks attributed to the site's own scripts,
 * CLS, and the bytes transferred by kind (JavaScript, CSS, fonts). Last, from the build output:
 * each page's JavaScript before its load event, after it by itself, and on interaction, and its
 * CSS inline in the HTML and in linked stylesheets.
 *
 * With BENCH_SECOND_VIEW=1, each mobile page is also measured on a second view: Lighthouse run
 * again in the same browser without clearing its cache, as a visitor's next page with the
 * layout's stylesheet, fonts and scripts already cached (a first view warms the cache first).
 *
 * `control` (in BENCH_PAGES) is a bare page written into the build output for the run only: the
 * home page's first hero picture, with the same markup and nothing else (no stylesheet, font or
 * script), to show what the home page's LCP waits for beyond its picture.
 *
 * With BENCH_HTTP2=1, the pages are measured over HTTP/2 and TLS, as deployed (nginx's
 * `listen 443 ssl http2`, docs/deploy.md), through a front (./bench-h2-front.mjs) before the same
 * server, with a throwaway self-signed certificate; BENCH_HTTP2=both measures each page both ways,
 * HTTP/1.1 and HTTP/2 alternating run by run. Each table says which protocol it measured, and the
 * protocols Lighthouse's network records show are printed: a run over HTTP/2 whose document did
 * not come over h2 is flagged.
 *
 * Machines here are shared and noisy: compare ratios between runs, not absolute times.
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_RUNS (default 3), BENCH_PORT,
 * BENCH_PAGES (names from the list below, comma-separated: all by default), BENCH_PRESETS
 * (mobile, desktop or both, comma-separated: both by default), BENCH_HTTP2 (unset, 1 or both).
 *
 * Last, the first interaction with each island, per language (scripts/bench-interaction.mjs:
 * Lighthouse's mobile CPU and network profile, event timing, BENCH_INTERACTION_RUNS runs, 5 by
 * default; BENCH_INTERACTION=0 leaves it out).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { pageJavaScript, proofWidgetWeight } from './js-weight.ts';
import { startHttp2Front } from './bench-h2-front.mjs';
import { measureFirstInteractions, printFirstInteractions } from './bench-interaction.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS || 3);
const port = Number(process.env.BENCH_PORT || 4450);
const chromePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ALL_PAGES = [
  ['home', '/'],
  ['content', '/MangementSystemAudits/ScheduleQQualityAssessment'],
  ['service', '/services/ms-audits'],
  ['contact', '/ContactUs'],
  ['partner', '/Partner'],
  ['ar home', '/ar'],
  ['ar content', '/ar/MangementSystemAudits/ScheduleQQualityAssessment'],
  ['ar contact', '/ar/ContactUs'],
  ['ar partner', '/ar/Partner'],
  ['control', '/bench-control'],
];
/** LCP goals (seconds, Lighthouse mobile, median) per page kind. */
const LCP_GOAL_S = { home: 1.1, content: 0.9, service: 0.9, contact: 1.0, partner: 1.0 };
const goalOf = (name) => LCP_GOAL_S[name.replace(/^ar /, '')] ?? (name === 'control' ? LCP_GOAL_S.home : undefined);
const listed = (name) =>
  (process.env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
const PAGES =
  listed('BENCH_PAGES').length > 0
    ? ALL_PAGES.filter(([name]) => listed('BENCH_PAGES').includes(name))
    : ALL_PAGES.filter(([name]) => name !== 'control');
const SECOND_VIEW = process.env.BENCH_SECOND_VIEW === '1';
const PRESETS = listed('BENCH_PRESETS').length > 0 ? listed('BENCH_PRESETS') : ['mobile', 'desktop'];
const PROTOCOLS = { '': ['http/1.1'], 0: ['http/1.1'], 1: ['h2'], both: ['http/1.1', 'h2'] }[process.env.BENCH_HTTP2 ?? ''];
if (!PROTOCOLS) {
  console.error('BENCH_HTTP2 is unset, 1 (HTTP/2 only) or both (HTTP/1.1 and HTTP/2 alternating).');
  process.exit(1);
}
const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

console.log('Clean build…');
fs.rmSync(path.join(root, 'dist'), { recursive: true, force: true });
const started = performance.now();
const build = spawnSync(path.join(root, 'node_modules/.bin/astro'), ['build'], { cwd: root, stdio: 'ignore' });
const buildSeconds = (performance.now() - started) / 1000;
if (build.status !== 0) {
  console.error('The build failed: run `npm run build` to see why.');
  process.exit(1);
}

// The control page: the home page's hero picture alone (see above); removed when the runs end, so
// the build output the tests read is the build's own.
const controlFile = path.join(root, 'dist/client/bench-control.html');
if (PAGES.some(([name]) => name === 'control')) {
  const home = fs.readFileSync(path.join(root, 'dist/client/index.html'), 'utf8');
  const picture = /<picture>[\s\S]*?<\/picture>/.exec(home)?.[0] ?? '';
  fs.writeFileSync(
    controlFile,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Control</title></head><body>${picture.replace('<img ', '<img width="100%" ')}</body></html>`,
  );
}

// The receiver's database in a temporary folder, removed at the end: the bench leaves no data/ behind.
const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-db-'));
const server = spawn(process.execPath, [path.join(root, 'src/server/http/serve.ts')], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SUBMISSIONS_DB: path.join(dbDir, 'submissions.db'),
  },
  stdio: 'ignore',
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(base)).ok) break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
let front;
if (PROTOCOLS.includes('h2')) {
  try {
    front = await startHttp2Front(port);
  } catch (error) {
    server.kill();
    fs.rmSync(dbDir, { recursive: true, force: true });
    console.error(error.message);
    process.exit(1);
  }
}
/** Where each protocol is served: the server itself, or the HTTP/2 front before it. */
const originOf = (protocol) => (protocol === 'h2' ? front.origin : base);
/** Each run's protocols from Lighthouse's network records: the document's, and how many requests came over which. */
const protocolChecks = [];

const rows = [];
/** The first-interaction table (scripts/bench-interaction.mjs), printed after the others. */
let interactionRows = [];
let printInteractions = () => {};
try {
  for (const preset of PRESETS) {
    for (const [name, pagePath] of PAGES) {
      const samplesOf = Object.fromEntries(PROTOCOLS.map((protocol) => [protocol, []]));
      const secondSamplesOf = Object.fromEntries(PROTOCOLS.map((protocol) => [protocol, []]));
      for (let run = 0; run < runs; run++)
        for (const protocol of PROTOCOLS) {
          const samples = samplesOf[protocol];
          const secondSamples = secondSamplesOf[protocol];
          const origin = originOf(protocol);
          // The certificate is self-signed: ignored for the HTTP/2 runs only.
          const chrome = await chromeLauncher.launch({
            chromePath,
            chromeFlags: protocol === 'h2' ? [...FLAGS, '--ignore-certificate-errors'] : FLAGS,
          });
          try {
            const result = await lighthouse(
              origin + pagePath,
              { port: chrome.port, output: 'json', logLevel: 'error' },
              preset === 'desktop' ? desktopConfig : undefined,
            );
            const lhr = result?.lhr;
            if (!lhr) continue;
            if (typeof lhr.audits['largest-contentful-paint']?.numericValue !== 'number') {
              // A run without an LCP (Lighthouse's error below) would count as 0 s in the median: left out.
              const audit = lhr.audits['largest-contentful-paint'];
              console.log(
                `${preset} ${name} ${protocol} run ${run + 1}: no LCP (${lhr.runtimeError?.code ?? audit?.errorMessage ?? 'unknown'}), left out of the median.`,
              );
              continue;
            }
            if (SECOND_VIEW && preset === 'mobile') {
              // The same page again with the cache the first view left (HTML revalidated, no-cache).
              const again = await lighthouse(origin + pagePath, {
                port: chrome.port,
                output: 'json',
                logLevel: 'error',
                disableStorageReset: true,
              });
              const second = again?.lhr;
              if (second) {
                secondSamples.push({
                  lcp: second.audits['largest-contentful-paint']?.numericValue ?? 0,
                  fcp: second.audits['first-contentful-paint']?.numericValue ?? 0,
                });
              }
            }
            const records = lhr.audits['network-requests']?.details?.items ?? [];
            const counts = {};
            for (const record of records) counts[record.protocol || '?'] = (counts[record.protocol || '?'] ?? 0) + 1;
            protocolChecks.push({
              preset,
              page: name,
              run: run + 1,
              asked: protocol,
              document: records.find((record) => record.resourceType === 'Document')?.protocol ?? '?',
              requests: Object.entries(counts)
                .map(([key, count]) => `${key} ${count}`)
                .join(', '),
            });
            const bytes = lhr.audits['resource-summary']?.details?.items ?? [];
            const of = (type) => bytes.find((item) => item.resourceType === type)?.transferSize ?? 0;
            // Long tasks (over 50 ms) attributed to a script of the site's own (Lighthouse's long-tasks audit).
            const tasks = lhr.audits['long-tasks']?.details?.items ?? [];
            const ownTasks = tasks.filter(
              (task) => typeof task.url === 'string' && task.url.startsWith(origin) && /\.m?js(?:$|\?)/.test(task.url),
            );
            samples.push({
              performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
              accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
              bestPractices: Math.round((lhr.categories['best-practices']?.score ?? 0) * 100),
              seo: Math.round((lhr.categories.seo?.score ?? 0) * 100),
              lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? 0,
              fcp: lhr.audits['first-contentful-paint']?.numericValue ?? 0,
              tbt: lhr.audits['total-blocking-time']?.numericValue ?? 0,
              cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? 0,
              totalKb: of('total') / 1024,
              jsKb: of('script') / 1024,
              cssKb: of('stylesheet') / 1024,
              fontKb: of('font') / 1024,
              ownLongTasks: ownTasks.length,
              ownLongestMs: Math.max(0, ...ownTasks.map((task) => task.duration ?? 0)),
            });
          } finally {
            chrome.kill();
          }
        }
      for (const protocol of PROTOCOLS) {
        const samples = samplesOf[protocol];
        const secondSamples = secondSamplesOf[protocol];
        if (samples.length === 0) continue;
        const m = (key) => median(samples.map((s) => s[key]));
        rows.push({
          preset,
          page: name,
          protocol,
          perf: m('performance'),
          a11y: m('accessibility'),
          bp: m('bestPractices'),
          seo: m('seo'),
          'LCP s': (m('lcp') / 1000).toFixed(2),
          'TBT ms': Math.round(m('tbt')),
          CLS: m('cls').toFixed(3),
          'total KB': m('totalKb').toFixed(1),
          'JS KB': m('jsKb').toFixed(1),
          lcpS: m('lcp') / 1000,
          tbtMs: m('tbt'),
          cls: m('cls'),
          jsKb: m('jsKb'),
          cssKb: m('cssKb'),
          fontKb: m('fontKb'),
          ownLongTasks: m('ownLongTasks'),
          ownLongestMs: m('ownLongestMs'),
          fcpS: m('fcp') / 1000,
          secondLcpS: secondSamples.length > 0 ? median(secondSamples.map((s) => s.lcp)) / 1000 : undefined,
          secondFcpS: secondSamples.length > 0 ? median(secondSamples.map((s) => s.fcp)) / 1000 : undefined,
        });
      }
    }
  }
  // The first interaction with each island, on the same server (scripts/bench-interaction.mjs).
  if (process.env.BENCH_INTERACTION !== '0') {
    const interactionRuns = Number(process.env.BENCH_INTERACTION_RUNS || 5);
    interactionRows = await measureFirstInteractions({ base, chromePath, runs: interactionRuns });
    printInteractions = () => printFirstInteractions(interactionRows, interactionRuns);
  }
} finally {
  await front?.close();
  server.kill();
  fs.rmSync(dbDir, { recursive: true, force: true });
}

const protocolLabel = (protocol) =>
  protocol === 'h2' ? 'HTTP/2 over TLS (the front before the server, as nginx in production)' : 'HTTP/1.1 (the server itself)';
console.log(`\nProtocols measured: ${PROTOCOLS.map(protocolLabel).join('; ')}.`);
if (PROTOCOLS.includes('h2')) {
  console.log("Protocol check (Lighthouse's network-requests audit: the document's protocol, then requests by protocol):");
  console.table(protocolChecks);
  const wrong = protocolChecks.filter((check) => check.asked === 'h2' && check.document !== 'h2');
  if (wrong.length > 0)
    console.log(`WARNING: ${wrong.length} run(s) asked for HTTP/2 did not get it: their figures say nothing about HTTP/2.`);
}

const hidden = new Set([
  'lcpS',
  'tbtMs',
  'cls',
  'jsKb',
  'cssKb',
  'fontKb',
  'ownLongTasks',
  'ownLongestMs',
  'fcpS',
  'secondLcpS',
  'secondFcpS',
]);
console.log(
  `\nLighthouse ${runs > 1 ? `median of ${runs}` : '1 run'} per page and preset (transfer sizes as served by npm start, compressed where the server compresses; protocol: http/1.1 from the server itself, h2 through the HTTP/2 front):`,
);
console.table(rows.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !hidden.has(key)))));

const goalRows = rows.filter((row) => row.preset === 'mobile' && goalOf(row.page) !== undefined);
if (goalRows.length > 0) {
  console.log(
    '\nGoals (mobile, median): LCP against its goal (ratio 1.00 or less: reached); no long task from our own scripts; CLS 0:',
  );
  console.table(
    goalRows.map((row) => {
      const goal = goalOf(row.page);
      return {
        page: row.page,
        protocol: row.protocol,
        'LCP s': row.lcpS.toFixed(2),
        'goal s': goal.toFixed(1),
        'LCP/goal': (row.lcpS / goal).toFixed(2),
        'TBT ms': Math.round(row.tbtMs),
        'own long tasks': row.ownLongTasks,
        'longest own ms': Math.round(row.ownLongestMs),
        CLS: row.cls.toFixed(3),
        'JS KB': row.jsKb.toFixed(1),
        'CSS KB': row.cssKb.toFixed(1),
        'font KB': row.fontKb.toFixed(1),
        reached: row.lcpS <= goal && row.ownLongTasks === 0 && row.cls === 0 ? 'yes' : 'no',
      };
    }),
  );
}

const secondRows = rows.filter((row) => row.secondLcpS !== undefined);
if (secondRows.length > 0) {
  console.log('\nFirst and second view (mobile, median; the second with the cache the first left):');
  console.table(
    secondRows.map((row) => ({
      page: row.page,
      protocol: row.protocol,
      'first FCP s': row.fcpS.toFixed(2),
      'first LCP s': row.lcpS.toFixed(2),
      'second FCP s': row.secondFcpS.toFixed(2),
      'second LCP s': row.secondLcpS.toFixed(2),
    })),
  );
}

const client = path.join(root, 'dist/client');
const gzip = (text) => zlib.gzipSync(text, { level: 9 }).length;
/** The page's CSS: inline in <style> (the page's own, and the layout's where inlined) and in linked stylesheets. */
function pageCss(html) {
  const inline = [...html.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '');
  const linked = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*>/g)]
    .map((match) => /\shref="([^"]+)"/.exec(match[0])?.[1])
    .filter((href) => href?.startsWith('/'))
    .map((href) => fs.readFileSync(path.join(client, href), 'utf8'));
  return {
    inlineBytes: inline.reduce((total, css) => total + Buffer.byteLength(css), 0),
    inlineGzip: inline.length > 0 ? gzip(inline.join('')) : 0,
    linkedGzip: linked.reduce((total, css) => total + gzip(css), 0),
  };
}
console.log(
  '\nFrom the build output (gzip -9): JavaScript before the load event, after it by itself, on interaction; CSS inline and linked:',
);
console.table(
  PAGES.map(([name, pagePath]) => {
    const html = fs.readFileSync(path.join(client, pagePath === '/' ? 'index.html' : `${pagePath}.html`), 'utf8');
    const { firstView, afterLoad, onInteraction } = pageJavaScript(html, client);
    const css = pageCss(html);
    return {
      page: name,
      'JS first view KB': (firstView.gzipBytes / 1024).toFixed(1),
      'JS after load KB': (afterLoad.gzipBytes / 1024).toFixed(1),
      'JS on interaction KB': (onInteraction.gzipBytes / 1024).toFixed(1),
      'inline CSS KB': (css.inlineBytes / 1024).toFixed(1),
      'inline CSS KB gz': (css.inlineGzip / 1024).toFixed(1),
      'linked CSS KB gz': (css.linkedGzip / 1024).toFixed(1),
    };
  }),
);
const proof = proofWidgetWeight(path.join(root, 'dist/client'));
if (proof) {
  const kb = (bytes) => (bytes / 1024).toFixed(1);
  console.log(
    `\nAdded on the first focus in a form (the proof-of-work widget, ALTCHA, gzip -9): ${kb(proof.scriptGzipBytes + proof.styleGzipBytes + proof.workerGzipBytes)} KB` +
      ` = script ${kb(proof.scriptGzipBytes)} KB + stylesheet ${kb(proof.styleGzipBytes)} KB + worker ${kb(proof.workerGzipBytes)} KB; nothing of it before.`,
  );
}
printInteractions();
console.log(`\nClean build of every page: ${buildSeconds.toFixed(1)} s`);
fs.rmSync(controlFile, { force: true });
