/**
 * The staff inbox's language, chosen per browser: the language switch (a form, so it works without
 * JavaScript) remembers it in a cookie, else Accept-Language decides. Not part of a staff account:
 * it holds on the sign-in pages too, before anyone is known.
 */
import { defaultLocale, locales, t, type Locale, type LocaleCode, type UiKey } from '../../i18n/index.ts';
import { safeReturnPath } from './return-path.ts';
import { ANSWERING, CUSTOMER, isLeadStatus, type LeadEvent, type LeadStatus } from './inbox-store.ts';
import type { FormName } from '../store/store.ts';
import { RELEASED } from '../store/held-queries.ts';
import { REPLY_MAIL } from '../store/outbox-queries.ts';
import type { OutboxEntry, OutboxStore } from '../mail/outbox.ts';
import { riyadhTime } from './lead-view.ts';
import { followUpDate } from './timely.ts';

export const LANGUAGE_PATH = '/admin/language';
/** Not a secret (HttpOnly would protect nothing); Path=/admin, so it goes with the inbox's own pages only. */
export const LANGUAGE_COOKIE = 'globaq-inbox-language';
const YEAR_SECONDS = 365 * 24 * 60 * 60;

const isCode = (value: string | undefined): value is LocaleCode => value !== undefined && Object.hasOwn(locales, value);

/** The first of the inbox's languages an Accept-Language header asks for, by weight; undefined when none. */
export function fromAcceptLanguage(header: string | null | undefined): LocaleCode | undefined {
  if (!header) return undefined;
  const asked = header
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { code: tag.trim().toLowerCase().split('-')[0], weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.weight > 0 && !Number.isNaN(entry.weight))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return asked.map((entry) => entry.code).find(isCode);
}

export function chooseAdminLocale(cookie: string | undefined, acceptLanguage: string | null | undefined): Locale {
  if (isCode(cookie)) return locales[cookie];
  const asked = fromAcceptLanguage(acceptLanguage);
  return asked ? locales[asked] : defaultLocale;
}

/** Where sign-in itself never returns to but the language switch must. */
const SIGN_IN_PAGES = new Set(['/admin/login', '/admin/login/code']);

/** Where the switch returns to: an inbox page as sign-in would accept it, or a sign-in page with its `next` checked. */
export function languageReturnPath(raw: unknown): string {
  if (typeof raw === 'string' && raw.startsWith('/admin/login')) {
    const url = URL.parse(raw, 'http://inbox.invalid');
    if (url && url.origin === 'http://inbox.invalid' && SIGN_IN_PAGES.has(url.pathname) && raw.startsWith(url.pathname)) {
      const next = url.searchParams.get('next');
      return next === null ? url.pathname : `${url.pathname}?next=${encodeURIComponent(safeReturnPath(next))}`;
    }
  }
  return safeReturnPath(raw);
}

export const languageCookie = (secure: boolean) =>
  ({ httpOnly: false, sameSite: 'lax', secure, path: '/admin', maxAge: YEAR_SECONDS }) as const;

/** `t` in the inbox's language, for a page: `const tr = adminText(Astro.locals.adminLocale)`. */
export function adminText(locale: Locale | undefined): (key: UiKey, values?: Record<string, string | number>) => string {
  return (key, values = {}) => t(key, values, locale ?? defaultLocale);
}

/** A lead's status, form, language, times and timeline entries as the inbox shows them in `locale`. */
export function adminLabels(locale: Locale | undefined) {
  const tr = adminText(locale);
  const { code, dir } = locale ?? defaultLocale;
  const time = (iso: string | undefined) => riyadhTime(iso, code);
  /** An address inside an Arabic sentence, isolated so it keeps its own order (English needs nothing). */
  const isolated = (text: string) => (dir === 'rtl' ? `\u2068${text}\u2069` : text);
  const status = (status: LeadStatus) => tr(`admin.status.${status}`);
  return {
    status,
    form: (form: FormName) => tr(`admin.form.${form}`),
    language: (language: LocaleCode) => tr(`admin.leadLanguage.${language}`),
    time,
    isolated,
    /** Where an answer e-mailed from the inbox is in the outbox. */
    mailState: (mail: OutboxEntry) =>
      mail.status === 'sent'
        ? tr('admin.reply.state.sent', { time: time(mail.sentAt) })
        : tr(mail.status === 'failed' ? 'admin.reply.state.failed' : 'admin.reply.state.pending'),
    /** A timeline entry's title; `mail` is the answer a 'reply' entry e-mailed. */
    event(event: LeadEvent, mail?: OutboxEntry): string {
      switch (event.kind) {
        case 'note':
          return event.corrects === undefined ? tr('admin.lead.event.note') : tr('admin.lead.event.noteCorrection');
        case 'status':
          if (event.detail === RELEASED) return tr('admin.lead.event.released');
          return tr('admin.lead.event.status', { status: isLeadStatus(event.detail) ? status(event.detail) : event.detail });
        case 'assigned':
          return event.detail
            ? tr('admin.lead.event.assigned', { email: isolated(event.detail) })
            : tr('admin.lead.event.unassigned');
        case 'notification':
          return ['sent', 'failed', 'queued'].includes(event.detail)
            ? tr(`admin.lead.event.notification.${event.detail as 'sent' | 'failed' | 'queued'}`)
            : tr('admin.lead.event.notification', { detail: event.detail });
        case 'download':
          return tr('admin.lead.event.download');
        case 'reply':
          if (event.detail === ANSWERING) return tr('admin.lead.event.answering');
          if (event.detail === CUSTOMER) return tr('admin.lead.event.customer');
          return mail ? tr('admin.lead.event.replySent', { subject: isolated(mail.subject) }) : tr('admin.lead.event.reply');
        case 'follow_up':
          return event.detail
            ? tr('admin.lead.event.followUp', { date: followUpDate(event.detail, locale ?? defaultLocale) })
            : tr('admin.lead.event.followUpCleared');
      }
    },
  };
}

/** The answers e-mailed from the inbox, by their timeline entry: each such 'reply' names its mail (REPLY_MAIL). */
export async function mailedAnswers(outbox: OutboxStore, leadId: string, events: readonly LeadEvent[]) {
  const mailed = (event: LeadEvent) => event.kind === 'reply' && event.detail.startsWith(REPLY_MAIL);
  const mails = events.some(mailed) ? await outbox.forLead(leadId) : [];
  const byId = new Map(mails.map((mail) => [`${REPLY_MAIL}${mail.id}`, mail]));
  return (event: LeadEvent) => (mailed(event) ? byId.get(event.detail) : undefined);
}
