/**
 * What staff do in the inbox, one function per page that takes posts (signing in is ./sign-in.ts).
 * Each checks the form's token again, makes each store change with its audit entry, and answers
 * where to go next (the list it came from kept) or why not (a dictionary key and a status).
 */
import type { Locale, UiKey } from '../../i18n';
import type { ReceiverConfig } from '../config.ts';
import { isUuid } from '../store/schema.ts';
import { releaseHeld } from './held-release.ts';
import { formText, formTexts, tokenMatches, type InboxDeps } from './inbox.ts';
import { replyHref } from './lead-view.ts';
import { mailAssignee, sendReply, typedText } from './reply.ts';
import { acceptedStep, newRecoveryCodes, newTotpSecret, openSecret, recoveryHash, sealSecret } from './two-step.ts';
import { MINE, filterFromQuery, filterQuery, listHref, type ListQuery } from './inbox-filter.ts';
import {
  ANSWERING,
  ANSWERING_MS,
  CUSTOMER,
  NOTE_MAX,
  isCalendarDay,
  isLeadStatus,
  type InboxLead,
  type PersonLookup,
  type LeadStatus,
  type StaffSession,
} from './inbox-store.ts';
import { FORM_LABELS, STATUS_LABELS } from './lead-columns.ts';
import { leadExport } from './lead-export.ts';
import { weekFigures, weekLine } from './timely.ts';
import { PERSON_EXPORT_ACTION, isPersonFormat, personAuditDetail, personFile } from './person-file.ts';
import { THEN_FIELD, answeringNow, leadHref, nextInList, seenGuard, staleChange, type StaleChange } from './lead-flow.ts';

type Config = Pick<ReceiverConfig, 'notifications' | 'siteUrl'>;
type Staff = Pick<StaffSession, 'email' | 'csrf'>;
type Inbox = InboxDeps['inbox'];
type Form = FormData | undefined;

type Refused = { readonly refused: UiKey; readonly status: 400 | 401 | 403 | 404 | 413 };
type ActionOutcome = { readonly redirect: string } | Refused;
type Download = { readonly download: Response };

/** The form, its token not the session's: a post another page (or site) made up. */
const OUT_OF_DATE: Refused = { refused: 'admin.refused.outOfDate', status: 403 };

const withDone = (list: string, done: Record<string, string>) =>
  new URLSearchParams([...new URLSearchParams(list), ...Object.entries(done)]).toString();

/** The lead a page's address names; a look at it (`look`: a GET) is audited. */
export async function openLead(inbox: Inbox, by: string, id: string, look: boolean): Promise<InboxLead | undefined> {
  const lead = isUuid(id) ? await inbox.lead(id) : undefined;
  if (lead && look) await inbox.audit(by, 'opened lead', id, '', new Date());
  return lead;
}

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

/** A page of the list. Showing it records nothing: a reload, a redirect or a link is not a search. */
export async function listLeads(inbox: Inbox, by: string, list: ListQuery, locale?: Locale | undefined, now = new Date()) {
  const { filter, order, page } = list;
  const { assignedTo: _mine, ...unassigned } = filter;
  const everyone = list.values.mine ? unassigned : filter;
  const { status: _status, statuses: _statuses, review: _review, orFollowUp: _followUp, ...rest } = everyone;
  const [{ leads, total }, counts, mineCounts, mine, waits] = await Promise.all([
    inbox.leads(filter, page, order),
    inbox.statusCounts(everyone),
    inbox.statusCounts({ ...everyone, assignedTo: by }),
    inbox.countLeads({ ...rest, ...MINE, assignedTo: by }),
    inbox.firstAnswers(new Date(now.getTime() - WEEK_MS)),
  ]);
  const ids = leads.map((lead) => lead.id);
  const replies = Map.groupBy(await inbox.recentReplies(ids, new Date(now.getTime() - ANSWERING_MS)), (event) => event.leadId);
  const answering = new Map<string, string>();
  for (const id of ids) {
    const other = answeringNow(replies.get(id) ?? [], by, now);
    if (other) answering.set(id, other.by);
  }
  return { leads, total, counts, mineCounts, mine, answering, week: weekLine(weekFigures(waits), locale) };
}

/** The list's search form, posted: recorded, then on to the list asked for, which records nothing. */
export async function searchLeads(inbox: Inbox, staff: Staff, form: Form, now = new Date()): Promise<ActionOutcome> {
  if (!tokenMatches(staff, form)) return OUT_OF_DATE;
  const params = new URLSearchParams();
  for (const [name, value] of form?.entries() ?? []) if (name !== 'csrf' && typeof value === 'string') params.append(name, value);
  const list = filterFromQuery(params, staff.email);
  await auditSearch(inbox, staff.email, list, now);
  return { redirect: listHref(list.values) };
}

