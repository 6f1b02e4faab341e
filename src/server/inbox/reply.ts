/**
 * Answering a lead from its page: through the outbox to the sender, Reply-To the shared leads
 * mailbox (LEADS_REPLY_TO) with a copy to it, threaded with the lead's notification (In-Reply-To its
 * Message-ID). The audit entry names the lead by its id; the text stays with the lead (and goes when
 * it is erased). Also the mail to a lead's assignee and the reply templates.
 */
import { locales, type LocaleCode, type UiKey } from '../../i18n';
import type { ReceiverConfig } from '../config.ts';
import {
  REPLY_MAX,
  REPLY_SUBJECT_MAX,
  composeReply,
  defaultReplySubject as defaultSubject,
  senderAddress,
} from '../mail/acknowledgement.ts';
import { composeAssignment } from '../mail/assignment-mail.ts';
import { messageIdFor } from '../mail/outbox.ts';
import type { TemplateText } from '../store/template-queries.ts';
import type { SeenGuard } from '../store/store.ts';
import { formText, tokenMatches, type InboxDeps } from './inbox.ts';
import type { InboxLead, StaffSession } from './inbox-store.ts';
import { STATUS_LABELS } from './lead-columns.ts';
import { answerIn } from './lead-columns.ts';
import { leadSummary } from './lead-view.ts';

type Config = Pick<ReceiverConfig, 'notifications' | 'siteUrl'>;
type Staff = Pick<StaffSession, 'email' | 'csrf'>;
type Refusal = { readonly refused: UiKey; readonly status: 400 | 403 | 404 };

export function replyBlocked(
  lead: Pick<InboxLead, 'review' | 'status' | 'fields'>,
  config: Pick<ReceiverConfig, 'notifications'>,
): UiKey | undefined {
  if (!config.notifications) return 'admin.reply.offline';
  if (lead.review === 'held') return 'admin.lead.heldFirst';
  if (lead.review === 'spam' || lead.status === 'spam') return 'admin.reply.spam';
  if (!senderAddress(lead)) return 'admin.reply.noEmail';
  return undefined;
}

/** A text as staff typed it in a text area: line ends as \n, no white space around it. */
export const typedText = (form: FormData | undefined, name: string): string => {
  const raw = form?.get(name);
  return typeof raw === 'string' ? raw.replace(/\r\n?/g, '\n').trim() : '';
};

/** The answer, posted: `unless` (what the page saw) is checked again as it is queued, so of two sends at once only one goes. */
export async function sendReply(
  deps: Pick<InboxDeps, 'inbox' | 'outbox'>,
  config: Config,
  staff: Staff,
  lead: InboxLead,
  form: FormData | undefined,
  now: Date,
  unless?: SeenGuard,
): Promise<Refusal | { readonly sent: string }> {
  if (!tokenMatches(staff, form)) return { refused: 'admin.refused.outOfDate', status: 403 };
  const blocked = replyBlocked(lead, config);
  if (blocked) return { refused: blocked, status: 400 };
  const subject = formText(form, 'subject');
  const body = typedText(form, 'body');
  if (!body) return { refused: 'admin.reply.empty', status: 400 };
  if ([...body].length > REPLY_MAX) return { refused: 'admin.reply.tooLong', status: 400 };
  if ([...subject].length > REPLY_SUBJECT_MAX) return { refused: 'admin.reply.subjectTooLong', status: 400 };
  const mail = composeReply(lead, subject || defaultSubject(lead), body);
  const { from, replyTo = [] } = config.notifications!;
  const id = await deps.outbox.queue(
    {
      kind: 'reply',
      leadId: lead.id,
      recipients: [senderAddress(lead)!],
      ...mail,
      // The customer's answer reaches the shared mailbox every colleague reads (a copy of this one too).
      replyTo: replyTo.length > 0 ? replyTo.join(', ') : staff.email,
      inReplyTo: messageIdFor(lead.id, from),
      actor: staff.email,
      unless,
    },
    now,
  );
  // Gone meanwhile, or answered since the page was made (the caller tells which).
  if (id === undefined) return { refused: 'admin.lead.notFound', status: 404 };
  await deps.inbox.audit(staff.email, 'sent reply', lead.id, '', now);
  // The same store call as "Mark answered": a lead's first answer is recorded however it came.
  if (lead.status !== 'answered' && (await deps.inbox.setStatus(lead.id, 'answered', staff.email, now)))
    await deps.inbox.audit(staff.email, 'set status', lead.id, STATUS_LABELS.answered, now);
  return { sent: id };
}

