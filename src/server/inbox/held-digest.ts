/**
 * The daily digest of held leads: one e-mail to the staff who get the lead notifications, once a
 * day from HELD_DIGEST_HOUR (07:00 Riyadh time) when anything is held, in English and Arabic (subject and body):
 * how many wait and why (in staff words), the newest, and those due for erasure with the date each
 * will be erased unless someone releases it or marks it as spam, with links to the inbox.
 *
 * A held lead is erased only after a digest has warned of it (./held.ts): the warning is recorded
 * when the digest is delivered, and erasure comes WARNING_DAYS after it at the earliest. So a lead
 * nobody was told of is never erased, whatever its age.
 *
 * Several servers on one database send one digest a day: the day is claimed in the database first
 * (held_digests); a mail that fails gives the claim back, and the next sweep (hourly) tries again.
 * The digest names leads by form, time, reason and link: none of the visitor's text.
 */
import { locales, t, type LocaleCode } from '../../i18n/index.ts';
import { daysText } from '../../lib/course.ts';
import { dateTimeFormat } from '../../lib/intl-formats.ts';
import type { ReceiverConfig } from '../config.ts';
import type { HeldLead, HeldStore, HeldSummary } from '../store/held-queries.ts';
import { HOLD_REASONS, type FormName } from '../store/store.ts';
import { escapeHtml } from '../mail/escape.ts';
import { AUTO_SUBMITTED, type MailTransport } from '../mail/outbox.ts';

