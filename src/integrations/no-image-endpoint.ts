/**
 * Astro's on-demand image endpoint (/_image), replaced by one that makes nothing: every picture is made at build, and
 * resizing on request would let anyone spend seconds of the server's CPU per request.
 */
import type { APIRoute } from 'astro';

export const prerender = false;

export const ALL: APIRoute = () => new Response(null, { status: 404 });
