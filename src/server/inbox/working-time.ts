/**
 * Waiting time in the office's working hours: a lead sent on Thursday evening and answered on Sunday
 * at 09:00 waited one working hour, not sixty. Riyadh keeps UTC+3 all year, so a working day is a
 * fixed span of UTC.
 */
import { locales, t, type Locale } from '../../i18n/index.ts';

/** The office's working week: the days (0 Sunday ... 6 Saturday) and the hours, Riyadh time. */
export const WORKING_HOURS = { days: [0, 1, 2, 3, 4], start: 8, end: 17, utcOffsetHours: 3 } as const;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const WORKING_DAY_MS = (WORKING_HOURS.end - WORKING_HOURS.start) * HOUR_MS;

/** The working time between two instants, in ms. */
export function workingMs(from: Date, to: Date): number {
  const offset = WORKING_HOURS.utcOffsetHours * HOUR_MS;
  // Both instants on Riyadh's clock, written as if it were UTC: days start at multiples of DAY_MS.
  const start = from.getTime() + offset;
  const end = to.getTime() + offset;
  if (!(end > start)) return 0;
  let total = 0;
  for (let day = Math.floor(start / DAY_MS) * DAY_MS; day < end; day += DAY_MS) {
    if (!(WORKING_HOURS.days as readonly number[]).includes(new Date(day).getUTCDay())) continue;
    const open = day + WORKING_HOURS.start * HOUR_MS;
    const close = day + WORKING_HOURS.end * HOUR_MS;
    total += Math.max(0, Math.min(close, end) - Math.max(open, start));
  }
  return total;
}

/** Until its first answer, or until now while it has none. */
export function leadWait(
  lead: {
    readonly waitingSince?: string | undefined;
    readonly receivedAt: string;
    readonly firstAnsweredAt?: string | undefined;
  },
  now: Date,
): { readonly answered: boolean; readonly ms: number } {
  const since = new Date(lead.waitingSince ?? lead.receivedAt);
  const answered = lead.firstAnsweredAt !== undefined;
  return { answered, ms: workingMs(since, answered ? new Date(lead.firstAnsweredAt!) : now) };
}

/** The plural form of `count` in the locale's language (Arabic's six: zero, one, two, few, many, other). */
const PLURAL_RULES = Object.fromEntries(Object.values(locales).map((l) => [l.lang, new Intl.PluralRules(l.lang)]));
const pluralForm = (count: number, locale: Locale) =>
  (PLURAL_RULES[locale.lang] ?? new Intl.PluralRules(locale.lang)).select(count);

/** A working time in words, rounded down: "3 working hours", «ساعتا عمل», «4 أيام عمل». */
export function workingText(ms: number, locale: Locale): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes === 0) return t('admin.wait.underMinute', {}, locale);
  const [unit, count] =
    ms < HOUR_MS
      ? (['minutes', minutes] as const)
      : ms < WORKING_DAY_MS
        ? (['hours', Math.floor(ms / HOUR_MS)] as const)
        : (['days', Math.floor(ms / WORKING_DAY_MS)] as const);
  return t(`admin.wait.${unit}.${pluralForm(count, locale)}`, { count }, locale);
}

export function waitText(wait: { readonly answered: boolean; readonly ms: number }, locale: Locale): string {
  return t(wait.answered ? 'admin.wait.answeredAfter' : 'admin.wait.waiting', { time: workingText(wait.ms, locale) }, locale);
}

export function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
