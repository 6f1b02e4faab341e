/** A lead as staff read it: dates in Riyadh time, its answers with safe links, and "Reply by e-mail". */
import { CONTACT_FORM, isContactField } from '../../forms/contact.ts';
import { PARTNER_SECTIONS, isPartnerField, partnerField } from '../../forms/partner.ts';
import { defaultLocale, locales, t, type Locale, type LocaleCode } from '../../i18n/index.ts';
import type { InboxLead } from './inbox-store.ts';
import { answerIn, labelledFields } from './lead-columns.ts';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const RIYADH_OFFSET_MS = 3 * 60 * 60 * 1000;
/** Arabic: "25 نوفمبر 2026، 09:30" (the month's name, Western digits: the public site's formatLocale). */
const RIYADH_AR = new Intl.DateTimeFormat(locales.ar.formatLocale, {
  timeZone: 'Asia/Riyadh',
  calendar: 'gregory',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A stored time in Riyadh time: "25 Nov 2026, 09:30" (written out by hand, so no ICU version turns "Sep" into "Sept"). */
export function riyadhTime(iso: string | undefined, code: LocaleCode = 'en'): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  if (code === 'ar') return RIYADH_AR.format(time);
  const d = new Date(time + RIYADH_OFFSET_MS);
  const two = (value: number) => String(value).padStart(2, '0');
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
}

const text = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  return String(value).trim();
};

/** Who sent a lead and from where (the country in `locale`'s words). */
export function leadSummary(
  lead: Pick<InboxLead, 'form' | 'fields'>,
  locale: Locale = defaultLocale,
): {
  name: string;
  organization: string;
  email: string;
  country: string;
} {
  const f = lead.fields;
  const partner = lead.form === 'partner';
  return {
    name: partner ? text(f['name']) : `${text(f['firstName'])} ${text(f['lastName'])}`.trim(),
    organization: text(f[partner ? 'organization' : 'company']),
    email: text(f['email']),
    country: answerIn(lead.form, 'country', f['country'], locale),
  };
}

/** An address or a web address split where a line may break: after @, dots, slashes and hyphens. */
export const breakable = (text: string): string[] => text.split(/(?<=[@./\-_?&=])/);

type AnswerLink = { readonly kind: 'email' | 'tel' | 'url'; readonly href: string };

/** Arabic-Indic and Persian digits as Western ones (a tel: link dials those only). */
const westernDigits = (value: string) => value.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (c) => String(c.charCodeAt(0) & 0xf));

/** A link for an answer when it is a safe one: a website only over http or https, without a user name or password. */
export function answerLink(kind: string, value: string): AnswerLink | undefined {
  const text = value.trim();
  if (!text) return undefined;
  if (kind === 'email') {
    return /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:".]+(?:\.[^\s@<>()[\]\\,;:".]+)+$/.test(text)
      ? { kind, href: `mailto:${encodeURIComponent(text).replace('%40', '@')}` }
      : undefined;
  }
  if (kind === 'tel') {
    const digits = westernDigits(text).replace(/[^\d+]/g, '');
    const number = digits.startsWith('+') ? `+${digits.slice(1).replace(/\+/g, '')}` : digits.replace(/\+/g, '');
    return /\d{5,}/.test(number) ? { kind, href: `tel:${number}` } : undefined;
  }
  if (kind === 'url') {
    const url = URL.parse(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `https://${text}`);
    if (
      !url ||
      (url.protocol !== 'https:' && url.protocol !== 'http:') ||
      url.username ||
      url.password ||
      !url.hostname.includes('.')
    )
      return undefined;
    return { kind, href: url.href };
  }
  return undefined;
}

interface LeadAnswer {
  readonly name: string;
  readonly label: string;
  readonly text: string;
  readonly link: AnswerLink | undefined;
  /** Shown as paragraphs, not one line. */
  readonly long: boolean;
}

/** Who sent it and how to reach them. */
const CONTACT_BLOCK = {
  contact: ['firstName', 'lastName', 'email', 'company', 'country', 'city'],
  partner: ['name', 'jobTitle', 'organization', 'email', 'phoneNumber', 'companyWebsite', 'country', 'cityName'],
} as const;
/** What the visitor's browser sent besides the answers: behind "Details". */
const TECHNICAL = new Set(['submissionDate', 'submissionTimestamp', 'uploadedFiles']);

