/**
 * What the database keeps of a recovery code: nothing a copy of the database could test guesses
 * against quickly. A plain hash of a 49-bit code is guessed in hours on one graphics card, so the
 * kept value is scrypt's of that hash (SHA-256 of the account and the code), which also lets a
 * plain hash kept the old way be upgraded without the code (../store/migrations/index.ts). The salt
 * is fixed per account so that a typed code is found by one derivation and one lookup, not ten.
 */
import { createHash, scrypt } from 'node:crypto';

/** Less than a password's: codes are random. */
const COST = { N: 2 ** 14, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
/** The kept form's mark: the values without it are the old plain hashes. */
export const RECOVERY_FORM = 's1.';

/** A recovery code as typed (any case, spaces or dashes) in the one form it is kept in. */
export const normalRecoveryCode = (code: string): string => code.toLowerCase().replace(/[\s-]+/g, '');

const plainHash = (email: string, code: string): string =>
  createHash('sha256')
    .update(`${email}\n${normalRecoveryCode(code)}`)
    .digest('base64url');

export function fromPlainHash(email: string, plain: string): Promise<string> {
  return new Promise((resolve, reject) =>
    scrypt(plain, `globaq recovery code\n${email}`, KEY_LENGTH, { ...COST, maxmem: 2 * 128 * COST.N * COST.r }, (error, key) =>
      error ? reject(error) : resolve(RECOVERY_FORM + key.toString('base64url')),
    ),
  );
}

export const recoveryHash = (email: string, code: string): Promise<string> => fromPlainHash(email, plainHash(email, code));
