import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import type { SiteLocaleOptions } from './tests/e2e/site-locale';

const PORT = Number(process.env.E2E_PORT || 4399);
/** The receiver's database for the end-to-end run (test-results/ is emptied by npm test). */
const SUBMISSIONS_DB = process.env['E2E_SUBMISSIONS_DB'] || path.join(import.meta.dirname, 'test-results', 'e2e-submissions.db');
process.env['E2E_SUBMISSIONS_DB'] = SUBMISSIONS_DB;
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Glyphs at their true widths, as the full browser lays them out (the headless shell hints
  // them to whole pixels by default, widening text enough to wrap a menu label).
  '--font-render-hinting=none',
];

/**
 * The browser the tests drive: CHROMIUM_PATH when set, else Debian's chromium-headless-shell (the
 * same Blink without the full browser's windowing layers: the suite runs in two thirds of the
 * time), else Debian's chromium. Lighthouse and the benchmarks use the full Chromium.
 */
const BROWSER =
  process.env.CHROMIUM_PATH ||
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file)) ||
  '/usr/bin/chromium';

const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } };

/**
 * The specs that walk the site's pages or their kinds (the language's own pages, which differ), each
 * run whole in both projects (their tests take no tag).
 */
const SWEEP_SPECS = ['a11y.spec.ts', 'no-js.spec.ts', 'routes.spec.ts'];

/**
 * The specs of behaviour a visitor meets in either language. Each runs whole in English; the `ar`
 * project runs the tests of them that can behave otherwise right to left, tagged `@rtl` in their
 * title (or their `test.describe`'s): direction and mirrored layout (what sits at the start or
 * end of a line, which way a flyout opens, which way arrows and carousels move, where buttons
 * sit), bidi text (typed, mixed-direction or isolated, in form fields, alerts and mails), Arabic
 * digits and plural forms, the Arabic alerts and messages of the forms, Arabic sorting, how Arabic
 * words break and which font draws them. A test whose Arabic run would take the same code path
 * with other words stays English only: tests/unit/i18n-ar.test.ts checks that every visitor string
 * exists in Arabic, with the same placeholders. The `@content` tests (checks derived from the
 * content, which tests/unit/editor-edits.test.ts runs on an edited copy in this project) run in
 * Arabic too.
 */
const BILINGUAL_SPECS = [
  ...SWEEP_SPECS,
  'contact-form.spec.ts',
  'first-action.spec.ts',
  'form-hydration.spec.ts',
  'home.spec.ts',
  'inbox-tabs.spec.ts',
  'inbox-words.spec.ts',
  'timely.spec.ts',
  'layout.spec.ts',
  'nav.spec.ts',
  'partner-form.spec.ts',
  'privacy.spec.ts',
  'queue-flow.spec.ts',
  'security.spec.ts',
];

/**
 * What the `ar` project runs of BILINGUAL_SPECS: the tests tagged `@rtl` or `@content`, and the
 * sweeps whole (the title a project's grep is matched against starts with the test's file name).
 */
const ARABIC_GREP = [
  /@rtl\b/,
  /@content\b/,
  new RegExp(` (${SWEEP_SPECS.map((file) => file.replaceAll('.', '\\.')).join('|')}) `),
];

export default defineConfig<SiteLocaleOptions>({
  testDir: 'tests/e2e',
  outputDir: 'test-results/e2e-artifacts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  // Every assertion waits for its state: on a busy machine a state can take longer than the
  // default 5 s to come, and waiting longer costs nothing when it comes sooner.
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: BROWSER,
      args: CHROMIUM_FLAGS,
    },
  },
  // Every spec runs in English; BILINGUAL_SPECS run in Arabic too (tests/e2e/site-locale.ts gives
  // each test its language), the sweeps whole and of the others the tests ARABIC_GREP picks. The
  // rest (the receiver, the staff inbox, Lighthouse, the Arabic specs) run once.
  projects: [
    { name: 'en', use: { ...desktop, siteLocale: 'en' } },
    { name: 'ar', use: { ...desktop, siteLocale: 'ar' }, testMatch: BILINGUAL_SPECS, grep: ARABIC_GREP },
  ],
  webServer: {
    // The built site on its own server (npm test builds first).
    command: 'node --disable-warning=ExperimentalWarning src/server/http/serve.ts',
    // A test visitor fills a form in well under the seconds a person takes: no minimum time here
    // (tests/e2e/bots.spec.ts runs a server of its own with it).
    // STAFF_TOTP_KEY: two-step sign-in offered to the inbox's accounts (a key for tests only).
    // Every test posts from loopback, many without a proof (JavaScript off, bots): no daily budget
    // of held leads or unproven files for that one network (tests/integration test the budget).
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      SUBMISSIONS_DB,
      SUBMISSIONS_RATE_LIMIT: '1000',
      SUBMISSIONS_HELD_PER_DAY: '0',
      SUBMISSIONS_UNPROVEN_FILES_MB_PER_DAY: '0',
      SUBMISSIONS_LEADS_PER_DAY: '0',
      SUBMISSIONS_FILES_MB_PER_DAY: '0',
      SUBMISSIONS_MIN_SECONDS: '0',
      // The lightest proof of work the settings allow, as the integration tests' servers ask
      // (tests/helpers/server.ts): the real widget and check, without seconds of hashing per
      // send on a busy machine. bots.spec.ts runs its own server at the production difficulty.
      ALTCHA_COST: '1',
      ALTCHA_MAX_NUMBER: '100',
      STAFF_TOTP_KEY: '0e'.repeat(32),
      // Each account chooses (the key alone would require it of all): the specs set it up where they test it.
      STAFF_TWO_STEP: 'optional',
    },
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
