/**
 * An editor's correct, documented edits never fail the checks (docs/content.md): on a copy of the
 * project with the edits of tests/helpers/editor-edits.ts (a 13th service, a course, a page and its
 * menu entry in English only, a new standard with and without its Arabic text, a rewritten
 * paragraph, the real phone number, a client's logo, a quality policy point in English only), the
 * unit tests that read the content pass, the content checks of the build warn of each translation
 * still to do without stopping, and translation status lists what is to translate and nothing
 * else. The copy's built site shows each edit where it belongs (in Arabic, what is not yet
 * translated in English under its notice), and the end-to-end checks that derive from the content
 * (tagged @content) pass on it. A misspelled field then stops the build, naming the file and the
 * field.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ROOT } from '../helpers/content';
import { parseHtml } from '../helpers/dom';
import { projectCopy } from '../helpers/project-copy';
import {
  NEW_CLIENT,
  NEW_COURSE,
  NEW_PAGE,
  NEW_PHONE,
  NEW_POLICY_POINT,
  NEW_SERVICE,
  NEW_STANDARD,
  REWRITTEN,
  UNTRANSLATED_STANDARD,
  applyEditorEdits,
} from '../helpers/editor-edits';
import { sideBySideStatuses } from '../../scripts/translation-status';
import { ar } from '../../src/i18n/ar';
import type contentChecks from '../../src/integrations/content-checks';
import { en } from '../../src/i18n/en';

/** The unit tests that read the content and data (those that read the built site run after a build). */
const CONTENT_TESTS = [
  'catalogue',
  'content',
  'content-ar',
  'content-inventory',
  'content-rules',
  'data-ar',
  'i18n-site',
  'locale',
  'menu',
  'whole-names',
].map((name) => `tests/unit/${name}.test.ts`);

let dir = '';
/** What the copy's build printed (the test that builds it sets it). */
let buildOutput = '';
const run = (command: string, args: string[], env: Record<string, string> = {}) => {
  const result = spawnSync(command, args, {
    cwd: dir,
    encoding: 'utf8',
    // Not this run's own vitest settings: the copy's run is a run of its own.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST'))),
      FORCE_COLOR: '0',
      NO_COLOR: '1',
      ...env,
    },
    timeout: 900_000,
  });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
};

/** A built page of the copy (its path as the site serves it), parsed. */
const builtPage = (route: string): Document =>
  parseHtml(fs.readFileSync(path.join(dir, 'dist/client', route === '/' ? 'index.html' : `${route}.html`), 'utf8'));

