/** How timely the inbox is, in words for its pages: follow-up dates and the list's weekly line. */
import { defaultLocale, t, type Locale } from '../../i18n/index.ts';
import { dateTimeFormat } from '../../lib/intl-formats.ts';
import { riyadhDay } from './export-format.ts';
import { WORKING_DAY_MS, median, workingMs, workingText } from './working-time.ts';

/** A follow-up day (YYYY-MM-DD) as the locale writes a date, with its weekday: "Sun, 30 Nov 2026". */
export function followUpDate(day: string, locale: Locale): string {
  return dateTimeFormat(locale.formatLocale, {
    timeZone: 'UTC',
    calendar: 'gregory',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(new Date(`${day}T00:00:00Z`));
}

/** By Riyadh's calendar. */
export function followUpState(day: string, now: Date): 'overdue' | 'today' | 'later' {
  const today = riyadhDay(now).day;
  return day < today ? 'overdue' : day === today ? 'today' : 'later';
}

export function followUpText(day: string, now: Date, locale: Locale): string {
  const state = followUpState(day, now);
  const date = followUpDate(day, locale);
  return state === 'today'
    ? t('admin.followUp.today', {}, locale)
    : t(state === 'overdue' ? 'admin.followUp.overdue' : 'admin.followUp.on', { date }, locale);
}

interface WeekFigures {
  /** Leads whose wait began in the last seven days (not held, not spam). */
  readonly leads: number;
  /** Of them, those first answered within one working day. */
  readonly withinDay: number;
  /** The median working time to a first answer of those answered, in ms; undefined when none is. */
  readonly medianMs: number | undefined;
}

type Waits = readonly { waitingSince: string; firstAnsweredAt: string | undefined }[];

/** Each answered lead's working time to its first answer, in ms. */
const answeredMs = (waits: Waits): number[] =>
  waits
    .filter((wait) => wait.firstAnsweredAt !== undefined)
    .map((wait) => workingMs(new Date(wait.waitingSince), new Date(wait.firstAnsweredAt!)));

/** The week's figures from each lead's wait (./inbox-store.ts's firstAnswers). */
export function weekFigures(waits: Waits): WeekFigures {
  const answered = answeredMs(waits);
  return {
    leads: waits.length,
    withinDay: answered.filter((ms) => ms <= WORKING_DAY_MS).length,
    medianMs: median(answered),
  };
}

export function weekLine(figures: WeekFigures, locale: Locale = defaultLocale): string {
  if (figures.leads === 0) return t('admin.week.empty', {}, locale);
  return t(
    'admin.week.line',
    {
      leads: figures.leads,
      within: figures.withinDay,
      median: figures.medianMs === undefined ? t('admin.week.noAnswer', {}, locale) : workingText(figures.medianMs, locale),
    },
    locale,
  );
}

/** Each answered lead's working time to its first answer, in seconds (the /metrics histogram). */
export const firstAnswerSeconds = (waits: Waits): number[] => answeredMs(waits).map((ms) => ms / 1000);
