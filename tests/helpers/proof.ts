/**
 * A solved proof of work, as the forms' widget sends it in the `altcha` field: a challenge from
 * the server's own GET /api/challenge, solved with altcha-lib (the same work the browser does).
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';

export async function challengeFrom(baseUrl: string): Promise<Challenge> {
  const response = await fetch(`${baseUrl}/api/challenge`);
  if (!response.ok) throw new Error(`GET /api/challenge answered ${response.status}`);
  return (await response.json()) as Challenge;
}

export async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('The challenge was not solved');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

export async function solvedProof(baseUrl: string): Promise<string> {
  return solve(await challengeFrom(baseUrl));
}
