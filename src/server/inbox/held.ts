/**
 * Held leads are stored with their files and never mailed until released (./held-release.ts). Spam
 * and held leads older than HELD_PURGE_DAYS are erased, a held one only WARNING_DAYS after a digest
 * warned staff of it (./held-digest.ts): a held lead nobody was told of is never erased.
 */
import type { ReceiverConfig } from '../config.ts';
import type { Stores } from '../store/database.ts';
import { WARNING_DAYS, purgeBefore } from './held-digest.ts';

export const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** Erases spam and held leads past their age (held ones warned of), forgets expired challenges; says how many. */
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
