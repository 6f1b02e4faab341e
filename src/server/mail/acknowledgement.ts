/**
 * The mails to a lead's sender, in the language of the form they used: the acknowledgement and the
 * answer staff write in the inbox. The acknowledgement holds nothing the visitor typed, not even
 * their name: whoever types someone else's address into the form cannot make the site relay their
 * words to it; it is limited per mailbox, per domain and in all (../store/outbox-queries.ts).
 */
import { locales, t, type LocaleCode, type UiKey } from '../../i18n';
import { site, siteWords } from '../../data/site';
import { isEmailAddress } from '../config.ts';
import type { AcknowledgeLimits, LeadAcknowledgement, StoredSubmission } from '../store/store.ts';
import { escapeHtml } from './escape.ts';
import { headerText } from './lead-mail.ts';
import { riyadhTimeIn } from './bilingual.ts';

/** The longest answer and subject staff may send, in characters. */
export const REPLY_MAX = 10_000;
export const REPLY_SUBJECT_MAX = 200;

/** The sender's address, when it is one: trimmed, lower case. */
export function senderAddress(lead: Pick<StoredSubmission, 'fields'>): string | undefined {
  const raw = lead.fields['email'];
  if (typeof raw !== 'string') return undefined;
  const address = raw.trim().toLowerCase();
  return isEmailAddress(address) ? address : undefined;
}

/**
 * The company as a visitor reads it in `code`. In a right-to-left mail the phone is a left-to-right
 * isolate (U+2066 … U+2069): its groups of digits would otherwise be laid out right to left.
 */
function companyIn(code: LocaleCode) {
  const words = siteWords(locales[code]);
  const phone = locales[code].dir === 'rtl' ? `\u2066${site.phone}\u2069` : site.phone;
  return { name: words.legalName, phone, email: site.email, address: words.addressLine };
}

/** Paragraphs as an HTML mail in the language's direction, each escaped. */
function htmlMail(code: LocaleCode, paragraphs: readonly string[], pre?: string): string {
  const { lang, dir } = locales[code];
  return [
    `<!doctype html><html lang="${lang}" dir="${dir}"><head><meta charset="utf-8"></head><body style="font-family:sans-serif;text-align:start">`,
    ...(pre === undefined ? [] : [`<div style="white-space:pre-wrap">${escapeHtml(pre)}</div>`]),
    ...paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`),
    '</body></html>',
  ].join('\n');
}

/** The acknowledgement; undefined without a usable address. Answered to LEADS_REPLY_TO when set, else the company. */
export function composeAcknowledgement(
  lead: StoredSubmission,
  limits?: AcknowledgeLimits,
  replyTo: readonly string[] = [],
): LeadAcknowledgement | undefined {
  const to = senderAddress(lead);
  if (!to) return undefined;
  const code = lead.language;
  const locale = locales[code];
  const tr = (key: UiKey, values: Record<string, string | number> = {}) => t(key, values, locale);
  const company = companyIn(code);
  const subject = headerText(tr(`mail.ack.subject.${lead.form}`, { company: company.name }));
  const paragraphs = [
    tr(`mail.ack.thanks.${lead.form}`, { company: company.name, time: riyadhTimeIn(lead.receivedAt, code) }),
    tr('mail.ack.expect'),
    tr('mail.ack.reach', { phone: company.phone, email: company.email }),
    tr('mail.ack.address', { company: company.name, address: company.address }),
    tr('mail.ack.automatic'),
  ];
  return {
    to,
    subject,
    text: paragraphs.join('\n\n'),
    html: htmlMail(code, paragraphs),
    replyTo: replyTo.join(', ') || company.email,
    limits,
  };
}

/** "Re: Your message to Globaq", in the lead's language. */
export function defaultReplySubject(lead: Pick<StoredSubmission, 'form' | 'language'>): string {
  const locale = locales[lead.language];
  return t('reply.subjectLine', { subject: t(`reply.subject.${lead.form}`, {}, locale) }, locale);
}

/** Staff's answer as a mail: their text (escaped in HTML), then the company's signature. */
export function composeReply(
  lead: Pick<StoredSubmission, 'id' | 'language'>,
  subject: string,
  body: string,
): { subject: string; text: string; html: string } {
  const code = lead.language;
  const company = companyIn(code);
  const signature = t('reply.signature', { company: company.name, phone: company.phone, email: company.email }, locales[code]);
  // The lead's token: the customer's answer keeps it, so the shared mailbox knows which lead it is.
  const token = `[#${lead.id.slice(0, 8)}]`;
  const line = headerText(subject, REPLY_SUBJECT_MAX);
  // One signature: none added to an answer that ends with its own (a "-- " line, or the company's name near its end).
  const tail = body.split('\n').slice(-4).join('\n');
  const signed = /^-- ?$/m.test(body) || [companyIn('en').name, companyIn('ar').name].some((name) => tail.includes(name));
  return {
    subject: line.includes(token) ? line : `${line} ${token}`,
    text: signed ? body : `${body}\n\n-- \n${signature}`,
    html: htmlMail(code, signed ? [] : [signature], body),
  };
}
