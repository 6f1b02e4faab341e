/** The code an authenticator app shows for a two-step secret at a moment (RFC 6238: SHA-1, six digits, 30 s steps). */
import { Secret, TOTP } from 'otpauth';

export const totpCode = (secret: string, label: string, at: Date): string =>
  new TOTP({ label, secret: Secret.fromBase32(secret) }).generate({ timestamp: at.getTime() });
