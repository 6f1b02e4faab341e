/**
 * /favicon.svg, the small icon (the web manifest names it). The pages carry the same drawing in
 * their HTML (BaseLayout.astro), so a page view asks for no icon.
 */
import type { APIRoute } from 'astro';
import faviconSvg from '../assets/brand/favicon.svg?raw';

export const GET: APIRoute = () => new Response(faviconSvg, { headers: { 'Content-Type': 'image/svg+xml' } });
