/**
 * The shared layout (docs/requirements.md §2): header, footer, floating chat link, scroll reveal, current year;
 * in each language: the English pages and their Arabic twins under /ar, right to left.
 * Every label is the language's own (lang.t, the menu tree, src/data/company.yaml, the content
 * files); what sits at the end of a line (the chat button, a breadcrumb's separator) sits on the
 * right in English and on the left in Arabic.
 */
import { expect, test, type SiteLanguage } from './site-locale';
import { site } from './site-data';
import { ARABIC_ROUTES, PAGE_ROUTES, contentIn } from './routes';
import { readdirSync } from 'node:fs';
import { companyFile } from '../../src/data/company';
import { SPEC_SERVICE_SLUGS } from '../helpers/requirements';

/** The heading of the page at `path` (a specification path) in the language: its content file's title. */
function headingOf(lang: SiteLanguage, path: string): string {
  const routes = lang.code === 'ar' ? ARABIC_ROUTES : PAGE_ROUTES;
  const route = routes.find((candidate) => candidate.path === lang.path(path));
  if (!route) throw new Error(`No route ${lang.path(path)}`);
  return route.heading;
}

type SocialProfile = (typeof site.social)[number];

/** A social network's name as the footer gives it in the language (src/data/company.yaml). */
const networkName = (lang: SiteLanguage, profile: SocialProfile) =>
  lang.code === 'ar' ? (companyFile.socialLabels[profile.network].ar ?? profile.label) : profile.label;

/** The greeting the chat link prefills, in the language (PUBLIC_SITE_WHATSAPP_GREETING overrides the English one only). */
const chatGreeting = (lang: SiteLanguage) =>
  lang.code === 'ar' ? (companyFile.whatsapp.greeting.ar ?? site.whatsapp.greeting) : site.whatsapp.greeting;

/** The footer's copyright line for `year`: Western digits in both languages, as all the site's content writes numbers. */
const copyright = (lang: SiteLanguage, year: number) => lang.t('footer.copyright', { year: String(year) });

