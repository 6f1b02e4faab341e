/**
 * The lead page in a real browser: an English contact message, an Arabic one
 * (Latin words and a link inside it) and a long partner application with two CVs and a long
 * e-mail address. Answered fields first, the unanswered in one line, the CVs beside the contact
 * block, the visitor's clock behind "Details", every answer in its own direction, Riyadh dates
 * as people read them, no sideways scrolling; the timeline worked by hand (a note, its
 * correction, an assignment, "Reply by e-mail", "Mark answered"). The three leads are worked at
 * 1440 px and the timeline at 390 px; each state is looked at (its layout, axe, no sideways
 * scrolling) at 1440 and 390 px, the page resized to the other width and back. Screenshots of each
 * state at both widths go to the test's output folder (test-results/, never committed) to be
 * looked at.
 */
import { expect, test, type Page } from '@playwright/test';
import { addStaffAccount, openReply, signInAs, solvedProof } from './staff-helpers';
import { violations } from './axe';
import { atBothWidths, DESKTOP, PHONE } from './look';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';

const DB = process.env['E2E_SUBMISSIONS_DB'] ?? '';
const PASSWORD = 'lead page password for tests';
const LONG_EMAIL = 'procurement.and.vendor.registration@eastern-province-industrial-services.example.com.sa';
const DATE = /^\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}$/;

const addStaff = (email: string): Promise<void> => addStaffAccount(email, PASSWORD);

const signIn = (page: Page, email: string): Promise<void> => signInAs(page, email, PASSWORD);

