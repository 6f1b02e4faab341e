/**
 * Waiting time in Riyadh working hours (Sunday to Thursday, 08:00 to 17:00, UTC+3 all year):
 * nights, weekends and day boundaries cost nothing; the words in both languages, with Arabic's
 * plural forms; the week's figures and the median.
 */
import { describe, expect, test } from 'vitest';
import { locales } from '../../src/i18n';
import {
  WORKING_DAY_MS,
  WORKING_HOURS,
  leadWait,
  median,
  waitText,
  workingMs,
  workingText,
} from '../../src/server/inbox/working-time';
import { firstAnswerSeconds, followUpState, weekFigures, weekLine } from '../../src/server/inbox/timely';

const HOUR = 60 * 60 * 1000;
/** A Riyadh wall-clock time (2026-11-22 is a Sunday, 2026-11-26 a Thursday). */
const riyadh = (text: string) => new Date(`${text}:00+03:00`);

describe('working time', () => {
  test('the working week is named once: Sunday to Thursday, 08:00 to 17:00', () => {
    expect(WORKING_HOURS).toMatchObject({ days: [0, 1, 2, 3, 4], start: 8, end: 17 });
    expect(WORKING_DAY_MS).toBe(9 * HOUR);
  });

  test('within one working day, the time itself', () => {
    expect(workingMs(riyadh('2026-11-23T09:00'), riyadh('2026-11-23T12:30'))).toBe(3.5 * HOUR);
  });

  test('before opening and after closing count nothing; a whole day is nine hours', () => {
    expect(workingMs(riyadh('2026-11-23T05:00'), riyadh('2026-11-23T07:59'))).toBe(0);
    expect(workingMs(riyadh('2026-11-23T17:00'), riyadh('2026-11-23T23:59'))).toBe(0);
    expect(workingMs(riyadh('2026-11-23T00:00'), riyadh('2026-11-24T00:00'))).toBe(9 * HOUR);
  });

  test('a night between two days: only the evening and the morning count', () => {
    // Monday 16:00 to Tuesday 10:00: one hour on Monday, two on Tuesday.
    expect(workingMs(riyadh('2026-11-23T16:00'), riyadh('2026-11-24T10:00'))).toBe(3 * HOUR);
    // Across UTC's midnight (Riyadh 02:00-04:00 is UTC 23:00-01:00): nothing.
    expect(workingMs(riyadh('2026-11-24T02:00'), riyadh('2026-11-24T04:00'))).toBe(0);
  });

  test('the weekend costs nothing: Thursday evening to Sunday morning is an hour', () => {
    expect(workingMs(riyadh('2026-11-26T16:30'), riyadh('2026-11-29T08:30'))).toBe(1 * HOUR);
    // Sent on Friday, answered on Saturday: no working time at all.
    expect(workingMs(riyadh('2026-11-27T10:00'), riyadh('2026-11-28T15:00'))).toBe(0);
    // A whole week: five working days.
    expect(workingMs(riyadh('2026-11-22T00:00'), riyadh('2026-11-29T00:00'))).toBe(5 * WORKING_DAY_MS);
  });

  test('an end before its start is no time', () => {
    expect(workingMs(riyadh('2026-11-24T10:00'), riyadh('2026-11-23T10:00'))).toBe(0);
  });

  test("a lead's wait: from its receipt or its release, to its first answer or now", () => {
    const lead = { receivedAt: riyadh('2026-11-26T16:00').toISOString() };
    const now = riyadh('2026-11-29T10:00');
    expect(leadWait(lead, now)).toEqual({ answered: false, ms: 3 * HOUR });
    expect(leadWait({ ...lead, waitingSince: riyadh('2026-11-29T09:00').toISOString() }, now)).toEqual({
      answered: false,
      ms: 1 * HOUR,
    });
    expect(leadWait({ ...lead, firstAnsweredAt: riyadh('2026-11-26T16:45').toISOString() }, now)).toEqual({
      answered: true,
      ms: 0.75 * HOUR,
    });
  });
});

