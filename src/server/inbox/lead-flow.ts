/**
 * Working a list lead after lead, without overwriting a colleague's change. A lead that has just left
 * the list (answered from "Needs work") keeps its former place (`was`), so "Next" still opens the
 * lead that followed it. Each form of a lead page carries `seen`, the newest timeline entry's number
 * when the page was made: a change it would undo made since is refused with those changes and the
 * choice to apply it anyway. The store checks `seen` again in the change's own transaction, so two
 * posts at the same moment cannot both pass; so never two answers go.
 */
import { isUuid } from '../store/schema.ts';
import type { SeenGuard } from '../store/store.ts';
import { formText } from './inbox.ts';
import { filterFromQuery } from './inbox-filter.ts';
import {
  ANSWERING,
  ANSWERING_MS,
  isLeadStatus,
  type InboxLead,
  type InboxStore,
  type LeadEvent,
  type LeadEventKind,
  type LeadStatus,
  type LeadWalk,
} from './inbox-store.ts';

export const SEEN_FIELD = 'seen';
/** The button's field that asks for the next lead of the list once the action is done. */
export const THEN_FIELD = 'then';

/** The newest timeline entry's number (0 for none). */
export const seenOf = (timeline: readonly Pick<LeadEvent, 'seq'>[]): number =>
  timeline.reduce((newest, event) => Math.max(newest, event.seq), 0);

/** A lead page's place in the list it came from (its address's query), and its neighbours. */
export async function leadWalk(
  inbox: Pick<InboxStore, 'neighbours'>,
  me: string,
  params: URLSearchParams,
  id: string,
): Promise<LeadWalk | undefined> {
  const { filter, order } = filterFromQuery(params, me);
  const was = params.get('was');
  return inbox.neighbours(filter, order, id, { status: isLeadStatus(was) ? was : undefined });
}

/** The next lead of the list (`list`: its query) after `id`, which may have just left it (`was`: its status before). */
export async function nextInList(
  inbox: Pick<InboxStore, 'neighbours'>,
  me: string,
  list: string,
  id: string,
  was?: LeadStatus,
): Promise<string | undefined> {
  const params = new URLSearchParams(list);
  if (was) params.set('was', was);
  return (await leadWalk(inbox, me, params, id))?.next;
}

export interface StaleChange {
  /** Newest first. */
  readonly changes: readonly LeadEvent[];
  /** What was posted (its token and `seen` aside), to post again when staff choose to apply it anyway. */
  readonly posted: readonly (readonly [string, string])[];
  /** The `seen` of "Apply my change anyway". */
  readonly seen: number;
}

/** The kinds of change each action would undo. */
const UNDOES: Partial<Record<string, readonly LeadEventKind[]>> = {
  status: ['status'],
  answered: ['status'],
  assign: ['assigned'],
  delete: ['status', 'assigned', 'note'],
  'delete-confirmed': ['status', 'assigned', 'note'],
  // An answer sent, or begun in a mail program, since the page was made: never two answers.
  'send-reply': ['reply'],
};

/** Setting what is already set undoes nothing. */
function changesLead(lead: InboxLead, action: string, form: FormData | undefined): boolean {
  if (action === 'status') return formText(form, 'status') !== lead.status;
  if (action === 'answered') return lead.status !== 'answered';
  if (action === 'assign') return formText(form, 'assignee') !== (lead.assignedTo ?? '');
  return true;
}

/** What a lead page's post saw, for the store to check in the change's own transaction. */
export function seenGuard(form: FormData | undefined): SeenGuard | undefined {
  const kinds = UNDOES[formText(form, 'action')];
  const seenText = formText(form, SEEN_FIELD);
  return kinds && /^\d{1,15}$/.test(seenText) ? { seen: Number(seenText), kinds } : undefined;
}

/** The changes a post from a stale page would undo, or undefined when there are none. */
export async function staleChange(
  inbox: Pick<InboxStore, 'timeline'>,
  lead: InboxLead,
  form: FormData | undefined,
): Promise<StaleChange | undefined> {
  const guard = seenGuard(form);
  if (!guard || !changesLead(lead, formText(form, 'action'), form)) return undefined;
  const { seen, kinds } = guard;
  const timeline = await inbox.timeline(lead.id);
  // An answer begun in the inbox is a sign for the others, not a change to refuse.
  const changes = timeline.filter(
    (event) => event.seq > seen && kinds.includes(event.kind) && !(event.kind === 'reply' && event.detail === ANSWERING),
  );
  if (changes.length === 0) return undefined;
  const posted: [string, string][] = [];
  for (const [name, value] of form?.entries() ?? [])
    if (name !== 'csrf' && name !== SEEN_FIELD && typeof value === 'string') posted.push([name, value]);
  return { changes, posted, seen: seenOf(timeline) };
}

/** A lead page's address in the list `list` (a query), with what the page says. */
export function leadHref(id: string, list: string, say: Record<string, string> = {}, hash = ''): string {
  const params = new URLSearchParams([...new URLSearchParams(list), ...Object.entries(say)]);
  const query = params.toString();
  return `/admin/leads/${isUuid(id) ? id : ''}${query ? `?${query}` : ''}${hash}`;
}

/** Who else began an answer to the lead less than ANSWERING_MS ago (`replies`: its `reply` entries, newest first). */
export function answeringNow(
  replies: readonly LeadEvent[],
  me: string,
  now: Date,
): { readonly by: string; readonly at: string } | undefined {
  const newest = replies.find((event) => event.kind === 'reply');
  if (!newest?.actor || newest.actor === me || (newest.detail !== ANSWERING && newest.detail !== '')) return undefined;
  return now.getTime() - Date.parse(newest.at) < ANSWERING_MS ? { by: newest.actor, at: newest.at } : undefined;
}
