/** POST /api/contact: the contact form's receiver (src/server/receiver/receiver.ts). */
import type { APIRoute } from 'astro';
import { handleSubmission } from '../../server/receiver/endpoint';

export const prerender = false;

export const ALL: APIRoute = (context) => handleSubmission('contact', context);
