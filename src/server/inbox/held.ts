/**
 * Held leads (./proof.ts says which): stored with their files, never mailed, seen by staff on
 * the inbox list's "Held for review" tab (/admin?status=held), each on its lead page, and with `npm run submissions -- held`.
 *
 * - Release: the lead joins the inbox and its notification is queued now, in one transaction with
 *   the audit entry; a second release finds nothing held and queues nothing (exactly one mail).
 * - Mark as spam: stays out of the inbox, audited.
 * - Leads marked as spam older than HELD_PURGE_DAYS (default 30) are erased with everything
 *   stored with them; so are held leads of that age, but only WARNING_DAYS (7) after a daily digest
 *   warned staff of them (./held-digest.ts): a held lead nobody was told of is never erased. Used
 *   challenges are forgotten once they expire. `sweepHeld`, run by the server at start and hourly,
 *   with the digest.
 * Release is ./held-release.ts (it composes the lead's mail, which only the site's routes import).
 */
import type { ReceiverConfig } from '../config.ts';
import type { Stores } from '../store/database.ts';
import { WARNING_DAYS, purgeBefore } from './held-digest.ts';

export const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Erases spam leads past their age and held ones past it and warned of, and forgets expired challenges; says how many. */
export async function sweepHeld(
  stores: Pick<Stores, 'held' | 'submissions'>,
  config: Pick<ReceiverConfig, 'proof'>,
  now: Date,
): Promise<{ leads: number; challenges: number }> {
  const warnedBefore = new Date(now.getTime() - WARNING_DAYS * 24 * 60 * 60 * 1000);
  let leads = 0;
  for (const id of await stores.held.expired(purgeBefore(config, now), warnedBefore))
    if (await stores.submissions.delete(id)) leads += 1;
  const challenges = await stores.held.forgetChallenges(now);
  return { leads, challenges };
}
