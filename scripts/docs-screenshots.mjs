/**
 * `npm run docs:screenshots`: the pictures of docs/staff-guide.md, made again from the built site.
 *
 * Builds nothing (run `npm run build` first). Starts the built server on a free loopback port
 * with a throwaway database in a temporary folder, makes a staff account with the staff command,
 * posts made-up leads through the real endpoints (never a real person's data), each with a solved
 * proof of work as the forms' widget sends it (so they reach the list, not the held page), and one
 * without (so the held page has something to show), signs in in Chromium and writes each page
 * the guide shows (whole, or one part of it) to docs/images/ at 1440 and 390 px wide, as palette
 * PNGs (sharp), so that the committed pictures stay small. Then stops the server and removes the
 * folder.
 *
 * CHROMIUM_PATH: the browser (default /usr/bin/chromium).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import sharp from 'sharp';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { SMTPServer } from 'smtp-server';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs', 'images');
const SERVE = path.join(ROOT, 'src', 'server', 'http', 'serve.ts');
const CLI = path.join(ROOT, 'src', 'server', 'cli.ts');
const STAFF = 'sara@globaq.example';
/** A colleague who has begun an answer, so the pictures show "… is answering". */
const COLLEAGUE = 'huda@globaq.example';
const PASSWORD = 'screenshots only, thrown away';
const NODE_ARGS = ['--disable-warning=ExperimentalWarning'];

/** The pictures the guide shows: name, address, widths, and what to do before the picture. */
const SHOTS = [
  { name: 'staff-sign-in', path: '/admin/login', widths: [1440], signedIn: false },
  { name: 'staff-leads', path: '/admin', widths: [1440, 390], signedIn: true },
  { name: 'staff-lead', path: 'first-lead', widths: [1440], signedIn: true },
  { name: 'staff-timeline', path: 'first-lead#timeline', widths: [1440], signedIn: true, element: '#timeline' },
  { name: 'staff-held', path: '/admin?status=held', widths: [1440], signedIn: true },
  { name: 'staff-audit', path: '/admin/audit', widths: [1440], signedIn: true },
  // One conversation: an answer sent from the inbox, then the customer's answer, on the timeline.
  { name: 'staff-conversation', path: 'first-contact#timeline', widths: [1440, 390], signedIn: true, element: '#timeline' },
  // The same inbox in Arabic, right to left (the language switch's choice, as its cookie keeps it).
  { name: 'staff-templates', path: '/admin/templates', widths: [1440], signedIn: true },
  { name: 'staff-leads-ar', path: '/admin', widths: [1440, 390], signedIn: true, language: 'ar' },
  { name: 'staff-lead-ar', path: 'first-lead', widths: [1440, 390], signedIn: true, language: 'ar' },
  { name: 'staff-templates-ar', path: '/admin/templates', widths: [1440], signedIn: true, language: 'ar' },
  // The answer from the inbox, a template started (mail goes to a mail server of the script's own).
  { name: 'staff-reply', path: 'first-lead', widths: [1440, 390], signedIn: true, element: '#reply', reply: true },
  { name: 'staff-reply-ar', path: 'first-lead', widths: [1440], signedIn: true, element: '#reply', reply: true, language: 'ar' },
  // A change from a page opened before a colleague's (last: it changes the lead's status).
  { name: 'staff-stale', path: 'first-lead', widths: [1440], signedIn: true, element: '.lead-stale', stale: 'closed' },
  {
    name: 'staff-stale-ar',
    path: 'first-lead',
    widths: [390],
    signedIn: true,
    element: '.lead-stale',
    stale: 'answered',
    language: 'ar',
  },
];

