/**
 * Starts the built site's own server (src/server/http/serve.ts) for a test: loopback only, a free
 * port chosen by the system, its own database in a temporary folder. Needs `astro build`
 * first (npm test runs it).
 */
import { solvedProof } from './proof';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { ROOT } from './frontmatter';

/**
 * scrypt's cost for the accounts of tests that sign in many times: the server checks a password
 * at the cost stored with its hash, so each sign-in takes a millisecond instead of the
 * production cost's hundreds (tests/integration/staff.test.ts and sign-in-attack.test.ts keep it).
 */
export const LIGHT_HASH = { N: 2 ** 10, r: 8, p: 1 } as const;

export interface RunningServer {
  readonly baseUrl: string;
  readonly origin: string;
  readonly dbPath: string;
  readonly child: ChildProcess;
  /** Everything the server printed so far. */
  readonly output: () => string;
  /** SIGTERM (or the signal given), then waits for the process to end and its output to be read. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<void>;
  /** The server's clock, when started with `clock: true` (./server-clock.ts). */
  readonly clock: ServerClock | undefined;
}

/** The server process's clock: each call resolves once the server reads the new time. */
export interface ServerClock {
  /** Stands still from now on: no wait of the server's passes until it is advanced. */
  hold(): Promise<void>;
  /** Moves the clock on by `ms` (held or not). */
  advance(ms: number): Promise<void>;
  /** Runs with the real time again, from where it stood (never backwards). */
  resume(): Promise<void>;
}

export function assertBuilt(): void {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'entry.mjs'))) {
    throw new Error('dist/server is missing: run `npm run build` first (npm test does).');
  }
}

export function tempDir(prefix = 'globaq-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Starts the server and resolves once it listens; rejects when it exits first or takes over 30 s.
 * With `clock: true`, the test holds and moves the server's clock (`clock` of the result).
 */
export function startServer(options: { dbPath: string; env?: Record<string, string>; clock?: boolean }): Promise<RunningServer> {
  assertBuilt();
  const clockModule = path.join(ROOT, 'tests', 'helpers', 'server-clock.ts');
  const child = spawn(
    process.execPath,
    [
      '--disable-warning=ExperimentalWarning',
      ...(options.clock ? ['--import', pathToFileURL(clockModule).href] : []),
      path.join(ROOT, 'src', 'server', 'http', 'serve.ts'),
    ],
    {
      cwd: ROOT,
      // The proof of work made light (the tests solve one per post) and no minimum time between the
      // challenge and the post (a test posts at once): tests of those signals set their own. Every
      // test posts from loopback: no rate limit and no daily budget of leads, unless a test sets its
      // own.
      // With mail on, the tests count the staff's mails: the acknowledgement to the sender is off
      // unless a test of it turns it on (LEADS_ACKNOWLEDGE=on; on is the product's default).
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: '0',
        SUBMISSIONS_DB: options.dbPath,
        SUBMISSIONS_RATE_LIMIT: '0',
        SUBMISSIONS_HELD_PER_DAY: '0',
        SUBMISSIONS_UNPROVEN_FILES_MB_PER_DAY: '0',
        SUBMISSIONS_LEADS_PER_DAY: '0',
        SUBMISSIONS_FILES_MB_PER_DAY: '0',
        ALTCHA_COST: '1',
        ALTCHA_MAX_NUMBER: '100',
        SUBMISSIONS_MIN_SECONDS: '0',
        LEADS_ACKNOWLEDGE: 'off',
        ...options.env,
      },
      stdio: options.clock ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // 'close': the process has ended and everything it wrote has been read.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await closed;
  };
  const order = (message: { clock: 'hold' | 'resume' | 'advance'; ms?: number }) =>
    new Promise<void>((resolve, reject) => {
      const answer = (reply: unknown) => {
        if ((reply as { clock?: string } | null)?.clock !== 'done') return;
        child.off('message', answer);
        resolve();
      };
      child.on('message', answer);
      child.send(message, (error) => error && reject(error));
    });
  const clock: ServerClock | undefined = options.clock
    ? {
        hold: () => order({ clock: 'hold' }),
        advance: (ms) => order({ clock: 'advance', ms }),
        resume: () => order({ clock: 'resume' }),
      }
    : undefined;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop('SIGKILL');
      reject(new Error(`The server did not start within 30 s:\n${output}`));
    }, 30_000);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`The server exited (${code ?? signal}) before listening:\n${output}`));
    });
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      output += `${line}\n`;
      const match = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        const baseUrl = `http://127.0.0.1:${match[1]}`;
        resolve({ baseUrl, origin: baseUrl, dbPath: options.dbPath, child, output: () => output, stop, clock });
      }
    });
  });
}

