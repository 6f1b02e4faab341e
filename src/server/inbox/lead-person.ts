/**
 * One person, one record: a lead's other leads from the same person (the same e-mail, case
 * aside, or the same full international telephone number, marked so: InboxStore's personMatches,
 * as the person's data page finds them), and a short preview of what a lead says for the list.
 */
import { locales, t, type LocaleCode } from '../../i18n/index.ts';
import { PHONE_FIELDS } from './lead-search.ts';
import type { InboxLead, InboxStore, PersonLookup, PersonMatch } from './inbox-store.ts';

const text = (value: unknown): string =>
  Array.isArray(value) ? value.map(String).join(', ') : typeof value === 'string' ? value.trim() : '';

/**
 * Who a lead is from, as mails and the audit log name it: the person's name and company, each
 * isolated (U+2068 … U+2069) so a name in one direction keeps its order in a line of the other;
 * joined by the list's comma of `code`'s language ("، " in Arabic). '' when the lead has neither.
 */
export function leadName(lead: Pick<InboxLead, 'form' | 'fields'>, code: LocaleCode = 'en'): string {
  const f = lead.fields;
  const name = lead.form === 'partner' ? text(f['name']) : `${text(f['firstName'])} ${text(f['lastName'])}`;
  const company = text(f[lead.form === 'partner' ? 'organization' : 'company']);
  return [name, company]
    .map((part) => part.replace(/\s+/g, ' ').trim().slice(0, 80))
    .filter(Boolean)
    .map((part) => `\u2068${part}\u2069`)
    .join(t('form.listSeparator', {}, locales[code]));
}

/** Who a lead is from, as a person is looked up: its e-mail and its first telephone number. */
export function personOfLead(lead: Pick<InboxLead, 'fields'>): PersonLookup {
  return {
    email: text(lead.fields['email']),
    phone: PHONE_FIELDS.map((field) => text(lead.fields[field])).find(Boolean) ?? '',
  };
}

/** The person's other leads, newest first, held ones included (the page marks them). */
export const otherLeads = async (inbox: Pick<InboxStore, 'personMatches'>, lead: InboxLead): Promise<PersonMatch[]> =>
  (await inbox.personMatches(personOfLead(lead))).filter((match) => match.lead.id !== lead.id).reverse();

/** The most of a lead's text the list shows. */
export const PREVIEW_MAX = 120;

/**
 * The first words of what a lead says, for the list: a contact message's message; a partner
 * application's reason for its interest, else the services it asks about, else its organisation.
 * Line breaks and runs of spaces read as one space; cut at a word near PREVIEW_MAX, with "…".
 */
export function leadPreview(lead: Pick<InboxLead, 'form' | 'fields'>): string {
  const f = lead.fields;
  const source =
    lead.form === 'contact'
      ? text(f['message'])
      : text(f['interestReason']) || text(f['servicesTypes']) || text(f['organization']);
  const flat = source.replace(/\s+/g, ' ').trim();
  if (flat.length <= PREVIEW_MAX) return flat;
  const cut = flat.slice(0, PREVIEW_MAX);
  const space = cut.lastIndexOf(' ');
  return `${(space > PREVIEW_MAX * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
