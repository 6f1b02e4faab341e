/**
 * The e-mail staff get for each lead, composed when the lead arrives and stored with it (the
 * outbox, src/server/store/sqlite/sqlite-store.ts): a subject naming the form and the visitor, every answered
 * field with its label in the form's order (the forms' field tables), the time received in Riyadh
 * (for a lead sent in another language than English, also as that language writes it: Arabic-Indic
 * digits for Arabic), the language it was sent in and the lead's id; a plain-text part and a
 * simple HTML part. Staff read English: the mail is in English whatever the lead's language.
 *
 * Visitor text never becomes markup, a link or a header: in the HTML part it is escaped; in the
 * subject, line breaks and control characters become spaces (the mail library encodes the rest);
 * the Reply-To is the e-mail address the form's schema already checked.
 */
import { CONTACT_FIELDS, contactLabelKey } from '../../forms/contact';
import { PARTNER_FIELD_ORDER, partnerLabelKey } from '../../forms/partner';
import { defaultLocale, locales, t, tParts, type LocaleCode } from '../../i18n';
import type { LeadNotice, StoredSubmission } from '../store/store.ts';
import { escapeHtml } from './escape.ts';

const RIYADH_OPTIONS: Intl.DateTimeFormatOptions = { timeZone: 'Asia/Riyadh', dateStyle: 'full', timeStyle: 'short' };
const RIYADH = new Intl.DateTimeFormat('en-GB', RIYADH_OPTIONS);

/** The name of a language as staff read it (English): "Arabic". */
export function languageName(code: LocaleCode): string {
  return t(`mail.language.${code}`);
}

/**
 * A time in Riyadh as the lead's language writes it (Arabic: ar-SA, Arabic-Indic digits), on the
 * Gregorian calendar like the English line beside it (ar-SA's own default is the Hijri one).
 */
function localTime(iso: string, code: LocaleCode): string {
  return new Intl.DateTimeFormat(locales[code].formatLocale, { ...RIYADH_OPTIONS, calendar: 'gregory' }).format(new Date(iso));
}

/** Text as one header-safe line: no line break or control character, runs of white space as one space. */
export function headerText(text: string, max = 200): string {
  const line = text
    .replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A stored answer as text: lists joined, numbers as written, nothing for an empty answer. */
function answerText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  return String(value).trim();
}

/** Every answered field with its label, in the form's order. */
function answeredFields(lead: StoredSubmission): { label: string; text: string }[] {
  const labelled =
    lead.form === 'contact'
      ? CONTACT_FIELDS.map((field) => ({ label: t(contactLabelKey(field)), text: answerText(lead.fields[field]) }))
      : PARTNER_FIELD_ORDER.map((field) => ({ label: t(partnerLabelKey(field)), text: answerText(lead.fields[field]) }));
  return labelled.filter((entry) => entry.text !== '');
}

function subjectOf(lead: StoredSubmission): string {
  const field = (name: string) => headerText(answerText(lead.fields[name]), 80);
  if (lead.form === 'partner')
    return headerText(t('mail.subject.partner', { organization: field('organization'), country: field('country') }));
  const name = `${field('firstName')} ${field('lastName')}`.trim();
  const company = field('company');
  return headerText(company ? t('mail.subject.contactCompany', { name, company }) : t('mail.subject.contact', { name }));
}

function visitorName(lead: StoredSubmission): string {
  const field = (name: string) => headerText(answerText(lead.fields[name]), 80);
  return lead.form === 'partner' ? field('name') : `${field('firstName')} ${field('lastName')}`.trim();
}

export interface NoticeOptions {
  /**
   * The lead's page in the staff inbox: the mail links there, never to a file. Built on the
   * configured site address (SITE_URL), never on the request's Host; without it, no link.
   */
  readonly inboxUrl?: string;
}

export function composeLeadNotice(lead: StoredSubmission, options: NoticeOptions = {}): LeadNotice {
  const subject = subjectOf(lead);
  const received = t('mail.received', { time: RIYADH.format(new Date(lead.receivedAt)) });
  const language = languageName(lead.language);
  const sentIn = t('mail.language', { language });
  const local = lead.language === defaultLocale.code ? '' : localTime(lead.receivedAt, lead.language);
  const receivedLocal = local ? t('mail.receivedIn', { language, time: local }) : '';
  const id = t('mail.lead', { id: lead.id });
  const inbox = options.inboxUrl ? t('mail.inbox', { url: options.inboxUrl }) : '';
  const fields = answeredFields(lead);
  const email = answerText(lead.fields['email']);
  const reply = email ? t('mail.reply', { name: visitorName(lead), email }) : '';

  const text = [
    subject,
    received,
    ...(receivedLocal ? [receivedLocal] : []),
    sentIn,
    id,
    '',
    ...fields.map(({ label, text }) => (text.includes('\n') ? `${label}:\n${text}\n` : `${label}: ${text}`)),
    '',
    reply,
    inbox,
  ]
    .join('\n')
    .trim();

  // The time in the other language isolated in its own direction (and language), so the English line keeps its order.
  const { lang, dir } = locales[lead.language];
  const receivedLocalHtml = local
    ? tParts('mail.receivedIn')
        .map((part) =>
          typeof part === 'string'
            ? escapeHtml(part)
            : part.slot === 'time'
              ? `<bdi lang="${lang}" dir="${dir}">${escapeHtml(local)}</bdi>`
              : escapeHtml(language),
        )
        .join('')
    : '';
  const rows = fields
    .map(
      ({ label, text }) =>
        `<tr><th scope="row" style="text-align:start;vertical-align:top;padding:4px 12px 4px 0">${escapeHtml(label)}</th><td style="white-space:pre-wrap;padding:4px 0">${escapeHtml(text)}</td></tr>`,
    )
    .join('\n');
  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body style="font-family:sans-serif">',
    `<h1 style="font-size:18px">${escapeHtml(subject)}</h1>`,
    `<p>${escapeHtml(received)}<br>${receivedLocalHtml ? `${receivedLocalHtml}<br>` : ''}${escapeHtml(sentIn)}<br>${escapeHtml(id)}</p>`,
    `<table>\n${rows}\n</table>`,
    reply ? `<p>${escapeHtml(reply)}</p>` : '',
    options.inboxUrl ? `<p><a href="${escapeHtml(options.inboxUrl)}">${escapeHtml(t('mail.inboxLink'))}</a></p>` : '',
    '</body></html>',
  ].join('\n');

  return { subject, text, html, replyTo: email || undefined };
}
