/**
 * The morning digest: one e-mail to each staff account from MORNING_DIGEST_HOUR (07:00 Riyadh
 * time), in English and Arabic, listing the leads assigned to them that are not yet answered,
 * their follow-ups due today or overdue, the leads assigned to nobody and not yet answered
 * (oldest first, in everyone's digest), and how many leads are held for review. Each lead is
 * named by its sender's name and company, its form, the time it was received, its wait in working
 * hours (./working-time.ts) and a link; nothing else the visitor typed. Nothing to say (none of
 * the four), no mail.
 *
 * Several servers on one database send each account one digest a day: the day is claimed per
 * account in the database first (staff_digests); a mail that fails gives the claim back, and the
 * next sweep (hourly) tries again. A day with nothing to say is marked done without a mail.
 */
import { locales, t, type LocaleCode, type UiKey } from '../../i18n/index.ts';
import type { ReceiverConfig } from '../config.ts';
import type { HeldStore } from '../store/held-queries.ts';
import { bilingualMail, bilingualSubject, riyadhTimeIn, type MailSection } from '../mail/bilingual.ts';
import { AUTO_SUBMITTED, type MailTransport } from '../mail/outbox.ts';
import { riyadhDay } from './export-format.ts';
import type { InboxLead, InboxStore, LeadStatus } from './inbox-store.ts';
import type { StaffStore } from './staff.ts';
import { leadName } from './lead-person.ts';
import { followUpDate } from './timely.ts';
import { leadWait, waitText } from './working-time.ts';

/** The hour, Riyadh time, from which each staff member's morning digest is sent. */
const MORNING_DIGEST_HOUR = 7;
/** Leads listed by name in each part of a digest (the rest are counted). */
const MORNING_LIST_MAX = 30;
/** Not yet answered: what the inbox's default tab calls needing work (./inbox-filter.ts's NEEDS_WORK, which only Vite loads). */
const UNANSWERED: readonly LeadStatus[] = ['new', 'in_progress'];
/** A follow-up is due on any lead but spam. */
const FOLLOW_UP_STATUSES: readonly LeadStatus[] = ['new', 'in_progress', 'answered', 'closed'];

interface MorningInput {
  /** Assigned to the staff member, not yet answered (New, In progress), newest first. */
  readonly unanswered: readonly InboxLead[];
  readonly unansweredTotal: number;
  /** Assigned to the staff member, a follow-up date today or before. */
  readonly followUps: readonly InboxLead[];
  readonly followUpsTotal: number;
  /** Assigned to nobody, not yet answered, oldest first: everyone's to take (listed to each staff member). */
  readonly unassigned?: readonly InboxLead[];
  readonly unassignedTotal?: number;
  /** Leads held for review (everyone's). */
  readonly held: number;
  readonly now: Date;
  readonly config: Pick<ReceiverConfig, 'siteUrl'>;
}

/** The digest in both languages: English first, then Arabic (right to left in the HTML part). */
function composeMorningDigest(input: MorningInput): { subject: string; text: string; html: string } {
  const { unanswered, followUps, held, now, config } = input;
  const url = (path: string) => (config.siteUrl ? new URL(path, config.siteUrl).href : undefined);
  const mineUrl = url('/admin?mine=1');
  const section = (code: LocaleCode): MailSection => {
    const locale = locales[code];
    const tr = (key: UiKey, values: Record<string, string | number> = {}) => t(key, values, locale);
    const list = (heading: UiKey, leads: readonly InboxLead[], total: number, withFollowUp = false) => ({
      heading: tr(heading, { count: total }),
      rows: leads.slice(0, MORNING_LIST_MAX).map((lead) => ({
        text: [
          leadName(lead, code),
          tr(`mail.digest.form.${lead.form}`),
          riyadhTimeIn(lead.receivedAt, code, 'medium'),
          waitText(leadWait(lead, now), locale),
          ...(withFollowUp && lead.followUpOn
            ? [tr('mail.morning.followUpOn', { date: followUpDate(lead.followUpOn, locale) })]
            : []),
        ]
          .filter(Boolean)
          .join(' · '),
        url: url(`/admin/leads/${lead.id}`),
        id: lead.id,
      })),
      more:
        total > Math.min(leads.length, MORNING_LIST_MAX)
          ? tr('mail.morning.more', { count: total - Math.min(leads.length, MORNING_LIST_MAX) })
          : '',
    });
    return {
      code,
      intro: [tr('mail.morning.intro')],
      lists: [
        list('mail.morning.unanswered', unanswered, input.unansweredTotal),
        list('mail.morning.followUps', followUps, input.followUpsTotal, true),
        list('mail.morning.unassigned', input.unassigned ?? [], input.unassignedTotal ?? 0),
      ],
      after: held > 0 ? [tr('mail.morning.held', { count: held })] : [],
      open: mineUrl ? tr('mail.morning.open', { url: mineUrl }) : tr('mail.morning.noLink'),
      openLink: tr('mail.morning.openLink'),
    };
  };
  const counts = { unanswered: input.unansweredTotal, followUps: input.followUpsTotal };
  return { subject: bilingualSubject('mail.morning.subject', counts), ...bilingualMail([section('en'), section('ar')], mineUrl) };
}

