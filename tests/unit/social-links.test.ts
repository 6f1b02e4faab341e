/**
 * The footer's social icons (src/components/SocialLinks.astro), rendered with the company data
 * as src/data/company.ts reads it from an environment: only a configured address is a link.
 */
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { describe, expect, test } from 'vitest';
import SocialLinks from '../../src/components/SocialLinks.astro';
import { createSite, type SiteEnv } from '../../src/data/company';
import { t } from '../../src/i18n';
import { parseHtml } from '../helpers/dom';

async function render(env: SiteEnv) {
  const profiles = createSite(env).social;
  const container = await AstroContainer.create();
  const html = await container.renderToString(SocialLinks, { props: { profiles } });
  return { profiles, list: parseHtml(html).querySelector('ul')! };
}

describe('footer social icons', () => {
  test('by default every icon is there with its name, and none is a link or takes focus', async () => {
    const { profiles, list } = await render({});
    const items = [...list.querySelectorAll(':scope > li')];
    expect(items).toHaveLength(profiles.length);
    expect(list.querySelectorAll('a, [href], [tabindex]')).toHaveLength(0);
    profiles.forEach((profile, i) => {
      const icon = items[i]!.querySelector('[role="img"]');
      expect(icon?.getAttribute('aria-label'), profile.network).toBe(t('footer.socialIcon', { network: profile.label }));
      expect(icon?.querySelector('svg[aria-hidden="true"]'), profile.network).not.toBeNull();
    });
  });

  test('a configured address is a real link, opening in a new tab like the other external links', async () => {
    const { profiles, list } = await render({ PUBLIC_SOCIAL_X: 'https://x.com/example_sa' });
    const links = [...list.querySelectorAll('a')];
    expect(links).toHaveLength(1);
    const x = profiles.find((profile) => profile.network === 'x')!;
    expect(links[0]!.getAttribute('href')).toBe('https://x.com/example_sa');
    expect(links[0]!.getAttribute('target')).toBe('_blank');
    expect(links[0]!.getAttribute('rel')).toBe('noopener noreferrer');
    expect(links[0]!.getAttribute('aria-label')).toBe(t('footer.socialLink', { network: x.label }));
    expect(list.querySelectorAll('[role="img"]')).toHaveLength(profiles.length - 1);
  });
});
