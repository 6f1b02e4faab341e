/**
 * Working the inbox as staff do, in the project's language (`en`: the English inbox; `ar`: the
 * Arabic one, chosen by its cookie):
 * - three leads of a searched list worked one after the other from their pages, never back to the
 *   list: "Mark answered and go to next", "Save and go to next", and Next on a lead that has just
 *   left the list;
 * - two staff members on one lead: the change from the page opened earlier is refused, naming the
 *   colleague's change, the lead's status now, and applied only when asked again;
 * - the selection's status: pressing Set status without choosing changes nothing and says so; a
 *   chosen status is asked first, naming the count and the status;
 * - a lead page lists the person's other leads (the same e-mail, other capitals);
 * - the list on a 390 × 844 phone: the first lead within the first screen, its message's start
 *   shown as text.
 * The tests alternate between 1440 and 390 px (the phone's list at 390 px); the two staff members'
 * refusal is looked at (axe, a screenshot) at both widths, the page resized to the other and back.
 * With SHOTS_DIR set, screenshots of each state go there to be looked at (never committed).
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect as baseExpect, escapeRegExp, test, type SiteLanguage } from './site-locale';
import { addStaffAccount, solvedProof } from './staff-helpers';
import { violations } from './axe';
import { atBothWidths, DESKTOP, PHONE, viewportAt } from './look';
import { contactBody } from '../helpers/server';

const PASSWORD = 'queue flow password for tests';
// Each test makes its own staff accounts with the staff command and works several pages: room for a busy machine.
test.describe.configure({ timeout: 300_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const NAMES = {
  en: ['Amal', 'Basim', 'Dana', 'Faris'],
  ar: ['أمل', 'باسم', 'دانة', 'فارس'],
} as const;

async function shot(page: Page, name: string, lang: SiteLanguage): Promise<void> {
  const dir = process.env['SHOTS_DIR'];
  const width = page.viewportSize()?.width ?? 0;
  if (dir) await page.screenshot({ path: `${dir}/flow-${name}-${lang.code}-${width}.png`, fullPage: true });
}

/** A browser of its own for one staff member, the inbox in the project's language. */
async function staffBrowser(
  browser: Browser,
  lang: SiteLanguage,
  baseURL: string,
  width: number = DESKTOP.width,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: viewportAt(width) });
  await context.addCookies([{ name: 'globaq-inbox-language', value: lang.code, url: `${baseURL}/admin` }]);
  return context;
}

async function signIn(page: Page, lang: SiteLanguage, email: string): Promise<void> {
  await page.goto('/admin/login');
  await page.getByLabel(lang.t('admin.signIn.email')).fill(email);
  await page.getByLabel(lang.t('admin.signIn.password')).fill(PASSWORD);
  await page.getByLabel(lang.t('admin.signIn.password')).press('Enter');
  await expect(page).toHaveURL(/\/admin$/);
}

