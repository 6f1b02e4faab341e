/**
 * Who does the work: the team, the credentials and the case studies (src/lib/trust.ts). The
 * repository ships no entry, so the built site has none of their pages, sections or links, and
 * the build says which collections are empty. With entries, in a copy of the project (one build),
 * the pages, the About page's and home's sections, the footer's line and the Arabic twins appear.
 * The entries below are test placeholders, not people, numbers or clients of the company.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';
import { projectCopy } from '../helpers/project-copy';
import { parseHtml } from '../helpers/dom';
import { caseSchema, credentialSchema, pageSchema, serviceSchema, teamSchema } from '../../src/lib/content-schemas';
import {
  contentProblems,
  emptyTrustDirs,
  emptyTrustMessage,
  formatProblem,
  listYaml,
  TRUST_DIRS,
} from '../../src/integrations/content-rules';
import { ar } from '../../src/i18n/ar';
import { en } from '../../src/i18n/en';
import { z } from 'astro/zod';

const CLIENT = path.join(ROOT, 'dist/client');
/** The trust pages (TRUST_ROUTES in src/lib/trust.ts), in both languages. */
const TRUST_PATHS = ['OurTeam', 'Credentials', 'CaseStudies'].flatMap((route) => [`/${route}`, `/ar/${route}`]);
/** The schemas the build's content checks use (src/integrations/content-checks.ts). */
const SCHEMAS = {
  services: serviceSchema,
  pages: pageSchema,
  team: teamSchema(z.string()),
  credentials: credentialSchema,
  cases: caseSchema,
};

/** A case study naming its client, with `permission` given or not. */
const caseYaml = (permission: string) => `order: 1
title: "Placeholder case for the tests"
sector: "Placeholder sector"
standards: [iso-9001-2015]
year: 2024
challenge: "The placeholder challenge, long enough for the schema's minimum."
work: "The placeholder work, long enough for the schema's minimum length."
outcome: "The placeholder outcome, long enough for the schema's minimum."
client: "Placeholder Client"
${permission}`;

describe('the repository ships no trust entry', () => {
  test('src/content/{team,credentials,cases} and their Arabic twins hold no entry', () => {
    for (const dir of TRUST_DIRS) {
      expect(listYaml(ROOT, `src/content/${dir}`), dir).toEqual([]);
      expect(listYaml(ROOT, `src/content/ar/${dir}`), dir).toEqual([]);
    }
    expect(emptyTrustDirs(ROOT)).toEqual(['team', 'credentials', 'cases']);
  });

  test('the build names the empty collections in one line, not an error', () => {
    expect(emptyTrustMessage(['team', 'credentials', 'cases'])).toBe(
      'Trust content: team, credentials and cases have no entries yet, so no page, section or link shows them (docs/content.md#who-does-the-work)',
    );
    expect(emptyTrustMessage(['cases'])).toMatch(/^Trust content: cases has no entries yet/);
    expect(emptyTrustMessage([])).toBeUndefined();
  });

  test('the built site has no trust page and no link to one, in either language', () => {
    if (!fs.existsSync(CLIENT)) throw new Error('dist/client is missing: run `npm run build` first (npm test does).');
    for (const route of TRUST_PATHS) expect(fs.existsSync(path.join(CLIENT, `${route}.html`)), route).toBe(false);
    for (const page of ['index.html', 'ar.html', 'AboutUs.html', 'ar/AboutUs.html']) {
      const document = parseHtml(fs.readFileSync(path.join(CLIENT, page), 'utf8'));
      for (const route of TRUST_PATHS) expect(document.querySelector(`a[href="${route}"]`), `${page} links ${route}`).toBeNull();
      expect(document.querySelector('.trust-section, .trust-list')).toBeNull();
      expect(document.querySelector('.site-footer__registrations')).toBeNull();
    }
  });
});

