/** The mail to a lead's assignee: who the lead is from, who assigned it, their note; nothing else the visitor typed. */
import { locales, t, type LocaleCode, type UiKey } from '../../i18n';
import type { StoredSubmission } from '../store/store.ts';
import { bilingualMail, riyadhTimeIn } from './bilingual.ts';
import { headerText } from './lead-mail.ts';
import { leadName } from '../inbox/lead-person.ts';

interface AssignmentInput {
  readonly lead: Pick<StoredSubmission, 'id' | 'form' | 'receivedAt' | 'fields'>;
  readonly by: string;
  /** '' for none. */
  readonly note: string;
  readonly siteUrl: string | undefined;
}

export function composeAssignment(input: AssignmentInput): { subject: string; text: string; html: string } {
  const { lead, by, note, siteUrl } = input;
  const url = siteUrl ? new URL(`/admin/leads/${lead.id}`, siteUrl).href : undefined;
  const part = (code: LocaleCode) => {
    const locale = locales[code];
    const tr = (key: UiKey, values: Record<string, string | number> = {}) => t(key, values, locale);
    const form = tr(`mail.digest.form.${lead.form}`);
    const from = leadName(lead, code) || form;
    return {
      code,
      subject: tr('mail.assign.subject', { lead: from }),
      intro: [tr('mail.assign.intro', { by, lead: from, form, time: riyadhTimeIn(lead.receivedAt, code) })],
      after: note ? [tr('mail.assign.note', { note })] : [],
      open: url ? tr('mail.assign.open', { url }) : tr('mail.assign.noLink', { id: lead.id }),
      openLink: tr('mail.assign.openLink'),
    };
  };
  const parts = [part('en'), part('ar')];
  return { subject: headerText(`${parts[0]!.subject} · ${parts[1]!.subject}`), ...bilingualMail(parts, url) };
}
