/**
 * Two-step sign-in: after the password, a time-based one-time code (RFC 6238, by `otpauth`) or a
 * recovery code. A code passes for its step and one either side (clock drift), and never twice:
 * only a step later than the account's last passes (../store/staff-queries.ts takes it in one
 * conditional update, so two requests with one code cannot both pass).
 *
 * The secret is stored encrypted (AES-256-GCM) under the operator's STAFF_TOTP_KEY, never in the
 * database, and bound to its account: a copy of the database alone gives no codes. An account that
 * has two-step still owes its code without the key (its recovery codes work). A changed key makes
 * the stored secrets unreadable: reset each account's two-step with the staff command.
 */
import { createCipheriv, createDecipheriv, randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { ConfigError } from '../config.ts';
import { normalRecoveryCode } from './recovery-codes.ts';

export { recoveryHash } from './recovery-codes.ts';

export const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
const TOTP_WINDOW = 1;
const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'Globaq inbox';

export interface TwoStepSettings {
  readonly required: boolean;
  /** The key the secrets are encrypted with; undefined: two-step sign-in is not available. */
  readonly key: Buffer | undefined;
}

/** The settings (STAFF_TOTP_KEY; STAFF_TWO_STEP, required by default once a key is set); a malformed one throws. */
export function twoStepSettings(env: Readonly<Record<string, string | undefined>> = process.env): TwoStepSettings {
  const rawKey = env['STAFF_TOTP_KEY']?.trim();
  if (rawKey && !/^[0-9a-fA-F]{64}$/.test(rawKey))
    throw new ConfigError('STAFF_TOTP_KEY: must be 64 hexadecimal characters (openssl rand -hex 32)');
  const mode = env['STAFF_TWO_STEP']?.trim().toLowerCase() || (rawKey ? 'required' : 'optional');
  if (mode !== 'optional' && mode !== 'required')
    throw new ConfigError(`STAFF_TWO_STEP: must be optional or required (got "${mode}")`);
  if (mode === 'required' && !rawKey)
    throw new ConfigError(
      'STAFF_TWO_STEP: required needs STAFF_TOTP_KEY (the key the secrets are kept under: openssl rand -hex 32)',
    );
  return { required: mode === 'required', key: rawKey ? Buffer.from(rawKey, 'hex') : undefined };
}

/** How staff sign in, for the start log and /readyz: an inbox left on the password alone is seen, not assumed. */
export function signInSummary(settings: TwoStepSettings): string {
  if (!settings.key)
    return 'password only: STAFF_TOTP_KEY is not set, so two-step sign-in is not available (accounts that set it up still owe their codes)';
  return settings.required
    ? 'two-step sign-in required for every account (STAFF_TWO_STEP=required)'
    : 'two-step sign-in offered, each account chooses (STAFF_TWO_STEP=optional; required makes every account set it up)';
}

/** A new secret: 160 random bits (RFC 4226's recommended length), as base32 text. */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

function totpOf(secret: string, email: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label: email,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

export const stepAt = (now: Date): number => Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS);

/** A typed code as the app shows it: no spaces, Arabic-Indic and Persian digits read as Western ones. */
const codeDigits = (code: string): string =>
  code.replace(/\s+/g, '').replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (d) => String(d.charCodeAt(0) & 0xf));

/** The step a code is right for, within the window of `now`; undefined for a wrong code or not a code. */
function codeStep(secret: string, email: string, code: string, now: Date): number | undefined {
  const digits = codeDigits(code);
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(digits)) return undefined;
  const delta = totpOf(secret, email).validate({ token: digits, timestamp: now.getTime(), window: TOTP_WINDOW });
  return delta === null ? undefined : stepAt(now) + delta;
}

/** The step of a code right for `now` and later than `lastStep`; the caller still has to take the step in the store. */
export function acceptedStep(
  secret: string,
  email: string,
  code: string,
  now: Date,
  lastStep: number | undefined,
): number | undefined {
  const step = codeStep(secret, email, code, now);
  return step === undefined || (lastStep !== undefined && step <= lastStep) ? undefined : step;
}

/** The set-up's own code typed again at sign-in within a minute: not a failed sign-in (only the secret's holder has it). */
export function isSetUpCodeAgain(
  secret: string,
  email: string,
  code: string,
  now: Date,
  record: { readonly enrolledAt: string | undefined; readonly lastStep: number | undefined },
): boolean {
  const { enrolledAt, lastStep } = record;
  if (!enrolledAt || lastStep === undefined) return false;
  const setUp = new Date(enrolledAt);
  // Only just after the set-up: its step (or the one after, clock drift) is still the last taken.
  if (now.getTime() - setUp.getTime() > (TOTP_WINDOW + 1) * TOTP_PERIOD_SECONDS * 1000) return false;
  if (lastStep > stepAt(setUp) + TOTP_WINDOW) return false;
  return takenCode(secret, email, code, now, lastStep);
}

/** Whether a code is right for `now` but of a step already taken: a code used once already. */
export function takenCode(secret: string, email: string, code: string, now: Date, lastStep: number | undefined): boolean {
  const step = codeStep(secret, email, code, now);
  return lastStep !== undefined && step !== undefined && step <= lastStep;
}

export const totpUri = (secret: string, email: string): string => totpOf(secret, email).toString();

export const groupedSecret = (secret: string): string => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** The QR code of the app's address, as SVG made only of shapes (no script, no style: the inbox's CSP holds). */
export async function totpQrSvg(secret: string, email: string): Promise<string> {
  const svg = await QRCode.toString(totpUri(secret, email), {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 2,
    color: { dark: '#000000', light: '#ffffff' },
  });
  // Named for assistive technology; sized by the page's stylesheet.
  return svg.replace('<svg ', '<svg role="img" aria-label="QR code for your authenticator app" class="two-step-qr" ');
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten new recovery codes, "xxxxx-xxxxx" (about 49 bits each), shown once; only a slow hash is kept (./recovery-codes.ts). */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

export const isRecoveryCodeShape = (code: string): boolean =>
  /^[a-z0-9]{10}$/.test(normalRecoveryCode(code)) && !/^\d+$/.test(normalRecoveryCode(code));

/** The secret encrypted for the database, bound to its account ("v1.iv.tag.ciphertext", base64url). */
export function sealSecret(key: Buffer, email: string, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(email, 'utf8'));
  const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** The secret, or undefined when it was sealed under another key or for another account, or is damaged. */
export function openSecret(key: Buffer, email: string, sealed: string): string | undefined {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(email, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