/** The whitespace-normalized text of the one element `selector` finds in `document`. */
function textOf(document: Document, selector: string): string {
  const element = document.querySelector(selector);
  expect(element, selector).not.toBeNull();
  return (element?.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A loopback port no one listens on now: the copy's end-to-end server's own. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/** Commits the copy's files as they are, so translation status reads the edits as history. */
const commit = (message: string) => {
  for (const args of [
    ['add', '-A'],
    ['-c', 'user.name=Editor', '-c', 'user.email=editor@example.com', 'commit', '-qm', message],
  ]) {
    expect(spawnSync('git', args, { cwd: dir, encoding: 'utf8' }).status).toBe(0);
  }
};

beforeAll(() => {
  dir = projectCopy('globaq-editor-', ['tests', 'vitest.config.ts', 'playwright.config.ts']);
  fs.writeFileSync(path.join(dir, '.gitignore'), 'node_modules\n.astro\n');
  spawnSync('git', ['init', '-q'], { cwd: dir });
  commit('The site before the edits');
  applyEditorEdits(dir);
  commit('The editor’s edits');
});

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("an editor's documented edits, on a copy of the project", () => {
  test('the content checks of the build pass (npm run check:content), with one warning line for each translation to do', () => {
    const { status, output } = run(process.execPath, ['--disable-warning=ExperimentalWarning', 'scripts/check-content.mjs']);
    expect(status, output).toBe(0);
    expect(output.trim().split('\n').at(-1)).toMatch(/^Content check: no problem, \d+ warnings/);
    const warnings = output.split('\n').filter((line) => line.startsWith('warning: '));
    expect(
      warnings.some((line) => line.includes(`src/content/ar/services/${NEW_SERVICE}.mdx is missing`)),
      output,
    ).toBe(true);
    expect(warnings.some((line) => line.includes('src/content/ar/pages/audit-assistance/supplier-audits.mdx is missing'))).toBe(
      true,
    );
    expect(
      warnings.filter((line) => line.includes(`src/data/standards.yaml has no Arabic words (ar) for ${UNTRANSLATED_STANDARD}:`)),
    ).toHaveLength(1);
    expect(
      warnings.filter((line) =>
        line.includes(`src/data/navigation.yaml has no Arabic label (ar) for "Supplier Audits" (/${NEW_PAGE})`),
      ),
    ).toHaveLength(1);
    expect(
      warnings.filter((line) => line.includes('src/data/home.yaml has no Arabic words (ar) for qualityPolicy.5:')),
    ).toHaveLength(1);
    expect(warnings.filter((line) => /company\.yaml|carousels\.yaml/.test(line))).toEqual([]);
  }, 60_000);

  test('translation status lists the policy point to translate; the phone and the logo make nothing outdated', () => {
    const behind = sideBySideStatuses(dir, 'HEAD')
      .filter((pair) => pair.status !== 'up to date')
      .map((pair) => `${pair.status}: ${pair.english}`);
    expect(behind).toContain('missing: src/data/home.yaml text qualityPolicy.5');
    expect(behind.filter((line) => /company|carousels/.test(line))).toEqual([]);
  }, 300_000);

  test('the unit tests that read the content pass', () => {
    const { status, output } = run(path.join(ROOT, 'node_modules/.bin/vitest'), ['run', ...CONTENT_TESTS]);
    expect(status, output.slice(-6000)).toBe(0);
    expect(output).toMatch(/Test Files +\d+ passed/);
  }, 900_000);

  test('the built site shows each edit where it belongs; in Arabic, what is not yet translated in English under its notice', () => {
    const { status, output } = run(process.execPath, ['scripts/build.mjs']);
    buildOutput = output;
    expect(status, output.slice(-6000)).toBe(0);
    const [home, arHome] = [builtPage('/'), builtPage('/ar')];
    const pendingNote = ar['translation.pending'];
    const notYet = ar['translation.pendingCourse'];

    // The 13th service: its page, its card on both home pages, in English on the Arabic side.
    expect(textOf(builtPage(`/services/${NEW_SERVICE}`), 'h1')).toBe('Quality Digitalization');
    expect(textOf(home, `.service-card:has(a[href="/services/${NEW_SERVICE}"]) h3`)).toBe('Quality Digitalization');
    expect(textOf(arHome, `.service-card[lang="en"]:has(a[href="/ar/services/${NEW_SERVICE}"]) h3`)).toBe(
      'Quality Digitalization',
    );
    const arService = builtPage(`/ar/services/${NEW_SERVICE}`);
    expect(textOf(arService, '.translation-pending')).toBe(pendingNote);
    expect(textOf(arService, 'h1[lang="en"]')).toBe('Quality Digitalization');

    // The page in English only: its page and menu entry, in English under the notice in Arabic.
    expect(textOf(builtPage(`/${NEW_PAGE}`), 'h1')).toBe('Supplier Audits');
    expect(textOf(home, `.desktop-nav a[href="/${NEW_PAGE}"]`)).toBe('Supplier Audits');
    const arPage = builtPage(`/ar/${NEW_PAGE}`);
    expect(textOf(arPage, '.translation-pending')).toBe(pendingNote);
    expect(textOf(arPage, 'h1[lang="en"]')).toBe('Supplier Audits');
    expect(textOf(arHome, `.desktop-nav a[href="/ar/${NEW_PAGE}"][lang="en"]`)).toBe('Supplier Audits');

    // The course in English only: listed on both Other Trainings pages, in English under its note in Arabic.
    const course = `#${NEW_COURSE}`;
    expect(textOf(builtPage('/Trainings/OtherTrainings'), `${course} h3`)).toBe('Kaizen Training');
    const arCourses = builtPage('/ar/Trainings/OtherTrainings');
    expect(textOf(arCourses, `${course}[lang="en"] h3`)).toBe('Kaizen Training');
    expect(textOf(arCourses, `${course} .courses__pending`)).toBe(notYet);

    // The new standards on ISO Consultancy and under it in the menu: one in Arabic, the other in
    // English under its note on the Arabic page.
    const iso = builtPage('/ISOConsultancy');
    expect(textOf(iso, `#${NEW_STANDARD} .standards__title`)).toBe('Energy management systems');
    expect(textOf(iso, `#${UNTRANSLATED_STANDARD} .standards__title`)).toBe('Information security management systems');
    const arIso = builtPage('/ar/ISOConsultancy');
    expect(textOf(arIso, `#${NEW_STANDARD}:not([lang]) .standards__title`)).toBe('أنظمة إدارة الطاقة');
    expect(arIso.querySelector(`#${NEW_STANDARD} .standards__pending`)).toBeNull();
    expect(textOf(arIso, `#${UNTRANSLATED_STANDARD}[lang="en"] .standards__title`)).toBe(
      'Information security management systems',
    );
    expect(textOf(arIso, `#${UNTRANSLATED_STANDARD} .standards__pending`)).toBe(notYet);
    for (const id of [NEW_STANDARD, UNTRANSLATED_STANDARD]) {
      expect(home.querySelector(`.desktop-nav a[href="/ISOConsultancy#${id}"]`), id).not.toBeNull();
      expect(arHome.querySelector(`.desktop-nav a[href="/ar/ISOConsultancy#${id}"]`), id).not.toBeNull();
    }

    // A home list item with no Arabic words: the English under the note on the Arabic home page.
    const lastPoint = (document: Document) => document.querySelector('.policy > li:last-child');
    expect(lastPoint(home)?.textContent?.trim()).toBe(NEW_POLICY_POINT);
    expect(textOf(arHome, '.policy > li:last-child .policy__pending')).toBe(notYet);
    expect(textOf(arHome, '.policy > li:last-child .policy__english[lang="en"]')).toBe(NEW_POLICY_POINT);
    expect(arHome.querySelectorAll('.policy__pending')).toHaveLength(1);

    // The paragraph, the phone and the client's logo, each where the editor put it.
    expect(builtPage('/AboutUs').querySelector('main')?.textContent).toContain(REWRITTEN);
    const tel = `tel:${NEW_PHONE.replace(/\s+/g, '')}`;
    for (const route of ['/ContactUs', '/ar/ContactUs'])
      expect(builtPage(route).querySelector(`a[href="${tel}"]`), route).not.toBeNull();
    for (const document of [home, arHome]) {
      expect(document.querySelector(`.carousel--logos img[alt="${NEW_CLIENT.name}"]`)).not.toBeNull();
    }
  }, 900_000);

  test('the build is quiet: one warning line per translation to do, nothing of empty trust collections, no stack trace', () => {
    expect(buildOutput).not.toContain('MODULE_LEVEL_DIRECTIVE');
    expect(buildOutput).not.toMatch(/├─ \/AboutUs\.html/);
    expect(buildOutput).toMatch(/Wrote \d+ pages, \d+ other files .* and \d+ optimized images/);
    expect(buildOutput.trim().split('\n').length, buildOutput).toBeLessThan(60);
    expect(buildOutput).not.toMatch(/Stack trace|unhandled error|^\s+at .*\(/im);
    const service = buildOutput.split('\n').filter((line) => line.includes(`src/content/ar/services/${NEW_SERVICE}.mdx`));
    expect(service).toHaveLength(1);
    expect(service[0]).toMatch(
      new RegExp(
        `WARN.*src/content/ar/services/${NEW_SERVICE}\\.mdx is missing: /ar shows src/content/services/${NEW_SERVICE}\\.mdx in English`,
      ),
    );
    expect(
      buildOutput.split('\n').filter((line) => line.includes(`no Arabic words (ar) for ${UNTRANSLATED_STANDARD}`)),
    ).toHaveLength(1);
    expect(buildOutput).not.toContain('Trust content:');
    expect(buildOutput).not.toMatch(/does not exist or is empty/);
    expect(buildOutput).toMatch(/WARN.*src\/content\/ar\/credentials\/placeholder-cr\.yaml is missing/);
  });

  test('in Arabic, the English-only service, course and menu entry keep the Arabic layout and order, marked English; search engines get the English page', () => {
    const arService = builtPage(`/ar/services/${NEW_SERVICE}`);
    expect(arService.documentElement.getAttribute('lang')).toBe('ar');
    expect(arService.documentElement.getAttribute('dir')).toBe('rtl');
    expect(arService.querySelector('#overview + [lang="en"]')?.textContent?.trim().length).toBeGreaterThan(0);
    const arHome = builtPage('/ar');
    expect(
      arHome.querySelector(`.service-card a[href="/ar/services/${NEW_SERVICE}"]`)?.closest('.service-card')?.getAttribute('lang'),
    ).toBe('en');
    expect(arHome.querySelector(`footer a[href="/ar/services/${NEW_SERVICE}"]`)?.getAttribute('lang')).toBe('en');
    // Translated pages show no notice.
    expect(builtPage('/ar/services/ai-solutions').querySelector('.translation-pending')).toBeNull();

    // The course in the English order; the translated courses as the translator wrote them.
    const ids = (document: Document) => [...document.querySelectorAll('.courses__item')].map((item) => item.id);
    const arCourses = builtPage('/ar/Trainings/OtherTrainings');
    expect(ids(arCourses)).toEqual(ids(builtPage('/Trainings/OtherTrainings')));
    expect(arCourses.querySelector(`#${NEW_COURSE} .courses__pending`)?.getAttribute('lang')).toBe('ar');
    const translated = arCourses.querySelector(`.courses__item:not(#${NEW_COURSE})`)!;
    expect(translated.hasAttribute('lang')).toBe(false);
    expect(translated.querySelector('.courses__pending')).toBeNull();

    // Every link of the Arabic header to the English-only page reads in English, marked.
    const links = [...arHome.querySelectorAll(`header a[href="/ar/${NEW_PAGE}"]`)];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link.getAttribute('lang')).toBe('en');
      expect(link.textContent).toBe('Supplier Audits');
    }

    // No hreflang alternates for a page in English only, the English canonical; the switch still works.
    const english = builtPage(`/services/${NEW_SERVICE}`);
    for (const document of [english, arService]) {
      expect(document.querySelectorAll('link[rel="alternate"][hreflang]')).toHaveLength(0);
      expect(new URL(document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? '').pathname).toBe(
        `/services/${NEW_SERVICE}`,
      );
    }
    expect(english.querySelector('a[hreflang="ar"]')?.getAttribute('href')).toBe(`/ar/services/${NEW_SERVICE}`);
    expect(builtPage('/services/ai-solutions').querySelectorAll('link[rel="alternate"][hreflang]').length).toBeGreaterThan(0);
  });

  test('each trust collection has its page in both languages, its entries under h2 headings', () => {
    const team = builtPage('/OurTeam');
    expect(team.querySelector('h1')?.textContent).toBe(en['trust.team.title']);
    expect(team.querySelector('#placeholder-member h2')?.textContent).toBe('Placeholder Member');
    expect(team.querySelector('#placeholder-member')?.textContent).toContain('Placeholder Body, registration number TEST-0001');
    const arTeam = builtPage('/ar/OurTeam');
    expect(arTeam.documentElement.getAttribute('dir')).toBe('rtl');
    expect(arTeam.querySelector('h1')?.textContent).toBe(ar['trust.team.title']);
    expect(arTeam.querySelector('#placeholder-member h2')?.textContent).toBe('عضو تجريبي');
    expect(arTeam.querySelector('#placeholder-member')?.hasAttribute('lang')).toBe(false);
    expect(team.querySelector('#placeholder-member img')?.getAttribute('alt')).toBe('Placeholder photo');
    const arPhoto = arTeam.querySelector('#placeholder-member img');
    expect(arPhoto?.getAttribute('alt')).toBe('Placeholder photo');
    expect(arPhoto?.getAttribute('lang')).toBe('en');

    expect(builtPage('/Credentials').querySelector('#placeholder-vat h2')?.textContent).toBe(en['trust.kind.vat']);
    // No Arabic twin: the English entry, marked, in the Arabic page.
    const arCredential = builtPage('/ar/Credentials').querySelector('#placeholder-cr')!;
    expect(arCredential.getAttribute('lang')).toBe('en');
    expect(arCredential.querySelector('.trust-card__pending')?.textContent?.trim()).toBe(ar['translation.pendingCourse']);
    expect(arCredential.querySelector('time')?.getAttribute('datetime')).toBe('2030-12-31');

    const cases = builtPage('/CaseStudies');
    expect(cases.querySelector('#placeholder-case h2')?.textContent).toBe('Placeholder case for the tests');
    expect(cases.querySelector('#placeholder-case')?.textContent).toContain('Placeholder Client');
    expect(cases.querySelector('#placeholder-case')?.textContent).toContain('ISO 9001:2015');
    expect(builtPage('/ar/CaseStudies').querySelector('#placeholder-case h2')?.textContent).toBe('حالة تجريبية للاختبارات');
    // The language switch goes to the twin.
    expect(cases.querySelector('a[hreflang="ar"]')?.getAttribute('href')).toBe('/ar/CaseStudies');
  });

  test('the About page shows the team and the credentials, home the case studies, each with a link to its page', () => {
    for (const [about, prefix] of [
      [builtPage('/AboutUs'), ''],
      [builtPage('/ar/AboutUs'), '/ar'],
    ] as const) {
      expect(about.querySelector('section[aria-labelledby="team"] h2')).not.toBeNull();
      expect(about.querySelector('section[aria-labelledby="team"] h3')).not.toBeNull();
      expect(about.querySelector(`section[aria-labelledby="team"] a[href="${prefix}/OurTeam"]`)).not.toBeNull();
      expect(about.querySelector(`section[aria-labelledby="credentials"] a[href="${prefix}/Credentials"]`)).not.toBeNull();
    }
    for (const [home, prefix] of [
      [builtPage('/'), ''],
      [builtPage('/ar'), '/ar'],
    ] as const) {
      const section = home.querySelector('section[aria-labelledby="case-studies"]');
      expect(section?.querySelector('h3')).not.toBeNull();
      expect(section?.querySelector(`a[href="${prefix}/CaseStudies"]`)).not.toBeNull();
    }
  });

  test('the footer gives the commercial registration and VAT numbers and links the trust pages, in both languages', () => {
    // Beside the numbers of the credentials the project has already.
    const numbers = (footer: Element) => footer.querySelector('.site-footer__registrations')?.textContent?.split(' · ');
    const footer = builtPage('/Partner').querySelector('footer')!;
    expect(numbers(footer)).toEqual(expect.arrayContaining(['Commercial registration TEST-CR-0001', 'VAT number TEST-VAT-0001']));
    for (const route of ['/OurTeam', '/Credentials', '/CaseStudies'])
      expect(footer.querySelector(`a[href="${route}"]`)).not.toBeNull();
    const arFooter = builtPage('/ar/Partner').querySelector('footer')!;
    expect(numbers(arFooter)).toEqual(expect.arrayContaining(['السجل التجاري TEST-CR-0001', 'الرقم الضريبي TEST-VAT-0001']));
    expect(arFooter.querySelector('a[href="/ar/OurTeam"]')).not.toBeNull();
  });

  test('a broken internal link in an MDX file stops the build before any page is written, naming the file, the line and the link', async () => {
    // The copy's own content checks (src/integrations/content-checks.ts), as the build runs them
    // before it writes a page, on the copy with a link an editor mistyped.
    const file = `src/content/services/${NEW_SERVICE}.mdx`;
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    const broken = 'See [our ISO trainings](/Trainings/ISOTraining) for the programme.';
    fs.writeFileSync(path.join(dir, file), `${source.trimEnd()}\n\n${broken}\n`);
    const line = source.trimEnd().split('\n').length + 2;
    const output: string[] = [];
    const log = (text: string) => output.push(text);
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}`);
    });
    try {
      // The copy's own module, reading the copy's content and data.
      const { default: checks } = (await import(pathToFileURL(path.join(dir, 'src/integrations/content-checks.ts')).href)) as {
        default: typeof contentChecks;
      };
      const hooks = checks().hooks as Record<string, (options: unknown) => void>;
      const logger = { error: log, warn: log, info: log };
      expect(() => hooks['astro:config:setup']!({ config: { root: pathToFileURL(`${dir}/`) }, logger })).toThrow('exit 1');
      expect(output.join('\n')).toContain(`${file}:${line}: the link "/Trainings/ISOTraining" goes to no page of the site`);
    } finally {
      exit.mockRestore();
      fs.writeFileSync(path.join(dir, file), source);
    }
  });

  test('the end-to-end checks that derive from the content pass on the built copy, in Arabic', async () => {
    // One Playwright project: the Arabic side is where each edit's translation rule shows; the
    // English pages are checked in the test above and by npm test's own run.
    expect(fs.existsSync(path.join(dir, 'dist/client/ar.html')), 'the copy is built by the test above').toBe(true);
    // Every page's links, anchors, headings and language, in both languages, on the built HTML.
    const pages = run(path.join(ROOT, 'node_modules/.bin/vitest'), ['run', 'tests/unit/site-pages.test.ts']);
    expect(pages.status, pages.output.slice(-6000)).toBe(0);
    expect(pages.output).toMatch(/Tests +\d+ passed/);
    const port = await freePort();
    const { status, output } = run(
      path.join(ROOT, 'node_modules/.bin/playwright'),
      ['test', '--project', 'ar', '--grep', '@content', '--reporter', 'line'],
      { E2E_PORT: String(port), E2E_SUBMISSIONS_DB: path.join(dir, 'test-results', 'e2e-submissions.db') },
    );
    expect(status, output.slice(-8000)).toBe(0);
    expect(output).toMatch(/\b\d+ passed\b/);
    expect(output).not.toMatch(/\b\d+ (failed|skipped|flaky)\b/);
  }, 900_000);

  test('a misspelled field stops the build, naming the file, the field and the one meant', () => {
    const file = path.join(dir, 'src/data/home.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^mission:/m, 'misson:'));
    const { status, output } = run(path.join(ROOT, 'node_modules/.bin/astro'), ['sync']);
    expect(status).not.toBe(0);
    expect(output).toContain('src/data/home.yaml needs a correction:');
    expect(output).toContain('field "misson" is not a field: did you mean "mission"?');
    expect(output).not.toMatch(/Stack trace|unhandled error/i);
  }, 600_000);
});
