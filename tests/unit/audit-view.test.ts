/** The audit log's details as staff read them: a recorded filter decoded, Arabic isolated in its own direction. */
import { expect, test } from 'vitest';
import { readableDetail } from '../../src/server/inbox/audit-view';

test('a recorded search reads decoded; other details stay as stored', () => {
  const query = new URLSearchParams({ status: 'all', q: 'الطائف ١٢' }).toString();
  expect(query).toContain('%D8');
  expect(readableDetail(`3 found (filter: ${query})`)).toBe('3 found (filter: status=all&q=\u2068الطائف ١٢\u2069)');
  expect(readableDetail('1 lead (filter: form=contact&q=gulf+qa)')).toBe('1 lead (filter: form=contact&q=gulf qa)');
  expect(readableDetail('from 192.0.2.1')).toBe('from 192.0.2.1');
  expect(readableDetail('Answered')).toBe('Answered');
});