/** Days between a digest's warning and the erasure of a held lead, at the least. */
export const WARNING_DAYS = 7;
/** Leads listed by name in a digest (the rest are counted). */
const DIGEST_LIST_MAX = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The calendar day (YYYY-MM-DD) and the hour of an instant in Riyadh. */
export function riyadhDay(now: Date): { readonly day: string; readonly hour: number } {
  const parts = Object.fromEntries(
    dateTimeFormat('en-CA', {
      timeZone: 'Asia/Riyadh',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(now)
      .map((part) => [part.type, part.value]),
  );
  return { day: `${parts['year']}-${parts['month']}-${parts['day']}`, hour: Number(parts['hour']) };
}

/** Received before this, a held lead is old enough to erase (HELD_PURGE_DAYS). */
export const purgeBefore = (config: Pick<ReceiverConfig, 'proof'>, now: Date): Date =>
  new Date(now.getTime() - config.proof.heldPurgeDays * DAY_MS);

/** When a held lead will be erased: its age reached, and WARNING_DAYS after its warning (now, if not yet warned). */
export function erasureDate(
  lead: { readonly receivedAt: string; readonly warnedAt?: string | undefined },
  config: Pick<ReceiverConfig, 'proof'>,
  now: Date,
): Date {
  const byAge = Date.parse(lead.receivedAt) + config.proof.heldPurgeDays * DAY_MS;
  const byWarning = Date.parse(lead.warnedAt ?? now.toISOString()) + WARNING_DAYS * DAY_MS;
  return new Date(Math.max(byAge, byWarning));
}

interface DigestInput {
  readonly summary: HeldSummary;
  /** The newest held leads, newest first. */
  readonly newest: readonly HeldLead[];
  /** Held leads to be erased within WARNING_DAYS unless someone acts, oldest first. */
  readonly due: readonly (HeldLead & { readonly warnedAt: string | undefined })[];
  readonly now: Date;
  readonly config: Pick<ReceiverConfig, 'proof' | 'siteUrl'>;
  /** Doubtful posts refused since the last digest, their network's day's budget spent (this server's count). */
  readonly refused?: number;
}

interface DigestMail {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

const formName = (form: FormName, code: LocaleCode) => t(`mail.digest.form.${form}`, {}, locales[code]);

/** A date in Riyadh as the language writes it (medium style), with its time or without. */
export function dateIn(iso: string | Date, code: LocaleCode, withTime: boolean): string {
  return dateTimeFormat(locales[code].formatLocale, {
    timeZone: 'Asia/Riyadh',
    calendar: 'gregory',
    dateStyle: 'medium',
    ...(withTime ? { timeStyle: 'short' } : {}),
  }).format(new Date(iso));
}

/** The digest in both languages: English first, then Arabic (right to left in the HTML part). */
export function composeHeldDigest(input: DigestInput): DigestMail {
  const { summary, newest, due, now, config, refused = 0 } = input;
  const heldUrl = config.siteUrl ? new URL('/admin?status=held', config.siteUrl).href : undefined;
  const leadUrl = (id: string) => (config.siteUrl ? new URL(`/admin/leads/${id}`, config.siteUrl).href : undefined);
  const subject = `${t('mail.digest.subject', { count: summary.waiting }, locales.en)} · ${t('mail.digest.subject', { count: summary.waiting }, locales.ar)}`;

  const section = (code: LocaleCode) => {
    const locale = locales[code];
    const tr = (key: Parameters<typeof t>[0], values: Record<string, string | number> = {}) => t(key, values, locale);
    const reasons = HOLD_REASONS.filter((reason) => (summary.byReason[reason] ?? 0) > 0).map((reason) => ({
      count: summary.byReason[reason] ?? 0,
      text: tr(`admin.held.reason.${reason}`),
    }));
    const row = (lead: HeldLead) => ({
      when: dateIn(lead.receivedAt, code, true),
      form: formName(lead.form, code),
      reason: tr(`admin.held.reason.${lead.reason}`),
      url: leadUrl(lead.id),
      id: lead.id,
    });
    return {
      code,
      intro: tr('mail.digest.intro', { count: summary.waiting }),
      refused: refused > 0 ? tr('mail.digest.refused', { count: refused }) : '',
      reasonsHeading: tr('mail.digest.byReason'),
      reasons,
      newestHeading: tr('mail.digest.newest'),
      newest: newest.slice(0, DIGEST_LIST_MAX).map(row),
      more:
        summary.waiting > Math.min(newest.length, DIGEST_LIST_MAX)
          ? tr('mail.digest.more', { count: summary.waiting - Math.min(newest.length, DIGEST_LIST_MAX) })
          : '',
      dueHeading: tr('mail.digest.due', { days: daysText(config.proof.heldPurgeDays, locale) }),
      due: due.slice(0, DIGEST_LIST_MAX).map((lead) => ({
        ...row(lead),
        erased: tr('mail.digest.erasedOn', { date: dateIn(erasureDate(lead, config, now), code, false) }),
      })),
      open: heldUrl ? tr('mail.digest.open', { url: heldUrl }) : tr('mail.digest.noLink'),
      openLink: tr('mail.digest.openLink'),
    };
  };
  const parts = [section('en'), section('ar')];

  const text = parts
    .map((part) =>
      [
        part.intro,
        ...(part.refused ? ['', part.refused] : []),
        '',
        part.reasonsHeading,
        ...part.reasons.map((reason) => `- ${reason.count} × ${reason.text}`),
        '',
        part.newestHeading,
        ...part.newest.map(
          (lead) => `- ${lead.when} · ${lead.form} · ${lead.reason}${lead.url ? `\n  ${lead.url}` : ` · ${lead.id}`}`,
        ),
        ...(part.more ? [part.more] : []),
        ...(part.due.length > 0
          ? [
              '',
              part.dueHeading,
              ...part.due.map(
                (lead) => `- ${lead.erased}: ${lead.when} · ${lead.form}${lead.url ? `\n  ${lead.url}` : ` · ${lead.id}`}`,
              ),
            ]
          : []),
        '',
        part.open,
      ].join('\n'),
    )
    .join('\n\n— — —\n\n');

  const link = (url: string | undefined, label: string) =>
    url ? `<a href="${escapeHtml(url)}">${escapeHtml(label)}</a>` : escapeHtml(label);
  const sections = parts.map((part) => {
    const { lang, dir } = locales[part.code];
    return [
      `<section lang="${lang}" dir="${dir}" style="text-align:start">`,
      `<p>${escapeHtml(part.intro)}</p>`,
      part.refused ? `<p>${escapeHtml(part.refused)}</p>` : '',
      `<h2 style="font-size:16px">${escapeHtml(part.reasonsHeading)}</h2>`,
      `<ul>${part.reasons.map((reason) => `<li><bdi>${reason.count}</bdi> × ${escapeHtml(reason.text)}</li>`).join('')}</ul>`,
      `<h2 style="font-size:16px">${escapeHtml(part.newestHeading)}</h2>`,
      `<ul>${part.newest.map((lead) => `<li>${link(lead.url, `${lead.when} · ${lead.form}`)} · ${escapeHtml(lead.reason)}</li>`).join('')}</ul>`,
      part.more ? `<p>${escapeHtml(part.more)}</p>` : '',
      part.due.length > 0
        ? `<h2 style="font-size:16px">${escapeHtml(part.dueHeading)}</h2><ul>${part.due.map((lead) => `<li><strong>${escapeHtml(lead.erased)}</strong>: ${link(lead.url, `${lead.when} · ${lead.form}`)}</li>`).join('')}</ul>`
        : '',
      `<p>${heldUrl ? link(heldUrl, part.openLink) : escapeHtml(part.open)}</p>`,
      '</section>',
    ].join('\n');
  });
  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body style="font-family:sans-serif">',
    sections.join('\n<hr>\n'),
    '</body></html>',
  ].join('\n');

  return { subject, text, html };
}

type DigestOutcome = 'sent' | 'off' | 'notYet' | 'nothingHeld' | 'sentAlready';

/**
 * Sends the day's digest when it is due: notifications on, 07:00 Riyadh or later, something held,
 * and no server has sent today's. Marks the leads it warned of; throws (giving the day back)
 * when the mail server refuses.
 */
export async function sendHeldDigest(
  held: HeldStore,
  config: Pick<ReceiverConfig, 'proof' | 'siteUrl' | 'notifications'>,
  transport: MailTransport,
  now: Date,
  refused = 0,
): Promise<DigestOutcome> {
  const mail = config.notifications;
  if (!mail) return 'off';
  const { day, hour } = riyadhDay(now);
  if (hour < config.proof.digestHour) return 'notYet';
  const summary = await held.summary(purgeBefore(config, now));
  if (summary.waiting === 0) return 'nothingHeld';
  if (!(await held.claimDigest(day, now))) return 'sentAlready';
  try {
    // Due within the warning's span: received before (now + WARNING_DAYS − HELD_PURGE_DAYS).
    const due = await held.dueForErasure(new Date(now.getTime() + (WARNING_DAYS - config.proof.heldPurgeDays) * DAY_MS));
    const newest = await held.list('held', DIGEST_LIST_MAX);
    const digest = composeHeldDigest({ summary, newest, due, now, config, refused });
    await transport.sendMail({
      from: mail.from,
      to: [...mail.to],
      subject: digest.subject,
      text: digest.text,
      html: digest.html,
      headers: { ...AUTO_SUBMITTED, 'X-Globaq-Digest': `held ${day}` },
    });
    // Only the leads the digest named are warned of; the rest are named in the next ones.
    await held.markWarned(
      due
        .slice(0, DIGEST_LIST_MAX)
        .filter((lead) => lead.warnedAt === undefined)
        .map((lead) => lead.id),
      now,
    );
    await held.digestSent(day, now, summary.waiting);
    return 'sent';
  } catch (error) {
    await held.unclaimDigest(day).catch(() => undefined);
    throw error;
  }
}
