/** POST /api/partner: the partner application's receiver (src/server/receiver/receiver.ts). */
import type { APIRoute } from 'astro';
import { handleSubmission } from '../../server/receiver/endpoint';

export const prerender = false;

export const ALL: APIRoute = (context) => handleSubmission('partner', context);
