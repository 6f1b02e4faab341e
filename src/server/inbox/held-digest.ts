/**
 * Held leads are stored with their files and never mailed until released (./held-release.ts). The
 * daily digest of held leads goes to the staff who get the lead notifications, from HELD_DIGEST_HOUR
 * when anything is held: how many wait and why, the newest, and those due for erasure with the date.
 * It names leads by form, time, reason and link: none of the visitor's text.
 *
 * Spam and held leads older than HELD_PURGE_DAYS are erased, a held one only WARNING_DAYS after a
 * delivered digest warned of it, so a lead nobody was told of is never erased, whatever its age. Several servers on one database send one digest a
 * day: the day is claimed in the database first (held_digests); a mail that fails gives it back.
 */
import { locales, t, type LocaleCode, type UiKey } from '../../i18n/index.ts';
import { daysText } from '../../lib/course.ts';
import type { ReceiverConfig } from '../config.ts';
import type { HeldLead, HeldStore, HeldSummary } from '../store/held-queries.ts';
import type { Stores } from '../store/database.ts';
import { HOLD_REASONS } from '../store/store.ts';
import { bilingualMail, bilingualSubject, riyadhTimeIn, type MailSection } from '../mail/bilingual.ts';
import { riyadhDay } from './export-format.ts';
import { AUTO_SUBMITTED, type MailTransport } from '../mail/outbox.ts';

/** Days between a digest's warning and the erasure of a held lead, at the least. */
export const WARNING_DAYS = 7;
/** Leads listed by name in a digest (the rest are counted). */
const DIGEST_LIST_MAX = 30;

const DAY_MS = 24 * 60 * 60 * 1000;
export const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Received before this, a held lead is old enough to erase (HELD_PURGE_DAYS). */
export const purgeBefore = (config: Pick<ReceiverConfig, 'proof'>, now: Date): Date =>
  new Date(now.getTime() - config.proof.heldPurgeDays * DAY_MS);

/** Erases spam and held leads past their age (held ones warned of), forgets expired challenges; says how many. */
export async function sweepHeld(
  stores: Pick<Stores, 'held' | 'submissions'>,
  config: Pick<ReceiverConfig, 'proof'>,
  now: Date,
): Promise<{ leads: number; challenges: number }> {
  let leads = 0;
  for (const id of await stores.held.expired(purgeBefore(config, now), new Date(now.getTime() - WARNING_DAYS * DAY_MS)))
    if (await stores.submissions.delete(id)) leads += 1;
  return { leads, challenges: await stores.held.forgetChallenges(now) };
}

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
  readonly newest: readonly HeldLead[];
  /** Held leads to be erased within WARNING_DAYS unless someone acts, oldest first. */
  readonly due: readonly (HeldLead & { readonly warnedAt: string | undefined })[];
  readonly now: Date;
  readonly config: Pick<ReceiverConfig, 'proof' | 'siteUrl'>;
  /** Doubtful posts refused since the last digest, their network's budget spent (this server's count). */
  readonly refused?: number;
}

export function composeHeldDigest(input: DigestInput): { subject: string; text: string; html: string } {
  const { summary, newest, due, now, config, refused = 0 } = input;
  const heldUrl = config.siteUrl ? new URL('/admin?status=held', config.siteUrl).href : undefined;
  const leadUrl = (id: string) => (config.siteUrl ? new URL(`/admin/leads/${id}`, config.siteUrl).href : undefined);
  const listed = Math.min(newest.length, DIGEST_LIST_MAX);
  const section = (code: LocaleCode): MailSection => {
    const locale = locales[code];
    const tr = (key: UiKey, values: Record<string, string | number> = {}) => t(key, values, locale);
    const named = (lead: HeldLead) => `${riyadhTimeIn(lead.receivedAt, code, 'medium')} · ${tr(`mail.digest.form.${lead.form}`)}`;
    return {
      code,
      intro: [
        tr('mail.digest.intro', { count: summary.waiting }),
        ...(refused > 0 ? [tr('mail.digest.refused', { count: refused })] : []),
      ],
      lists: [
        {
          heading: tr('mail.digest.byReason'),
          rows: HOLD_REASONS.filter((reason) => (summary.byReason[reason] ?? 0) > 0).map((reason) => ({
            text: `${summary.byReason[reason]} × ${tr(`admin.held.reason.${reason}`)}`,
          })),
        },
        {
          heading: tr('mail.digest.newest'),
          rows: newest.slice(0, DIGEST_LIST_MAX).map((lead) => ({
            text: `${named(lead)} · ${tr(`admin.held.reason.${lead.reason}`)}`,
            url: leadUrl(lead.id),
            id: lead.id,
          })),
          more: summary.waiting > listed ? tr('mail.digest.more', { count: summary.waiting - listed }) : '',
        },
        {
          heading: tr('mail.digest.due', { days: daysText(config.proof.heldPurgeDays, locale) }),
          rows: due.slice(0, DIGEST_LIST_MAX).map((lead) => ({
            text: `${tr('mail.digest.erasedOn', { date: riyadhTimeIn(erasureDate(lead, config, now), code, 'medium', undefined) })}: ${named(lead)}`,
            url: leadUrl(lead.id),
            id: lead.id,
          })),
        },
      ],
      open: heldUrl ? tr('mail.digest.open', { url: heldUrl }) : tr('mail.digest.noLink'),
      openLink: tr('mail.digest.openLink'),
    };
  };
  return {
    subject: bilingualSubject('mail.digest.subject', { count: summary.waiting }),
    ...bilingualMail([section('en'), section('ar')], heldUrl),
  };
}

type DigestOutcome = 'sent' | 'off' | 'notYet' | 'nothingHeld' | 'sentAlready';

/** Sends the day's digest when due and marks the leads it warned of; throws (giving the day back) when the mail fails. */
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
      ...digest,
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
