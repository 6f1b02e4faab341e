/**
 * The inbox's filter as it travels in the address (?form=&status=&language=&from=&to=&q=&page=):
 * read leniently (an unknown value is no filter), written back for links and the export.
 */
import { isFormName } from '../store/store.ts';
import { isLeadStatus, riyadhDayStart, type LeadFilter } from './inbox-store.ts';
import { isLanguage } from '../receiver/receiver.ts';

export interface FilterValues {
  readonly form: string;
  readonly status: string;
  /** The language the leads were sent in (a locale code). */
  readonly language: string;
  readonly from: string;
  readonly to: string;
  readonly q: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function filterFromQuery(params: URLSearchParams): { filter: LeadFilter; values: FilterValues; page: number } {
  const get = (name: string) => (params.get(name) ?? '').trim().slice(0, 200);
  const form = get('form');
  const status = get('status');
  const language = get('language');
  const since = riyadhDayStart(get('from'));
  const toDay = riyadhDayStart(get('to'));
  const q = get('q');
  const values: FilterValues = {
    form: isFormName(form) ? form : '',
    status: isLeadStatus(status) ? status : '',
    language: isLanguage(language) ? language : '',
    from: since ? get('from') : '',
    to: toDay ? get('to') : '',
    q,
  };
  const filter: LeadFilter = {
    ...(isFormName(form) ? { form } : {}),
    ...(isLeadStatus(status) ? { status } : {}),
    ...(isLanguage(language) ? { language } : {}),
    ...(since ? { since } : {}),
    // "To" a day includes that whole day in Riyadh.
    ...(toDay ? { until: new Date(toDay.getTime() + DAY_MS) } : {}),
    ...(q ? { search: q } : {}),
  };
  const page = Math.min(100_000, Math.max(1, Math.trunc(Number(params.get('page')) || 1)));
  return { filter, values, page };
}

export function filterQuery(values: FilterValues, page: number): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) params.set(name, value);
  if (page > 1) params.set('page', String(page));
  return params.toString();
}
