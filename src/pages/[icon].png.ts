/** The app icons, /apple-touch-icon.png (180 px), /icon-192.png and /icon-512.png, drawn at build time from src/assets/brand/icon.svg. */
import type { APIRoute, GetStaticPaths } from 'astro';
import iconSvg from '../assets/brand/icon.svg?raw';
import { renderIcon } from '../lib/images';

export const getStaticPaths = (() =>
  Object.entries({ 'apple-touch-icon': 180, 'icon-192': 192, 'icon-512': 512 }).map(([icon, size]) => ({
    params: { icon },
    props: { size },
  }))) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) =>
  new Response(new Uint8Array(await renderIcon(iconSvg, Number(props['size']))), { headers: { 'Content-Type': 'image/png' } });
