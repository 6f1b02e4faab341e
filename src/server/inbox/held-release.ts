/**
 * Releasing a held lead: it joins the inbox and its mails are queued in one transaction with the
 * audit entry; a second release finds nothing held, so a release sends exactly one mail.
 */
import type { ReceiverConfig } from '../config.ts';
import type { Stores } from '../store/database.ts';
import { composeLeadNotice } from '../mail/lead-mail.ts';
import { composeAcknowledgement } from '../mail/acknowledgement.ts';
import type { StoredSubmission } from '../store/store.ts';

export function releaseHeld(
  stores: Pick<Stores, 'held'>,
  config: Pick<ReceiverConfig, 'notifications' | 'siteUrl'>,
  id: string,
  by: string,
  now: Date,
): Promise<boolean> {
  const { siteUrl } = config;
  const notice = config.notifications
    ? (lead: StoredSubmission) =>
        composeLeadNotice(lead, siteUrl ? { inboxUrl: new URL(`/admin/leads/${lead.id}`, siteUrl).href } : {})
    : undefined;
  // The sender's acknowledgement comes now, not while the lead was held (a bot's address, perhaps).
  const limits = config.notifications?.acknowledgeLimits;
  const acknowledgement = config.notifications?.acknowledge
    ? (lead: StoredSubmission) => composeAcknowledgement(lead, limits, config.notifications?.replyTo)
    : undefined;
  return stores.held.release(id, by, now, notice, acknowledgement);
}
