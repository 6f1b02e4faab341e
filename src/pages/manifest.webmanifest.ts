/** The web app manifest, in the company's colours. */
import type { APIRoute } from 'astro';
import { site } from '../data/site';
import { defaultLocale, t } from '../i18n';

export const GET: APIRoute = () =>
  new Response(
    JSON.stringify({
      name: site.legalName,
      short_name: site.name,
      description: t('site.description'),
      lang: defaultLocale.lang,
      dir: defaultLocale.dir,
      start_url: '/',
      display: 'browser',
      background_color: '#ffffff',
      theme_color: '#0b2545',
      icons: [
        { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      ],
    }),
    { headers: { 'Content-Type': 'application/manifest+json' } },
  );
