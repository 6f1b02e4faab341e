/**
 * The partner application, every rule of docs/requirements.md §8, §9, §10, §11, with the endpoint intercepted,
 * in each language: /Partner and /ar/Partner. The labels, options, alerts, banners and messages
 * are the language's (its dictionary; the countries named and sorted for its readers); what is
 * sent keeps the specification's field names and English answers, and the Arabic form tells the
 * site's own receiver its language (?lang=ar).
 *
 * One difference is the page's own: in Arabic the counts are text fields with a numeric keyboard
 * (a number field refuses the Arabic-Indic digits visitors type, tests/e2e/arabic-forms.spec.ts),
 * so there the form's own check, not the browser's, refuses a negative count.
 */
import { expect, test, type SiteLanguage } from './site-locale';
import type { Page } from '@playwright/test';
import { violations } from './axe';
import {
  chosenOwnership,
  drawnLeftToRight,
  fillPartnerRequired,
  formEndpoint,
  interceptEndpoint,
  openFormPage,
  ownershipAnswer,
  partnerChoice,
  partnerField,
  reachForm,
  recordFormEvents,
  sentBody,
} from './forms-helpers';
import { PROOF_WAIT_MS } from '../../src/components/islands/use-proof';
import { partnerLabelKey, PARTNER_DRAFT_KEY, type PartnerField } from '../../src/forms/partner';
import { countryList } from '../../src/forms/country-list';
import { site } from './site-data';

const MB = 1024 * 1024;

const file = (name: string, size: number, mimeType = 'application/pdf') => ({ name, mimeType, buffer: Buffer.alloc(size, 0x41) });

const fillRequired = (page: Page, lang: SiteLanguage) => fillPartnerRequired(page, undefined, lang);

/** The page's label of the specification's field `name`. */
const label = (lang: SiteLanguage, name: PartnerField) => lang.t(partnerLabelKey(name));

/**
 * Sends the form as the island does: the pointer over the button is the visitor's intent, and the
 * press waits for the island to have started (a press before that is the browser's own form
 * check, which form-hydration.spec.ts covers), however slow the machine.
 */
async function submit(page: Page, lang: SiteLanguage): Promise<void> {
  const button = page.getByRole('button', { name: lang.t('partner.submit') });
  await button.hover();
  await expect(page.locator('form.partner-form')).toHaveAttribute('data-hydrated', '', { timeout: 15_000 });
  await button.click();
}

/** The names in the list of chosen files, each in its own element. */
const fileNames = (page: Page) => page.locator('.selected-files__name');

const axe = async (page: Page) => (await violations(page)).map((line) => line.split(':')[0]);