/** Made-up leads, in both languages and both forms. */
const CONTACTS = [
  {
    firstName: 'Sara',
    lastName: 'Al-Qahtani',
    email: 'sara@gulfqa.example',
    country: 'Saudi Arabia',
    city: 'Dammam',
    company: 'Gulf QA',
    message: 'Please send a proposal for a Schedule Q assessment of our fabrication shop.',
  },
  {
    firstName: 'Omar',
    lastName: 'Haddad',
    email: 'omar@noravel.example',
    country: 'Saudi Arabia',
    city: 'Al-Khobar',
    company: 'Noravel Energy',
    message: 'We need ISO 45001 awareness training for 20 site supervisors in March.',
  },
  {
    firstName: 'ليلى',
    lastName: 'الدوسري',
    email: 'layla@tessarin.example',
    country: 'Saudi Arabia',
    city: 'الرياض',
    company: 'مختبرات تيسارين',
    message: 'نرغب في استشارة حول اعتماد المختبر وفق ISO/IEC 17025.',
    lang: 'ar',
  },
];
const PARTNER = {
  name: 'Ahmed Karim',
  jobTitle: 'Managing Director',
  email: 'ahmed@verokan.example',
  phoneNumber: '+973 1700 0000',
  country: 'Bahrain',
  cityName: 'Manama',
  organization: 'Verokan Industrial Training',
  companyWebsite: 'https://verokan.example',
  yearsInBusiness: '12',
  formOfOwnership: 'Privately held company',
  classroomAvailable: 'Yes',
  trainersAvailable: 'Yes',
  interestReason: 'We train quality staff across Bahrain and want to offer Globaq courses.',
};
/** A made-up lead that a bot check holds for review: sent with no proof of work. */
const HELD = {
  firstName: 'Test',
  lastName: 'Sender',
  email: 'offers@bulk-mail.example',
  country: 'Saudi Arabia',
  city: 'Jeddah',
  company: 'Bulk Mail',
  message: 'Cheap website traffic, guaranteed results.',
};
const PDF = '%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';

function fail(message) {
  console.error(`docs:screenshots: ${message}`);
  process.exit(1);
}

if (!fs.existsSync(path.join(ROOT, 'dist', 'server', 'entry.mjs')))
  fail('dist/server is missing: run `npm run build` first (this script builds nothing).');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-screenshots-'));
// The least proof of work and no wait: the pictures are made in a second, the checks still run.
const env = {
  ...process.env,
  SUBMISSIONS_DB: path.join(dir, 'submissions.db'),
  SUBMISSIONS_RATE_LIMIT: '0',
  SUBMISSIONS_HELD_PER_DAY: '0',
  SUBMISSIONS_LEADS_PER_DAY: '0',
  ALTCHA_COST: '1',
  ALTCHA_MAX_NUMBER: '100',
  SUBMISSIONS_MIN_SECONDS: '0',
  LOG_LEVEL: 'warn',
};
delete env.DATABASE_URL;

/** A mail server on loopback that takes every mail and keeps none: the inbox's answers need one. */
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    stream.resume();
    stream.on('end', () => callback());
  },
});
await new Promise((resolve) => smtp.listen(0, '127.0.0.1', resolve));
Object.assign(env, {
  SMTP_URL: `smtp://127.0.0.1:${smtp.server.address().port}`,
  LEADS_NOTIFY_TO: 'leads@globaq.example',
  LEADS_NOTIFY_FROM: 'website@globaq.example',
});

/** The built server on a free port; resolves with its address once it listens. */
function startServer() {
  const child = spawn(process.execPath, [...NODE_ARGS, SERVE], {
    cwd: ROOT,
    env: { ...env, HOST: '127.0.0.1', PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not start within 30 s')), 30_000);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, baseUrl: match[1] });
      }
    });
  });
}

async function post(baseUrl, route, body, init = {}) {
  const response = await fetch(`${baseUrl}${route}`, {
    method: 'POST',
    body,
    headers: { Origin: baseUrl, Accept: 'application/json', ...init.headers },
  });
  if (response.status !== 201) throw new Error(`${route} answered ${response.status}`);
  return (await response.json()).id;
}