describe('in words', () => {
  const { en, ar } = locales;
  test('English: minutes, hours, then working days, each rounded down', () => {
    expect(workingText(30_000, en)).toBe('under a working minute');
    expect(workingText(60_000, en)).toBe('1 working minute');
    expect(workingText(25 * 60_000, en)).toBe('25 working minutes');
    expect(workingText(1 * HOUR, en)).toBe('1 working hour');
    expect(workingText(3.9 * HOUR, en)).toBe('3 working hours');
    expect(workingText(WORKING_DAY_MS, en)).toBe('1 working day');
    expect(workingText(5 * WORKING_DAY_MS + HOUR, en)).toBe('5 working days');
    expect(waitText({ answered: false, ms: 3 * HOUR }, en)).toBe('Waiting 3 working hours');
    expect(waitText({ answered: true, ms: WORKING_DAY_MS }, en)).toBe('Answered after 1 working day');
  });

  test("Arabic: each of its plural forms (one, two, few, many, other) with the counted word's own form", () => {
    expect(workingText(0, ar)).toBe('أقل من دقيقة عمل');
    expect(workingText(2 * 60_000, ar)).toBe('دقيقتي عمل');
    expect(workingText(1 * HOUR, ar)).toBe('ساعة عمل واحدة');
    expect(workingText(2 * HOUR, ar)).toBe('ساعتي عمل');
    expect(workingText(3 * HOUR, ar)).toBe('3 ساعات عمل');
    expect(workingText(2 * WORKING_DAY_MS, ar)).toBe('يومي عمل');
    expect(workingText(4 * WORKING_DAY_MS, ar)).toBe('4 أيام عمل');
    expect(workingText(11 * WORKING_DAY_MS, ar)).toBe('11 يوم عمل');
    expect(workingText(100 * WORKING_DAY_MS, ar)).toBe('100 يوم عمل');
    expect(waitText({ answered: false, ms: 3 * HOUR }, ar)).toBe('في الانتظار منذ 3 ساعات عمل');
    expect(waitText({ answered: true, ms: WORKING_DAY_MS }, ar)).toBe('أُجيب بعد يوم عمل واحد');
  });
});

describe('the week and the follow-ups', () => {
  test('the median of an odd and an even count; none of nothing', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeUndefined();
  });

  test("the week's figures: leads in, answered within one working day, the median of those answered", () => {
    const sunday = (time: string) => riyadh(`2026-11-22T${time}`).toISOString();
    const figures = weekFigures([
      { waitingSince: sunday('09:00'), firstAnsweredAt: sunday('10:00') },
      { waitingSince: sunday('09:00'), firstAnsweredAt: sunday('12:00') },
      // Answered on Tuesday at 10:00: 8 + 9 + 2 = 19 working hours, over a working day.
      { waitingSince: sunday('09:00'), firstAnsweredAt: riyadh('2026-11-24T10:00').toISOString() },
      { waitingSince: sunday('09:00'), firstAnsweredAt: undefined },
    ]);
    expect(figures).toEqual({ leads: 4, withinDay: 2, medianMs: 3 * HOUR });
    expect(weekLine(figures, locales.en)).toBe(
      'Last 7 days: 4 leads in, 2 answered within one working day; median time to first answer: 3 working hours.',
    );
    expect(weekLine(figures, locales.ar)).toBe(
      'آخر 7 أيام: وصل 4 من الطلبات، أُجيب عن 2 منها خلال يوم عمل واحد؛ الوسيط لزمن أول رد: 3 ساعات عمل.',
    );
    expect(weekLine({ leads: 2, withinDay: 0, medianMs: undefined }, locales.en)).toContain('none answered yet');
    expect(weekLine({ leads: 0, withinDay: 0, medianMs: undefined }, locales.ar)).toBe('آخر 7 أيام: لم يصل أي طلب.');
    expect(firstAnswerSeconds([{ waitingSince: sunday('09:00'), firstAnsweredAt: sunday('10:00') }])).toEqual([3600]);
  });

  test("a follow-up day is overdue, today or later by Riyadh's calendar, not UTC's", () => {
    // 22:30 UTC on the 23rd is already the 24th in Riyadh.
    const now = new Date('2026-11-23T22:30:00Z');
    expect(followUpState('2026-11-23', now)).toBe('overdue');
    expect(followUpState('2026-11-24', now)).toBe('today');
    expect(followUpState('2026-11-25', now)).toBe('later');
  });
});