async function postContact(page: Page, lang: 'en' | 'ar', fields: Record<string, string>): Promise<string> {
  // With a solved proof of work, so the lead is in the inbox, not held for review.
  const altcha = await solvedProof(page);
  const response = await page.request.post(`/api/contact${lang === 'ar' ? '?lang=ar' : ''}`, {
    headers: { Origin: new URL(page.url()).origin, 'Content-Type': 'application/json' },
    data: {
      altcha,
      country: 'Saudi Arabia',
      submissionDate: new Date().toISOString(),
      submissionTimestamp: new Date().toLocaleString('en-GB'),
      ...fields,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const long = (topic: string) =>
  `${topic}: we have delivered ISO 9001 and ISO 45001 awareness courses across the Eastern Province for eleven years, ` +
  'with two classrooms in Dammam and a third planned in Al-Khobar; our trainers hold IRCA-certified lead auditor credentials, ' +
  'and our clients include fabrication yards, laboratories and logistics companies that supply Saudi Aramco under Schedule Q.';

/** A long partner application with two CVs, stored as the receiver stores one (the database the test server uses). */
async function savePartner(stamp: string): Promise<string> {
  const store = openSqliteStore(DB);
  try {
    const { id } = await store.save({
      form: 'partner',
      fields: {
        name: `Abdulrahman Al-Dossary ${stamp}`,
        organization: 'Eastern Province Industrial Services and Quality Training Company',
        jobTitle: 'Head of Business Development and Strategic Partnerships',
        country: 'Saudi Arabia',
        cityName: 'Dammam',
        email: LONG_EMAIL,
        phoneNumber: '+966 13 555 0101',
        companyWebsite: 'www.eastern-province-industrial-services.example.com.sa/partners/training',
        yearsInBusiness: 11,
        numberOfSites: 3,
        numberOfEmployees: null,
        formOfOwnership: 'Privately held company',
        servicesTypes: ['Training Courses', 'Inspection Services', 'Consultancy'],
        targetMarkets: ['Manufacturing', 'Oil & Gas', 'Healthcare', 'Construction'],
        interestReason: long('Interest'),
        topThreeReasons: '1. Reach across the Eastern Province\n2. Certified trainers\n3. Long client relationships',
        classroomAvailable: 'Yes',
        trainersAvailable: 'Yes',
        uploadedFiles: ['cv-lead-trainer-abdulrahman-al-dossary-2026.pdf', 'سيرة المدرب الثاني.pdf'],
        qualityFamiliarity: 'Yes',
        customerSatisfactionMeasured: 'No',
        salesMarketingCapabilities: long('Sales'),
        demandAnticipation: long('Demand'),
        marketPotential: long('Market'),
        localCompetition: '',
        competitorEncounters: long('Competitors'),
        competitorAnalysis: '',
      },
      attachments: [
        {
          name: 'cv-lead-trainer-abdulrahman-al-dossary-2026.pdf',
          type: 'application/pdf',
          bytes: new TextEncoder().encode('%PDF-1.7\n%%EOF\n'),
        },
        { name: 'سيرة المدرب الثاني.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.7\n%%EOF\n') },
      ],
    });
    return id;
  } finally {
    await store.close();
  }
}

async function noSidewaysScrolling(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, what).toBeLessThanOrEqual(0);
}

test.describe('at 1440 px, each lead looked at at 1440 and 390 px', () => {
  test.use({ viewport: DESKTOP });

  test('the lead page: English, Arabic and a long partner application', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const stamp = String(Date.now());
    const email = `lead-page-${stamp}@globaq.example`;
    await addStaff(email);
    await page.goto('/');
    const english = await postContact(page, 'en', {
      firstName: 'Sara',
      lastName: `Mitchell ${stamp}`,
      email: 'sara.mitchell@gulfqa.example',
      city: 'Dammam',
      company: '',
      message: 'Please send a proposal for a Schedule Q assessment.\nWe are registering as a vendor next month.',
    });
    const arabic = await postContact(page, 'ar', {
      firstName: 'نورة',
      lastName: `العتيبي ${stamp}`,
      email: 'noura@example.sa',
      city: 'الخبر',
      company: 'مصنع الخليج',
      message: 'نرغب في تقييم Schedule Q لمصنعنا، وقد اطلعنا على https://globaq.example/services قبل التواصل معكم.\nشكرًا لكم.',
    });
    const partner = await savePartner(stamp);
    await signIn(page, email);

    // English: answered first, the unanswered in one line, the visitor's clock behind Details.
    await page.goto(`/admin/leads/${english}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Sara Mitchell ${stamp}: Contact message`);
    await expect(page.locator('.lead-unanswered')).toHaveText('Not answered: Company');
    const details = page.locator('details.lead-details');
    await expect(details.getByText('Sent (visitor’s clock, UTC)')).toBeHidden();
    await details.locator('summary').click();
    await expect(details.getByText('Sent (visitor’s clock, UTC)')).toBeVisible();
    for (const time of await page.locator('time').allTextContents()) expect(time).toMatch(DATE);
    await expect(page.locator('.lead-summary')).toContainText(/Received \d{1,2} \w{3} \d{4}, \d{2}:\d{2}/);
    const href = await openReply(page);
    expect(href).toMatch(/^mailto:sara\.mitchell@gulfqa\.example\?subject=Your%20message%20to%20Globaq&body=/);
    expect(decodeURIComponent(href)).toContain('> Please send a proposal for a Schedule Q assessment.');
    await expect(page.getByRole('button', { name: 'Mark answered', exact: true })).toBeVisible();
    await atBothWidths(page, async (width) => {
      await noSidewaysScrolling(page, `English lead at ${width} px`);
      expect(await violations(page), `English lead at ${width} px`).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`lead-english-${width}.png`), fullPage: true });
    });

    // Arabic: the message reads right to left, keeping its Latin words and its link in order; the reply in Arabic.
    await page.goto(`/admin/leads/${arabic}`);
    const message = page.locator('.lead-message');
    await expect(message).toHaveAttribute('dir', 'auto');
    expect(await message.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    await expect(message).toHaveText(
      'نرغب في تقييم Schedule Q لمصنعنا، وقد اطلعنا على https://globaq.example/services قبل التواصل معكم.\nشكرًا لكم.',
    );
    // Visitor text is never a link, even a web address in it.
    await expect(message.getByRole('link')).toHaveCount(0);
    const name = page.locator('.lead-pairs dd bdi', { hasText: 'نورة' });
    expect(await name.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    const arabicReply = await openReply(page);
    expect(new URLSearchParams(arabicReply.slice(arabicReply.indexOf('?') + 1)).get('subject')).toBe('ردّ على رسالتكم إلى Globaq');
    await atBothWidths(page, async (width) => {
      await noSidewaysScrolling(page, `Arabic lead at ${width} px`);
      expect(await violations(page), `Arabic lead at ${width} px`).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`lead-arabic-${width}.png`), fullPage: true });
    });

    // The long partner application: its CVs beside the contact block (below it on a phone), the links, the long address wrapped.
    await page.goto(`/admin/leads/${partner}`);
    const contact = page.getByRole('region', { name: 'Contact' });
    const files = page.getByRole('region', { name: 'Files sent with it' });
    await expect(files.getByRole('link')).toHaveCount(2);
    await expect(contact.getByRole('link', { name: '+966 13 555 0101' })).toHaveAttribute('href', 'tel:+966135550101');
    const site = contact.getByRole('link', { name: /eastern-province-industrial-services/ }).filter({ hasNotText: '@' });
    await expect(site).toHaveAttribute(
      'href',
      'https://www.eastern-province-industrial-services.example.com.sa/partners/training',
    );
    await expect(site).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    const address = contact.getByRole('link', { name: LONG_EMAIL });
    await expect(address).toHaveAttribute('href', `mailto:${LONG_EMAIL}`);
    await expect(page.locator('.lead-unanswered')).toHaveText(/^Not answered: .*Number of Employees/);
    // The sections in the form's order; nothing from the contact block repeated under them.
    await expect(page.locator('#fields-heading ~ h3')).toHaveText([
      'Company Information',
      'Partnership Interest',
      'Training & Capabilities',
      'Business Analysis',
      'Competition Analysis',
    ]);
    await atBothWidths(page, async (width) => {
      const contactBox = (await contact.boundingBox())!;
      const filesBox = (await files.boundingBox())!;
      if (width > 1000) {
        expect(Math.abs(filesBox.y - contactBox.y), 'the CVs beside the contact block').toBeLessThan(2);
        expect(filesBox.x).toBeGreaterThan(contactBox.x + contactBox.width - 1);
      } else {
        expect(filesBox.y, 'the CVs right under the contact block').toBeGreaterThanOrEqual(contactBox.y + contactBox.height);
        expect(filesBox.y - (contactBox.y + contactBox.height)).toBeLessThan(40);
      }
      const addressBox = (await address.boundingBox())!;
      expect(addressBox.x + addressBox.width, `the address stays on the screen at ${width} px`).toBeLessThanOrEqual(width);
      // Wrapped at a sensible point (after the @ or a dot), never inside a word: each line ends at one.
      const lines = await address.evaluate((element) => {
        const range = document.createRange();
        const tops: number[] = [];
        const ends: string[] = [];
        let previous = '';
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let text = walker.nextNode() as Text | null; text; text = walker.nextNode() as Text | null) {
          for (let i = 0; i < text.length; i++) {
            range.setStart(text, i);
            range.setEnd(text, i + 1);
            const top = Math.round(range.getBoundingClientRect().top);
            // A character lower than the one before starts a line: the one before ended the last.
            if (tops.length === 0 || top > tops[tops.length - 1]!) {
              if (tops.length > 0) ends.push(previous);
              tops.push(top);
            }
            previous = text.data[i]!;
          }
        }
        return { count: tops.length, ends };
      });
      if (width < 1000) expect(lines.count, 'the address wrapped on a phone').toBeGreaterThan(1);
      for (const end of lines.ends) expect('@.-/_').toContain(end);
      await noSidewaysScrolling(page, `partner application at ${width} px`);
      expect(await violations(page), `partner application at ${width} px`).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`lead-partner-${width}.png`), fullPage: true });
      await page.screenshot({ path: testInfo.outputPath(`lead-partner-${width}-top.png`) });
    });
  });
});

