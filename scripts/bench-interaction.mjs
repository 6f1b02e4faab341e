/**
 * The first interaction with each island, measured as a visitor on a phone meets it: Chromium
 * driven by Playwright on Lighthouse's mobile profile (the CPU 4x slower, and its "slow 4G" as
 * DevTools throttles it: 562.5 ms request latency, 1.47 Mbps down, 675 kbps up), each page opened
 * fresh, acted on once its load event has passed and the page has been quiet for a moment.
 *
 * For each island and language it prints the worst interaction of that first use (the browser's
 * event timing: the longest duration among the entries of one interaction, which is what INP
 * reports for a page with few interactions), the median of the runs with their range, and the
 * long tasks (over 50 ms) the page ran from the first input to the end of the use, and, for the
 * forms, those that ran while the visitor typed (a key every 120 ms into the first field from
 * the tap on, which spans the island's download on slow 4G; then, after a pause, into the next
 * field, with the island running), the longest the page's own handlers took over a key, and
 * the longest of the site's own scripts in the long animation frames while the visitor typed
 * (the Long Animation Frames API names each script and its source).
 * The goals: at most 200 ms, and no script of the site's own over 50 ms while the visitor types.
 *
 * Used by `npm run bench` (scripts/bench.mjs, on its server) and on its own by
 * `npm run bench:interaction` (builds when there is no build yet, serves the build on
 * BENCH_PORT). BENCH_INTERACTION_RUNS (default 5) runs per island and language,
 * BENCH_INTERACTION_ONLY a word of the islands to measure ("form"); not a test.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Lighthouse's mobile profile, as DevTools throttling applies it (lighthouse's constants, "devtools"). */
const MOBILE_PROFILE = { cpuSlowdown: 4, latencyMs: 562.5, downloadKbps: 1474.56, uploadKbps: 675 };

/** The goal for the first interaction with each island (INP, ms). */
const FIRST_INTERACTION_GOAL_MS = 200;

/** What a visitor types after tapping the first field: long enough to span the island's download. */
const TYPED = 'Aisha Al-Qahtani, Dammam';

/**
 * Taps a field and types into it as a visitor does (a key every 120 ms); returns when the typing
 * ran on the page's clock, for the long tasks while the visitor types.
 */
async function typeInto(page, selector, text) {
  await page.locator(selector).click();
  const from = await page.evaluate(() => performance.now());
  await page.keyboard.type(text, { delay: 120 });
  return { from, to: await page.evaluate(() => performance.now()) };
}

/**
 * The first field, a pause (the island starts in it), then the next field: the visitor's keys
 * before and after the island has started.
 */
async function tapAndType(page, first, next) {
  const before = await typeInto(page, first, TYPED);
  await page.waitForTimeout(2500);
  const after = await typeInto(page, next, 'aisha@example.com');
  return [before, after];
}

/**
 * The islands' first uses: where, at which width, and what the visitor does. `act` gets the page
 * and the language's path prefix.
 */
const FIRST_USES = [
  {
    island: 'phone menu (tap "Menu")',
    path: '/AboutUs',
    width: 390,
    act: async (page) => page.locator('.mobile-nav :is(summary, button)').first().click(),
  },
  {
    island: 'desktop menu (click a group)',
    path: '/AboutUs',
    width: 1440,
    act: async (page) => page.locator('.desktop-nav :is(summary, button)').nth(1).click(),
  },
  {
    island: 'hero carousel (tap "next")',
    path: '/',
    width: 390,
    act: async (page) => page.locator('.carousel--hero .carousel__next').click(),
  },
  {
    island: 'contact form (tap a field, type)',
    path: '/ContactUs',
    width: 390,
    act: (page) => tapAndType(page, '#contact-firstName', '#contact-email'),
  },
  {
    island: 'partner form (tap a field, type)',
    path: '/Partner',
    width: 390,
    act: (page) => tapAndType(page, '#partner-name', '#partner-email'),
  },
  {
    island: 'partner form (tap the CV control)',
    path: '/Partner',
    width: 390,
    act: async (page) => {
      // The file chooser the tap opens is answered at once, as a visitor picking a file would.
      const chooser = page.waitForEvent('filechooser');
      await page.locator('#partner-uploadedFiles').click();
      await (await chooser).setFiles({ name: 'cv.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') });
    },
  },
];

/** Installed before the page's own scripts: event timing and long tasks, from the start. */
function observe() {
  const seen = { events: [], longTasks: [], scripts: [] };
  Object.defineProperty(window, '__firstUse', { value: seen });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.interactionId)
        seen.events.push({
          id: entry.interactionId,
          name: entry.name,
          start: entry.startTime,
          duration: entry.duration,
          handling: entry.processingEnd - entry.processingStart,
        });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) seen.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  // The scripts that ran in each long animation frame: which were the site's own, and how long each took.
  new PerformanceObserver((list) => {
    for (const frame of list.getEntries())
      for (const script of frame.scripts ?? [])
        if (script.sourceURL.startsWith(location.origin))
          seen.scripts.push({ start: script.startTime, duration: script.duration, source: script.sourceURL });
  }).observe({ type: 'long-animation-frame', buffered: true });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One first use on a fresh page: its worst interaction (ms) and the long tasks from the first input on. */
