/**
 * Astro's on-demand image endpoint (/_image), replaced by one that makes nothing. Every picture
 * on the site is made at build time (AVIF and WebP files under /_astro/); resizing on request
 * would let anyone spend seconds of the server's CPU per request (/_image?href=...&w=4000&f=avif).
 * A static host has no such endpoint either: the same 404 as any unknown path.
 */
import type { APIRoute } from 'astro';

export const prerender = false;

export const ALL: APIRoute = () => new Response(null, { status: 404 });
