/** /favicon.ico, for browsers and tools that ask for it by name. */
import type { APIRoute } from 'astro';
import iconSvg from '../assets/brand/icon.svg?raw';
import { pngToIco, renderIcon } from '../lib/images';

export const GET: APIRoute = async () =>
  new Response(new Uint8Array(pngToIco(await renderIcon(iconSvg, 32), 32)), { headers: { 'Content-Type': 'image/x-icon' } });