test.describe('header', () => {
  test('logo links home, "Become a Partner" links /Partner, and it stays fixed and solid while scrolling', async ({
    page,
    lang,
  }) => {
    await page.goto(lang.path('/MangementSystemAudits/ScheduleQQualityAssessment'));
    const header = page.locator('header.site-header');
    await expect(header.locator(`a[href="${lang.path('/')}"]`).first()).toBeVisible();
    await expect(header.getByRole('link', { name: lang.t('header.becomePartner') })).toHaveAttribute(
      'href',
      lang.path('/Partner'),
    );
    await page.mouse.wheel(0, 1500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    const box = await header.boundingBox();
    expect(box?.y).toBe(0);
    // Solid: the text scrolled under it never shows through.
    expect(await header.evaluate((element) => getComputedStyle(element).backgroundColor)).toMatch(/^rgb\(\d+, \d+, \d+\)$/);
  });

  test('at 1150 px the menu groups show; below it a menu button opens the same destinations', async ({ page, lang }) => {
    await page.setViewportSize({ width: 1151, height: 800 });
    await page.goto(lang.path('/'));
    await expect(page.locator('.desktop-nav')).toBeVisible();
    await expect(page.locator('.mobile-nav')).toBeHidden();
    await page.setViewportSize({ width: 1149, height: 800 });
    await expect(page.locator('.desktop-nav')).toBeHidden();
    const toggle = page.locator('.mobile-nav__toggle');
    await expect(toggle).toBeVisible();
    await toggle.click();
    // The click woke the menu's island (client:intent): let it take over before the next click.
    await expect(page.locator('.mobile-nav')).toHaveAttribute('data-enhanced', '');
    // Exact: every submenu button's name holds the word too ("{label} submenu").
    await expect(page.getByRole('button', { name: lang.t('header.menu'), exact: true })).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator('.mobile-nav__panel');
    await expect(panel.getByRole('link', { name: lang.label('About Us') })).toHaveAttribute('href', lang.path('/Aboutus'));
    await panel.getByText(lang.label('Laboratory Management Services (17025)')).click();
    await panel.getByRole('link', { name: lang.label('Support for Accreditation Process') }).click();
    const destination = '/LaboratoryQualityManagementSystemServices/SupportforAccreditationProcess';
    await expect(page).toHaveURL(lang.url(destination));
    await expect(page.locator('h1')).toHaveText(headingOf(lang, destination));
  });

  test('the menu fits the header at every desktop width: one line per label from 1340 px, at most two below @rtl', async ({
    page,
    lang,
  }) => {
    /** How many lines each top-level label takes, and whether anything overlaps or overflows. */
    const measure = () =>
      page.evaluate((dir) => {
        const list = document.querySelector('.desktop-nav .nav-list--depth-0')!;
        const items = [
          ...list.querySelectorAll<HTMLElement>(
            ':scope > li > a, :scope > li > .nav-toggle, :scope > li > details > .nav-toggle',
          ),
        ];
        // The boxes of the label's text (its words), not of the elements around them.
        const rects = items.map((item) => {
          const out: DOMRect[] = [];
          const walker = document.createTreeWalker(item, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const range = document.createRange();
            range.selectNodeContents(node);
            out.push(...[...range.getClientRects()].filter((r) => r.width > 1));
          }
          return out;
        });
        const lines = rects.map((list) => new Set(list.map((r) => Math.round(r.top))).size);
        // Room in each label's box beyond its text and chevron: even gaps need it small.
        const slack = items.map((item, i) => {
          const style = getComputedStyle(item);
          const inner =
            item.getBoundingClientRect().width - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
          const text = Math.max(...rects[i]!.map((r) => r.right)) - Math.min(...rects[i]!.map((r) => r.left));
          return Math.round(inner - text);
        });
        const edge = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
        /** Whether `later` lies wholly after `earlier` the reading way (leftwards in Arabic). */
        const follows = (earlier: DOMRect, later: DOMRect) =>
          dir === 'rtl' ? later.right <= earlier.left : earlier.right <= later.left;
        return {
          lines,
          slack,
          overflow: list.scrollWidth - list.clientWidth,
          // Logo, menu, "Become a Partner", in reading order: from the right in Arabic.
          clear:
            follows(edge('.site-header__home'), edge('.desktop-nav')) &&
            follows(edge('.desktop-nav'), edge('.site-header__partner')),
          // Whether the page is drawn in Cairo: the one-line "About Us" link is as wide as Cairo says.
          inCairo: (() => {
            const link = items.find((item) => item.tagName === 'A')!;
            const context = document.createElement('canvas').getContext('2d')!;
            context.font = `${getComputedStyle(link).fontWeight} ${getComputedStyle(link).fontSize} "Cairo Variable"`;
            return Math.abs(context.measureText(link.textContent!.trim()).width - rects[items.indexOf(link)]![0]!.width) < 1;
          })(),
        };
      }, lang.dir);
    // The layout is measured in Cairo. A first view is drawn in the fallback and fetches Cairo's
    // files after its load event (src/lib/cairo-cache.ts): every measured page comes after that and
    // takes them from the cache. Cairo is `font-display: optional`: on a loaded machine a page can
    // still miss its 100 ms and keep the fallback for its lifetime, and is then reloaded.
    await page.goto(lang.path('/AboutUs'));
    await page.waitForFunction(() => (localStorage.getItem('globaq-cairo') ?? '').includes('cairo-latin'));
    for (const width of [1150, 1280, 1340, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(lang.path('/AboutUs'));
      // Measured until it holds (or the timeout shows the last measurement): on a loaded machine the
      // header can still be laying out its web font, or its island taking over, at the first look.
      await expect
        .poll(
          async () => {
            const { lines, slack, overflow, clear, inCairo } = await measure();
            if (!inCairo) {
              await page.reload();
              return ['drawn in the fallback font: reloaded'];
            }
            const wrong: string[] = [];
            if (overflow > 0) wrong.push(`overflows by ${overflow} px`);
            if (!clear) wrong.push('overlaps the logo or the partner button');
            if (Math.max(...lines) > (width >= 1340 ? 1 : 2)) wrong.push(`lines per label ${lines}`);
            // No label's box is wider than its text and chevron (about 16 px).
            if (Math.max(...slack) > 20) wrong.push(`room beyond the text ${slack}`);
            return wrong;
          },
          { message: `${width}px`, timeout: 10_000 },
        )
        .toEqual([]);
    }
  });

  test('the current page is marked in the menu', async ({ page, lang }) => {
    await page.goto(lang.path('/Trainings/OtherTrainings'));
    await expect(page.locator('.desktop-nav a[aria-current="page"]')).toHaveAttribute(
      'href',
      lang.path('/Trainings/OtherTrainings'),
    );
  });
});

test.describe('footer', () => {
  test('blurb, location, contact links, quick links, the social icons and the copyright', async ({ page, lang }) => {
    await page.goto(lang.path('/'));
    const footer = page.locator('footer');
    await expect(footer).toContainText(lang.t('footer.blurb'));
    for (const key of ['footer.contact', 'footer.quickLinks', 'footer.services'] as const) {
      await expect(footer.getByRole('heading', { name: lang.t(key), exact: true })).toBeVisible();
    }
    // Each detail under its name: the location, the e-mail address, the phone number.
    const details = footer.locator('.site-footer__contact');
    await expect(details.locator('dt')).toHaveText([lang.t('footer.location'), lang.t('footer.email'), lang.t('footer.phone')]);
    await expect(details.locator('dd').first()).toHaveText(lang.addressLine);
    await expect(footer.locator(`a[href="mailto:${site.email}"]`)).toHaveText(site.email);
    await expect(footer.locator('a[href^="tel:"]')).toHaveText(site.phone);
    for (const name of [lang.t('footer.aboutUs'), lang.t('footer.careers'), lang.t('footer.contactUs')]) {
      await expect(footer.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(footer.getByRole('link', { name: lang.t('footer.aboutUs'), exact: true })).toHaveAttribute(
      'href',
      lang.path('/AboutUs'),
    );
    await expect(footer.getByRole('link', { name: lang.t('footer.contactUs'), exact: true })).toHaveAttribute(
      'href',
      lang.path('/ContactUs'),
    );
    // Each network's icon, named; a link only where the build was given its address.
    const social = footer.locator('.site-footer__social');
    await expect(social.locator(':scope > li')).toHaveCount(site.social.length);
    for (const profile of site.social) {
      if (profile.url) {
        const link = social.locator(`a[href="${profile.url}"]`);
        await expect(link).toHaveAttribute('target', '_blank');
        await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
        await expect(link).toHaveAttribute('aria-label', lang.t('footer.socialLink', { network: networkName(lang, profile) }));
      } else {
        await expect(
          social.getByRole('img', { name: lang.t('footer.socialIcon', { network: networkName(lang, profile) }), exact: true }),
        ).toBeVisible();
      }
    }
    await expect(social.locator('a')).toHaveCount(site.social.filter((profile) => profile.url).length);
    // One choice of digits per language: the Arabic page writes 2030 and 17025, and its year the same way.
    await expect(footer.locator('.site-footer__legal p:has([data-current-year])')).toHaveText(
      copyright(lang, new Date().getFullYear()),
    );
  });

  test('tabbing through the footer stops at each of its links, never at a social icon without an address', async ({
    page,
    lang,
  }) => {
    // The addresses this build was given (docs/content.md, "The company's details"): by default none.
    const configured = Object.entries(process.env).flatMap(([name, value]) =>
      name.startsWith('PUBLIC_SOCIAL_') && value ? [value] : [],
    );
    await page.goto(lang.path('/'));
    const footer = page.locator('footer');
    await expect(footer.locator('.site-footer__social > li')).toHaveCount(site.social.length);
    const links = await footer
      .locator('a[href]')
      .evaluateAll((all) =>
        all.map((a) => ({ href: a.getAttribute('href'), social: a.closest('.site-footer__social') !== null })),
      );
    // From the last stop before the footer, Tab until focus leaves it.
    await footer.locator('a[href]').first().focus();
    await page.keyboard.press('Shift+Tab');
    const stops: typeof links = [];
    for (let i = 0; i <= links.length + site.social.length; i++) {
      await page.keyboard.press('Tab');
      const stop = await page.evaluate(() => {
        const active = document.activeElement;
        if (!active?.closest('footer')) return null;
        return { href: active.getAttribute('href'), social: active.closest('.site-footer__social') !== null };
      });
      if (stop === null) break;
      stops.push(stop);
    }
    expect(
      stops
        .filter((stop) => stop.social)
        .map((stop) => stop.href)
        .sort(),
    ).toEqual(configured.sort());
    expect(stops.filter((stop) => !stop.social)).toEqual(links.filter((link) => !link.social));
  });

  test("no service name breaks inside the footer, from tablet to wide desktop, in a first view's fallback fonts and in Cairo @rtl", async ({
    page,
    lang,
  }) => {
    // Two views, each reloaded until its fonts are the ones it is about: more than the default minute on a busy machine.
    test.setTimeout(180_000);
    const services = contentIn('services', lang.code);
    // Each width twice: before the browser holds Cairo (src/lib/cairo-cache.ts), and after. A page
    // keeps the fonts it was first drawn in for its lifetime (`font-display: optional`), so each
    // view is loaded once and resized through the widths.
    const widths = [768, 900, 1000, 1200, 1440, 1920];
    for (const cairo of [false, true]) {
      const width = widths[0]!;
      await page.setViewportSize({ width, height: 900 });
      if (cairo) {
        await page.waitForFunction(() => (localStorage.getItem('globaq-cairo') ?? '').includes('cairo-latin'), undefined, {
          timeout: 15_000,
        });
        // Cairo is `font-display: optional`: a loaded machine can miss its 100 ms, and the page then
        // keeps the fallback for its lifetime. Reloaded until the footer is drawn in Cairo.
        await expect
          .poll(
            async () => {
              await page.goto(lang.path('/'));
              return page
                .locator('.site-footer__services a')
                .first()
                .evaluate((link) => {
                  const context = document.createElement('canvas').getContext('2d')!;
                  const style = getComputedStyle(link);
                  context.font = `${style.fontWeight} ${style.fontSize} "Cairo Variable"`;
                  return (
                    document.documentElement.hasAttribute('data-cairo') &&
                    Math.abs(context.measureText(link.textContent!.trim()).width - link.getBoundingClientRect().width) < 1
                  );
                });
            },
            { message: `${width}px drawn in Cairo`, timeout: 15_000 },
          )
          .toBe(true);
      } else {
        // The page before may still be warming Cairo (1.5 s after its load event): forgetting the
        // files on it could be undone by its fetch ending before the next page starts. Forgotten
        // instead on a page just opened, whose own warming is 1.5 s away, then that page reloaded.
        await expect
          .poll(
            async () => {
              await page.goto(lang.path('/'));
              await page.evaluate(() => localStorage.removeItem('globaq-cairo'));
              await page.reload();
              return page.locator('html').evaluate((html) => html.hasAttribute('data-cairo'));
            },
            { message: `${width}px drawn in the fallback`, timeout: 15_000 },
          )
          .toBe(false);
      }
      await page.evaluate(() => document.fonts.ready);
      for (const at of widths) {
        await page.setViewportSize({ width: at, height: 900 });
        const lines = await page.locator('.site-footer__services a').evaluateAll((links) =>
          links.map((link) => {
            const range = document.createRange();
            range.selectNodeContents(link);
            return `${link.textContent}: ${new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size}`;
          }),
        );
        expect(lines.length).toBe(services.length);
        expect(
          lines.filter((line) => !line.endsWith(': 1')),
          `${at}px${cairo ? ', Cairo' : ''}`,
        ).toEqual([]);
      }
      // Still in the fonts the view is about.
      expect(await page.locator('html').evaluate((html) => html.hasAttribute('data-cairo'))).toBe(cairo);
    }
  });

  test('the keyboard focus ring shows on the navy footer as well as on white (two colours)', async ({ page, lang }) => {
    await page.goto(lang.path('/AboutUs'));
    const link = page.locator('footer').getByRole('link', { name: lang.t('footer.contactUs'), exact: true });
    await link.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(link).toBeFocused();
    const ring = await link.evaluate((el) => {
      const style = getComputedStyle(el);
      return { outline: style.outlineStyle, shadow: style.boxShadow };
    });
    expect(ring.outline).toBe('solid');
    // The white inner ring is what stands out against navy (the blue outline alone is 2.8:1 there).
    expect(ring.shadow).toContain('rgb(255, 255, 255)');
  });

  test('the copyright shows the current year even when the site was built in an earlier one @rtl', async ({ page, lang }) => {
    await page.clock.setFixedTime(new Date('2031-03-01T10:00:00Z'));
    await page.goto(lang.path('/AboutUs'));
    await expect(page.locator('.site-footer__legal p:has([data-current-year])')).toHaveText(copyright(lang, 2031));
  });
});

test.describe('floating chat link', () => {
  test('a plain link to the messaging service with the greeting, in a new tab, at the end of the line @rtl', async ({
    page,
    lang,
  }) => {
    await page.goto(lang.path('/ContactUs'));
    const chat = page.getByRole('link', { name: lang.t('chat.label'), exact: true });
    await expect(chat).toBeVisible();
    await expect(chat).toHaveAttribute('target', '_blank');
    await expect(chat).toHaveAttribute('rel', 'noopener noreferrer');
    const href = new URL((await chat.getAttribute('href')) ?? '');
    expect(href.hostname).toBe('wa.me');
    expect(href.searchParams.get('text')).toBe(chatGreeting(lang));
    // In the bottom corner where lines end: the right one in English, the left one in Arabic.
    const box = await chat.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport).toBeTruthy();
    if (box && viewport) {
      const [endGap, startGap] =
        lang.dir === 'rtl' ? [box.x, viewport.width - box.x - box.width] : [viewport.width - box.x - box.width, box.x];
      expect(endGap, 'from the edge where lines end').toBeLessThanOrEqual(32);
      expect(startGap, 'from the edge where lines start').toBeGreaterThan(viewport.width / 2);
      expect(viewport.height - box.y - box.height, 'from the bottom').toBeLessThanOrEqual(32);
    }
  });

  test('it sits in a named landmark of its own, like everything else on the page', async ({ page, lang }) => {
    await page.goto(lang.path('/AboutUs'));
    const region = page.getByRole('complementary', { name: lang.t('chat.region'), exact: true });
    await expect(region.getByRole('link', { name: lang.t('chat.label') })).toBeVisible();
  });

  test('on a phone, it steps aside while the visitor types in a form', async ({ page, lang }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(lang.path('/ContactUs'));
    const chat = page.locator('.chat-link');
    await expect(chat).toBeVisible();
    const lastName = page.getByLabel(lang.t('contact.field.lastName'));
    await lastName.focus();
    await expect(chat).toBeHidden();
    await lastName.blur();
    await expect(chat).toBeVisible();
  });

  test('on a phone, no line of body text runs under it @rtl', async ({ page, lang }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(lang.path('/Trainings/ISOTrainings/InternalAuditTraining'));
    const chat = (await page.locator('.chat-link').boundingBox())!;
    // The far end of the text: the end of each line of the body's paragraphs and list items.
    const ends = await page.locator('.prose :is(p, li)').evaluateAll(
      (blocks, rtl) =>
        blocks.flatMap((block) => {
          const range = document.createRange();
          range.selectNodeContents(block);
          return [...range.getClientRects()].map((line) => (rtl ? line.left : line.right));
        }),
      lang.dir === 'rtl',
    );
    expect(ends.length).toBeGreaterThan(10);
    for (const end of ends) {
      if (lang.dir === 'rtl') expect(end).toBeGreaterThanOrEqual(chat.x + chat.width);
      else expect(end).toBeLessThanOrEqual(chat.x);
    }
  });

  test('on a phone, it covers nothing at the end of the page', async ({ page, lang }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(lang.path('/AboutUs'));
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const chat = await page.locator('.chat-link').boundingBox();
    const legal = await page.locator('.site-footer__legal p').last().boundingBox();
    expect(chat && legal).toBeTruthy();
    if (chat && legal) expect(legal.y + legal.height).toBeLessThanOrEqual(chat.y);
  });
});

test.describe('scroll reveal', () => {
  test('sections below the fold fade in once scrolled into view', async ({ page, lang }) => {
    await page.setViewportSize({ width: 1440, height: 700 });
    await page.goto(lang.path('/services/ms-audits'));
    const other = page.locator('section[aria-labelledby="other-services"]');
    await expect(other).toHaveAttribute('data-reveal', 'pending');
    await other.scrollIntoViewIfNeeded();
    await expect(other).toHaveAttribute('data-reveal', 'shown');
    await expect(other).toHaveCSS('opacity', '1');
  });

  test('sections on screen at load are never hidden', async ({ page, lang }) => {
    await page.goto(lang.path('/services/ms-audits'));
    await expect(page.locator('section[aria-labelledby="overview"]')).not.toHaveAttribute('data-reveal', 'pending');
  });

  test('with reduced motion nothing is hidden', async ({ browser, lang }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1440, height: 700 } });
    const page = await context.newPage();
    await page.goto(lang.path('/services/ms-audits'));
    await expect(page.locator('[data-reveal="pending"]')).toHaveCount(0);
    await expect(page.locator('section[aria-labelledby="other-services"]')).toHaveCSS('opacity', '1');
    await context.close();
  });
});