function fieldKind(form: InboxLead['form'], name: string): string | undefined {
  if (form === 'contact') return isContactField(name) ? CONTACT_FORM[name].kind : undefined;
  return isPartnerField(name) ? partnerField(name).kind : undefined;
}

/** A lead's answers laid out for its page: the contact block, the other answers (in sections), the unanswered, the technical. */
export function leadView(
  lead: Pick<InboxLead, 'form' | 'fields'>,
  locale: Locale = defaultLocale,
): {
  contact: LeadAnswer[];
  sections: { heading: string | undefined; answers: LeadAnswer[] }[];
  unanswered: string[];
  details: LeadAnswer[];
} {
  const all = labelledFields(lead, locale).map((field): LeadAnswer => {
    const kind = fieldKind(lead.form, field.name);
    return {
      ...field,
      link: kind ? answerLink(kind, field.text) : undefined,
      long: kind === 'longText' || (kind === undefined && field.text.length > 120),
    };
  });
  const contactNames: readonly string[] = CONTACT_BLOCK[lead.form];
  const details = all.filter((answer) => TECHNICAL.has(answer.name) && answer.text);
  const rest = all.filter((answer) => !TECHNICAL.has(answer.name) && !contactNames.includes(answer.name));
  let contact = contactNames.flatMap((name) => all.filter((answer) => answer.name === name && answer.text));
  // A contact message's first and last name read as one name.
  const first = contact.find((answer) => answer.name === 'firstName');
  const last = contact.find((answer) => answer.name === 'lastName');
  if (first && last) {
    contact = [
      { name: 'name', label: t('admin.lead.name', {}, locale), text: `${first.text} ${last.text}`, link: undefined, long: false },
      ...contact.filter((answer) => answer !== first && answer !== last),
    ];
  }
  const unanswered = all.filter((answer) => !answer.text && !TECHNICAL.has(answer.name)).map((answer) => answer.label);
  const answered = rest.filter((answer) => answer.text);
  const sections =
    lead.form === 'partner'
      ? PARTNER_SECTIONS.map((section): { heading: string | undefined; answers: LeadAnswer[] } => ({
          heading: t(`partner.section.${section}`, {}, locale),
          answers: answered.filter((answer) => isPartnerField(answer.name) && partnerField(answer.name).section === section),
        }))
          // A field the form no longer has (an older lead) last, under its stored name.
          .concat([{ heading: undefined, answers: answered.filter((answer) => !isPartnerField(answer.name)) }])
          .filter((section) => section.answers.length > 0)
      : [{ heading: undefined as string | undefined, answers: answered }].filter((section) => section.answers.length > 0);
  return { contact, sections, unanswered, details };
}

/** The longest quote a reply carries: a mail program may refuse a longer mailto: link. */
const QUOTE_MAX = 1500;

/** "Reply by e-mail": a mailto in the lead's language, quoting the visitor's message. */
export function replyHref(lead: Pick<InboxLead, 'form' | 'fields' | 'language' | 'receivedAt'>): string | undefined {
  const { email, name } = leadSummary(lead);
  const to = answerLink('email', email);
  if (!to) return undefined;
  const locale = locales[lead.language];
  const subject = t(lead.form === 'partner' ? 'reply.subject.partner' : 'reply.subject.contact', {}, locale);
  // A contact message is quoted; a partner application has no one message to quote.
  const message = lead.form === 'contact' ? text(lead.fields['message']).replace(/\r\n?/g, '\n') : '';
  const lines = [name ? t('reply.greeting', { name }, locale) : '', '', ''];
  if (message) {
    const quoted = message.length > QUOTE_MAX ? `${message.slice(0, QUOTE_MAX - 1)}…` : message;
    lines.push(
      t('reply.quoteIntro', { time: riyadhTime(lead.receivedAt, lead.language) }, locale),
      ...quoted.split('\n').map((line) => `> ${line}`),
    );
  }
  const body = lines.join('\r\n');
  return `${to.href}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