/** A solved proof of work, as the forms' widget sends it in the `altcha` field (tests/helpers/proof.ts). */
async function proof(baseUrl) {
  const response = await fetch(`${baseUrl}/api/challenge`);
  if (!response.ok) throw new Error(`/api/challenge answered ${response.status}`);
  const challenge = await response.json();
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the challenge was not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** The leads' ids: the partner application and the contact messages, in the order sent. */
async function seed(baseUrl) {
  const json = { headers: { 'Content-Type': 'application/json' } };
  await post(baseUrl, '/api/contact', JSON.stringify(HELD), json);
  const contactIds = [];
  for (const { lang, ...lead } of CONTACTS) {
    const id = await post(
      baseUrl,
      `/api/contact${lang ? `?lang=${lang}` : ''}`,
      JSON.stringify({ ...lead, altcha: await proof(baseUrl) }),
      json,
    );
    contactIds.push(id);
  }
  const form = new FormData();
  form.append('altcha', await proof(baseUrl));
  for (const [name, value] of Object.entries(PARTNER)) form.append(name, value);
  form.append('uploadedFiles', new Blob([PDF], { type: 'application/pdf' }), 'cv-trainer-ahmed.pdf');
  return { partnerId: await post(baseUrl, '/api/partner', form), contactIds };
}

/** Signs in on the inbox's sign-in page as `email`. */
async function signIn(page, email) {
  await page.goto('/admin/login');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/admin$/);
}

/** Chooses `status` on a lead page and presses its form's button. */
async function saveStatus(page, status) {
  const select = page.locator('select[name="status"]').first();
  await select.selectOption(status);
  await select.locator('xpath=ancestor::form').locator('button[type="submit"]').first().click();
}

/** A palette PNG: a screenshot of flat colours keeps its look at a fraction of the bytes. */
async function writePng(buffer, file) {
  await sharp(buffer).png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 }).toFile(file);
  return fs.statSync(file).size;
}

