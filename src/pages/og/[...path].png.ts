/** Each public page's share image, /og/{path}.png, drawn at build time from its title. */
import type { APIRoute, GetStaticPaths } from 'astro';
import iconSvg from '../../assets/brand/icon.svg?raw';
import { getPublicPages } from '../../lib/content';
import { renderShareImage } from '../../lib/images';
import { site } from '../../data/site';
import { t } from '../../i18n';

export const getStaticPaths = (async () => {
  const pages = await getPublicPages({
    home: [t('site.tagline'), t('site.description')],
    contact: [t('contact.title'), t('contact.description')],
    partner: [t('partner.title'), t('partner.description')],
  });
  return pages.map((page) => ({ params: { path: page.path === '/' ? 'index' : page.path.slice(1) }, props: { title: page.title } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const png = await renderShareImage(String(props['title']), { company: site.name, tagline: t('site.tagline'), iconSvg });
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
