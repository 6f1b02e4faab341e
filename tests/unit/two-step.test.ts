/**
 * Two-step sign-in's codes (src/server/two-step.ts), with a given clock: RFC 6238's own test
 * vector, a code of now and of one step either side accepted, two steps out refused, a replayed
 * step refused, recovery codes and the sealed secret.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  TOTP_PERIOD_SECONDS,
  acceptedStep,
  isRecoveryCodeShape,
  newRecoveryCodes,
  newTotpSecret,
  openSecret,
  recoveryHash,
  sealSecret,
  stepAt,
  totpQrSvg,
  totpUri,
  twoStepSettings,
} from '../../src/server/inbox/two-step';
import { totpCode } from '../helpers/totp';

const EMAIL = 'huda@globaq.example';
// RFC 6238 appendix B's SHA-1 secret ("12345678901234567890"), in base32.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const NOW = new Date('2026-11-25T09:30:10Z');
const step = (n: number) => new Date(NOW.getTime() + n * TOTP_PERIOD_SECONDS * 1000);

describe('codes with a given clock', () => {
  test("RFC 6238's test vector: 59 s after the epoch the code is 287082 (the last six of 94287082)", () => {
    expect(totpCode(RFC_SECRET, EMAIL, new Date(59_000))).toBe('287082');
    expect(totpCode(RFC_SECRET, EMAIL, new Date(1_111_111_109_000))).toBe('081804');
    expect(acceptedStep(RFC_SECRET, EMAIL, '287082', new Date(59_000), undefined)).toBe(1);
    expect(acceptedStep(RFC_SECRET, EMAIL, '081804', new Date(1_111_111_109_000), undefined)).toBe(37_037_036);
  });

  test('the code of now is accepted, and names the step of now', () => {
    const secret = newTotpSecret();
    expect(acceptedStep(secret, EMAIL, totpCode(secret, EMAIL, NOW), NOW, undefined)).toBe(stepAt(NOW));
    // As people type it: with a space in the middle.
    const code = totpCode(secret, EMAIL, NOW);
    expect(acceptedStep(secret, EMAIL, `${code.slice(0, 3)} ${code.slice(3)}`, NOW, undefined)).toBe(stepAt(NOW));
  });

  test('a code one step early or late is accepted (clock drift); two steps out is refused', () => {
    const secret = newTotpSecret();
    expect(acceptedStep(secret, EMAIL, totpCode(secret, EMAIL, step(-1)), NOW, undefined)).toBe(stepAt(NOW) - 1);
    expect(acceptedStep(secret, EMAIL, totpCode(secret, EMAIL, step(1)), NOW, undefined)).toBe(stepAt(NOW) + 1);
    expect(acceptedStep(secret, EMAIL, totpCode(secret, EMAIL, step(-2)), NOW, undefined)).toBeUndefined();
    expect(acceptedStep(secret, EMAIL, totpCode(secret, EMAIL, step(2)), NOW, undefined)).toBeUndefined();
  });

  test('a replayed code is refused: its step, or an earlier one, was taken already', () => {
    const secret = newTotpSecret();
    const code = totpCode(secret, EMAIL, NOW);
    const taken = acceptedStep(secret, EMAIL, code, NOW, undefined)!;
    expect(acceptedStep(secret, EMAIL, code, NOW, taken)).toBeUndefined();
    // Ten seconds later, the same code is still in the window, and still refused.
    expect(acceptedStep(secret, EMAIL, code, new Date(NOW.getTime() + 10_000), taken)).toBeUndefined();
    // The previous step's code after this one was taken: refused too.
    expect(acceptedStep(secret, EMAIL, totpCode(secret, EMAIL, step(-1)), NOW, taken)).toBeUndefined();
    // The next step's code is new.
    expect(acceptedStep(secret, EMAIL, totpCode(secret, EMAIL, step(1)), step(1), taken)).toBe(taken + 1);
  });

  test("another account's secret, a wrong code and text that is not a code are refused", () => {
    const secret = newTotpSecret();
    expect(acceptedStep(newTotpSecret(), EMAIL, totpCode(secret, EMAIL, NOW), NOW, undefined)).toBeUndefined();
    const right = totpCode(secret, EMAIL, NOW);
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
    expect(acceptedStep(secret, EMAIL, wrong, NOW, undefined)).toBeUndefined();
    for (const text of ['', '12345', '1234567', 'abcdef', `${right}0`])
      expect(acceptedStep(secret, EMAIL, text, NOW, undefined)).toBeUndefined();
  });

  test('the app reads a time-based, six-digit, 30 s, SHA-1 address naming the inbox and the account', () => {
    const uri = new URL(totpUri(RFC_SECRET, EMAIL));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Globaq inbox:${EMAIL}`);
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({
      secret: RFC_SECRET,
      issuer: 'Globaq inbox',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });

  test('the QR code is SVG shapes only: no script, no style (the content security policy holds)', async () => {
    const svg = await totpQrSvg(RFC_SECRET, EMAIL);
    expect(svg).toMatch(/^<svg [^>]*role="img"[^>]*aria-label="QR code for your authenticator app"/);
    expect(svg).not.toMatch(/<script|<style|\sstyle=|\son\w+=|<foreignObject|href=/i);
  });
});

describe('recovery codes', () => {
  test('ten different codes, typed in any case with spaces or dashes; only a slow hash with the account is kept', async () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      expect(isRecoveryCodeShape(code)).toBe(true);
      const kept = await recoveryHash(EMAIL, code);
      expect(await recoveryHash(EMAIL, code.toUpperCase().replace('-', ' '))).toBe(kept);
      expect(kept).not.toContain(code.replace('-', ''));
      expect(await recoveryHash('omar@globaq.example', code)).not.toBe(kept);
      // Not the plain SHA-256 of the account and the code, in any encoding.
      const plain = createHash('sha256')
        .update(`${EMAIL}\n${code.replace('-', '')}`)
        .digest();
      for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(kept).not.toContain(plain.toString(encoding));
    }
    expect(isRecoveryCodeShape('123456')).toBe(false);
  });
});

describe('the secret at rest', () => {
  const key = Buffer.alloc(32, 7);
  test('sealed, it does not contain the secret; opened with the key and its account, it is the secret again', () => {
    const secret = newTotpSecret();
    const sealed = sealSecret(key, EMAIL, secret);
    expect(sealed).not.toContain(secret);
    expect(sealSecret(key, EMAIL, secret)).not.toBe(sealed);
    expect(openSecret(key, EMAIL, sealed)).toBe(secret);
  });

  test('another key, another account, or a changed byte opens nothing', () => {
    const sealed = sealSecret(key, EMAIL, newTotpSecret());
    expect(openSecret(Buffer.alloc(32, 8), EMAIL, sealed)).toBeUndefined();
    expect(openSecret(key, 'omar@globaq.example', sealed)).toBeUndefined();
    const parts = sealed.split('.');
    parts[3] = `${parts[3]!.slice(0, -2)}${parts[3]!.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(openSecret(key, EMAIL, parts.join('.'))).toBeUndefined();
    expect(openSecret(key, EMAIL, 'plain text')).toBeUndefined();
  });

  test('the settings: a key of 64 hex characters; required needs the key, and is the default with it; anything else is refused by name', () => {
    expect(twoStepSettings({})).toEqual({ required: false, key: undefined });
    const hex = 'ab'.repeat(32);
    expect(twoStepSettings({ STAFF_TOTP_KEY: hex })).toEqual({ required: true, key: Buffer.from(hex, 'hex') });
    expect(twoStepSettings({ STAFF_TOTP_KEY: hex, STAFF_TWO_STEP: 'optional' })).toEqual({
      required: false,
      key: Buffer.from(hex, 'hex'),
    });
    expect(twoStepSettings({ STAFF_TOTP_KEY: hex, STAFF_TWO_STEP: 'required' })).toEqual({
      required: true,
      key: Buffer.from(hex, 'hex'),
    });
    expect(() => twoStepSettings({ STAFF_TWO_STEP: 'required' })).toThrow(/STAFF_TWO_STEP: required needs STAFF_TOTP_KEY/);
    expect(() => twoStepSettings({ STAFF_TOTP_KEY: 'short' })).toThrow(/STAFF_TOTP_KEY: must be 64 hexadecimal/);
    expect(() => twoStepSettings({ STAFF_TWO_STEP: 'always' })).toThrow(/STAFF_TWO_STEP: must be optional or required/);
  });
});