const { child, baseUrl } = await startServer();
let browser;
try {
  // The accounts, made as an administrator would, once the server has created the database.
  for (const email of [STAFF, COLLEAGUE]) {
    const made = spawnSync(process.execPath, [...NODE_ARGS, CLI, 'staff', 'add', email], {
      cwd: ROOT,
      env,
      input: `${PASSWORD}\n`,
      encoding: 'utf8',
    });
    if (made.status !== 0) throw new Error(`the staff command failed:\n${made.stderr}`);
  }
  const { partnerId, contactIds } = await seed(baseUrl);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium' });
  fs.mkdirSync(OUT, { recursive: true });
  // The colleague begins an answer to the second contact message: the list shows who is answering.
  const colleagueContext = await browser.newContext({ baseURL: baseUrl });
  const colleague = await colleagueContext.newPage();
  await signIn(colleague, COLLEAGUE);
  await colleague.goto(`/admin/leads/${contactIds[1]}`);
  const told = colleague.waitForResponse((response) => response.request().method() === 'POST');
  await colleague.locator('#reply-form textarea').focus();
  await told;
  await colleagueContext.close();
  const context = await browser.newContext({ baseURL: baseUrl, reducedMotion: 'reduce' });
  const page = await context.newPage();
  let signedIn = false;
  for (const shot of SHOTS) {
    if (shot.signedIn && !signedIn) {
      await signIn(page, STAFF);
      signedIn = true;
      // One answer template in both languages, as staff would write it on the templates page.
      await page.goto('/admin/templates');
      const add = page.locator('form:has(button[value="add"])');
      await add.locator('input[name="name"]').fill('Proposal on its way');
      await add
        .locator('textarea[name="bodyEn"]')
        .fill('Thank you for your enquiry. We are preparing a proposal and will send it within two working days.');
      await add.locator('textarea[name="bodyAr"]').fill('شكرًا لتواصلكم معنا. نُعدّ لكم عرضًا وسنرسله خلال يومي عمل.');
      await add.locator('button[value="add"]').click();
      await page.locator('form:has(input[name="id"])').first().waitFor();
    }
    // The inbox's language as the switch in its header leaves it (English unless the shot says).
    await context.addCookies([{ name: 'globaq-inbox-language', value: shot.language ?? 'en', url: `${baseUrl}/admin` }]);
    for (const width of shot.widths) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      const lead = shot.path.startsWith('first-lead');
      const contact = shot.path.startsWith('first-contact');
      await page.goto(lead ? `/admin/leads/${partnerId}` : contact ? `/admin/leads/${contactIds[0]}` : shot.path);
      if (contact && !(await page.locator('.lead-event--customer').count())) {
        // Answered from a template, then the customer's answer marked when it came to the leads mailbox.
        await page.locator('#reply form:has(select) button[type="submit"]').click();
        await page.getByRole('button', { name: 'Send the answer' }).click();
        await page.locator('#reply-form').waitFor();
        await page.getByRole('button', { name: 'Customer answered' }).click();
        await page.getByText("The customer's answer is on the timeline.").waitFor();
        // The outbox hands the answer to the mail server within a moment: the timeline then says Sent.
        for (
          let tries = 0;
          tries < 50 &&
          !(await page
            .locator('#timeline')
            .getByText(/^Sent /)
            .count());
          tries++
        ) {
          await page.reload();
        }
      }
      if (lead && !(await page.locator('.lead-event--note').count())) {
        // Worked a little, as the guide describes: a status, an assignment and a note, then the note
        // corrected by a new one, each on the timeline with who and when.
        await page.locator('select[name="status"]').selectOption('in_progress');
        await page.getByRole('button', { name: 'Save status' }).click();
        await page.getByText('The status was saved.').waitFor();
        await page.locator('select[name="assignee"]').selectOption(STAFF);
        await page.getByRole('button', { name: 'Save assignment' }).click();
        await page.getByText('The assignment was saved.').waitFor();
        await page
          .getByLabel("Add a note (for staff; a copy of the person's data includes it)")
          .fill('Called on Sunday; sending our trainer requirements on Monday.');
        await page.getByRole('button', { name: 'Add note', exact: true }).click();
        await page.getByText('The note was added to the timeline.').waitFor();
        await page.locator('.lead-correct summary').first().click();
        await page
          .getByLabel('The corrected note (this one stays, marked as corrected)')
          .fill('Called on Sunday; sending our trainer requirements on Tuesday.');
        await page.getByRole('button', { name: 'Add the correction' }).click();
        await page.getByText('The note was added to the timeline.').waitFor();
        await page.goto(`/admin/leads/${partnerId}`);
      }
      if (shot.reply) {
        await page.locator('#reply form:has(select) button[type="submit"]').click();
        await page.locator('#reply textarea').waitFor();
      }
      if (shot.stale) {
        // A colleague's change in another tab, after this page was opened; then this page's own.
        const colleague = await context.newPage();
        await colleague.goto(`/admin/leads/${partnerId}`);
        await saveStatus(colleague, shot.stale === 'closed' ? 'answered' : 'in_progress');
        await colleague.waitForLoadState();
        await colleague.close();
        await saveStatus(page, shot.stale);
        await page.locator('.lead-stale').waitFor();
      }
      const target = shot.element ? page.locator(shot.element) : page;
      const file = path.join(OUT, `${shot.name}-${width}.png`);
      const size = await writePng(await target.screenshot(shot.element ? {} : { fullPage: true }), file);
      console.log(`${path.relative(ROOT, file)}  ${(size / 1024).toFixed(1)} KB`);
    }
  }
} finally {
  await browser?.close();
  child.kill('SIGTERM');
  smtp.close();
  await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
  fs.rmSync(dir, { recursive: true, force: true });
}
