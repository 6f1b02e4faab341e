/**
 * Each home service card's "Learn More" goes to its own page, in each language. That every
 * internal link and #anchor of the built site resolves is checked on its HTML:
 * tests/unit/site-pages.test.ts.
 */
import { expect, test } from './site-locale';
import { contentIn } from './routes';

// docs/requirements.md §4: each card's link goes to its own page.
test('every home service card links "Learn More" to its own service page @content', async ({ page, lang }) => {
  // In Arabic, a service not yet translated is there in English.
  const services = contentIn('services', lang.code);
  await page.goto(lang.path('/'));
  const cards = page.locator('.service-card');
  // One card per service in the catalogue, however many there are (tests/unit/content-inventory.test.ts counts the specification's).
  await expect(cards).toHaveCount(services.length);
  // Each card's own link, read from the page; the last followed as a visitor would (the heading
  // of every service page is checked on the built HTML: tests/unit/site-pages.test.ts).
  let last = { title: '', id: '' };
  for (let i = 0; i < services.length; i += 1) {
    const card = cards.nth(i);
    const title = (await card.locator('h3').textContent()) ?? '';
    const service = services.find((s) => s.frontmatter['title'] === title);
    expect(service, title).toBeDefined();
    // "Learn More", then " about {title}" for screen readers and search engines (hidden on screen).
    const name = `${lang.t('service.learnMore')}${lang.t('service.learnMoreAbout', { title })}`;
    await expect(card.getByRole('link', { name })).toHaveAttribute('href', lang.path(`/services/${service?.id}`));
    last = { title, id: service?.id ?? '' };
  }
  await cards
    .last()
    .getByRole('link', { name: new RegExp(`^${lang.t('service.learnMore')}`) })
    .click();
  await expect(page).toHaveURL(lang.url(`/services/${last.id}`));
  await expect(page.locator('h1')).toHaveText(last.title);
});