/** A complete, valid contact body as the island sends it. */
export function contactBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    firstName: 'Omar',
    lastName: 'Al-Harbi',
    email: 'omar@example.com',
    country: 'Saudi Arabia',
    city: 'Al-Khobar',
    company: 'Eastern Fabrication Co.',
    message: 'We need a Schedule Q assessment for a new vendor registration.',
    submissionDate: '2026-11-22T10:30:00.000Z',
    submissionTimestamp: '22/11/2026, 13:30:00',
    ...overrides,
  };
}

/** A complete, valid partner application as the island sends it. */
export function partnerBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Aisha Al-Qahtani',
    organization: 'Eastern Quality Training',
    jobTitle: 'Managing Director',
    country: 'Saudi Arabia',
    cityName: 'Dammam',
    email: 'aisha@example.com',
    phoneNumber: '+966 50 123 4567',
    companyWebsite: 'https://example.com',
    yearsInBusiness: 7,
    numberOfSites: 2,
    numberOfEmployees: null,
    formOfOwnership: 'Subsidiary (please specify name of parent company)',
    ownershipSpecification: 'Gulf Holding Group',
    servicesTypes: ['Training Courses', 'Inspection Services'],
    targetMarkets: ['Manufacturing', 'Healthcare'],
    interestReason: 'Growing demand for ISO 9001 training in the Eastern Province.',
    salesMarketingCapabilities: 'A sales team of four and an active LinkedIn page.',
    demandAnticipation: 'About ten courses a year.',
    marketPotential: 'Large',
    topThreeReasons: 'Quality, reach, reputation',
    localCompetition: 'Two training centres in Dammam.',
    competitorEncounters: 'Occasionally',
    competitorAnalysis: 'They focus on HSE rather than quality systems.',
    presidentName: 'Khalid Al-Qahtani',
    classroomAvailable: 'No',
    trainersAvailable: 'Yes',
    customerSatisfactionMeasured: 'Yes',
    qualityFamiliarity: 'Yes',
    futureClassroomPlans: 'Renting a hall from next year.',
    uploadedFiles: 'cv-1.pdf, cv-2.docx',
    ...overrides,
  };
}

/** A body as a browser would post its form: a list as repeated keys, an empty number as ''. */
export function asForm(body: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value)) for (const item of value) form.append(key, String(item));
    else form.append(key, value === null || value === undefined ? '' : String(value));
  }
  return form;
}

const FORM_ROUTE = /^\/api\/(contact|partner)(\?|$)/;

/**
 * Posts JSON as the form's island does: with a solved proof of work in `altcha` for the form
 * routes, unless the body names `altcha` itself (`altcha: undefined` sends none).
 */
export async function postJson(
  baseUrl: string,
  route: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  if (
    FORM_ROUTE.test(route) &&
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    !Object.hasOwn(body, 'altcha')
  ) {
    body = { ...body, altcha: await solvedProof(baseUrl) };
  }
  return fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    redirect: 'manual',
  });
}

/** Posts a form as a browser does (with a solved proof in `altcha`, as above, unless the form has the field). */
export async function postForm(
  baseUrl: string,
  route: string,
  form: URLSearchParams | string,
  headers: Record<string, string> = {},
): Promise<Response> {
  if (FORM_ROUTE.test(route) && form instanceof URLSearchParams && !form.has('altcha')) {
    form = new URLSearchParams(form);
    form.append('altcha', await solvedProof(baseUrl));
  }
  return fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: baseUrl, ...headers },
    body: String(form),
    redirect: 'manual',
  });
}