const SEARCH_REPEAT_MS = 30 * 60 * 1000;

/** Records a search (its filter and what it found), not again when it is the last one recorded within SEARCH_REPEAT_MS. */
export async function auditSearch(inbox: Inbox, by: string, list: ListQuery, now = new Date()): Promise<void> {
  if (!list.filter.search) return;
  const filter = `(filter: ${filterQuery(list.values)})`;
  const [last] = (await inbox.auditLog({ limit: 1, actor: by, action: 'searched leads' })).entries;
  if (last?.detail.endsWith(filter) && now.getTime() - Date.parse(last.at) < SEARCH_REPEAT_MS) return;
  const { total } = await inbox.leads(list.filter, 1, list.order);
  await inbox.audit(by, 'searched leads', undefined, `${total} found ${filter}`, now);
}

/** One post of a lead's page; back to the lead in its list, or on to the next. A change from a stale page is refused (409). */
export async function leadAction(
  deps: InboxDeps,
  config: Config,
  staff: Staff,
  post: { readonly id: string; readonly form: Form; readonly list: string; readonly now?: Date },
): Promise<ActionOutcome | { readonly confirm: true } | { readonly stale: StaleChange; readonly status: 409 }> {
  if (!tokenMatches(staff, post.form)) return OUT_OF_DATE;
  const { inbox, outbox, submissions, held } = deps;
  const { id, form, list, now = new Date() } = post;
  const lead = await openLead(inbox, staff.email, id, false);
  if (!lead) return { refused: 'admin.lead.notFound', status: 404 };
  const by = staff.email;
  const no = (refused: UiKey): Refused => ({ refused, status: 400 });
  // `was`: its status before, its place in a list ordered by status; `prior`: the lead just done.
  const then = formText(form, THEN_FIELD) === 'next';
  const back = async (done: string, hash = '', was?: LeadStatus) => {
    const next = then ? await nextInList(inbox, by, list, id, was) : undefined;
    if (next) return { redirect: leadHref(next, list, { done, prior: id }) };
    return { redirect: leadHref(id, list, { done, ...(was ? { was } : {}), ...(then ? { end: '1' } : {}) }, hash) };
  };
  const audit = (what: string, detail = '') => inbox.audit(by, what, id, detail, now);
  const action = formText(form, 'action');
  if (lead.review === 'held') {
    if (action === 'release') return (await releaseHeld(deps, config, id, by, now)) ? back('released') : no('admin.held.gone');
    if (action === 'held-spam') return (await held.markSpam(id, by, now)) ? back('held-spam') : no('admin.held.gone');
    // A held lead is worked only once released (its status, notes and assignment wait till then).
    if (action !== 'delete' && action !== 'delete-confirmed') return no('admin.lead.heldFirst');
  }
  const stale = await staleChange(inbox, lead, form);
  if (stale) return { stale, status: 409 };
  // The store checks what the page saw again as it writes (a colleague's change may land between
  // the check above and the write): refused then with that change, or the lead gone meanwhile.
  const unless = seenGuard(form);
  const refusedNow = async (): Promise<Refused | { readonly stale: StaleChange; readonly status: 409 }> => {
    const late = await staleChange(inbox, lead, form);
    return late ? { stale: late, status: 409 } : { refused: 'admin.lead.notFound', status: 404 };
  };
  const setStatus = async (status: LeadStatus, done: string) => {
    if (!(await inbox.setStatus(id, status, by, now, unless))) return refusedNow();
    await audit('set status', STATUS_LABELS[status]);
    const byStatus = new URLSearchParams(list).get('sort') === 'status';
    return back(done, '', byStatus && lead.status !== status ? lead.status : undefined);
  };
  const status = formText(form, 'status');
  const reply = replyHref(lead);
  if (action === 'status' && isLeadStatus(status)) return setStatus(status, 'status');
  if (action === 'answered') return setStatus('answered', 'answered');
  if (action === 'note') {
    const note = typedText(form, 'note');
    const correctsText = formText(form, 'corrects');
    const corrects = /^\d{1,15}$/.test(correctsText) ? Number(correctsText) : undefined;
    if (!note) return no('admin.lead.noteEmpty');
    const seq = correctsText && corrects === undefined ? undefined : await inbox.addNote(id, note, by, now, corrects);
    if (seq === undefined) return no('admin.lead.noteUnknown');
    // The note's number only: its text stays with the lead (and goes when the lead is erased).
    await audit(corrects === undefined ? 'added note' : 'corrected note', `note ${seq}`);
    return back('note', '#timeline');
  }
  if (action === 'assign') {
    const to = formText(form, 'assignee');
    if (to !== '' && !(await deps.staff.list()).some((account) => account.email === to)) return no('admin.lead.assignUnknown');
    const note = typedText(form, 'assignNote').slice(0, NOTE_MAX);
    if (!(await inbox.assign(id, to || null, by, now, unless))) return refusedNow();
    await audit('assigned lead', to || 'nobody');
    const seq = note ? await inbox.addNote(id, note, by, now) : undefined;
    if (seq !== undefined) await audit('added note', `note ${seq}`);
    if (to && (lead.assignedTo !== to || note)) await mailAssignee(deps, config, lead, to, by, note, now);
    return back('assigned');
  }
  if (action === 'send-reply') {
    const sent = await sendReply(deps, config, staff, lead, form, now, unless);
    if ('refused' in sent) return sent.status === 404 ? refusedNow() : sent;
    return back('replied', '#timeline');
  }
  if (action === 'answering') {
    // The reply box opened: "X is answering" for the others, recorded once a while.
    const mine = (await inbox.timeline(id)).find((event) => event.kind === 'reply' && event.actor === by);
    const recent = mine?.detail === ANSWERING && now.getTime() - Date.parse(mine.at) < ANSWERING_MS;
    if (!recent && (await inbox.record(id, 'reply', ANSWERING, by, now))) await audit('began answer');
    return { redirect: leadHref(id, list, {}, '#reply') };
  }
  if (action === 'customer-answered') {
    await inbox.record(id, 'reply', CUSTOMER, by, now);
    await audit('customer answered');
    return back('customer', '#timeline');
  }
  if (action === 'follow-up' || action === 'follow-up-clear') {
    const day = action === 'follow-up' ? formText(form, 'followUp') : '';
    if (day !== '' && !isCalendarDay(day)) return no('admin.followUp.invalid');
    await inbox.setFollowUp(id, day || null, by, now);
    await audit(day ? 'set follow-up' : 'cleared follow-up', day);
    return back(day ? 'follow-up' : 'follow-up-cleared');
  }
  if (action === 'reply' && reply !== undefined) {
    // Recorded, then a redirect to the mailto: address, with JavaScript or without.
    await inbox.record(id, 'reply', '', by, now);
    await audit('opened reply');
    return { redirect: reply };
  }
  if (action === 'retry' && lead.notification && lead.notification.status !== 'sent') {
    await outbox.retry(id, now);
    await inbox.record(id, 'notification', 'queued', by, now);
    await audit('queued notification again');
    return back('retry');
  }
  if (action === 'delete') return { confirm: true };
  if (action === 'delete-confirmed') {
    const next = then ? await nextInList(inbox, by, list, id) : undefined;
    // The lead by its id only: the entry outlives the person's data.
    const deleted = await submissions.delete(id, unless);
    if (deleted) await audit('deleted lead', FORM_LABELS[lead.form]);
    const late = !deleted && unless ? await staleChange(inbox, lead, form) : undefined;
    if (late) return { stale: late, status: 409 };
    return { redirect: next ? leadHref(next, list, { done: 'deleted' }) : `/admin?${withDone(list, { done: 'deleted' })}` };
  }
  return no('admin.lead.notUnderstood');
}

