/**
 * The staff command's `person`, through the real command (`npm run submissions -- person ...`
 * as someone behind sudo): the file of everything kept about a person, as JSON or as a printable
 * page in their language, recorded in the audit log under that person by the leads' ids only;
 * a lookup that finds nobody writes no file; a lookup naming nobody is a usage mistake.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openSqliteStore } from '../../src/server/store/sqlite/sqlite-store';
import { ROOT } from '../helpers/frontmatter';
import { contactBody, partnerBody, tempDir } from '../helpers/server';

let dir: string;
let file: string;
const ids: string[] = [];
let samePhoneId: string;

beforeAll(async () => {
  dir = tempDir('globaq-person-cli-');
  file = path.join(dir, 'submissions.db');
  const store = openSqliteStore(file);
  ids.push(
    (
      await store.save({
        form: 'contact',
        fields: contactBody({ firstName: 'Layla', email: 'layla@example.com', message: 'Hello <script>x</script>' }),
        language: 'en',
        receivedAt: new Date(Date.UTC(2026, 10, 1, 9)),
      })
    ).id,
    (
      await store.save({
        form: 'partner',
        fields: partnerBody({ name: 'ليلى', email: 'LAYLA@example.com', phoneNumber: '+966 50 123 4567' }),
        language: 'ar',
        receivedAt: new Date(Date.UTC(2026, 10, 2, 9)),
        attachments: [{ name: 'cv.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1 cv') }],
      })
    ).id,
  );
  await store.save({ form: 'contact', fields: contactBody({ email: 'someone@example.com' }), receivedAt: new Date() });
  const samePhone = partnerBody({ email: 'office@example.com', phoneNumber: '00966501234567' });
  samePhoneId = (await store.save({ form: 'partner', fields: samePhone, receivedAt: new Date() })).id;
  await store.close();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function typed(...argv: string[]) {
  return spawnSync('npm', ['run', '--silent', 'submissions', '--', 'person', ...argv, '--db', file], {
    cwd: ROOT,
    env: { ...process.env, SUDO_USER: 'amal' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

const audit = () => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return db.prepare('SELECT actor, action, lead_id AS leadId, detail FROM audit_log ORDER BY seq').all() as {
      actor: string;
      action: string;
      leadId: string | null;
      detail: string;
    }[];
  } finally {
    db.close();
  }
};

test('JSON to standard output: every lead of the e-mail, case aside, with its file list; audited by ids under the person behind sudo', () => {
  const result = typed('--email', 'Layla@Example.com', '--format', 'json');
  expect(result.status, result.stderr).toBe(0);
  const data = JSON.parse(result.stdout) as {
    leads: { id: string; language: string; fields: Record<string, unknown>; files: unknown[] }[];
  };
  expect(data.leads.map((lead) => lead.id)).toEqual(ids);
  expect(data.leads[1]!.files).toEqual([{ name: 'cv.pdf', type: 'application/pdf', size: 9 }]);
  const entry = audit().at(-1)!;
  expect(entry).toMatchObject({ actor: 'amal (staff command)', action: "exported a person's data", leadId: null });
  expect(entry.detail).toBe(`2 leads as json: ${ids.join(' ')}`);
  expect(JSON.stringify(audit())).not.toMatch(/layla|ليلى|123 4567/i);
  // The lead sharing only the phone is named by id, and in the file only with --lead.
  expect(result.stderr).toContain(`the same phone only: ${samePhoneId}`);
  const ticked = typed('--email', 'layla@example.com', '--lead', samePhoneId, '--format', 'json');
  expect(ticked.status, ticked.stderr).toBe(0);
  expect((JSON.parse(ticked.stdout) as { leads: { id: string }[] }).leads.map((lead) => lead.id)).toEqual([...ids, samePhoneId]);
});

test('HTML to a file, by e-mail and by the phone in another format: in the latest lead’s language, right to left, values escaped', () => {
  const out = path.join(dir, 'person.html');
  const result = typed('--email', 'layla@example.com', '--phone', '0501234567', '--out', out);
  expect(result.status, result.stderr).toBe(0);
  const html = fs.readFileSync(out, 'utf8');
  expect(html).toContain('<html lang="ar" dir="rtl">');
  expect(html).toContain('ليلى');
  expect(html).toContain(ids[0]);
  expect(html).toContain(ids[1]);
  expect(html).toContain('Hello &lt;script&gt;x&lt;/script&gt;');
  expect(html).not.toContain('<script');
  expect(audit().at(-1)!.detail).toBe(`2 leads as html: ${ids.join(' ')}`);
});

test('nobody found: no file and exit 1; nobody named: the usage and exit 2; nothing recorded for either', () => {
  const before = audit().length;
  const out = path.join(dir, 'nobody.json');
  const none = typed('--email', 'nobody@example.com', '--out', out);
  expect(none.status).toBe(1);
  expect(none.stderr).toContain('No lead has this e-mail or phone');
  expect(none.stderr).not.toContain('nobody@example.com');
  expect(fs.existsSync(out)).toBe(false);
  const unnamed = typed('--format', 'json');
  expect(unnamed.status).toBe(2);
  expect(unnamed.stderr).toContain('Name the person');
  expect(audit().length).toBe(before);
});
