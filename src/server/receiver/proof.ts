/**
 * The forms' proof of work (ALTCHA, self-hosted: no third party sees a visitor) and the plain
 * signals that hold a lead for review. A challenge's signed data carries when it was issued: the
 * "too fast" signal needs no state and cannot be forged. Deterministic mode with a key signature
 * makes checking a solution two HMACs, not a key derivation. A solution is accepted once: the
 * store records its challenge as used in the lead's own transaction (../store/submission-queries.ts).
 */
import { createHmac } from 'node:crypto';
import { createChallenge, randomInt, verifySolution, type Challenge, type Solution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { ProofConfig } from '../config.ts';
import type { HoldReason } from '../store/store.ts';

/** The form field the widget fills with its solution (the widget's default name). */
export const PROOF_FIELD = 'altcha';
/** The algorithm asked of browsers: SHA-256 (Web Crypto in the widget's worker; no WebAssembly). */
const PROOF_ALGORITHM = 'SHA-256';
/** The kept secret's name in the database (site_secrets). */
export const PROOF_SECRET_NAME = 'altcha-hmac-key';

export interface ProofKeys {
  readonly signature: string;
  readonly keySignature: string;
}

/** The two HMAC secrets from one key: the challenge's signature and the derived key's. */
export function proofKeys(key: string): ProofKeys {
  return { signature: key, keySignature: createHmac('sha256', key).update('altcha key signature').digest('hex') };
}

/** A new challenge, valid for `expireSeconds`, with the time it was issued and the minimum in its signed data. */
export async function issueChallenge(
  keys: ProofKeys,
  config: Pick<ProofConfig, 'cost' | 'maxNumber' | 'expireSeconds' | 'minSeconds'>,
  now: Date,
): Promise<Challenge> {
  return createChallenge({
    algorithm: PROOF_ALGORITHM,
    cost: config.cost,
    counter: randomInt(config.maxNumber, Math.floor(config.maxNumber / 4)),
    deriveKey,
    // `min`: the seconds the form waits after its solution before sending (use-proof.tsx), so a
    // person's quick send is never held as too fast.
    data: { issued: now.getTime(), min: config.minSeconds },
    expiresAt: new Date(now.getTime() + config.expireSeconds * 1000),
    hmacSignatureSecret: keys.signature,
    hmacKeySignatureSecret: keys.keySignature,
  });
}

export interface Verdict {
  /** Why the lead is held; undefined: it goes to the inbox and is mailed. */
  readonly held: HoldReason | undefined;
  /** The verified proof's challenge, to record as used with the lead. */
  readonly challenge: { readonly id: string; readonly expiresAt: Date } | undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The widget's payload (base64 of JSON { challenge, solution }), or undefined when it is not one. */
function decodePayload(value: unknown): { challenge: Challenge; solution: Solution } | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 8192) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(parsed) || !isObject(parsed['challenge']) || !isObject(parsed['solution'])) return undefined;
  const challenge = parsed['challenge'];
  const solution = parsed['solution'];
  if (!isObject(challenge['parameters']) || typeof challenge['signature'] !== 'string') return undefined;
  if (typeof solution['counter'] !== 'number' || typeof solution['derivedKey'] !== 'string') return undefined;
  return { challenge: challenge as unknown as Challenge, solution: solution as unknown as Solution };
}

const LINK = /\b(?:https?:\/\/|www\.)[^\s]+/gi;

/** Links in the answers a person writes (not in a website field, which holds one by design). */
export function countLinks(fields: Readonly<Record<string, unknown>>, exempt: ReadonlySet<string>): number {
  let links = 0;
  const visit = (value: unknown) => {
    if (typeof value === 'string') links += value.match(LINK)?.length ?? 0;
    else if (Array.isArray(value)) value.forEach(visit);
  };
  for (const [name, value] of Object.entries(fields)) if (!exempt.has(name)) visit(value);
  return links;
}

interface JudgeInput {
  readonly payload: unknown;
  /** A plain form post (JavaScript off): no proof is expected from it. */
  readonly formPost: boolean;
  readonly honeypot: boolean;
  readonly links: number;
}

/** Whether a lead is held, and why, in the order a person reading the held view would ask. */
export async function judge(
  input: JudgeInput,
  keys: ProofKeys,
  config: Pick<ProofConfig, 'minSeconds' | 'maxLinks'>,
  now: Date,
): Promise<Verdict> {
  if (input.honeypot) return { held: 'honeypot', challenge: undefined };
  const payload = decodePayload(input.payload);
  if (!payload) {
    const sent = typeof input.payload === 'string' && input.payload !== '';
    return { held: sent ? 'invalidProof' : input.formPost ? 'noScript' : 'noProof', challenge: undefined };
  }
  let result;
  try {
    result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: keys.signature,
      hmacKeySignatureSecret: keys.keySignature,
    });
  } catch {
    return { held: 'invalidProof', challenge: undefined };
  }
  if (result.expired) return { held: 'expiredProof', challenge: undefined };
  if (!result.verified) return { held: 'invalidProof', challenge: undefined };
  const { parameters, signature } = payload.challenge;
  const challenge = { id: String(signature), expiresAt: new Date((parameters.expiresAt ?? now.getTime() / 1000) * 1000) };
  const issued = Number(parameters.data?.['issued']);
  if (Number.isFinite(issued) && now.getTime() - issued < config.minSeconds * 1000) return { held: 'tooFast', challenge };
  if (input.links > config.maxLinks) return { held: 'tooManyLinks', challenge };
  return { held: undefined, challenge };
}