test.describe('at 390 px, the worked lead looked at at 390 and 1440 px', () => {
  test.use({ viewport: PHONE });

  test('the timeline worked by hand: a note in Arabic, its correction, assigned to me, "Reply by e-mail" opened, marked answered', async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    const stamp = String(Date.now());
    const email = `timeline-${stamp}@globaq.example`;
    await addStaff(email);
    await page.goto('/');
    const id = await postContact(page, 'ar', {
      firstName: 'خالد',
      lastName: `الشهري ${stamp}`,
      email: 'khalid@example.sa',
      city: 'الدمام',
      company: '',
      message: 'نريد عرض سعر للتدريب على ISO 9001.',
    });
    await signIn(page, email);
    await page.goto(`/admin/leads/${id}`);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const entries = timeline.getByRole('listitem');

    const note = 'اتصلنا بالعميل، وأرسلنا العرض عبر https://globaq.example/offer يوم الأحد.';
    await page.getByLabel("Add a note (for staff; a copy of the person's data includes it)").fill(note);
    await page.getByRole('button', { name: 'Add note', exact: true }).click();
    await expect(page.getByRole('status')).toHaveText('The note was added to the timeline.');
    const first = timeline.locator('.lead-note').first();
    await expect(first).toHaveText(note);
    expect(await first.evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');
    await expect(entries.first()).toContainText(email);
    await expect(entries.first().locator('time')).toHaveText(DATE);

    // A correction: a new note; the old one stays, marked.
    await entries.first().getByText('Correct this note').click();
    await entries
      .first()
      .getByLabel('The corrected note (this one stays, marked as corrected)')
      .fill('أرسلنا العرض يوم الاثنين، لا الأحد.');
    await entries.first().getByRole('button', { name: 'Add the correction' }).click();
    await expect(timeline.locator('.lead-note')).toHaveText(['أرسلنا العرض يوم الاثنين، لا الأحد.', note]);
    await expect(entries.nth(0)).toContainText('Corrects the note of');
    await expect(entries.nth(1)).toContainText('Corrected by a later note');

    await page.getByLabel('Assigned to').selectOption(email);
    await page.getByRole('button', { name: 'Save assignment' }).click();
    await expect(page.locator('.lead-summary')).toContainText(`Assigned to ${email}`);
    await expect(entries.first()).toContainText(`Assigned to ${email}`);

    // "Reply by e-mail": no mail program opens in this browser, but the timeline says it was opened.
    expect(await openReply(page)).toMatch(/^mailto:/);
    await page.reload();
    await page.getByRole('button', { name: 'Mark answered', exact: true }).click();
    await expect(page.getByRole('status')).toHaveText('Marked answered.');
    await expect(page.locator('.lead-summary .lead-status')).toHaveText('Answered');
    await expect(entries.nth(0)).toContainText('Status set to Answered');
    await expect(entries.nth(1)).toContainText('Reply by e-mail opened');
    await expect(page.getByRole('button', { name: 'Mark answered', exact: true })).toHaveCount(0);
    await atBothWidths(page, async (width) => {
      await noSidewaysScrolling(page, `worked lead at ${width} px`);
      // Axe at 1440 px, as it has always been looked at.
      if (width === DESKTOP.width) expect(await violations(page), 'worked lead').toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`lead-timeline-${width}.png`), fullPage: true });
    });

    await page.getByRole('link', { name: 'Audit log' }).click();
    for (const action of ['added note', 'corrected note', 'assigned lead', 'opened reply', 'set status']) {
      await expect(page.getByRole('row', { name: new RegExp(`${email}.*${action}`) }).first()).toBeVisible();
    }
    for (const time of await page.locator('tbody td:first-child').allTextContents()) expect(time.trim()).toMatch(DATE);
  });
});