/** A page of the list holds 50; a selection larger than a few pages is refused, not cut short. */
export const MAX_SELECTED = 200;

/** The list a selection came from (the form's `list`), only its own parameters. */
export const keptList = (form: Form, email: string): string =>
  filterQuery(filterFromQuery(new URLSearchParams(formText(form, 'list')), email).values);

/** The list's selection: a status or deletion is asked first; an id that names no lead is left out and counted. */
export async function bulkAction(
  deps: InboxDeps,
  config: Config,
  staff: Staff,
  form: Form,
  now = new Date(),
): Promise<ActionOutcome | Download | { readonly confirm: InboxLead[]; readonly missing: number; readonly status?: LeadStatus }> {
  if (!tokenMatches(staff, form)) return OUT_OF_DATE;
  const { inbox, submissions, held } = deps;
  const by = staff.email;
  const list = keptList(form, by);
  const back = (done: Record<string, string>) => ({ redirect: `/admin?${withDone(list, done)}` });
  const asked = [...new Set(formTexts(form, 'id'))];
  const action = formText(form, 'action');
  if (asked.length === 0) return back({ done: 'none-selected' });
  if (asked.length > MAX_SELECTED) return { refused: 'admin.bulk.tooMany', status: 413 };
  const ids = asked.filter((id) => isUuid(id));
  // Held leads: each released or marked by its id; the store audits each one and refuses an id
  // that is not held (so nothing is mailed twice).
  if (action === 'release' || action === 'held-spam') {
    let worked = 0;
    for (const id of ids)
      if (await (action === 'release' ? releaseHeld(deps, config, id, by, now) : held.markSpam(id, by, now))) worked++;
    const done = action === 'release' ? 'released' : 'held-spam';
    return back({ done, n: String(worked), missing: String(asked.length - worked) });
  }
  const leads: InboxLead[] = [];
  if (ids.length > 0) for await (const lead of inbox.exportLeads({ ids })) leads.push(lead);
  const missing = asked.length - leads.length;
  const status = action === 'spam' ? 'spam' : formText(form, 'status');
  if ((action === 'status' || action === 'status-confirmed') && !isLeadStatus(status))
    return { refused: 'admin.bulk.chooseStatus', status: 400 };
  if ((action === 'status' || action === 'export' || action === 'delete') && leads.length === 0)
    return back({ done: 'none-found', missing: String(missing) });
  if (action === 'status' && isLeadStatus(status)) return { confirm: leads, missing, status };
  if ((action === 'status-confirmed' || action === 'spam') && isLeadStatus(status)) {
    for (const lead of leads)
      if (await inbox.setStatus(lead.id, status, by, now))
        await inbox.audit(by, 'set status', lead.id, STATUS_LABELS[status], now);
    return back({ done: 'status', set: status, n: String(leads.length), missing: String(missing) });
  }
  if (action === 'export')
    return { download: await leadExport(inbox, by, { ids: leads.map((lead) => lead.id) }, `${leads.length} selected`, now) };
  if (action === 'delete') return { confirm: leads, missing };
  if (action === 'delete-confirmed') {
    let deleted = 0;
    for (const lead of leads) {
      // Each lead by its id only: the entry outlives the person's data.
      if (await submissions.delete(lead.id)) {
        deleted += 1;
        await inbox.audit(by, 'deleted lead', lead.id, FORM_LABELS[lead.form], now);
      }
    }
    return back({ done: 'deleted', n: String(deleted), missing: String(asked.length - deleted) });
  }
  return { refused: 'admin.bulk.choose', status: 400 };
}