describe('the schemas of the trust entries', () => {
  test('a case naming its client without permission stops the build, naming the file, the line and the field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-trust-'));
    try {
      fs.mkdirSync(path.join(dir, 'src/content/cases'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'src/content/cases/placeholder.yaml'), caseYaml(''));
      const problems = contentProblems(dir, SCHEMAS).map(formatProblem);
      expect(problems).toEqual([
        'src/content/cases/placeholder.yaml:9: client: a client is named only with its written permission: add "permission: true" once the client has agreed, or remove "client"',
      ]);
      fs.writeFileSync(path.join(dir, 'src/content/cases/placeholder.yaml'), caseYaml('permission: false\n'));
      expect(contentProblems(dir, SCHEMAS)).toHaveLength(1);
      fs.writeFileSync(path.join(dir, 'src/content/cases/placeholder.yaml'), caseYaml('permission: true\n'));
      expect(contentProblems(dir, SCHEMAS)).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a misspelled field of a team member: the line and the field it probably means', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-trust-'));
    try {
      fs.mkdirSync(path.join(dir, 'src/content/ar/team'), { recursive: true });
      fs.writeFileSync(
        path.join(dir, 'src/content/ar/team/placeholder.yaml'),
        'order: 1\nname: "Placeholder"\nrole: "Placeholder role"\nqualifications:\n  - title: "Placeholder"\n    body: "Placeholder body"\nlanguage: [English]\n',
      );
      expect(contentProblems(dir, SCHEMAS).map(formatProblem)).toEqual([
        'src/content/ar/team/placeholder.yaml:7: "language" is not a field: did you mean "languages"?',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a credential is one of the kinds, with its number, and its validity in order', () => {
    const base = { order: 1, kind: 'vat', issuer: 'Placeholder issuer', number: 'TEST-0001' };
    expect(credentialSchema.safeParse(base).success).toBe(true);
    expect(credentialSchema.safeParse({ ...base, kind: 'licence' }).success).toBe(false);
    expect(credentialSchema.safeParse({ ...base, number: undefined }).success).toBe(false);
    expect(credentialSchema.safeParse({ ...base, validFrom: '2025-01-01', validUntil: '2024-01-01' }).success).toBe(false);
    expect(credentialSchema.safeParse({ ...base, document: 'javascript:alert(1)' }).success).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// With entries: one build of a copy of the project.

const copies: string[] = [];
afterAll(() => {
  for (const dir of copies) fs.rmSync(dir, { recursive: true, force: true });
});

const ENTRIES: Record<string, string> = {
  'src/content/team/placeholder-member.yaml': `order: 1
name: "Placeholder Member"
role: "Placeholder Lead Auditor"
qualifications:
  - title: "ISO 9001:2015 Lead Auditor"
    body: "Placeholder Body"
    number: "TEST-0001"
languages: [English, Arabic]
photo:
  src: "./placeholder-member.svg"
  alt: "Placeholder photo"
`,
  // Without a photo of its own: the Arabic page shows the English one's, its alt marked English.
  'src/content/ar/team/placeholder-member.yaml': `order: 1
name: "عضو تجريبي"
role: "مدقق رئيسي تجريبي"
qualifications:
  - title: "مدقق رئيسي ISO 9001:2015"
    body: "جهة تجريبية"
    number: "TEST-0001"
languages: [الإنجليزية, العربية]
`,
  // No Arabic twin: the Arabic pages show it in English, marked.
  'src/content/credentials/placeholder-cr.yaml': `order: 1
kind: commercial-registration
issuer: "Placeholder Issuer"
number: "TEST-CR-0001"
validUntil: 2030-12-31
`,
  'src/content/credentials/placeholder-vat.yaml': `order: 2
kind: vat
issuer: "Placeholder Issuer"
number: "TEST-VAT-0001"
`,
  'src/content/cases/placeholder-case.yaml': caseYaml('permission: true\n'),
  'src/content/ar/cases/placeholder-case.yaml': `order: 1
title: "حالة تجريبية للاختبارات"
sector: "قطاع تجريبي"
standards: [iso-9001-2015]
year: 2024
challenge: "تحدٍ تجريبي بطول يكفي الحد الأدنى للمخطط."
work: "عمل تجريبي بطول يكفي الحد الأدنى للمخطط."
outcome: "نتيجة تجريبية بطول يكفي الحد الأدنى للمخطط."
client: "عميل تجريبي"
permission: true
`,
};

describe('with an entry of each kind, in a copy of the project (one build: a minute or two)', () => {
  let dir = '';
  let result = { status: null as number | null, output: '' };
  const page = (route: string) => parseHtml(fs.readFileSync(path.join(dir, 'dist/client', `${route}.html`), 'utf8'));

  beforeAll(() => {
    dir = projectCopy('globaq-trust-');
    copies.push(dir);
    for (const [file, text] of Object.entries(ENTRIES)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    fs.copyFileSync(path.join(ROOT, 'src/assets/brand/icon.svg'), path.join(dir, 'src/content/team/placeholder-member.svg'));
    const run = spawnSync(process.execPath, ['scripts/build.mjs'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
    });
    result = { status: run.status, output: `${run.stdout}\n${run.stderr}` };
  }, 600_000);

  test('the build succeeds, says nothing of empty trust collections, and warns of the missing Arabic twins', () => {
    expect(result.status, result.output).toBe(0);
    expect(result.output).not.toContain('Trust content:');
    expect(result.output).not.toMatch(/does not exist or is empty/);
    expect(result.output).toMatch(/WARN.*src\/content\/ar\/credentials\/placeholder-cr\.yaml is missing/);
  });

  test('each collection has its page in both languages, its entries under h2 headings', () => {
    const team = page('OurTeam');
    expect(team.querySelector('h1')?.textContent).toBe(en['trust.team.title']);
    expect(team.querySelector('#placeholder-member h2')?.textContent).toBe('Placeholder Member');
    expect(team.querySelector('#placeholder-member')?.textContent).toContain('Placeholder Body, registration number TEST-0001');
    const arTeam = page('ar/OurTeam');
    expect(arTeam.documentElement.getAttribute('dir')).toBe('rtl');
    expect(arTeam.querySelector('h1')?.textContent).toBe(ar['trust.team.title']);
    expect(arTeam.querySelector('#placeholder-member h2')?.textContent).toBe('عضو تجريبي');
    expect(arTeam.querySelector('#placeholder-member')?.hasAttribute('lang')).toBe(false);
    expect(team.querySelector('#placeholder-member img')?.getAttribute('alt')).toBe('Placeholder photo');
    const arPhoto = arTeam.querySelector('#placeholder-member img');
    expect(arPhoto?.getAttribute('alt')).toBe('Placeholder photo');
    expect(arPhoto?.getAttribute('lang')).toBe('en');

    expect(page('Credentials').querySelector('#placeholder-vat h2')?.textContent).toBe(en['trust.kind.vat']);
    // No Arabic twin: the English entry, marked, in the Arabic page.
    const arCredential = page('ar/Credentials').querySelector('#placeholder-cr')!;
    expect(arCredential.getAttribute('lang')).toBe('en');
    expect(arCredential.querySelector('.trust-card__pending')?.textContent?.trim()).toBe(ar['translation.pendingCourse']);
    expect(arCredential.querySelector('time')?.getAttribute('datetime')).toBe('2030-12-31');

    const cases = page('CaseStudies');
    expect(cases.querySelector('#placeholder-case h2')?.textContent).toBe('Placeholder case for the tests');
    expect(cases.querySelector('#placeholder-case')?.textContent).toContain('Placeholder Client');
    expect(cases.querySelector('#placeholder-case')?.textContent).toContain('ISO 9001:2015');
    expect(page('ar/CaseStudies').querySelector('#placeholder-case h2')?.textContent).toBe('حالة تجريبية للاختبارات');
    // The language switch goes to the twin.
    expect(cases.querySelector('a[hreflang="ar"]')?.getAttribute('href')).toBe('/ar/CaseStudies');
  });

  test('the About page shows the team and the credentials, home the case studies, each with a link to its page', () => {
    for (const [about, prefix] of [
      [page('AboutUs'), ''],
      [page('ar/AboutUs'), '/ar'],
    ] as const) {
      expect(about.querySelector('section[aria-labelledby="team"] h2')).not.toBeNull();
      expect(about.querySelector('section[aria-labelledby="team"] h3')).not.toBeNull();
      expect(about.querySelector(`section[aria-labelledby="team"] a[href="${prefix}/OurTeam"]`)).not.toBeNull();
      expect(about.querySelector(`section[aria-labelledby="credentials"] a[href="${prefix}/Credentials"]`)).not.toBeNull();
    }
    for (const [home, prefix] of [
      [page('index'), ''],
      [page('ar'), '/ar'],
    ] as const) {
      const section = home.querySelector('section[aria-labelledby="case-studies"]');
      expect(section?.querySelector('h3')).not.toBeNull();
      expect(section?.querySelector(`a[href="${prefix}/CaseStudies"]`)).not.toBeNull();
    }
  });

  test('the footer gives the commercial registration and VAT numbers and links the trust pages, in both languages', () => {
    const footer = page('Partner').querySelector('footer')!;
    expect(footer.querySelector('.site-footer__registrations')?.textContent).toBe(
      'Commercial registration TEST-CR-0001 · VAT number TEST-VAT-0001',
    );
    for (const route of ['/OurTeam', '/Credentials', '/CaseStudies'])
      expect(footer.querySelector(`a[href="${route}"]`)).not.toBeNull();
    const arFooter = page('ar/Partner').querySelector('footer')!;
    expect(arFooter.querySelector('.site-footer__registrations')?.textContent).toBe(
      'السجل التجاري TEST-CR-0001 · الرقم الضريبي TEST-VAT-0001',
    );
    expect(arFooter.querySelector('a[href="/ar/OurTeam"]')).not.toBeNull();
  });
});
