/**
 * `npm run bench`: figures, not pass/fail. A clean `astro build` timed, then Lighthouse
 * (mobile and desktop presets, median of 3 runs) on the built site served by its own server,
 * over home, a content page, a service page, /ContactUs and /Partner. Prints a table of
 * performance, accessibility, best practices, SEO, LCP, TBT, CLS, total bytes and JavaScript
 * bytes, plus each page's JavaScript before interaction from the build output.
 *
 * Machines here are shared and noisy: compare ratios between runs, not absolute times.
 * Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_RUNS (default 3), BENCH_PORT,
 * BENCH_PAGES (names from the list below, comma-separated: all by default), BENCH_PRESETS
 * (mobile, desktop or both, comma-separated: both by default).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { pageJavaScript } from './js-weight.ts';

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
  ['ar partner', '/ar/Partner'],
];
const listed = (name) => (process.env[name] ?? '').split(',').map((item) => item.trim()).filter(Boolean);
const PAGES = listed('BENCH_PAGES').length > 0 ? ALL_PAGES.filter(([name]) => listed('BENCH_PAGES').includes(name)) : ALL_PAGES;
const PRESETS = listed('BENCH_PRESETS').length > 0 ? listed('BENCH_PRESETS') : ['mobile', 'desktop'];
const FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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

const server = spawn(process.execPath, [path.join(root, 'src/server/http/serve.ts')], { cwd: root, env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' }, stdio: 'ignore' });
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(base)).ok) break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const rows = [];
try {
  for (const preset of PRESETS) {
    for (const [name, pagePath] of PAGES) {
      const samples = [];
      for (let run = 0; run < runs; run++) {
        const chrome = await chromeLauncher.launch({ chromePath, chromeFlags: FLAGS });
        try {
          const result = await lighthouse(
            base + pagePath,
            { port: chrome.port, output: 'json', logLevel: 'error' },
            preset === 'desktop' ? desktopConfig : undefined,
          );
          const lhr = result?.lhr;
          if (!lhr) continue;
          const bytes = lhr.audits['resource-summary']?.details?.items ?? [];
          const of = (type) => bytes.find((item) => item.resourceType === type)?.transferSize ?? 0;
          samples.push({
            performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
            accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
            bestPractices: Math.round((lhr.categories['best-practices']?.score ?? 0) * 100),
            seo: Math.round((lhr.categories.seo?.score ?? 0) * 100),
            lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? 0,
            tbt: lhr.audits['total-blocking-time']?.numericValue ?? 0,
            cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? 0,
            totalKb: of('total') / 1024,
            jsKb: of('script') / 1024,
          });
        } finally {
          chrome.kill();
        }
      }
      const m = (key) => median(samples.map((s) => s[key]));
      rows.push({
        preset,
        page: name,
        perf: m('performance'),
        a11y: m('accessibility'),
        bp: m('bestPractices'),
        seo: m('seo'),
        'LCP s': (m('lcp') / 1000).toFixed(2),
        'TBT ms': Math.round(m('tbt')),
        CLS: m('cls').toFixed(3),
        'total KB': m('totalKb').toFixed(1),
        'JS KB': m('jsKb').toFixed(1),
      });
    }
  }
} finally {
  server.kill();
}

console.log(`\nLighthouse ${runs > 1 ? `median of ${runs}` : '1 run'} per page and preset (transfer sizes as served by npm start, compressed where the server compresses):`);
console.table(rows);
console.log('\nJavaScript before interaction, from the build output (gzip -9):');
console.table(
  PAGES.map(([name, pagePath]) => {
    const html = fs.readFileSync(path.join(root, 'dist/client', pagePath === '/' ? 'index.html' : `${pagePath}.html`), 'utf8');
    const { eager, onInteraction } = pageJavaScript(html, path.join(root, 'dist/client'));
    return { page: name, 'before interaction KB': (eager.gzipBytes / 1024).toFixed(1), 'on interaction KB': (onInteraction.gzipBytes / 1024).toFixed(1) };
  }),
);
console.log(`\nClean build of every page: ${buildSeconds.toFixed(1)} s`);
