/**
 * Each public page's share image, /og/{path}.png, drawn at build time from its title, in the
 * page's language: /og/AboutUs.png for /AboutUs, /og/ar/AboutUs.png for /ar/AboutUs (and
 * /og/ar.png for /ar).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import iconSvg from '../../assets/brand/icon.svg?raw';
import { getPublicPages } from '../../lib/content';
import { renderShareImage } from '../../lib/images';
import { site } from '../../data/site';
import { locales, t, type Locale } from '../../i18n';

export const getStaticPaths = (async () => {
  const perLocale = await Promise.all(
    Object.values(locales).map(async (locale) => {
      const say = (key: Parameters<typeof t>[0]) => t(key, {}, locale);
      const pages = await getPublicPages(
        {
          home: [say('site.tagline'), say('site.description')],
          contact: [say('contact.title'), say('contact.description')],
          partner: [say('partner.title'), say('partner.description')],
        },
        locale,
      );
      return pages.map((page) => ({
        params: { path: page.path === '/' ? 'index' : page.path.slice(1) },
        props: { title: page.title, locale },
      }));
    }),
  );
  return perLocale.flat();
}) satisfies GetStaticPaths;

export const GET: APIRoute = async ({ props }) => {
  const locale = props['locale'] as Locale;
  const png = await renderShareImage(String(props['title']), {
    company: site.name,
    tagline: t('site.tagline', {}, locale),
    iconSvg,
    dir: locale.dir,
  });
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
