/**
 * The e-mail staff get for each lead, composed when it arrives and stored with it: every answered
 * field with its label, in the lead's language; the subject stays English for staff's mail rules.
 * Each visitor value keeps its own direction (dir="auto" in HTML, U+2068 … U+2069 in text), so an
 * Arabic answer in an English mail does not pull the label's colon to the wrong side. Visitor text
 * never becomes markup, a link or a header.
 */
import { CONTACT_FIELDS, contactLabelKey } from '../../forms/contact';
import { PARTNER_FIELD_ORDER, partnerLabelKey } from '../../forms/partner';
import { defaultLocale, locales, t, tParts, type Locale } from '../../i18n';
import type { LeadNotice, StoredSubmission } from '../store/store.ts';
import { escapeHtml } from './escape.ts';
import { riyadhTimeIn } from './bilingual.ts';
import { answerIn } from '../inbox/lead-columns.ts';
import { leadSummary } from '../inbox/lead-view.ts';

const RIYADH = new Intl.DateTimeFormat('en-GB', { timeZone: 'Asia/Riyadh', dateStyle: 'full', timeStyle: 'short' });

/** Text as one header-safe line: no line break or control character, runs of white space as one space. */
export function headerText(text: string, max = 200): string {
  const line = text
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const FSI = '\u2068';
const PDI = '\u2069';

/** Every answered field with its label, in the form's order, in the lead's language. */
function answeredFields(lead: StoredSubmission, locale: Locale): { label: string; text: string }[] {
  const labelled =
    lead.form === 'contact'
      ? CONTACT_FIELDS.map((field) => ({ field, label: t(contactLabelKey(field), {}, locale) }))
      : PARTNER_FIELD_ORDER.map((field) => ({ field, label: t(partnerLabelKey(field), {}, locale) }));
  return labelled
    .map(({ field, label }) => ({ label, text: answerIn(lead.form, field, lead.fields[field], locale) }))
    .filter((entry) => entry.text !== '');
}

/** The English subject: right-to-left text isolated, so it keeps its order and the comma its place. */
function subjectOf(lead: StoredSubmission): string {
  const own = (value: string) =>
    /[\u0590-\u08FF]/u.test(value) ? `${FSI}${headerText(value, 80)}${PDI}` : headerText(value, 80);
  const { name, organization, country } = leadSummary(lead);
  if (lead.form === 'partner')
    return headerText(t('mail.subject.partner', { organization: own(organization), country: own(country) }));
  const company = own(organization);
  return headerText(t(company ? 'mail.subject.contactCompany' : 'mail.subject.contact', { name: own(name), company }));
}

interface NoticeOptions {
  /** The lead's page, built on SITE_URL, never on the request's Host; without it, no link. */
  readonly inboxUrl?: string;
}

/** Each line of a value isolated on its own (an isolate ends with its line). */
const isolated = (text: string) =>
  text
    .split('\n')
    .map((line) => (line ? `${FSI}${line}${PDI}` : line))
    .join('\n');

export function composeLeadNotice(lead: StoredSubmission, options: NoticeOptions = {}): LeadNotice {
  // The subject stays in English whatever the lead's language: staff's mail rules and threads read it.
  const subject = subjectOf(lead);
  const locale = locales[lead.language];
  const say = (key: Parameters<typeof t>[0], values: Record<string, string | number> = {}) => t(key, values, locale);
  const { lang, dir } = locale;
  const time =
    lead.language === defaultLocale.code
      ? RIYADH.format(new Date(lead.receivedAt))
      : riyadhTimeIn(lead.receivedAt, lead.language, 'full');
  const received = say('mail.received', { time });
  const sentIn = say('mail.language', { language: say(`mail.language.${lead.language}`) });
  const id = say('mail.lead', { id: lead.id });
  const inbox = options.inboxUrl ? say('mail.inbox', { url: options.inboxUrl }) : '';
  const fields = answeredFields(lead, locale);
  const { email, name: sender } = leadSummary(lead);
  const name = headerText(sender, 80);
  const reply = email ? say('mail.reply', { name: `${FSI}${name}${PDI}`, email: `${FSI}${email}${PDI}` }) : '';

  const text = [
    subject,
    received,
    sentIn,
    id,
    '',
    ...fields.map(({ label, text }) => (text.includes('\n') ? `${label}:\n${isolated(text)}\n` : `${label}: ${isolated(text)}`)),
    '',
    reply,
    inbox,
  ]
    .join('\n')
    .trim();

  // What Gmail, Outlook (its Word engine) and Apple Mail all read: the direction as dir attributes
  // (never a stylesheet), physical alignment and padding inline (Outlook reads no "start"), a table
  // for label and value, line breaks as <br> (Outlook ignores white-space), no <bdi>.
  const align = dir === 'rtl' ? 'right' : 'left';
  const gap = dir === 'rtl' ? '4px 0 4px 12px' : '4px 12px 4px 0';
  const lines = (value: string) => escapeHtml(value).replaceAll('\n', '<br>');
  const rows = fields
    .map(
      ({ label, text }) =>
        `<tr><th scope="row" align="${align}" valign="top" style="text-align:${align};vertical-align:top;padding:${gap}">${escapeHtml(label)}</th><td dir="auto" align="${align}" valign="top" style="text-align:${align};vertical-align:top;padding:4px 0">${lines(text)}</td></tr>`,
    )
    .join('\n');
  const replyHtml = email
    ? tParts('mail.reply', locale)
        .map((part) =>
          typeof part === 'string'
            ? escapeHtml(part)
            : `<span dir="auto">${escapeHtml(part.slot === 'name' ? name : email)}</span>`,
        )
        .join('')
    : '';
  const html = [
    `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"></head><body dir="${dir}" style="font-family:sans-serif;text-align:${align}">`,
    `<h1 dir="auto" style="font-size:18px">${escapeHtml(subject)}</h1>`,
    `<p>${escapeHtml(received)}<br>${escapeHtml(sentIn)}<br>${escapeHtml(id)}</p>`,
    `<table dir="${dir}" role="presentation" cellpadding="0" cellspacing="0" border="0">\n${rows}\n</table>`,
    replyHtml ? `<p>${replyHtml}</p>` : '',
    options.inboxUrl ? `<p><a href="${escapeHtml(options.inboxUrl)}">${escapeHtml(say('mail.inboxLink'))}</a></p>` : '',
    '</body></html>',
  ].join('\n');

  return { subject, text, html, replyTo: email || undefined };
}
