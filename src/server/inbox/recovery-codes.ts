/**
 * What the database keeps of a recovery code: never the code, nor anything a copy of the database
 * could test guesses against quickly. A code has about 49 bits; a plain hash of it with its
 * account (what was kept before) is guessed in hours on one graphics card, so the kept value is
 * scrypt's of that hash, salted by the account: about 16 MiB and tens of milliseconds a guess.
 *
 * The input to scrypt is the old plain hash (SHA-256 of the account and the code), so a code kept
 * the old way is brought to the new form without knowing the code: `upgradeRecoveryCodes`, run
 * each time the database is opened (../store/migrations/index.ts), rewrites any old value left.
 * The salt is fixed per account (not random per code) so that a code typed is found by one
 * derivation and one lookup, not by ten derivations.
 */
import { createHash, scrypt } from 'node:crypto';

/** scrypt's cost for a recovery code (its own: codes are random, so less than a password's). */
const COST = { N: 2 ** 14, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
/** The kept form's mark: the values without it are the old plain hashes. */
export const RECOVERY_FORM = 's1.';

/** A recovery code as typed (any case, spaces or dashes) in the one form it is kept in. */
export const normalRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]+/g, '');

/** The plain SHA-256 of the account and the code: the old kept value, and scrypt's input now. */
const plainHash = (email: string, code: string): string =>
  createHash('sha256')
    .update(`${email}\n${normalRecoveryCode(code)}`)
    .digest('base64url');

/** The kept value made from an old plain hash. */
export function fromPlainHash(email: string, plain: string): Promise<string> {
  return new Promise((resolve, reject) =>
    scrypt(plain, `globaq recovery code\n${email}`, KEY_LENGTH, { ...COST, maxmem: 2 * 128 * COST.N * COST.r }, (error, key) =>
      error ? reject(error) : resolve(RECOVERY_FORM + key.toString('base64url')),
    ),
  );
}

/** What the database keeps of a recovery code of an account. */
export const recoveryHash = (email: string, code: string): Promise<string> => fromPlainHash(email, plainHash(email, code));