test.describe('with JavaScript', () => {
  test.beforeEach(async ({ page, lang }) => {
    await openFormPage(page, lang.path('/Partner'));
  });

  test('the Send button stays where it is while the form starts, the widget appears and the first key is typed @rtl', async ({
    page,
    lang,
  }) => {
    const send = page.getByRole('button', { name: lang.t('partner.submit') });
    const before = await send.boundingBox();
    await page.locator('#partner-name').click();
    await page.keyboard.type('A');
    await expect(page.locator('form.partner-form[data-hydrated] altcha-widget')).toBeVisible();
    await expect
      .poll(async () => (await page.locator('form.partner-form altcha-widget').boundingBox())?.height ?? 0)
      .toBeGreaterThan(30);
    // The note that the answers are kept on this device, with its Clear button, has appeared.
    await expect(page.getByRole('button', { name: lang.t('partner.draft.clear') })).toBeVisible();
    expect((await send.boundingBox())?.y).toBe(before?.y);
  });

  test('the six sections, in order', async ({ page, lang }) => {
    await expect(page.locator('form.partner-form > fieldset > legend')).toHaveText(
      (
        [
          'partner.section.basic',
          'partner.section.company',
          'partner.section.interest',
          'partner.section.training',
          'partner.section.business',
          'partner.section.competition',
        ] as const
      ).map((key) => lang.t(key)),
    );
  });

  test('controls of the right types: e-mail, URL, telephone, numbers from 0, about 195 countries with Saudi Arabia first @rtl', async ({
    page,
    lang,
  }) => {
    const control = (name: PartnerField) => partnerField(page, name, lang);
    await expect(control('email')).toHaveAttribute('type', 'email');
    await expect(control('companyWebsite')).toHaveAttribute('type', 'url');
    await expect(control('phoneNumber')).toHaveAttribute('type', 'tel');
    for (const name of ['yearsInBusiness', 'numberOfSites', 'numberOfEmployees'] as const) {
      await expect(control(name)).toHaveAttribute('inputmode', 'numeric');
      if (lang.code === 'en') {
        await expect(control(name)).toHaveAttribute('type', 'number');
        await expect(control(name)).toHaveAttribute('min', '0');
      } else {
        // Arabic-Indic digits are typed here, which a number field refuses: a text field, checked by the form.
        await expect(control(name)).toHaveAttribute('type', 'text');
      }
    }
    // The countries as the language names and sorts them; what is sent is the English name.
    const countries = countryList(lang.code);
    const options = control('country').locator('optgroup option');
    expect(await options.count()).toBeGreaterThanOrEqual(193);
    await expect(options).toHaveText(countries.all.map((country) => country.label));
    const saudiArabia = control('country').locator('option').nth(1);
    await expect(saudiArabia).toHaveAttribute('value', 'Saudi Arabia');
    await expect(saudiArabia).toHaveText(
      countries.preferred.find((country) => country.value === 'Saudi Arabia')?.label ?? 'no label',
    );
    await expect(control('country').locator('optgroup')).toHaveAttribute('label', lang.t('partner.countryAll'));
    // Radio buttons (a closed list cut its long answers at phone width), labelled in the page's language.
    await expect(page.locator('#partner-formOfOwnership label')).toHaveText(
      (
        [
          'partner.option.corporation',
          'partner.option.privatelyHeld',
          'partner.option.subsidiary',
          'partner.option.university',
          'partner.option.other',
        ] as const
      ).map((key) => lang.t(key)),
    );
    await expect(page.locator('#partner-formOfOwnership input[type="radio"]')).toHaveCount(5);
    await expect(page.locator('#partner-servicesTypes input[type="checkbox"]')).toHaveCount(3);
    await expect(page.locator('#partner-targetMarkets input[type="checkbox"]')).toHaveCount(6);
    for (const id of ['classroomAvailable', 'trainersAvailable', 'customerSatisfactionMeasured', 'qualityFamiliarity']) {
      await expect(page.locator(`#partner-${id} input[type="radio"]`)).toHaveCount(2);
    }
  });

  test('missing required fields: one alert naming them, nothing sent, focus on the first @rtl', async ({ page, lang }) => {
    const control = (name: PartnerField) => partnerField(page, name, lang);
    /** The alert: the fields' labels, in the order of the page, in the language's list. */
    const alert = (names: readonly PartnerField[]) =>
      `${lang.t('partner.alert.required')} ${names.map((name) => label(lang, name)).join(lang.t('form.listSeparator'))}`;
    const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 201 });
    await control('organization').fill('EQT');
    await submit(page, lang);
    await expect
      .poll(() => capture.alerts)
      .toEqual([
        alert([
          'name',
          'jobTitle',
          'email',
          'phoneNumber',
          'country',
          'cityName',
          'companyWebsite',
          'yearsInBusiness',
          'formOfOwnership',
        ]),
      ]);
    expect(capture.requests).toHaveLength(0);
    await expect(control('name')).toBeFocused();
    await expect(control('country')).toHaveAttribute('aria-invalid', 'true');
    await expect(control('organization')).not.toHaveAttribute('aria-invalid', 'true');
    expect(await axe(page)).toEqual([]);

    // In the order of the page: the alert, the summary and the focus all start with the first gap on screen.
    await control('organization').fill('');
    await control('name').fill('Aisha Al-Qahtani');
    await submit(page, lang);
    await expect.poll(() => capture.alerts.length).toBe(2);
    expect(capture.alerts[1]).toBe(
      alert([
        'jobTitle',
        'email',
        'phoneNumber',
        'country',
        'cityName',
        'organization',
        'companyWebsite',
        'yearsInBusiness',
        'formOfOwnership',
      ]),
    );
    await expect(control('jobTitle')).toBeFocused();
    await expect(page.locator('.error-summary li').first()).toContainText(label(lang, 'jobTitle'));
    await expect(page.locator('.error-summary li').nth(5)).toContainText(label(lang, 'organization'));
  });

  test('the browser checks number, URL and e-mail types before anything is sent @rtl', async ({ page, lang }) => {
    const years = partnerField(page, 'yearsInBusiness', lang);
    const website = partnerField(page, 'companyWebsite', lang);
    const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 201 });
    await fillRequired(page, lang);
    await years.fill('-2');
    const events = await recordFormEvents(page);
    await submit(page, lang);
    if (lang.code === 'en') {
      await expect.poll(() => years.evaluate((el: HTMLInputElement) => el.validity.rangeUnderflow)).toBe(true);
    } else {
      // A text field (Arabic-Indic digits): the form's own check refuses the count, marks it and says why.
      await expect(years).toHaveAttribute('aria-invalid', 'true');
      await expect(page.locator('#partner-yearsInBusiness-error')).toHaveText(lang.t('form.issue.invalidNumber'));
      await expect(years).toBeFocused();
    }
    await years.fill('7');
    await website.fill('example dot com');
    await submit(page, lang);
    await expect.poll(() => website.evaluate((el: HTMLInputElement) => el.validity.typeMismatch)).toBe(true);
    const [yearsName, websiteName] = await Promise.all([years.getAttribute('name'), website.getAttribute('name')]);
    await expect
      .poll(events)
      .toEqual(
        lang.code === 'en'
          ? ['submit', `invalid:${yearsName}`, 'submit', `invalid:${websiteName}`]
          : ['submit', 'submit', `invalid:${websiteName}`],
      );
    expect(capture.requests).toHaveLength(0);
  });

  test('ownership details appear for Subsidiary and Other, with their placeholders', async ({ page, lang }) => {
    const details = partnerField(page, 'ownershipSpecification', lang);
    await expect(details).toBeHidden();
    // Chosen by their values, the specification's English words in every language.
    await ownershipAnswer(page, 'Subsidiary (please specify name of parent company)').check();
    await expect(details).toBeVisible();
    await expect(details).toHaveAttribute('placeholder', lang.t('partner.placeholder.subsidiary'));
    await ownershipAnswer(page, 'Other').check();
    await expect(details).toHaveAttribute('placeholder', lang.t('partner.placeholder.other'));
    await ownershipAnswer(page, 'Corporation (publicly held)').check();
    await expect(details).toBeHidden();
  });

  test('classroom plans appear only when there is no classroom', async ({ page, lang }) => {
    const plans = partnerField(page, 'futureClassroomPlans', lang);
    await expect(plans).toBeHidden();
    await partnerChoice(page, 'classroomAvailable', 'no', lang).check();
    await expect(plans).toBeVisible();
    await partnerChoice(page, 'classroomAvailable', 'yes', lang).check();
    await expect(plans).toBeHidden();
  });

  test('files: too large and wrong types are refused with their alerts; valid ones replace the selection @rtl', async ({
    page,
    lang,
  }) => {
    const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 201 });
    await expect(page.getByText(lang.t('partner.files.hint'))).toBeVisible();
    const input = page.locator('input[type="file"]');
    await input.setInputFiles([file('old-cv.pdf', 1000)]);
    await expect(page.locator('.selected-files')).toContainText(lang.t('partner.files.selected'));
    await expect(fileNames(page)).toHaveText(['old-cv.pdf']);

    await input.setInputFiles([
      file('huge.pdf', 2 * MB + 1),
      file('virus.exe', 100, 'application/octet-stream'),
      file('cv-ahmed.docx', 2 * MB, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
      file('photo.JPG', 500, 'image/jpeg'),
    ]);
    // The alerts' exact characters: a Latin name in an English sentence is the specification's
    // text with no invisible marks; in an Arabic sentence it is isolated (FSI ... PDI).
    const latin = (name: string) => (lang.dir === 'rtl' ? `\u2068${name}\u2069` : name);
    const expected =
      lang.code === 'en'
        ? [
            'File "huge.pdf" is too large. Maximum size is 2MB.',
            'File "virus.exe" is not a valid type. Please upload JPG, PDF, or DOC files.',
          ]
        : [
            lang.t('partner.files.tooLarge', { file: latin('huge.pdf') }),
            lang.t('partner.files.invalidType', { file: latin('virus.exe') }),
          ];
    await expect.poll(() => capture.alerts).toEqual(expected);
    await expect(fileNames(page)).toHaveText(['cv-ahmed.docx', 'photo.JPG']);

    // Nothing valid in a new choice: nothing replaces the selection, so it stays.
    await input.setInputFiles([file('notes.txt', 100, 'text/plain')]);
    await expect.poll(() => capture.alerts.length).toBe(3);
    expect(capture.alerts[2]).toBe(lang.t('partner.files.invalidType', { file: latin('notes.txt') }));

    // An Arabic name: isolated in an English sentence, as it is in an Arabic one.
    const arabicName = 'السيرة الذاتية.exe';
    await input.setInputFiles([file(arabicName, 100, 'application/octet-stream')]);
    await expect.poll(() => capture.alerts.length).toBe(4);
    expect(capture.alerts[3]).toBe(
      lang.code === 'en'
        ? `File "\u2068${arabicName}\u2069" is not a valid type. Please upload JPG, PDF, or DOC files.`
        : lang.t('partner.files.invalidType', { file: arabicName }),
    );
    await expect(fileNames(page)).toHaveText(['cv-ahmed.docx', 'photo.JPG']);
    expect(await input.evaluate((el: HTMLInputElement) => Array.from(el.files ?? [], (f) => f.name))).toEqual([
      'cv-ahmed.docx',
      'photo.JPG',
    ]);

    // A name keeps its own order ("2024 CV.pdf" is not "CV.pdf 2024" on the Arabic page), and a
    // long one wraps in its box: on a phone the page never grows sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const long = 'Curriculum_Vitae_Mohammed_Abdullah_AlQahtani_2024_final_version.pdf';
    await input.setInputFiles([file('2024 CV.pdf', 100), file(long, 100)]);
    await expect(fileNames(page)).toHaveText(['2024 CV.pdf', long]);
    expect(await drawnLeftToRight(fileNames(page).first())).toBe(true);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
    ).toBeLessThanOrEqual(0);
  });

  test("the CV control: a button in the page's language over a native file input; each chosen file listed with a button that removes it", async ({
    page,
    lang,
  }) => {
    const input = page.locator('input[type="file"]');
    // The native input keeps its role, its name (the field's label) and its place in the tab order.
    await expect(page.getByLabel(label(lang, 'uploadedFiles'), { exact: true })).toHaveAttribute('type', 'file');
    const face = page.locator('.file-picker__face');
    await expect(face).toHaveText(lang.t('partner.files.choose'));
    await expect(face).toBeVisible();
    // The browser's own button ("Choose Files", in the browser's language) is not what is seen.
    expect(await input.evaluate((el) => getComputedStyle(el).opacity)).toBe('0');
    await expect(page.locator('.file-picker__status')).toHaveText(lang.t('partner.files.none'));
    // Keyboard: focus lands on the input itself, and its focus ring is drawn on the face.
    await page.locator('#partner-trainersAvailable-0').focus();
    await page.keyboard.press('Tab');
    await expect(input).toBeFocused();
    expect(await face.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');

    await input.setInputFiles([file('cv-1.pdf', 100), file('cv-2.pdf', 200), file('portfolio.jpg', 300, 'image/jpeg')]);
    await expect(page.locator('.file-picker__status')).toHaveText(lang.t('partner.files.count', { count: 3 }));
    await expect(fileNames(page)).toHaveText(['cv-1.pdf', 'cv-2.pdf', 'portfolio.jpg']);
    const remove = page.getByRole('button', { name: lang.t('partner.files.remove', { file: 'cv-2.pdf' }) });
    await remove.click();
    await expect(fileNames(page)).toHaveText(['cv-1.pdf', 'portfolio.jpg']);
    expect(await input.evaluate((el: HTMLInputElement) => Array.from(el.files ?? [], (f) => f.name))).toEqual([
      'cv-1.pdf',
      'portfolio.jpg',
    ]);
    // Focus stays in the list: on the next file's button, then on the input when the list empties.
    await expect(page.getByRole('button', { name: lang.t('partner.files.remove', { file: 'portfolio.jpg' }) })).toBeFocused();
    await page.getByRole('button', { name: lang.t('partner.files.remove', { file: 'portfolio.jpg' }) }).click();
    await page.getByRole('button', { name: lang.t('partner.files.remove', { file: 'cv-1.pdf' }) }).click();
    await expect(page.locator('.selected-files')).toHaveCount(0);
    await expect(input).toBeFocused();
    expect(await input.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);
    expect(await axe(page)).toEqual([]);
  });

  test("the chosen files are listed on the page's side; only each name keeps its own direction @rtl", async ({ page, lang }) => {
    await page.locator('input[type="file"]').setInputFiles([file('cv-1.pdf', 100), file('السيرة الذاتية.pdf', 100)]);
    const items = page.locator('.selected-files li');
    await expect(items).toHaveCount(2);
    for (const item of await items.all()) {
      expect(await item.evaluate((el) => getComputedStyle(el).direction)).toBe(lang.dir);
      // Each name starts at the list's reading edge, under the heading's start.
      const [list, name] = await Promise.all([
        page.locator('.selected-files ul').boundingBox(),
        item.locator('.selected-files__name').boundingBox(),
      ]);
      if (!list || !name) throw new Error('not on screen');
      const gap = lang.dir === 'rtl' ? list.x + list.width - (name.x + name.width) : name.x - list.x;
      expect(gap).toBeLessThan(48);
    }
    await expect(page.locator('.selected-files__name').first()).toHaveAttribute('dir', 'auto');
  });

  test('at 1440 px the Yes/No answers of a pair of questions sit on one line @rtl', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    const top = async (id: string) => (await page.locator(`#partner-${id}-0`).boundingBox())?.y ?? Number.NaN;
    for (const [a, b] of [
      ['classroomAvailable', 'trainersAvailable'],
      ['qualityFamiliarity', 'customerSatisfactionMeasured'],
    ] as const) {
      const [ya, yb] = await Promise.all([top(a), top(b)]);
      expect(Math.abs(ya - yb), `${a} beside ${b}`).toBeLessThanOrEqual(1);
    }
  });

  test('at 390 px the fields take the width of the phone', async ({ page, lang }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const name of ['name', 'interestReason'] as const) {
      const box = await partnerField(page, name, lang).boundingBox();
      expect(box?.width ?? 0, name).toBeGreaterThanOrEqual(340);
    }
    expect((await page.locator('#partner-formOfOwnership').boundingBox())?.width ?? 0, 'formOfOwnership').toBeGreaterThanOrEqual(
      340,
    );
  });

  for (const width of [390, 1440]) {
    test(`at ${width} px every form of ownership reads whole, the chosen one too @rtl`, async ({ page, lang }) => {
      await page.setViewportSize({ width, height: 900 });
      await ownershipAnswer(page, 'Subsidiary (please specify name of parent company)').check();
      const answers = page.locator('#partner-formOfOwnership label');
      await expect(answers).toHaveCount(5);
      // Each answer's text is drawn in full inside the page: nothing cut, nothing past the edge.
      for (const answer of await answers.all()) {
        const fits = await answer.evaluate((label) => {
          const text = label.querySelector('span')!;
          const box = text.getBoundingClientRect();
          return text.scrollWidth <= text.clientWidth + 1 && box.left >= 0 && box.right <= document.documentElement.clientWidth;
        });
        expect(fits, (await answer.textContent()) ?? '').toBe(true);
      }
      await expect(page.locator('#partner-formOfOwnership label:has(input:checked)')).toHaveText(
        lang.t('partner.option.subsidiary'),
      );
      await page
        .locator('#partner-formOfOwnership')
        .screenshot({ path: `test-results/screenshots/${lang.code}-partner-ownership-${width}.png` });
    });
  }

  test('a website typed without https:// is completed, on leaving the field and on Enter', async ({ page, lang }) => {
    const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 201 });
    const website = partnerField(page, 'companyWebsite', lang);
    await website.fill('globaq.com');
    await website.blur();
    await expect(website).toHaveValue('https://globaq.com');

    await fillRequired(page, lang);
    await website.fill('www.eastern-quality.sa');
    await website.press('Enter');
    await expect.poll(() => capture.requests.length).toBe(1);
    expect((await sentBody(capture.requests[0]!)).body['companyWebsite']).toBe('https://www.eastern-quality.sa');
    expect(capture.alerts).toEqual([]);
  });

  test('success: "Submitting Application...", every answer and the CV files themselves sent to the site\'s own receiver, then after 2 s the banner, everything cleared', async ({
    page,
    lang,
  }) => {
    // A paused clock: the 2-second wait below is stepped through, never raced.
    await page.clock.install({ time: new Date('2026-11-22T09:00:00Z') });
    await page.clock.pauseAt(new Date('2026-11-22T09:00:01Z'));
    await page.reload();
    await reachForm(page);
    const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 201, hold: true });
    await fillRequired(page, lang);
    await partnerField(page, 'numberOfEmployees', lang).fill('25');
    await partnerChoice(page, 'servicesTypes', 'trainingCourses', lang).check();
    await partnerChoice(page, 'servicesTypes', 'inspectionServices', lang).check();
    await partnerChoice(page, 'targetMarkets', 'government', lang).check();
    await partnerChoice(page, 'classroomAvailable', 'no', lang).check();
    await partnerField(page, 'futureClassroomPlans', lang).fill('Rent a hotel hall in Dammam.');
    await page.locator('input[type="file"]').setInputFiles([file('cv-1.pdf', 100), file('cv 2.doc', 100, 'application/msword')]);

    await submit(page, lang);
    // On the paused clock the proof of work cannot finish: the send waits its bounded time for it
    // (src/components/islands/use-proof.tsx), then goes without one (the server would hold it).
    await page.clock.runFor(PROOF_WAIT_MS);
    const button = page.locator('button[type="submit"]');
    await expect(button).toHaveText(lang.t('partner.submitting'));
    await expect(button).toBeDisabled();
    await expect.poll(() => capture.requests.length).toBe(1);
    const request = capture.requests[0]!;
    const url = new URL(request.url());
    expect(`${url.pathname}${url.search}`).toBe(formEndpoint('partner', lang));
    // The site's own receiver takes the files with the answers (an external endpoint gets JSON
    // with the names only, docs/requirements.md §9.3: tests/unit/form-hydration.test.ts).
    expect(request.headers()['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const { body, files } = await sentBody(request);
    expect(files.map(({ name, size }) => ({ name, size }))).toEqual([
      { name: 'cv-1.pdf', size: 100 },
      { name: 'cv 2.doc', size: 100 },
    ]);
    // The specification's field names and English answers, whatever the page's language.
    expect(body).toMatchObject({
      name: 'Aisha Al-Qahtani',
      organization: 'Eastern Quality Training',
      jobTitle: 'Managing Director',
      country: 'Saudi Arabia',
      cityName: 'Dammam',
      email: 'aisha@example.com',
      phoneNumber: '+966 50 123 4567',
      companyWebsite: 'https://example.com',
      yearsInBusiness: 7,
      numberOfSites: null,
      numberOfEmployees: 25,
      formOfOwnership: 'Privately held company',
      ownershipSpecification: '',
      servicesTypes: ['Training Courses', 'Inspection Services'],
      targetMarkets: ['Government'],
      classroomAvailable: 'No',
      futureClassroomPlans: 'Rent a hotel hall in Dammam.',
      uploadedFiles: 'cv-1.pdf, cv 2.doc',
    });
    // The 30 fields; no proof of work was ready to go with them.
    expect(Object.keys(body)).toHaveLength(30);

    capture.release();
    // Acknowledged; now the extra 2-second wait (docs/requirements.md §10.1): still submitting just before, the banner just after.
    await expect(page.locator('form.partner-form')).toHaveAttribute('data-status', 'confirming');
    await page.clock.runFor(1900);
    await expect(button).toHaveText(lang.t('partner.submitting'));
    await expect(page.locator('.banner--success')).toHaveCount(0);
    await page.clock.runFor(200);
    const banner = page.locator('.banner--success');
    await expect(banner).toContainText(lang.t('partner.success.title'));
    await expect(banner).toContainText(lang.t('partner.success.text'));
    await expect(partnerField(page, 'name', lang)).toHaveValue('');
    await expect(partnerField(page, 'country', lang)).toHaveValue('');
    await expect(page.locator('#partner-servicesTypes input:checked')).toHaveCount(0);
    await expect(page.locator('.selected-files')).toHaveCount(0);
    expect(await page.locator('input[type="file"]').evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(0);
    expect(await page.evaluate((key) => window.localStorage.getItem(key), PARTNER_DRAFT_KEY)).toBeNull();
    await page.clock.resume(); // axe needs running timers
    expect(await axe(page)).toEqual([]);
  });

  test('failure: the failure banner, and every answer and file kept @rtl', async ({ page, lang }) => {
    const capture = await interceptEndpoint(page, formEndpoint('partner', lang), { status: 503 });
    await fillRequired(page, lang);
    await page.locator('input[type="file"]').setInputFiles([file('cv-1.pdf', 100)]);
    await submit(page, lang);
    const banner = page.locator('.banner--failure');
    // The send waits up to PROOF_WAIT_MS for the proof of work, which a loaded CI machine stretches.
    await expect(banner).toContainText(lang.t('partner.failure.title'), { timeout: PROOF_WAIT_MS + 10_000 });
    await expect(banner).toContainText(lang.t('partner.failure.text'));
    expect(capture.requests).toHaveLength(1);
    await expect(partnerField(page, 'name', lang)).toHaveValue('Aisha Al-Qahtani');
    await expect(chosenOwnership(page)).toHaveValue('Privately held company');
    await expect(fileNames(page)).toHaveText(['cv-1.pdf']);
    // A way around the form: an e-mail already written from the answers, under the page's labels, and the phone.
    await expect(banner).toContainText(lang.t('form.failure.help', { email: site.email, phone: site.phone }));
    const mail = new URL((await banner.getByRole('link', { name: site.email }).getAttribute('href')) ?? '');
    expect(mail.searchParams.get('subject')).toBe(lang.t('partner.failure.mailSubject'));
    expect(mail.searchParams.get('body')).toContain(`${label(lang, 'name')}: Aisha Al-Qahtani`);
    expect(mail.searchParams.get('body')).toContain(`${label(lang, 'companyWebsite')}: https://example.com`);
    await expect(banner.getByRole('link', { name: site.phone })).toBeVisible();
    // Both drawn in their own order, also inside an Arabic sentence.
    expect(await drawnLeftToRight(banner.getByRole('link', { name: site.phone }))).toBe(true);
    expect(await drawnLeftToRight(banner.getByRole('link', { name: site.email }))).toBe(true);
    expect(await axe(page)).toEqual([]);
  });

  test('what the visitor types survives a reload; the form says files must be chosen again', async ({ page, lang }) => {
    await partnerField(page, 'name', lang).fill('Aisha Al-Qahtani');
    await partnerField(page, 'country', lang).selectOption({ value: 'Oman' });
    await partnerChoice(page, 'targetMarkets', 'healthcare', lang).check();
    await partnerField(page, 'localCompetition', lang).fill('Two regional training centres.');
    await page.reload();
    // A saved draft: the island starts without the visitor reaching for the form.
    await expect(page.locator('form.partner-form[data-hydrated]')).toBeVisible();
    await expect(partnerField(page, 'name', lang)).toHaveValue('Aisha Al-Qahtani');
    await expect(partnerField(page, 'country', lang)).toHaveValue('Oman');
    await expect(partnerChoice(page, 'targetMarkets', 'healthcare', lang)).toBeChecked();
    await expect(partnerField(page, 'localCompetition', lang)).toHaveValue('Two regional training centres.');
    await expect(page.getByText(lang.t('partner.draft.restored'))).toBeVisible();
  });

  test('"Clear my answers" wipes the form and the copy on this device, after asking', async ({ page, lang }) => {
    const name = partnerField(page, 'name', lang);
    const asked: string[] = [];
    let accept = false;
    page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void (accept ? dialog.accept() : dialog.dismiss());
    });
    await name.fill('Aisha Al-Qahtani');
    await page.locator('input[type="file"]').setInputFiles([file('cv.pdf', 1000)]);
    await page.reload();
    await expect(page.locator('form.partner-form[data-hydrated]')).toBeVisible();
    await expect(name).toHaveValue('Aisha Al-Qahtani');

    const clear = page.getByRole('button', { name: lang.t('partner.draft.clear') });
    await expect(clear).toHaveCount(1);
    await clear.click();
    expect(asked).toEqual([lang.t('partner.draft.clearConfirm')]);
    await expect(name).toHaveValue('Aisha Al-Qahtani'); // "Cancel" keeps everything

    accept = true;
    await clear.click();
    await expect(name).toHaveValue('');
    await expect(name).toBeFocused();
    await expect(page.getByText(lang.t('partner.draft.restored'))).toHaveCount(0);
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((key) => localStorage.getItem(key)?.includes('Aisha'))),
    ).toEqual([]);
    await page.reload();
    // Nothing saved: the form waits for the visitor to reach for it.
    await reachForm(page);
    await expect(name).toHaveValue('');
    await expect(clear).toHaveCount(0);

    // Typing brings the button back, at the end of the form.
    await partnerField(page, 'cityName', lang).fill('Dammam');
    await expect(clear).toBeVisible();
    expect(await axe(page)).toEqual([]);
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a real form posting to the receiver; follow-up questions still appear when they apply', async ({ page, lang }) => {
    await page.goto(lang.path('/Partner'));
    const form = page.locator('form.partner-form');
    await expect(form).toHaveAttribute('method', 'post');
    await expect(form).toHaveAttribute('action', formEndpoint('partner', lang));
    const details = partnerField(page, 'ownershipSpecification', lang);
    await expect(details).toBeHidden();
    await ownershipAnswer(page, 'Other').check();
    await expect(details).toBeVisible();
    const plans = partnerField(page, 'futureClassroomPlans', lang);
    await expect(plans).toBeHidden();
    await partnerChoice(page, 'classroomAvailable', 'no', lang).check();
    await expect(plans).toBeVisible();
  });

  test("the CV control is the page's own button, in its language, and takes files", async ({ page, lang }) => {
    await page.goto(lang.path('/Partner'));
    await expect(page.locator('.file-picker__face')).toHaveText(lang.t('partner.files.choose'));
    await expect(page.locator('.file-picker__face')).toBeVisible();
    const input = page.getByLabel(label(lang, 'uploadedFiles'), { exact: true });
    await expect(input).toHaveAttribute('type', 'file');
    await input.setInputFiles([file('cv-1.pdf', 100)]);
    expect(await input.evaluate((el: HTMLInputElement) => el.files?.length ?? 0)).toBe(1);
  });
});
