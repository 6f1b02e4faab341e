/**
 * The audit log as staff read it: a recorded filter decoded, Arabic isolated in its own direction;
 * every kind of entry offered by the What filter, named in both languages.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { isUiKey } from '../../src/i18n';
import { ar } from '../../src/i18n/ar';
import { en } from '../../src/i18n/en';
import { readableDetail } from '../../src/server/inbox/audit-view';
import { PERSON_EXPORT_ACTION } from '../../src/server/inbox/person-file';
import { ROOT } from '../helpers/frontmatter';

test('a recorded search reads decoded; other details stay as stored', () => {
  const query = new URLSearchParams({ status: 'all', q: 'الطائف ١٢' }).toString();
  expect(query).toContain('%D8');
  expect(readableDetail(`3 found (filter: ${query})`)).toBe('3 found (filter: status=all&q=\u2068الطائف ١٢\u2069)');
  expect(readableDetail('1 lead (filter: form=contact&q=gulf+qa)')).toBe('1 lead (filter: form=contact&q=gulf qa)');
  expect(readableDetail('from 192.0.2.1')).toBe('from 192.0.2.1');
  expect(readableDetail('Answered')).toBe('Answered');
});

test("the audit log's What filter offers every action the code records, each named in both languages", () => {
  const source = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
  const files = fs.readdirSync(path.join(ROOT, 'src/server'), { recursive: true, encoding: 'utf8' });
  const recorded = new Set(
    files
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) => [...source(`src/server/${file}`).matchAll(/(?:\.audit\([^,()]+, |[^.\w]audit\(|action: )'([^']+)'/g)])
      .map((match) => match[1]!),
  );
  recorded.add(PERSON_EXPORT_ACTION);
  // The page offers every action the dictionary names (src/pages/admin/audit.astro).
  const prefix = 'admin.audit.action.';
  expect(source('src/pages/admin/audit.astro')).toContain(`const ACTION = '${prefix}'`);
  const offered = new Set(Object.keys(en).flatMap((key) => (key.startsWith(prefix) ? [key.slice(prefix.length)] : [])));
  expect([...recorded].filter((action) => !offered.has(action))).toEqual([]);
  for (const action of offered) {
    expect(isUiKey(`admin.audit.action.${action}`), action).toBe(true);
    expect(Object.keys(ar)).toContain(`admin.audit.action.${action}`);
  }
});
