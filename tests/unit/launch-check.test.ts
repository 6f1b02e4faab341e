/**
 * The launch check (src/data/launch-check.ts): on a copy of the data files holding the template's
 * placeholders it lists each one, naming the file, the field and what to put there, and `npm run
 * launch-check` and a production build (the build's hook, src/integrations/company-details.ts)
 * stop on them; on a copy where each is filled, nothing is listed and neither stops. Both copies
 * are made from the repository's files, so the test holds whatever the company has filled since.
 * The privacy notice names the controller by its legal name, and its registration once written.
 */
import { spawnSync } from 'node:child_process';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import config from '../../astro.config.mjs';
import { ROOT } from '../helpers/frontmatter';
import { launchProblems } from '../../src/data/launch-check';
import companyDetails from '../../src/integrations/company-details';
import { en } from '../../src/i18n/en';

const COMPANY = 'src/data/company.yaml';
const CAROUSELS = 'src/data/carousels.yaml';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-launch-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** A copy of the two data files, each edited by `edit`. */
function copy(name: string, edit: Record<string, (text: string) => string>): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, 'src/data'), { recursive: true });
  for (const file of [COMPANY, CAROUSELS])
    fs.writeFileSync(path.join(dir, file), edit[file]!(fs.readFileSync(path.join(ROOT, file), 'utf8')));
  return dir;
}

/** The template's placeholders, whatever the files hold now. */
const placeholders = copy('placeholders', {
  [COMPANY]: (text) =>
    text
      .replace(/^phone: .*$/m, 'phone: "+966 13 000 0000"')
      .replace(/^email: .*$/m, 'email: info@globaq.example')
      .replace(/^(whatsapp:\n)(?: {2}number: .*\n)?/m, '$1')
      .replace(/^legalName:\n(?: {2}sample: true\n)?/m, 'legalName:\n  sample: true\n')
      .replace(/^(commercialRegistration|vatNumber|privacyNoticeReviewed):.*$/gm, '$1:')
      .replace(/^nationalAddress:.*\n(?: {2}.*\n)*/m, 'nationalAddress:\n')
      .replace(/confirmed: true/g, 'confirmed: false'),
  [CAROUSELS]: (text) => text.replace(/^ {4}sample: true\n/gm, '').replace(/^( {4}name: .*\n)/gm, '$1    sample: true\n'),
});

/** Each placeholder filled as the company would. */
const filled = copy('filled', {
  [COMPANY]: (text) =>
    text
      .replace(/^phone: .*$/m, 'phone: "+966 13 812 3456"')
      .replace(/^email: .*$/m, 'email: info@globaq.com.sa')
      .replace(/^( {2}sample: true\n)/m, '')
      .replace(/^commercialRegistration:.*$/m, 'commercialRegistration: 2051234567')
      .replace(/^vatNumber:.*$/m, 'vatNumber: "310123456700003"')
      .replace(
        /^nationalAddress:.*\n(?:[ #] {2}.*\n)*/m,
        'nationalAddress:\n  en: "1234 King Fahd Road, Al-Khobar 34447"\n  ar: "1234 طريق الملك فهد، الخبر 34447"\n',
      )
      .replace(/^privacyNoticeReviewed:.*$/m, 'privacyNoticeReviewed: 2026-05-31')
      .replace(/confirmed: false/g, 'confirmed: true'),
  [CAROUSELS]: (text) => text.replace(/^ {4}sample: true\n/gm, ''),
});

describe('the launch check', () => {
  test('lists each placeholder on its own line: the file, the field, what to put there', () => {
    const problems = launchProblems({}, placeholders);
    const clients = [...fs.readFileSync(path.join(ROOT, CAROUSELS), 'utf8').matchAll(/^ {4}name: (.*)$/gm)];
    expect(problems.map((problem) => problem.replace(/ is .*/, ''))).toEqual([
      ...[
        'phone',
        'email',
        'whatsapp.number',
        'legalName',
        'commercialRegistration',
        'vatNumber',
        'nationalAddress',
        'privacyNoticeReviewed',
        'figures.privacyPeriods.confirmed',
        'figures.trainingFacts.confirmed',
        'figures.aramcoDocuments.confirmed',
      ].map((field) => `${COMPANY}: ${field}`),
      ...clients.map((client, i) => `${CAROUSELS}: clients entry ${i + 1} (${client[1]})`),
    ]);
    expect(problems[0]).toBe(
      `${COMPANY}: phone is "+966 13 000 0000", the example: write the company's number in international format, e.g. "+966 13 812 3456"`,
    );
    for (const problem of problems) expect(problem).toMatch(/: (write|confirm|put) /);
  });

  test('lists nothing once each is filled', () => {
    expect(launchProblems({}, filled)).toEqual([]);
  });

  test("follows an operator's overrides, naming the variable", () => {
    const real = { PUBLIC_SITE_PHONE: '+966 13 812 3456', PUBLIC_SITE_EMAIL: 'info@globaq.com.sa' };
    expect(launchProblems(real, placeholders).filter((problem) => /phone|email|whatsapp/.test(problem))).toEqual([]);
    expect(launchProblems({ PUBLIC_SITE_WHATSAPP: '966130000000' }, filled)).toEqual([
      'PUBLIC_SITE_WHATSAPP (an operator\'s override of whatsapp.number) is "966130000000", the example: write the chat number, digits only with the country code, e.g. "966501234567"',
    ]);
  });

  test('npm run launch-check exits 1 on the placeholders, 0 once filled, and writes the pull request comment', () => {
    const run = (cwd: string) => {
      const comment = path.join(cwd, 'comment.md');
      const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/launch-check.mjs'), '--comment', comment], {
        cwd,
        encoding: 'utf8',
      });
      return { ...result, comment: fs.readFileSync(comment, 'utf8') };
    };
    const open = run(placeholders);
    expect(open.status, open.stderr).toBe(1);
    expect(open.stdout).toMatch(new RegExp(`^Not ready to go live: ${launchProblems({}, placeholders).length} placeholders`));
    expect(open.comment).toMatch(/^<!-- globaq-launch-check -->\n/);
    expect(open.comment).toContain(`- ${COMPANY}: vatNumber is not set`);
    const done = run(filled);
    expect(done.status, done.stderr).toBe(0);
    expect(done.comment).not.toMatch(/^- /m);
  });
});

