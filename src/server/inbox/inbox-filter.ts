/**
 * The inbox's list as it travels in the address, read leniently (an unknown value is no filter) and
 * written back for links, the export and a lead page's "Previous" and "Next". `mine=1` stands for
 * the session's e-mail, which the caller gives, so an address never names another's leads.
 */
import { isFormName } from '../store/store.ts';
import {
  DEFAULT_ORDER,
  isLeadSort,
  isLeadStatus,
  riyadhDayStart,
  type LeadFilter,
  type LeadOrder,
  type LeadStatus,
} from './inbox-store.ts';
import { isLanguage } from '../receiver/receiver.ts';

export interface FilterValues {
  /** The tab: '' (needs work), 'all', 'held', or one status. */
  readonly status: string;
  /** '1': only the leads assigned to the signed-in staff member ("Mine"). */
  readonly mine: string;
  readonly form: string;
  readonly language: string;
  /** The assignee: '' anyone, 'nobody', or an e-mail. */
  readonly assigned: string;
  readonly from: string;
  readonly to: string;
  readonly q: string;
  /** '' (received), 'name', 'form', 'status'. */
  readonly sort: string;
  /** 'asc' or 'desc'; '' is the sort's own default (received: newest first; the others: A to Z). */
  readonly dir: string;
}

export const NEEDS_WORK: readonly LeadStatus[] = ['new', 'in_progress'];
/** The Mine tab: those not done (answered may wait for the customer), and those with a follow-up date, closed too. */
export const MINE: Pick<LeadFilter, 'statuses' | 'orFollowUp'> = { statuses: [...NEEDS_WORK, 'answered'], orFollowUp: true };

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ListQuery {
  readonly filter: LeadFilter;
  readonly order: LeadOrder;
  readonly values: FilterValues;
  readonly page: number;
  /** "From" is after "To": no lead can match, and the page says so. */
  readonly reversed: boolean;
}

/** The list's query read from an address. */
export function filterFromQuery(params: URLSearchParams, me: string): ListQuery {
  const get = (name: string) => (params.get(name) ?? '').trim().slice(0, 200);
  const form = get('form');
  const status = get('status');
  const language = get('language');
  const since = riyadhDayStart(get('from'));
  const toDay = riyadhDayStart(get('to'));
  const q = get('q');
  const assigned = get('assigned');
  const held = status === 'held';
  // Held leads are nobody's yet: "Mine" does not apply to them.
  const mine = get('mine') === '1' && Boolean(me) && !held;
  // The filters' "Order" choice (`order=name:desc`) when the form sent one, else the column links' sort and dir.
  const [orderSort = '', orderDir = ''] = get('order').split(':');
  const sort = params.has('order') ? orderSort : get('sort');
  const dir = params.has('order') ? orderDir : get('dir');
  const values: FilterValues = {
    status: isLeadStatus(status) || status === 'all' || held ? status : '',
    mine: mine ? '1' : '',
    form: isFormName(form) ? form : '',
    language: isLanguage(language) ? language : '',
    assigned: !mine && (assigned === 'nobody' || /^[^\s@]+@[^\s@]+$/.test(assigned)) ? assigned : '',
    from: since ? get('from') : '',
    to: toDay ? get('to') : '',
    q,
    sort: isLeadSort(sort) && sort !== 'received' ? sort : '',
    dir: dir === 'asc' || dir === 'desc' ? dir : '',
  };
  const until = toDay ? new Date(toDay.getTime() + DAY_MS) : undefined;
  const filter: LeadFilter = {
    ...(isFormName(form) ? { form } : {}),
    ...(isLeadStatus(status)
      ? { status }
      : status === 'all'
        ? {}
        : held
          ? { review: 'held' as const }
          : mine
            ? MINE
            : { statuses: NEEDS_WORK }),
    ...(mine ? { assignedTo: me } : values.assigned ? { assignedTo: values.assigned === 'nobody' ? null : values.assigned } : {}),
    ...(isLanguage(language) ? { language } : {}),
    ...(since ? { since } : {}),
    // "To" a day includes that whole day in Riyadh.
    ...(until ? { until } : {}),
    ...(q ? { search: q } : {}),
  };
  const by = isLeadSort(sort) ? sort : DEFAULT_ORDER.by;
  const order: LeadOrder = {
    by,
    direction: values.dir === 'asc' || values.dir === 'desc' ? values.dir : by === 'received' ? 'desc' : 'asc',
  };
  const page = Math.min(100_000, Math.max(1, Math.trunc(Number(params.get('page')) || 1)));
  return { filter, order, values, page, reversed: Boolean(since && toDay && since.getTime() > toDay.getTime()) };
}

export function filterQuery(values: Partial<FilterValues>, page = 1): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) params.set(name, value);
  if (page > 1) params.set('page', String(page));
  return params.toString();
}

/** The list's address with these values (and page 1): the tabs', the sort links'. */
export const listHref = (values: Partial<FilterValues>, page = 1): string => {
  const query = filterQuery(values, page);
  return query ? `/admin?${query}` : '/admin';
};