/** Setting up two-step: a new secret sealed in the session, then its first code enrols the account with recovery codes. */
export async function twoStepSetUp(
  deps: Pick<InboxDeps, 'inbox' | 'staff'>,
  key: Buffer,
  session: Pick<StaffSession, 'email' | 'csrf' | 'pendingTotp'>,
  token: string,
  form: Form,
  now = new Date(),
): Promise<{ readonly recoveryCodes?: string[]; readonly secret?: string; readonly refused?: Refused }> {
  const { email } = session;
  const pending = session.pendingTotp ? openSecret(key, email, session.pendingTotp) : undefined;
  const shown = (secret: string | undefined, refused?: Refused) => ({
    ...(secret ? { secret } : {}),
    ...(refused ? { refused } : {}),
  });
  if (!form) return shown(pending);
  if (!tokenMatches(session, form)) return shown(pending, OUT_OF_DATE);
  const start = async () => {
    const secret = newTotpSecret();
    await deps.inbox.setPendingTotp(token, sealSecret(key, email, secret));
    return secret;
  };
  if (formText(form, 'action') === 'start') return shown(await start());
  if (!pending) return shown(await start(), { refused: 'admin.twoStep.expired', status: 401 });
  const step = acceptedStep(pending, email, formText(form, 'code'), now, undefined);
  if (step === undefined) return shown(pending, { refused: 'admin.twoStep.wrongCode', status: 401 });
  const recoveryCodes = newRecoveryCodes();
  const hashes = await Promise.all(recoveryCodes.map((code) => recoveryHash(email, code)));
  await deps.staff.enrolTwoStep(email, sealSecret(key, email, pending), step, hashes, now, token);
  await deps.inbox.setPendingTotp(token, null);
  await deps.inbox.audit(email, 'two-step sign-in set up', undefined, `${recoveryCodes.length} recovery codes`, now);
  return { recoveryCodes };
}

export function personLookup(form: Form): PersonLookup {
  return { email: formText(form, 'email'), phone: formText(form, 'phone'), ticked: formTexts(form, 'lead') };
}

/** The "Person's data" form, posted: the file as a download; nothing found is said, not handed over as an empty file. */
export async function exportPerson(inbox: Inbox, staff: Staff, form: Form, now = new Date()): Promise<Download | Refused> {
  if (!tokenMatches(staff, form)) return OUT_OF_DATE;
  const lookup = personLookup(form);
  if (!lookup.email && !lookup.phone) return { refused: 'admin.person.missing', status: 400 };
  const asked = formText(form, 'format');
  const format = isPersonFormat(asked) ? asked : 'html';
  const data = await inbox.personData(lookup);
  if (data.leads.length === 0) return { refused: 'admin.person.none', status: 404 };
  await inbox.audit(staff.email, PERSON_EXPORT_ACTION, undefined, personAuditDetail(data, format), now);
  const { text, type, name } = personFile(data, format, now);
  const headers = {
    'Content-Type': type,
    'Content-Disposition': `attachment; filename="${name}"`,
    'X-Content-Type-Options': 'nosniff',
  };
  return { download: new Response(text, { headers }) };
}