/** The assignee's mail (with the note, if any), when mail is on and someone other than the assignee assigned it. */
export async function mailAssignee(
  deps: Pick<InboxDeps, 'outbox'>,
  config: Config,
  lead: InboxLead,
  to: string,
  by: string,
  note: string,
  now: Date,
): Promise<boolean> {
  if (!config.notifications || to === by) return false;
  const mail = composeAssignment({ lead, by, note, siteUrl: config.siteUrl });
  return (
    (await deps.outbox.queue({ kind: 'assignment', leadId: lead.id, recipients: [to], ...mail, actor: by }, now)) !== undefined
  );
}

/** The longest template name and text kept. */
export const TEMPLATE_NAME_MAX = 100;

/** A template's text for a lead: {name} and {company} its sender's, {service} what a partner application asks about. */
export function templateForLead(text: string, lead: Pick<InboxLead, 'form' | 'fields'>, language: LocaleCode): string {
  const locale = locales[language];
  const who = leadSummary(lead, locale);
  const service = lead.form === 'partner' ? answerIn(lead.form, 'servicesTypes', lead.fields['servicesTypes'], locale) : '';
  const values: Record<string, string> = { '{name}': who.name, '{company}': who.organization, '{service}': service };
  return text.replace(/\{(?:name|company|service)\}/g, (found) => values[found] ?? found);
}

function templateFromForm(form: FormData | undefined): TemplateText | Refusal {
  const text = { name: formText(form, 'name'), bodyEn: typedText(form, 'bodyEn'), bodyAr: typedText(form, 'bodyAr') };
  if (!text.name || !text.bodyEn || !text.bodyAr) return { refused: 'admin.templates.missing', status: 400 };
  if ([...text.name].length > TEMPLATE_NAME_MAX || [...text.bodyEn].length > REPLY_MAX || [...text.bodyAr].length > REPLY_MAX)
    return { refused: 'admin.templates.tooLong', status: 400 };
  return text;
}

/** A post of /admin/templates (`action`: add, save, delete), audited by the template's id. */
export async function templateAction(
  deps: Pick<InboxDeps, 'inbox' | 'templates'>,
  staff: Staff,
  form: FormData | undefined,
  now = new Date(),
): Promise<Refusal | { readonly redirect: string }> {
  if (!tokenMatches(staff, form)) return { refused: 'admin.refused.outOfDate', status: 403 };
  const action = formText(form, 'action');
  const id = formText(form, 'id');
  const done = (what: string) => ({ redirect: `/admin/templates?done=${what}` });
  const audit = (what: string, templateId: string) =>
    deps.inbox.audit(staff.email, what, undefined, `template ${templateId}`, now);
  if (action === 'delete') {
    if (!(await deps.templates.remove(id))) return { refused: 'admin.templates.notFound', status: 404 };
    await audit('deleted template', id);
    return done('deleted');
  }
  if (action !== 'add' && action !== 'save') return { refused: 'admin.lead.notUnderstood', status: 400 };
  const text = templateFromForm(form);
  if ('refused' in text) return text;
  if (action === 'add') {
    await audit('added template', await deps.templates.add(text, staff.email, now));
    return done('added');
  }
  if (!(await deps.templates.update(id, text, staff.email, now))) return { refused: 'admin.templates.notFound', status: 404 };
  await audit('changed template', id);
  return done('saved');
}