describe('the build', () => {
  afterEach(() => vi.unstubAllEnvs());

  /** The company-details hook as `astro <command>` runs it on `root`: the error it logged, if it stopped. */
  function setup(root: string, command: 'build' | 'dev' = 'build', watched: string[] = []): string | undefined {
    let logged: string | undefined;
    const logger = { warn: () => {}, error: (message: string) => (logged = message) };
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${String(code)}`);
    });
    try {
      const hook = companyDetails().hooks['astro:config:setup'] as unknown as (options: object) => void;
      const addWatchFile = (file: URL) => watched.push(fileURLToPath(file));
      hook({ config: { root: pathToFileURL(`${root}/`) }, command, logger, addWatchFile });
    } catch (error) {
      expect(String(error)).toBe('Error: exit 1');
    } finally {
      exit.mockRestore();
    }
    return logged;
  }

  test('with SITE_ENV=production it stops on the placeholders, one line each, and goes ahead once each is filled', () => {
    vi.stubEnv('SITE_ENV', 'production');
    const report = setup(placeholders);
    expect(report?.split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^Not ready to go live: ${launchProblems({}, placeholders).length} placeholders`)),
      ...launchProblems({}, placeholders).map((p) => `  ${p}`),
    ]);
    expect(setup(filled)).toBeUndefined();
    expect(setup(placeholders, 'dev')).toBeUndefined();
  });

  test("the hook is the site's: astro.config.mjs runs it", () => {
    expect(config.integrations?.flat().map((integration) => integration && integration.name)).toContain(companyDetails().name);
  });

  test('`astro dev` restarts on an edit of any data file, so the next reload shows it', () => {
    const watched: string[] = [];
    setup(filled, 'dev', watched);
    const files = fs.readdirSync(path.join(ROOT, 'src/data')).filter((name) => name.endsWith('.yaml'));
    expect(files.length).toBeGreaterThan(0);
    expect(watched.toSorted()).toEqual(files.map((name) => path.join(filled, 'src/data', name)).toSorted());
  });

  test('without SITE_ENV=production (development, previews) it goes ahead', () => {
    vi.stubEnv('SITE_ENV', '');
    expect(setup(placeholders)).toBeUndefined();
  });
});

describe('the privacy notice', () => {
  /** PrivacyController rendered with src/data/site.ts's values replaced by `values`. */
  async function controller(values: { registration: object; words: object }): Promise<string> {
    vi.resetModules();
    vi.doMock('../../src/data/site', () => ({ registration: values.registration, siteWords: () => values.words }));
    const { default: PrivacyController } = await import('../../src/components/PrivacyController.astro');
    const html = await (await AstroContainer.create()).renderToString(PrivacyController);
    vi.doUnmock('../../src/data/site');
    return html
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  }

  test('names the controller by its legal name always, its registration and the date the notice was reviewed once written', async () => {
    expect(await controller({ registration: {}, words: { legalName: 'Globaq Company' } })).toBe(
      `${en['privacy.legalName']} Globaq Company`,
    );
    const shown = await controller({
      registration: { commercialRegistration: '2051234567', vatNumber: '310123456700003', privacyNoticeReviewed: '2026-05-31' },
      words: { legalName: 'Globaq Company', nationalAddress: '1234 King Fahd Road, Al-Khobar 34447' },
    });
    expect(shown).toBe(
      `${en['privacy.legalName']} Globaq Company ${en['trust.kind.commercial-registration']} 2051234567 ${en['trust.kind.vat']} 310123456700003 ${en['privacy.nationalAddress']} 1234 King Fahd Road, Al-Khobar 34447 ${en['privacy.reviewed']} May 31, 2026`,
    );
  });
});
