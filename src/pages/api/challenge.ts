/** GET /api/challenge: a proof-of-work challenge for the forms' widget (src/server/receiver/proof.ts). */
import type { APIRoute } from 'astro';
import { handleChallenge } from '../../server/receiver/endpoint';

export const prerender = false;

export const ALL: APIRoute = (context) => handleChallenge(context);
