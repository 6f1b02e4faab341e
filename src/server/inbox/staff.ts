/**
 * Staff accounts: a password is stored only as a salted scrypt hash, its parameters kept with it so
 * they can be raised later without locking anyone out. Only the staff command makes accounts.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { isEmailAddress } from '../config.ts';

const PASSWORD_MIN = 12;
/** The longest: hashing a megabyte of "password" would be a cheap way to load the server. */
const PASSWORD_MAX = 1024;

/** One of OWASP's recommended scrypt settings: 64 MiB and a few hundred milliseconds per check. */
const COST = { N: 2 ** 16, r: 8, p: 2 } as const;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, options: { N: number; r: number; p: number }): Promise<Buffer> {
  const scryptOptions: ScryptOptions = { ...options, maxmem: 2 * 128 * options.N * options.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, scryptOptions, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export function passwordProblem(password: string): string | undefined {
  if ([...password].length < PASSWORD_MIN) return `A password needs at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `A password may have at most ${PASSWORD_MAX} characters.`;
  if (password.trim() === '') return 'A password cannot be only spaces.';
  return undefined;
}

/** Password checks at once and waiting, at most: a burst of sign-ins must not take all libuv's threads from file writes. */
export const HASHING = { running: 2, waiting: 8 } as const;

/** "scrypt$N$r$p$salt$hash", salt and hash in base64; a test may ask a lighter cost. */
export async function hashPassword(password: string, cost: { N: number; r: number; p: number } = COST): Promise<string> {
  const problem = passwordProblem(password);
  if (problem) throw new Error(problem);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** False for anything but the password `stored` was made from, a malformed hash included. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (!N || !r || !p || N > 2 ** 20 || r > 32 || p > 16 || password.length > PASSWORD_MAX) return false;
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  if (salt.length === 0 || expected.length !== KEY_LENGTH) return false;
  const key = await derive(password, salt, { N, r, p });
  return timingSafeEqual(key, expected);
}

/** An account's e-mail as stored: trimmed and lower-case; throws when it is not an address. */
export function staffEmail(text: string): string {
  const email = text.trim().toLowerCase();
  if (!isEmailAddress(email)) throw new Error(`"${text}" is not an e-mail address.`);
  return email;
}

export interface StaffAccount {
  readonly email: string;
  readonly createdAt: string;
  readonly passwordChangedAt: string;
  readonly twoStepSince?: string | undefined;
}

/** The staff table, in either database (the queries: ../store/staff-queries.ts). */
export interface StaffStore {
  add(email: string, passwordHash: string, now: Date): Promise<void>;
  list(): Promise<StaffAccount[]>;
  passwordHash(email: string): Promise<string | undefined>;
  /** Every session of the account ends with the old password (in the same transaction). */
  setPassword(email: string, passwordHash: string, now: Date): Promise<boolean>;
  remove(email: string): Promise<boolean>;

  twoStep(email: string): Promise<TwoStepRecord | undefined>;
  /** With a confirmed secret and new recovery codes; the account's other, password-only sessions end. */
  enrolTwoStep(
    email: string,
    sealedSecret: string,
    step: number,
    recoveryHashes: readonly string[],
    now: Date,
    keepSession?: string,
  ): Promise<boolean>;
  /** In one conditional update: false when that step or a later one was taken already (a replayed code). */
  takeStep(email: string, step: number): Promise<boolean>;
  /** The number left after it, or undefined when it is not one of the account's unused codes. */
  useRecoveryCode(email: string, codeHash: string, now: Date): Promise<number | undefined>;
  /** Secret, last step and recovery codes go, and every session of the account ends. */
  resetTwoStep(email: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface TwoStepRecord {
  /** Undefined while two-step sign-in is off. */
  readonly sealedSecret: string | undefined;
  readonly enrolledAt: string | undefined;
  readonly lastStep: number | undefined;
  readonly recoveryLeft: number;
}