async function measureOnce(browser, base, use, prefix) {
  const context = await browser.newContext({
    viewport: { width: use.width, height: use.width < 800 ? 844 : 900 },
    hasTouch: false,
    deviceScaleFactor: use.width < 800 ? 2 : 1,
  });
  const page = await context.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  await page.addInitScript(observe);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: MOBILE_PROFILE.latencyMs,
    downloadThroughput: (MOBILE_PROFILE.downloadKbps * 1024) / 8,
    uploadThroughput: (MOBILE_PROFILE.uploadKbps * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE_PROFILE.cpuSlowdown });
  try {
    await page.goto(base + prefix + (use.path === '/' && prefix ? '' : use.path), { waitUntil: 'load', timeout: 120_000 });
    // The first view's own work done (what the page asks for after its load event included).
    await page.waitForTimeout(1500);
    const before = await page.evaluate(() => performance.now());
    const typing = await use.act(page);
    // The interaction's frame, and what it started, painted and reported.
    await page.waitForTimeout(1500);
    const seen = await page.evaluate(() => window.__firstUse);
    const byInteraction = new Map();
    for (const event of seen.events) byInteraction.set(event.id, Math.max(byInteraction.get(event.id) ?? 0, event.duration));
    const worst = Math.max(0, ...byInteraction.values());
    const tasks = seen.longTasks.filter((task) => task.start >= before && task.duration > 50);
    const typed = (start, end) => typing?.some((window) => start < window.to && end > window.from) ?? false;
    const whileTyping = tasks.filter((task) => typed(task.start, task.start + task.duration));
    // The site's own scripts while the visitor typed: the longest one (the goal: none over 50 ms).
    const ownWhileTyping = seen.scripts.filter((script) => typed(script.start, script.start + script.duration));
    const keyHandling = seen.events
      .filter((event) => /^key|input/.test(event.name) && typed(event.start, event.start + event.duration))
      .map((event) => event.handling);
    return {
      typed: Boolean(typing),
      keyHandling: Math.max(0, ...keyHandling),
      typingLongTasks: whileTyping.length,
      typingLongest: Math.max(0, ...whileTyping.map((task) => task.duration)),
      ownScriptLongest: Math.max(0, ...ownWhileTyping.map((script) => script.duration)),
      worst,
      interactions: byInteraction.size,
      longTasks: tasks.length,
      longestTask: Math.max(0, ...tasks.map((task) => task.duration)),
    };
  } finally {
    await context.close();
  }
}

/**
 * Measures every first use `runs` times in each language on the site served at `base`; returns
 * one row per island and language.
 */
export async function measureFirstInteractions({ base, chromePath, runs = 5, log = console.log }) {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({
    executablePath: chromePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  const rows = [];
  try {
    // BENCH_INTERACTION_ONLY=form measures only the uses whose name holds that word.
    const only = process.env.BENCH_INTERACTION_ONLY;
    for (const use of FIRST_USES.filter((candidate) => !only || candidate.island.includes(only))) {
      for (const [language, prefix] of [
        ['en', ''],
        ['ar', '/ar'],
      ]) {
        const samples = [];
        for (let run = 0; run < runs; run++) {
          try {
            samples.push(await measureOnce(browser, base, use, prefix));
          } catch (error) {
            log(`${use.island} ${language} run ${run + 1}: ${error.message.split('\n')[0]}; left out of the median.`);
          }
        }
        if (samples.length === 0) continue;
        const worst = samples.map((sample) => sample.worst);
        rows.push({
          island: use.island,
          lang: language,
          'first use, worst interaction ms (median)': median(worst),
          range: `${Math.min(...worst)}-${Math.max(...worst)}`,
          goal: median(worst) <= FIRST_INTERACTION_GOAL_MS ? 'met' : 'missed',
          'long tasks >50 ms (median)': median(samples.map((sample) => sample.longTasks)),
          'longest task ms (median)': Math.round(median(samples.map((sample) => sample.longestTask))),
          'long tasks while typing (median)': samples[0].typed ? median(samples.map((sample) => sample.typingLongTasks)) : '-',
          'longest key handler ms (median)': samples[0].typed
            ? Math.round(median(samples.map((sample) => sample.keyHandling)))
            : '-',
          'longest while typing ms (median)': samples[0].typed
            ? Math.round(median(samples.map((sample) => sample.typingLongest)))
            : '-',
          'longest own script while typing ms (median)': samples[0].typed
            ? Math.round(median(samples.map((sample) => sample.ownScriptLongest)))
            : '-',
          runs: samples.length,
        });
      }
    }
  } finally {
    await browser.close();
  }
  return rows;
}

/** The table, with what it measured. */
export function printFirstInteractions(rows, runs, log = console.log) {
  log(
    `\nFirst interaction with each island (Chromium, CPU ${MOBILE_PROFILE.cpuSlowdown}x slower, DevTools slow 4G; event timing, the worst interaction of the first use, median of ${runs}; goal ${FIRST_INTERACTION_GOAL_MS} ms; long tasks from the first input on):`,
  );
  console.table(rows);
}

// On its own: build when needed, serve the build, measure, print.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { ensureBuilt } = await import('./ensure-built.mjs');
  ensureBuilt(root);
  const port = Number(process.env.BENCH_PORT || 4450);
  const runs = Number(process.env.BENCH_INTERACTION_RUNS || 5);
  const dbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-db-'));
  const server = spawn(process.execPath, [path.join(root, 'src/server/http/serve.ts')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SUBMISSIONS_DB: path.join(dbDir, 'submissions.db') },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; i < 200; i++) {
      try {
        if ((await fetch(base)).ok) break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    const rows = await measureFirstInteractions({ base, chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', runs });
    printFirstInteractions(rows, runs);
  } finally {
    server.kill();
    fs.rmSync(dbDir, { recursive: true, force: true });
  }
}
