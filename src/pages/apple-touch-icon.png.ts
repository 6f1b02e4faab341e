/** /apple-touch-icon.png: the app icon, 180 px, drawn at build time from src/assets/brand/icon.svg. */
import type { APIRoute } from 'astro';
import iconSvg from '../assets/brand/icon.svg?raw';
import { renderIcon } from '../lib/images';

export const GET: APIRoute = async () =>
  new Response(new Uint8Array(await renderIcon(iconSvg, 180)), { headers: { 'Content-Type': 'image/png' } });
