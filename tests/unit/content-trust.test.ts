/**
 * Who does the work: the team, the credentials and the case studies (src/lib/trust.ts). A
 * collection with no entry has none of its pages, sections or links on the built site, and the
 * build says which collections are empty; one with entries has them all. What the entries show, in
 * the editor's copy of the project (tests/unit/editor-edits.test.ts, one build): the pages, the
 * About page's and home's sections, the footer's line and the Arabic twins. The entries written
 * here are test placeholders, not people, numbers or clients of the company.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../helpers/content';
import { parseHtml } from '../helpers/dom';
import { caseSchema, credentialSchema, pageSchema, serviceSchema, teamSchema } from '../../src/lib/content-schemas';
import {
  contentProblems,
  emptyTrustDirs,
  emptyTrustMessage,
  formatProblem,
  hasExpired,
  listYaml,
  TRUST_DIRS,
} from '../../src/integrations/content-rules';
import { z } from 'astro/zod';
import { TRUST_ROUTES } from '../../src/lib/trust';
import { expiredCredentials } from '../../src/integrations/content-checks';

const CLIENT = path.join(ROOT, 'dist/client');
/** Each collection's section on another page: its id, and the pages with it. */
const SECTIONS = {
  team: { id: 'team', pages: ['AboutUs.html', 'ar/AboutUs.html'] },
  credentials: { id: 'credentials', pages: ['AboutUs.html', 'ar/AboutUs.html'] },
  cases: { id: 'case-studies', pages: ['index.html', 'ar.html'] },
} as const;
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

describe('a trust collection without entries', () => {
  test('is empty until src/content/{team,credentials,cases} has an English entry', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-trust-'));
    const write = (file: string) => {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), 'order: 1\n');
    };
    try {
      expect(emptyTrustDirs(dir)).toEqual(['team', 'credentials', 'cases']);
      // An Arabic entry, or a file other than YAML, is not an entry of the collection.
      write('src/content/ar/team/placeholder.yaml');
      write('src/content/credentials/placeholder.svg');
      expect(emptyTrustDirs(dir)).toEqual(['team', 'credentials', 'cases']);
      write('src/content/team/placeholder.yaml');
      expect(emptyTrustDirs(dir)).toEqual(['credentials', 'cases']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the build names the empty collections in one line, not an error', () => {
    expect(emptyTrustMessage(['team', 'credentials', 'cases'])).toBe(
      'Trust content: team, credentials and cases have no entries yet, so no page, section or link shows them (docs/content.md#who-does-the-work)',
    );
    expect(emptyTrustMessage(['cases'])).toMatch(/^Trust content: cases has no entries yet/);
    expect(emptyTrustMessage([])).toBeUndefined();
  });

  test('the built site has no page, section or link of an empty collection, in either language, and each of one with entries', () => {
    if (!fs.existsSync(CLIENT)) throw new Error('dist/client is missing: run `npm run build` first (npm test does).');
    const empty: readonly string[] = emptyTrustDirs(ROOT);
    const shown = TRUST_DIRS.filter((dir) => !empty.includes(dir));
    // The footer's line of numbers: once a commercial registration or VAT entry is there.
    const registered = listYaml(ROOT, 'src/content/credentials').some((file) =>
      /^kind: *["']?(commercial-registration|vat)\b/m.test(fs.readFileSync(path.join(ROOT, file), 'utf8')),
    );
    for (const dir of TRUST_DIRS) {
      for (const route of [`/${TRUST_ROUTES[dir]}`, `/ar/${TRUST_ROUTES[dir]}`])
        expect(fs.existsSync(path.join(CLIENT, `${route}.html`)), route).toBe(shown.includes(dir));
    }
    for (const page of ['index.html', 'ar.html', 'AboutUs.html', 'ar/AboutUs.html']) {
      const document = parseHtml(fs.readFileSync(path.join(CLIENT, page), 'utf8'));
      const prefix = page.startsWith('ar') ? '/ar' : '';
      for (const dir of TRUST_DIRS) {
        for (const route of [`/${TRUST_ROUTES[dir]}`, `/ar/${TRUST_ROUTES[dir]}`]) {
          const linked = shown.includes(dir) && route === `${prefix}/${TRUST_ROUTES[dir]}`;
          expect(document.querySelector(`footer a[href="${route}"]`) !== null, `${page} links ${route}`).toBe(linked);
          if (!linked) expect(document.querySelector(`a[href="${route}"]`), `${page} links ${route}`).toBeNull();
        }
      }
      const sections = shown
        .filter((dir) => (SECTIONS[dir].pages as readonly string[]).includes(page))
        .map((dir) => SECTIONS[dir].id);
      expect(
        [...document.querySelectorAll('.trust-section')].map((section) => section.getAttribute('aria-labelledby')),
        page,
      ).toEqual(sections);
      expect(document.querySelectorAll('.trust-list'), page).toHaveLength(sections.length);
      expect(document.querySelector('.site-footer__registrations') !== null, page).toBe(registered);
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
        'src/content/cases/placeholder.yaml:9: field "client" is "Placeholder Client": a client is named only with its written permission: add "permission: true" once the client has agreed, or remove "client"',
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
        'src/content/ar/team/placeholder.yaml:7: field "language" is not a field: did you mean "languages"?',
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

describe('a credential whose validity has passed', () => {
  test('the build warns of it on its line; the day itself still counts as valid', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-trust-'));
    try {
      fs.mkdirSync(path.join(dir, 'src/content/credentials'), { recursive: true });
      const file = 'src/content/credentials/placeholder.yaml';
      fs.writeFileSync(
        path.join(dir, file),
        'order: 1\nkind: vat\nissuer: "Placeholder issuer"\nnumber: "TEST-0001"\nvalidUntil: 2025-03-31\n',
      );
      expect(expiredCredentials(dir, new Date('2025-03-31T23:00:00Z'))).toEqual([]);
      expect(expiredCredentials(dir, new Date('2025-04-01T00:00:00Z'))).toEqual([
        `${file}:5: validUntil 2025-03-31 has passed, so the pages show the credential as expired: write the renewed validity, or remove the entry`,
      ]);
      expect(hasExpired(new Date('2025-03-31'), new Date('2025-04-01T00:00:00Z'))).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
