/** Every internal link and #anchor of the built site resolves (crawled from the home page). */
import { expect, test } from '@playwright/test';
import { PAGE_ROUTES } from './routes';
import { readContentDir } from '../helpers/frontmatter';

test('every internal link answers 200 and every #anchor exists on its page', async ({ page, request, baseURL }) => {
  test.setTimeout(180_000);
  const origin = new URL(baseURL ?? '').origin;
  const queue = ['/'];
  const visited = new Set<string>();
  const ids = new Map<string, Set<string>>();
  const anchors: { from: string; path: string; hash: string }[] = [];
  const broken: string[] = [];

  while (queue.length > 0) {
    const path = queue.shift() ?? '/';
    if (visited.has(path)) continue;
    visited.add(path);
    const response = await page.goto(path);
    if (response?.status() !== 200) {
      broken.push(`${path} answered ${response?.status()}`);
      continue;
    }
    const found = await page.evaluate(() => ({
      hrefs: [...document.querySelectorAll('a[href]')].map((a) => (a as HTMLAnchorElement).href),
      ids: [...document.querySelectorAll('[id]')].map((el) => el.id),
    }));
    ids.set(path, new Set(found.ids));
    for (const href of found.hrefs) {
      const url = new URL(href);
      if (url.origin !== origin) continue;
      if (url.hash) anchors.push({ from: path, path: url.pathname, hash: decodeURIComponent(url.hash.slice(1)) });
      if (!visited.has(url.pathname)) queue.push(url.pathname);
    }
  }

  for (const anchor of anchors) {
    if (!ids.get(anchor.path)?.has(anchor.hash)) broken.push(`${anchor.from} links ${anchor.path}#${anchor.hash}, which has no such id`);
  }
  expect(broken).toEqual([]);
  // Every page but /ThanksPage (reached after a submission) is linked from somewhere.
  for (const route of PAGE_ROUTES) if (route.path !== '/ThanksPage') expect(visited.has(route.path), route.path).toBe(true);

  // The sitemap lists only pages that answer 200.
  const sitemap = await (await request.get('/sitemap-0.xml')).text();
  for (const loc of sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)) {
    const path = new URL(loc[1] ?? '').pathname;
    expect((await request.get(path)).status(), path).toBe(200);
    expect(visited.has(path), `${path} is in the sitemap but linked from nowhere`).toBe(true);
  }
});

// Spec §2 Home: the crawl above proves the links answer; this proves each card's goes to its own page.
test('every home service card links "Learn More" to its own service page', async ({ page }) => {
  const services = readContentDir('services');
  await page.goto('/');
  const cards = page.locator('.service-card');
  // One card per service in the catalogue: the specification's 12, and any added since.
  expect(services.length).toBeGreaterThanOrEqual(12);
  await expect(cards).toHaveCount(services.length);
  for (let i = 0; i < services.length; i += 1) {
    const card = page.locator('.service-card').nth(i);
    const title = (await card.locator('h3').textContent()) ?? '';
    const service = services.find((s) => s.frontmatter['title'] === title);
    expect(service, title).toBeDefined();
    await card.getByRole('link', { name: `Learn More about ${title}` }).click();
    await expect(page).toHaveURL(new RegExp(`/services/${service?.id}$`));
    await expect(page.locator('h1')).toHaveText(title);
    await page.goBack();
  }
});