/** A contact message from the project's language's site, in the inbox (a solved proof). */
async function postLead(page: Page, lang: SiteLanguage, fields: Record<string, unknown>): Promise<string> {
  const response = await page.request.post(`/api/contact${lang.code === 'ar' ? '?lang=ar' : ''}`, {
    headers: { Origin: new URL(page.url()).origin, 'Content-Type': 'application/json' },
    data: {
      ...contactBody({ lastName: lang.code === 'ar' ? 'الدوسري' : 'Al-Dossary', ...fields }),
      altcha: await solvedProof(page),
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

const unique = (what: string, lang: SiteLanguage, index: number) => `${what}${lang.code}${index}x${Date.now()}`;

test('three leads of a searched list worked one after the other, never back to the list', async ({
  browser,
  lang,
  baseURL,
}, info) => {
  const marker = unique('Queue', lang, info.workerIndex);
  const me = `${marker.toLowerCase()}@globaq.example`;
  await addStaffAccount(me, PASSWORD);
  const context = await staffBrowser(browser, lang, baseURL!);
  const page = await context.newPage();
  await page.goto(lang.path('/'));
  // Oldest first: the list shows the newest first (Faris, Dana, Basim, Amal).
  for (const firstName of NAMES[lang.code]) await postLead(page, lang, { firstName, company: marker });
  const [amal, basim, dana, faris] = NAMES[lang.code].map(
    (name) => `${name} ${lang.code === 'ar' ? 'الدوسري' : 'Al-Dossary'}`,
  ) as [string, string, string, string];
  await signIn(page, lang, me);
  await page.goto(`/admin?q=${marker}`);
  await page.getByRole('link', { name: faris }).click();
  const pages: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) pages.push(new URL(frame.url()).pathname);
  });
  const walk = page.getByRole('navigation', { name: lang.t('admin.walk') });
  const title = page.getByRole('heading', { level: 1 });
  await expect(walk).toContainText(lang.t('admin.walk.place', { position: 1, total: 4 }));

  // 1. Faris: "Mark answered and go to next" opens Dana, saying what was done on Faris.
  await page.getByRole('button', { name: lang.t('admin.flow.answeredNext') }).click();
  await expect(title).toContainText(dana);
  const previous = lang.t('admin.flow.previous', { done: lang.t('admin.lead.done.answered') });
  await expect(page.getByRole('status')).toContainText(previous);
  await expect(walk).toContainText(lang.t('admin.walk.place', { position: 1, total: 3 }));
  await shot(page, 'after-next', lang);

  // 2. Dana: In progress, "Save and go to next": Basim (Dana stays in the list: it needs work).
  await page.getByLabel(lang.t('admin.lead.status')).selectOption('in_progress');
  await page
    .getByRole('button', { name: lang.t('admin.flow.saveNext') })
    .first()
    .click();
  await expect(title).toContainText(basim);
  await expect(walk).toContainText(lang.t('admin.walk.place', { position: 2, total: 3 }));

  // 3. Basim: plain "Mark answered": it leaves the list, yet Previous and Next stay; Next opens Amal.
  await page.getByRole('button', { name: lang.t('admin.lead.markAnswered'), exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(lang.t('admin.lead.done.answered'));
  await expect(walk).toContainText(lang.t('admin.walk.left'));
  await walk.getByRole('link', { name: lang.t('admin.walk.next') }).click();
  await expect(title).toContainText(amal);
  await expect(walk).toContainText(lang.t('admin.walk.place', { position: 2, total: 2 }));
  expect(await violations(page), 'lead page after the walk').toEqual([]);

  // Never back on the list in between; the list then shows what was done.
  expect(pages.filter((path) => path === '/admin')).toEqual([]);
  await walk.getByRole('link', { name: lang.t('admin.walk.back') }).click();
  await expect(page.getByRole('link', { name: faris })).toHaveCount(0);
  await expect(page.getByRole('link', { name: basim })).toHaveCount(0);
  await expect(page.getByRole('link', { name: dana })).toBeVisible();
  await context.close();
});

test("two staff on one lead: the older page's change is refused with the colleague's, and applied only when asked", async ({
  browser,
  lang,
  baseURL,
}, info) => {
  const marker = unique('Stale', lang, info.workerIndex);
  const huda = `huda-${marker.toLowerCase()}@globaq.example`;
  const omar = `omar-${marker.toLowerCase()}@globaq.example`;
  await addStaffAccount(huda, PASSWORD);
  await addStaffAccount(omar, PASSWORD);
  // Both at 390 px: the phone layout gets the clicks; the refusal is looked at at both widths.
  const hudas = await staffBrowser(browser, lang, baseURL!, PHONE.width);
  const omars = await staffBrowser(browser, lang, baseURL!, PHONE.width);
  const hudaPage = await hudas.newPage();
  const omarPage = await omars.newPage();
  await hudaPage.goto(lang.path('/'));
  const id = await postLead(hudaPage, lang, { firstName: NAMES[lang.code][0], company: marker });
  await signIn(hudaPage, lang, huda);
  await signIn(omarPage, lang, omar);
  // Huda opens the lead first; then Omar marks it answered on his own page.
  await hudaPage.goto(`/admin/leads/${id}?q=${marker}`);
  await omarPage.goto(`/admin/leads/${id}?q=${marker}`);
  await omarPage.getByRole('button', { name: lang.t('admin.lead.markAnswered'), exact: true }).click();
  await expect(omarPage.getByRole('status')).toHaveText(lang.t('admin.lead.done.answered'));

  // Huda's page still says New; her In progress is refused, naming Omar's change and the status now.
  await hudaPage.getByLabel(lang.t('admin.lead.status')).selectOption('in_progress');
  const answer = hudaPage.waitForResponse((response) => response.request().method() === 'POST');
  await hudaPage.getByRole('button', { name: lang.t('admin.lead.saveStatus') }).click();
  expect((await answer).status()).toBe(409);
  const refusal = hudaPage.getByRole('alert');
  await expect(refusal).toContainText(lang.t('admin.stale.heading'));
  const answered = lang.t('admin.status.answered');
  await expect(refusal).toContainText(lang.t('admin.lead.event.status', { status: answered }));
  await expect(refusal).toContainText(omar);
  await expect(refusal).toContainText(
    new RegExp(escapeRegExp(lang.t('admin.stale.now', { status: answered, assigned: '' }).split('.')[0]!)),
  );
  await expect(refusal).toContainText(lang.t('admin.stale.yours.status', { status: lang.t('admin.status.in_progress') }));
  // Nothing changed: the page shows Omar's status.
  await expect(hudaPage.locator('.lead-summary .lead-status')).toHaveText(answered);
  await atBothWidths(hudaPage, async (width) => {
    expect(await violations(hudaPage), `stale refusal at ${width} px`).toEqual([]);
    await shot(hudaPage, 'stale', lang);
  });

  // "Apply my change anyway": set, and on the timeline.
  await refusal.getByRole('button', { name: lang.t('admin.stale.apply') }).click();
  await expect(hudaPage.getByRole('status')).toHaveText(lang.t('admin.lead.done.status'));
  await expect(hudaPage.locator('.lead-summary .lead-status')).toHaveText(lang.t('admin.status.in_progress'));
  await hudas.close();
  await omars.close();
});

test('the selection: Set status without a status changes nothing; a chosen one is asked first, naming the count', async ({
  browser,
  lang,
  baseURL,
}, info) => {
  const marker = unique('Bulk', lang, info.workerIndex);
  const me = `${marker.toLowerCase()}@globaq.example`;
  await addStaffAccount(me, PASSWORD);
  const context = await staffBrowser(browser, lang, baseURL!);
  const page = await context.newPage();
  await page.goto(lang.path('/'));
  const ids = [];
  for (const firstName of NAMES[lang.code].slice(0, 2)) ids.push(await postLead(page, lang, { firstName, company: marker }));
  await signIn(page, lang, me);
  // Both answered first (through the question), so that "New" would be a change.
  const list = `/admin?status=all&q=${marker}`;
  const selectAll = async () => {
    await page.goto(list);
    await page.getByRole('checkbox', { name: lang.t('admin.list.selectAll') }).check();
  };
  const bar = () => page.getByRole('group', { name: lang.t('admin.list.withSelected') });
  const count = lang.t('admin.bulk.leads.other', { count: 2 });
  const statusCells = page.locator('.lead-list__status');
  await selectAll();
  await expect(bar().getByLabel(lang.t('admin.list.status'))).toHaveValue('');
  await bar().getByLabel(lang.t('admin.list.status')).selectOption('answered');
  await page.getByRole('button', { name: lang.t('admin.list.setStatus') }).click();
  const answered = lang.t('admin.status.answered');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(lang.t('admin.bulk.statusTitle', { count, status: answered }));
  await shot(page, 'bulk-confirm', lang);
  await page.getByRole('button', { name: lang.t('admin.bulk.statusYes', { count, status: answered }) }).click();
  await expect(page.getByRole('status').first()).toHaveText(
    lang.t('admin.list.done.status', { leads: lang.t('admin.list.leads.other', { count: 2 }), status: answered }),
  );
  await expect(statusCells).toHaveText([answered, answered]);

  // Set status pressed without choosing: refused, said, and nothing changed.
  await selectAll();
  await page.getByRole('button', { name: lang.t('admin.list.setStatus') }).click();
  await expect(page.getByRole('alert')).toHaveText(lang.t('admin.bulk.chooseStatus'));
  await page.goto(list);
  await expect(statusCells).toHaveText([answered, answered]);

  // New, asked and declined: nothing changed either.
  await selectAll();
  await bar().getByLabel(lang.t('admin.list.status')).selectOption('new');
  await page.getByRole('button', { name: lang.t('admin.list.setStatus') }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    lang.t('admin.bulk.statusTitle', { count, status: lang.t('admin.status.new') }),
  );
  await page.getByRole('link', { name: lang.t('admin.bulk.statusNo') }).click();
  await expect(statusCells).toHaveText([answered, answered]);
  await context.close();
});

test("a lead page lists the person's other leads, found by the same e-mail in other capitals", async ({
  browser,
  lang,
  baseURL,
}, info) => {
  const marker = unique('Person', lang, info.workerIndex);
  const me = `${marker.toLowerCase()}@globaq.example`;
  await addStaffAccount(me, PASSWORD);
  const context = await staffBrowser(browser, lang, baseURL!, PHONE.width);
  const page = await context.newPage();
  await page.goto(lang.path('/'));
  const email = `${marker.toLowerCase()}@acme.example`;
  const first = await postLead(page, lang, { firstName: NAMES[lang.code][0], email, company: marker });
  const second = await postLead(page, lang, { firstName: NAMES[lang.code][0], email: email.toUpperCase(), company: marker });
  await postLead(page, lang, { firstName: NAMES[lang.code][1], email: `other-${email}`, company: marker });
  await signIn(page, lang, me);
  await page.goto(`/admin/leads/${second}`);
  const others = page.getByRole('region', { name: lang.t('admin.person.others', { count: 1 }) });
  await expect(others.getByRole('list').getByRole('link')).toHaveCount(1);
  await expect(others.getByRole('listitem')).toContainText(lang.t('admin.status.new'));
  await others.getByRole('list').getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/admin/leads/${first}$`));
  await expect(
    page
      .getByRole('region', { name: lang.t('admin.person.others', { count: 1 }) })
      .getByRole('list')
      .getByRole('link'),
  ).toHaveAttribute('href', `/admin/leads/${second}`);
  await context.close();
});

test('on a 390 × 844 phone the first lead is within the first screen, with the start of its message as text @rtl', async ({
  browser,
  lang,
  baseURL,
}, info) => {
  const marker = unique('Phone', lang, info.workerIndex);
  const me = `${marker.toLowerCase()}@globaq.example`;
  await addStaffAccount(me, PASSWORD);
  const context = await staffBrowser(browser, lang, baseURL!, PHONE.width);
  const page = await context.newPage();
  await page.goto(lang.path('/'));
  const message = `<b>${marker}</b> ${'We need an ISO 9001 gap assessment before the audit. '.repeat(4)}`;
  await postLead(page, lang, { firstName: NAMES[lang.code][2], company: marker, message });
  await signIn(page, lang, me);
  await page.goto('/admin');
  const first = page.locator('.lead-row').first();
  const box = await first.boundingBox();
  expect(box, 'the first lead').not.toBeNull();
  // Its top, and its name, within the first screen (844 px), with nothing sideways.
  expect(box!.y).toBeLessThan(844 - 80);
  const name = await first.locator('.lead-list__name').boundingBox();
  expect(name!.y + name!.height).toBeLessThanOrEqual(844);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);
  // The red Delete is not the first control: the selection's actions are folded until a lead is ticked.
  await expect(page.getByRole('button', { name: lang.t('admin.list.delete') })).toBeHidden();
  await page
    .getByRole('link', { name: new RegExp(escapeRegExp(NAMES[lang.code][2])) })
    .first()
    .waitFor();
  const preview = page.locator('.lead-row', { hasText: marker }).locator('.lead-list__preview');
  await expect(preview).toContainText(`<b>${marker}</b> We need an ISO 9001 gap assessment`);
  expect((await preview.textContent())!.length).toBeLessThanOrEqual(121);
  await page.locator('.lead-row', { hasText: marker }).getByRole('checkbox').check();
  await expect(page.getByRole('button', { name: lang.t('admin.list.delete') })).toBeVisible();
  expect(await violations(page), 'the list on a phone').toEqual([]);
  await shot(page, 'list', lang);
  await context.close();
});
