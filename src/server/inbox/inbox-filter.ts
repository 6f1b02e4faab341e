/**
 * The inbox's list as it travels in the address
 * (?status=&form=&language=&from=&to=&q=&sort=&dir=&page=; the filter form's `order` is read as
 * sort and dir): read leniently (an unknown value is
 * no filter), written back for links, the export and a lead page's "Previous" and "Next".
 *
 * `status` is the tab: none means what needs work (New and In progress); `all` every status;
 * `held` the leads the bot check held for review (not yet in the inbox); otherwise one status.
 * `mine=1` keeps the leads assigned to the signed-in staff member: the "Mine" tab is what needs
 * work and is assigned to me (the other tabs are everyone's); the caller gives the session's
 * e-mail, so an address never names another's leads.
 */
import { isFormName } from '../store/store.ts';
import {
  DEFAULT_ORDER,
  isLeadSort,
  isLeadStatus,
  LEAD_STATUSES,
  riyadhDayStart,
  type LeadFilter,
  type LeadOrder,
  type LeadStatus,
} from './inbox-store.ts';
import { isLanguage } from '../receiver/receiver.ts';
import { adminLabels, adminText } from './admin-locale.ts';
import type { Locale } from '../../i18n';

export interface FilterValues {
  /** The tab: '' (needs work), 'all', 'held', or one status. */
  readonly status: string;
  /** '1': only the leads assigned to the signed-in staff member ("Mine"). */
  readonly mine: string;
  readonly form: string;
  /** The language the leads were sent in (a locale code). */
  readonly language: string;
  readonly from: string;
  readonly to: string;
  readonly q: string;
  /** The order: '' (received), 'name', 'form', 'status'... */
  readonly sort: string;
  /** 'asc' or 'desc'; '' is the sort's own default (received: newest first; the others: A to Z). */
  readonly dir: string;
}

/** What the default tab shows: the leads that need work. */
export const NEEDS_WORK: readonly LeadStatus[] = ['new', 'in_progress'];

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ListQuery {
  readonly filter: LeadFilter;
  readonly order: LeadOrder;
  readonly values: FilterValues;
  readonly page: number;
  /** "From" is after "To": no lead can match, and the page says so. */
  readonly reversed: boolean;
}

/** The list's query read from an address; `me` is the session's e-mail, which `mine=1` stands for. */
export function filterFromQuery(params: URLSearchParams, me: string): ListQuery {
  const get = (name: string) => (params.get(name) ?? '').trim().slice(0, 200);
  const form = get('form');
  const status = get('status');
  const language = get('language');
  const since = riyadhDayStart(get('from'));
  const toDay = riyadhDayStart(get('to'));
  const q = get('q');
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
          : { statuses: NEEDS_WORK }),
    ...(mine ? { assignedTo: me } : {}),
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

/** A tab of the list: the status it shows, whether it is "Mine", and how many leads it holds. */
export interface ListTab {
  readonly status: string;
  readonly mine: string;
  readonly label: string;
  readonly count: number;
}

/**
 * The list's tabs, the other filters kept and the status changed, with their counts (everyone's;
 * "Mine" counts mine). "Mine" is what needs work and is assigned to me (the staff's own to-do
 * list); the other tabs are everyone's, so choosing one leaves Mine. Also the label of the tab
 * shown.
 */
export function listTabs(
  values: FilterValues,
  counts: Record<LeadStatus | 'held', number>,
  mineCounts: Record<LeadStatus | 'held', number>,
  locale: Locale | undefined,
): { tabs: ListTab[]; current: string } {
  const tr = adminText(locale);
  const labels = adminLabels(locale);
  const sum = (of: Record<LeadStatus | 'held', number>, statuses: readonly LeadStatus[]) =>
    statuses.reduce((total, status) => total + of[status], 0);
  const tabs: ListTab[] = [
    { status: '', mine: '', label: tr('admin.list.needsWork'), count: sum(counts, NEEDS_WORK) },
    { status: '', mine: '1', label: tr('admin.list.mine'), count: sum(mineCounts, NEEDS_WORK) },
    { status: 'answered', mine: '', label: labels.status('answered'), count: counts.answered },
    { status: 'closed', mine: '', label: labels.status('closed'), count: counts.closed },
    { status: 'spam', mine: '', label: labels.status('spam'), count: counts.spam },
    { status: 'held', mine: '', label: tr('admin.held.title'), count: counts.held },
    { status: 'all', mine: '', label: tr('admin.list.all'), count: sum(counts, LEAD_STATUSES) },
  ];
  const { status, mine } = values;
  // A status that is not a tab (New alone, In progress alone) shows as its own tab while chosen.
  if (status === 'new' || status === 'in_progress')
    tabs.splice(2, 0, {
      status,
      mine: '',
      label: tr('admin.list.only', { status: labels.status(status) }),
      count: counts[status],
    });
  // Mine with another status (an address typed or kept): that status's tab, counting mine.
  if (mine && status)
    tabs.splice(2, 0, {
      status,
      mine: '1',
      label: tr('admin.list.mineTab', { tab: tabs.find((tab) => tab.status === status)?.label ?? status }),
      count: status === 'all' ? sum(mineCounts, LEAD_STATUSES) : (mineCounts[status as LeadStatus | 'held'] ?? 0),
    });
  const current = tabs.find((tab) => tab.status === status && tab.mine === mine)?.label ?? tr('admin.list.needsWork');
  return { tabs, current };
}