export interface MorningOutcome {
  /** Accounts mailed now. */
  readonly sent: readonly string[];
  /** Accounts with nothing to say today (marked done, not mailed). */
  readonly quiet: readonly string[];
  /** Accounts whose mail failed (given back: the next sweep tries again). */
  readonly failed: readonly string[];
  /** 'off' (notifications off) or 'notYet' (before MORNING_DIGEST_HOUR); undefined when run. */
  readonly skipped?: 'off' | 'notYet';
}

/**
 * Sends each staff account its morning digest when it is due: notifications on, 07:00 Riyadh or
 * later, the account's day not yet claimed by a server. A failed mail gives that account's day
 * back and the others go on.
 */
export async function sendMorningDigests(
  stores: { readonly inbox: InboxStore; readonly staff: Pick<StaffStore, 'list'>; readonly held: Pick<HeldStore, 'count'> },
  config: Pick<ReceiverConfig, 'siteUrl' | 'notifications'>,
  transport: MailTransport,
  now: Date,
): Promise<MorningOutcome> {
  const mail = config.notifications;
  if (!mail) return { sent: [], quiet: [], failed: [], skipped: 'off' };
  const { day, hour } = riyadhDay(now);
  if (hour < MORNING_DIGEST_HOUR) return { sent: [], quiet: [], failed: [], skipped: 'notYet' };
  const sent: string[] = [];
  const quiet: string[] = [];
  const failed: string[] = [];
  const held = await stores.held.count('held');
  // Nobody's leads, oldest first: in every staff member's digest, so that none waits unseen.
  const unassigned = await stores.inbox.leads({ assignedTo: null, statuses: UNANSWERED }, 1, {
    by: 'received',
    direction: 'asc',
  });
  for (const { email } of await stores.staff.list()) {
    if (!(await stores.inbox.claimStaffDigest(day, email, now))) continue;
    try {
      const unanswered = await stores.inbox.leads({ assignedTo: email, statuses: UNANSWERED }, 1);
      const due = await stores.inbox.leads({ assignedTo: email, statuses: FOLLOW_UP_STATUSES, followUpBy: day }, 1);
      // A lead is listed once: an unanswered one with a follow-up due stays under "not yet answered".
      const listedAbove = new Set(unanswered.leads.map((lead) => lead.id));
      const kept = due.leads.filter((lead) => !listedAbove.has(lead.id));
      const followUps = { leads: kept, total: due.total - (due.leads.length - kept.length) };
      if (unanswered.total === 0 && followUps.total === 0 && unassigned.total === 0 && held === 0) {
        await stores.inbox.staffDigestSent(day, email, now);
        quiet.push(email);
        continue;
      }
      const digest = composeMorningDigest({
        unanswered: unanswered.leads,
        unansweredTotal: unanswered.total,
        followUps: followUps.leads,
        followUpsTotal: followUps.total,
        unassigned: unassigned.leads,
        unassignedTotal: unassigned.total,
        held,
        now,
        config,
      });
      await transport.sendMail({
        from: mail.from,
        to: [email],
        ...digest,
        headers: { ...AUTO_SUBMITTED, 'X-Globaq-Digest': `morning ${day}` },
      });
      await stores.inbox.staffDigestSent(day, email, now);
      sent.push(email);
    } catch {
      await stores.inbox.unclaimStaffDigest(day, email).catch(() => undefined);
      failed.push(email);
    }
  }
  return { sent, quiet, failed };
}
