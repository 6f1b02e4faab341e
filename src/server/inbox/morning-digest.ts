/**
 * The morning digest: each staff account's mail from 07:00 Riyadh time, in English and Arabic: their
 * unanswered leads, their follow-ups due, the leads assigned to nobody, the held count. Each lead is
 * named by sender, form, time, wait and link; nothing else the visitor typed. Nothing to say, no mail.
 *
 * Several servers on one database send each account one digest a day: the day is claimed per
 * account in the database first (staff_digests); a mail that fails gives the claim back.
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

const MORNING_DIGEST_HOUR = 7;
/** Leads listed by name in each part of a digest (the rest are counted). */
const MORNING_LIST_MAX = 30;
/** The inbox's NEEDS_WORK (./inbox-filter.ts, which only Vite loads). */
const UNANSWERED: readonly LeadStatus[] = ['new', 'in_progress'];
/** A follow-up is due on any lead but spam. */
const FOLLOW_UP_STATUSES: readonly LeadStatus[] = ['new', 'in_progress', 'answered', 'closed'];

type Leads = { readonly leads: readonly InboxLead[]; readonly total: number };

interface MorningInput {
  /** Assigned to the staff member: not yet answered (newest first), and with a follow-up due. */
  readonly unanswered: Leads;
  readonly followUps: Leads;
  /** Assigned to nobody, not yet answered, oldest first: listed to each staff member. */
  readonly unassigned: Leads;
  readonly held: number;
  readonly now: Date;
  readonly config: Pick<ReceiverConfig, 'siteUrl'>;
}

function composeMorningDigest(input: MorningInput): { subject: string; text: string; html: string } {
  const { unanswered, followUps, held, now, config } = input;
  const url = (path: string) => (config.siteUrl ? new URL(path, config.siteUrl).href : undefined);
  const mineUrl = url('/admin?mine=1');
  const section = (code: LocaleCode): MailSection => {
    const locale = locales[code];
    const tr = (key: UiKey, values: Record<string, string | number> = {}) => t(key, values, locale);
    const list = (heading: UiKey, { leads, total }: Leads, withFollowUp = false) => ({
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
        list('mail.morning.unanswered', unanswered),
        list('mail.morning.followUps', followUps, true),
        list('mail.morning.unassigned', input.unassigned),
      ],
      after: held > 0 ? [tr('mail.morning.held', { count: held })] : [],
      open: mineUrl ? tr('mail.morning.open', { url: mineUrl }) : tr('mail.morning.noLink'),
      openLink: tr('mail.morning.openLink'),
    };
  };
  const counts = { unanswered: unanswered.total, followUps: followUps.total };
  return { subject: bilingualSubject('mail.morning.subject', counts), ...bilingualMail([section('en'), section('ar')], mineUrl) };
}

export interface MorningOutcome {
  readonly sent: readonly string[];
  /** Accounts with nothing to say today (marked done, not mailed). */
  readonly quiet: readonly string[];
  readonly failed: readonly string[];
  readonly skipped?: 'off' | 'notYet';
}

/** Sends each staff account its digest when due; a failed mail gives that account's day back and the others go on. */
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
      const digest = composeMorningDigest({ unanswered, followUps, unassigned, held, now, config });
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