test('the web manifest is linked once the page has loaded, never fetched before its load event', async ({ page, lang }) => {
  await page.goto(lang.path('/AboutUs'));
  await page.waitForLoadState('load');
  await expect(page.locator('link[rel="manifest"]')).toHaveCount(0);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest', { timeout: 10_000 });
  const response = await page.request.get('/manifest.webmanifest');
  expect(response.status()).toBe(200);
  expect(((await response.json()) as { name?: string }).name).toBeTruthy();
  const early = await page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    return performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('/manifest.webmanifest') && entry.startTime < navigation.loadEventEnd)
      .map((entry) => entry.name);
  });
  expect(early).toEqual([]);
});

test('a link to an anchor lands at the anchor, below the fixed header', async ({ page, lang }) => {
  await page.goto(lang.path('/LaboratoryQualityManagementSystemServices/Training'));
  await page.locator('.courses__toc a').nth(3).click();
  await expect(page).toHaveURL(/#method-validation$/);
  const target = page.locator('#method-validation');
  await expect(target).toBeInViewport();
  const headerBottom = (await page.locator('header.site-header').boundingBox())?.height ?? 0;
  await expect.poll(async () => (await target.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(headerBottom);
});

test('a new page starts at the top', async ({ page, lang }) => {
  await page.goto(lang.path('/AboutUs'));
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page
    .locator('footer')
    .getByRole('link', { name: lang.t('footer.contactUs'), exact: true })
    .click();
  await expect(page).toHaveURL(lang.url('/ContactUs'));
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test('service pages: the "Why Choose" figures sit level, whatever the length of their labels @rtl', async ({ page, lang }) => {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(lang.path('/services/iso-consultancy'));
    const figures = await page.locator('.why-choose__stats dd').evaluateAll((dds) => dds.map((dd) => dd.getBoundingClientRect()));
    expect(figures).toHaveLength(4);
    // Two per row: each figure's top matches its neighbour's.
    expect(Math.abs(figures[0]!.top - figures[1]!.top), `${width}px`).toBeLessThan(1);
    expect(Math.abs(figures[2]!.top - figures[3]!.top), `${width}px`).toBeLessThan(1);
  }
});

test('names stay whole on a phone: Al-Khobar, Schedule Q, Schedule D, the ISO codes never break across lines @rtl', async ({
  page,
  lang,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ['/', '/Trainings/OtherTrainings', '/ISOConsultancy']) {
    await page.goto(lang.path(path));
    await page.evaluate(() => document.fonts.ready);
    const names = page.locator('main .nowrap');
    expect(await names.count(), path).toBeGreaterThan(0);
    // Each name is drawn on one line, and reads as it is written. A name mixing Arabic and digits
    // has a box per direction run on that one line: every box shares the line's top.
    const broken = await names.evaluateAll((spans) =>
      spans
        .filter((span) => {
          const rects = [...span.getClientRects()];
          return rects.some((rect) => Math.abs(rect.top - rects[0]!.top) > 1);
        })
        .map((span) => span.textContent),
    );
    expect(broken, path).toEqual([]);
    const texts = await names.allTextContents();
    for (const text of texts)
      expect(text, path).toMatch(
        /^(?:Al-Khobar|Schedule [QD]|Saudi Aramco|(?:Saudi )?Vision 2030|السعودية 2030|ISO(?:\/IEC)? \d+(?::\d{4})?)$/,
      );
  }
  await page.goto(lang.path('/Trainings/OtherTrainings'));
  const course = page.locator('main h3', { hasText: 'Schedule Q' }).first();
  await expect(course.locator('.nowrap').filter({ hasText: /^Schedule Q$/ })).toHaveCount(1);
});

test('a breadcrumb trail that wraps on a phone never starts a line with its separator @rtl', async ({ page, lang }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto(lang.path('/LaboratoryQualityManagementSystemServices/SupportforAccreditationProcess'));
  const crumbs = await page.locator('.page-header__crumbs li').evaluateAll((items) =>
    items.map((li) => {
      // The crumb's own words (a range holds no pseudo-element) against its whole box, separator included.
      const range = document.createRange();
      range.selectNodeContents(li);
      const words = [...range.getClientRects()];
      const box = li.getBoundingClientRect();
      return {
        top: Math.round(box.top),
        before: getComputedStyle(li, '::before').content,
        after: getComputedStyle(li, '::after').content,
        roomLeft: Math.min(...words.map((r) => r.left)) - box.left,
        roomRight: box.right - Math.max(...words.map((r) => r.right)),
      };
    }),
  );
  expect(new Set(crumbs.map((crumb) => crumb.top)).size, 'the trail wraps at 320 px').toBeGreaterThan(1);
  // Each crumb but the last ends with "/"; nothing precedes a crumb, so no line begins with one.
  expect(crumbs.map((crumb) => crumb.before)).toEqual(crumbs.map(() => 'none'));
  expect(crumbs.map((crumb) => crumb.after)).toEqual(crumbs.map((_, i) => (i < crumbs.length - 1 ? '"/"' : 'none')));
  // Where a crumb ends is where its line reads on to: its right in English, its left in Arabic.
  // The separator takes the room there; the words fill their box at the start.
  for (const [i, crumb] of crumbs.slice(0, -1).entries()) {
    const [atStart, atEnd] = lang.dir === 'rtl' ? [crumb.roomRight, crumb.roomLeft] : [crumb.roomLeft, crumb.roomRight];
    expect(atStart, `crumb ${i + 1}: room before its words`).toBeLessThan(1);
    expect(atEnd, `crumb ${i + 1}: the separator after its words`).toBeGreaterThan(4);
  }
});

test('a breadcrumb names a group by a link where the group has a page of its own (its service page)', async ({ page, lang }) => {
  for (const [path, group, service] of [
    ['/Trainings/OtherTrainings', 'Trainings', '/services/trainings'],
    ['/MangementSystemAudits/VendorAssessment', 'Management System Audits', '/services/ms-audits'],
    [
      '/LaboratoryQualityManagementSystemServices/Training',
      'Laboratory Management Services (17025)',
      '/services/laboratory-management',
    ],
    ['/AuditAssistance/ISOInternalAudits', 'Audit Assistance', '/services/audit-assistance'],
  ] as const) {
    await page.goto(lang.path(path));
    const crumbs = page.locator('.page-header__crumbs');
    await expect(crumbs.getByRole('link', { name: lang.label(group), exact: true }), path).toHaveAttribute(
      'href',
      lang.path(service),
    );
  }
  // A group without a page of its own stays plain text.
  await page.goto(lang.path('/Trainings/ISOTrainings/InternalAuditTraining'));
  await expect(
    page.locator('.page-header__crumbs').getByRole('link', { name: lang.label('ISO Trainings'), exact: true }),
  ).toHaveCount(0);
  await expect(page.locator('.page-header__crumbs')).toContainText(lang.label('ISO Trainings'));
});

test("the About page links each of its major services to the service's page", async ({ page, lang }) => {
  const slugs = readdirSync(new URL('../../src/content/services/', import.meta.url)).map((file) => file.replace(/\.mdx$/, ''));
  await page.goto(lang.path('/AboutUs'));
  const linked = await page
    .locator('main li a[href*="/services/"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  // The specification's services, each linked; a service an editor adds may be linked or not.
  expect(linked).toEqual(expect.arrayContaining(SPEC_SERVICE_SLUGS.map((slug) => lang.path(`/services/${slug}`))));
  expect(linked.filter((href) => !slugs.some((slug) => href === lang.path(`/services/${slug}`)))).toEqual([]);
});

test('the ISO consultancy service page names the standards the ISO Consultancy page and the menu offer, and no others', async ({
  page,
  lang,
}) => {
  const numbers = (text: string) => new Set([...text.matchAll(/ISO(?:\/IEC)? (\d{3,5})/g)].map((match) => match[1]));
  await page.goto(lang.path('/ISOConsultancy'));
  const offered = numbers((await page.locator('.standards__code').allTextContents()).join(' '));
  expect(offered.size).toBeGreaterThan(5);
  await page.goto(lang.path('/services/iso-consultancy'));
  const named = numbers((await page.locator('main').innerText()).replace(/\s+/g, ' '));
  expect([...named].filter((number) => !offered.has(number))).toEqual([]);
  expect([...offered].filter((number) => !named.has(number))).toEqual([]);
});
