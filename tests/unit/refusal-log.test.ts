/**
 * Refused posts in the log (src/server/ops/log.ts's RefusalLog): the first of a kind at once, the
 * rest of each minute as one line with their count, each kind apart.
 */
import { pino } from 'pino';
import { afterEach, expect, test, vi } from 'vitest';
import { REFUSAL_WINDOW_MS, RefusalLog } from '../../src/server/ops/log';

afterEach(() => vi.useRealTimers());

test('a minute of refusals is two lines per kind; the next minute starts over', () => {
  vi.useFakeTimers();
  const lines: { event: string; reason: string; count?: number }[] = [];
  const log = pino({ base: null, timestamp: false }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const refusals = new RefusalLog(log);
  for (let i = 0; i < 500; i++) refusals.refused('lead.refused', { form: 'contact', reason: 'overBudget' });
  refusals.refused('lead.refused', { form: 'contact', reason: 'invalidFields' });
  expect(lines.map((line) => [line.reason, line.count])).toEqual([
    ['overBudget', undefined],
    ['invalidFields', undefined],
  ]);
  vi.advanceTimersByTime(REFUSAL_WINDOW_MS);
  expect(lines.slice(2).map((line) => [line.reason, line.count])).toEqual([['overBudget', 499]]);
  refusals.refused('lead.refused', { form: 'contact', reason: 'overBudget' });
  expect(lines.slice(3).map((line) => [line.reason, line.count])).toEqual([['overBudget', undefined]]);
});
