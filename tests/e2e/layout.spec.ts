/** The shared layout (spec §2): header, footer, floating chat link, scroll reveal, current year. */
import { expect, test } from '@playwright/test';
import { site } from './site-data';
import { readContentDir } from '../helpers/frontmatter';
import { t } from '../../src/i18n';

test.describe('header', () => {
  test('logo links home, "Become a Partner" links /Partner, and it stays fixed while scrolling', async ({ page }) => {
    await page.goto('/MangementSystemAudits/ScheduleQQualityAssessment');
    const header = page.locator('header.site-header');
    await expect(header.locator('a[href="/"]').first()).toBeVisible();
    await expect(header.getByRole('link', { name: 'Become a Partner' })).toHaveAttribute('href', '/Partner');
    await page.mouse.wheel(0, 1500);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    const box = await header.boundingBox();
    expect(box?.y).toBe(0);
  });

  test('at 1150 px the menu groups show; below it a menu button opens the same destinations', async ({ page }) => {
    await page.setViewportSize({ width: 1151, height: 800 });
    await page.goto('/');
    await expect(page.locator('.desktop-nav')).toBeVisible();
    await expect(page.locator('.mobile-nav')).toBeHidden();
    await page.setViewportSize({ width: 1149, height: 800 });
    await expect(page.locator('.desktop-nav')).toBeHidden();
    const toggle = page.locator('.mobile-nav__toggle');
    await expect(toggle).toBeVisible();
    await toggle.click();
    // The click woke the menu's island (client:intent): let it take over before the next click.
    await expect(page.locator('.mobile-nav')).toHaveAttribute('data-enhanced', '');
    await expect(page.getByRole('button', { name: 'Menu' })).toHaveAttribute('aria-expanded', 'true');
    const panel = page.locator('.mobile-nav__panel');
    await expect(panel.getByRole('link', { name: 'About Us' })).toHaveAttribute('href', '/Aboutus');
    await panel.getByText('Laboratory Management Services (17025)').click();
    await panel.getByRole('link', { name: 'Support for Accreditation Process' }).click();
    await expect(page).toHaveURL(/\/LaboratoryQualityManagementSystemServices\/SupportforAccreditationProcess$/);
    await expect(page.locator('h1')).toHaveText('Support for Accreditation Process');
  });

  test('the menu fits the header at every desktop width: one line per label from 1340 px, at most two below', async ({ page }) => {
    /** How many lines each top-level label takes, and whether anything overlaps or overflows. */
    const measure = () =>
      page.evaluate(() => {
        const list = document.querySelector('.desktop-nav .nav-list--depth-0')!;
        const items = [...list.querySelectorAll<HTMLElement>(':scope > li > a, :scope > li > .nav-toggle, :scope > li > details > .nav-toggle')];
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
          const inner = item.getBoundingClientRect().width - parseFloat(style.paddingInlineStart) - parseFloat(style.paddingInlineEnd);
          const text = Math.max(...rects[i]!.map((r) => r.right)) - Math.min(...rects[i]!.map((r) => r.left));
          return Math.round(inner - text);
        });
        const edge = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
        return {
          lines,
          slack,
          overflow: list.scrollWidth - list.clientWidth,
          clear: edge('.site-header__home').right <= edge('.desktop-nav').left && edge('.desktop-nav').right <= edge('.site-header__partner').left,
          // Whether the page is drawn in Cairo: the one-line "About Us" link is as wide as Cairo says.
          inCairo: (() => {
            const link = items.find((item) => item.tagName === 'A')!;
            const context = document.createElement('canvas').getContext('2d')!;
            context.font = `${getComputedStyle(link).fontWeight} ${getComputedStyle(link).fontSize} "Cairo Variable"`;
            return Math.abs(context.measureText(link.textContent!.trim()).width - rects[items.indexOf(link)]![0]!.width) < 1;
          })(),
        };
      });
    // Cairo is `font-display: optional`: on a loaded machine the first page can miss its 100 ms
    // and keep the fallback font for its lifetime. The layout is measured in Cairo, so the font is
    // fetched first and every measured page takes it from the cache.
    await page.goto('/AboutUs');
    await page.evaluate(() => document.fonts.load('650 14px "Cairo Variable"'));
    for (const width of [1150, 1280, 1340, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/AboutUs');
      // Measured until it holds (or the timeout shows the last measurement): on a loaded machine the
      // header can still be laying out its web font, or its island taking over, at the first look.
      await expect
        .poll(async () => {
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
        }, { message: `${width}px`, timeout: 10_000 })
        .toEqual([]);
    }
  });

  test('the current page is marked in the menu', async ({ page }) => {
    await page.goto('/Trainings/OtherTrainings');
    await expect(page.locator('.desktop-nav a[aria-current="page"]')).toHaveAttribute('href', '/Trainings/OtherTrainings');
  });
});

test.describe('footer', () => {
  test('blurb, location, contact links, quick links, the social icons and the copyright', async ({ page }) => {
    await page.goto('/');
    const footer = page.locator('footer');
    await expect(footer).toContainText('Al-Khobar');
    await expect(footer.locator(`a[href="mailto:${site.email}"]`)).toHaveText(site.email);
    await expect(footer.locator('a[href^="tel:"]')).toHaveText(site.phone);
    for (const name of ['About Us', 'Careers', 'Contact Us']) {
      await expect(footer.getByRole('link', { name, exact: true })).toBeVisible();
    }
    // Each network's icon, named; a link only where the build was given its address.
    const social = footer.locator('.site-footer__social');
    await expect(social.locator(':scope > li')).toHaveCount(site.social.length);
    for (const profile of site.social) {
      if (profile.url) {
        const link = social.locator(`a[href="${profile.url}"]`);
        await expect(link).toHaveAttribute('target', '_blank');
        await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
        await expect(link).toHaveAttribute('aria-label', new RegExp(`${profile.label}.*opens in a new tab`));
      } else {
        await expect(social.getByRole('img', { name: profile.label })).toBeVisible();
      }
    }
    await expect(social.locator('a')).toHaveCount(site.social.filter((profile) => profile.url).length);
    await expect(footer).toContainText(`© ${new Date().getFullYear()} Globaq`);
  });

  test('tabbing through the footer stops at each of its links, never at a social icon without an address', async ({ page }) => {
    // The addresses this build was given (README, "Company details"): by default none.
    const configured = Object.entries(process.env).flatMap(([name, value]) => (name.startsWith('PUBLIC_SOCIAL_') && value ? [value] : []));
    await page.goto('/');
    const footer = page.locator('footer');
    await expect(footer.locator('.site-footer__social > li')).toHaveCount(site.social.length);
    const links = await footer.locator('a[href]').evaluateAll((all) =>
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
    expect(stops.filter((stop) => stop.social).map((stop) => stop.href).sort()).toEqual(configured.sort());
    expect(stops.filter((stop) => !stop.social)).toEqual(links.filter((link) => !link.social));
  });

  test('no service name breaks inside the footer, from tablet to wide desktop', async ({ page }) => {
    for (const width of [768, 900, 1000, 1200, 1440, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      await page.evaluate(() => document.fonts.ready);
      const lines = await page.locator('.site-footer__services a').evaluateAll((links) =>
        links.map((link) => {
          const range = document.createRange();
          range.selectNodeContents(link);
          return `${link.textContent}: ${new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size}`;
        }),
      );
      expect(lines.length).toBe(readContentDir('services').length);
      expect(lines.filter((line) => !line.endsWith(': 1')), `${width}px`).toEqual([]);
    }
  });

  test('the keyboard focus ring shows on the navy footer as well as on white (two colours)', async ({ page }) => {
    await page.goto('/AboutUs');
    const link = page.locator('footer').getByRole('link', { name: 'Contact Us', exact: true });
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

  test('the copyright shows the current year even when the site was built in an earlier one', async ({ page }) => {
    await page.clock.setFixedTime(new Date('2031-03-01T10:00:00Z'));
    await page.goto('/AboutUs');
    await expect(page.locator('footer')).toContainText('© 2031 Globaq');
  });
});

test.describe('floating chat link', () => {
  test('a plain link to the messaging service with the greeting, in a new tab', async ({ page }) => {
    await page.goto('/ContactUs');
    const chat = page.getByRole('link', { name: /Chat with us on WhatsApp/ });
    await expect(chat).toBeVisible();
    await expect(chat).toHaveAttribute('target', '_blank');
    await expect(chat).toHaveAttribute('rel', 'noopener noreferrer');
    const href = new URL((await chat.getAttribute('href')) ?? '');
    expect(href.hostname).toBe('wa.me');
    expect(href.searchParams.get('text')).toBe(site.whatsapp.greeting);
  });

  test('it sits in a named landmark of its own, like everything else on the page', async ({ page }) => {
    await page.goto('/AboutUs');
    const region = page.getByRole('complementary', { name: t('chat.region'), exact: true });
    await expect(region.getByRole('link', { name: t('chat.label') })).toBeVisible();
  });

  test('on a phone, it steps aside while the visitor types in a form', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/ContactUs');
    const chat = page.locator('.chat-link');
    await expect(chat).toBeVisible();
    await page.getByLabel('Last Name').focus();
    await expect(chat).toBeHidden();
    await page.getByLabel('Last Name').blur();
    await expect(chat).toBeVisible();
  });

  test('on a phone, it covers nothing at the end of the page', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/AboutUs');
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const chat = await page.locator('.chat-link').boundingBox();
    const legal = await page.locator('.site-footer__legal p').boundingBox();
    expect(chat && legal).toBeTruthy();
    if (chat && legal) expect(legal.y + legal.height).toBeLessThanOrEqual(chat.y);
  });
});

test.describe('scroll reveal', () => {
  test('sections below the fold fade in once scrolled into view', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 700 });
    await page.goto('/services/ms-audits');
    const other = page.locator('section[aria-labelledby="other-services"]');
    await expect(other).toHaveAttribute('data-reveal', 'pending');
    await other.scrollIntoViewIfNeeded();
    await expect(other).toHaveAttribute('data-reveal', 'shown');
    await expect(other).toHaveCSS('opacity', '1');
  });

  test('sections on screen at load are never hidden', async ({ page }) => {
    await page.goto('/services/ms-audits');
    await expect(page.locator('section[aria-labelledby="overview"]')).not.toHaveAttribute('data-reveal', 'pending');
  });

  test('with reduced motion nothing is hidden', async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1440, height: 700 } });
    const page = await context.newPage();
    await page.goto('/services/ms-audits');
    await expect(page.locator('[data-reveal="pending"]')).toHaveCount(0);
    await expect(page.locator('section[aria-labelledby="other-services"]')).toHaveCSS('opacity', '1');
    await context.close();
  });
});

test('a link to an anchor lands at the anchor, below the fixed header', async ({ page }) => {
  await page.goto('/LaboratoryQualityManagementSystemServices/Training');
  await page.locator('.courses__toc a').nth(3).click();
  await expect(page).toHaveURL(/#method-validation$/);
  const target = page.locator('#method-validation');
  await expect(target).toBeInViewport();
  const headerBottom = (await page.locator('header.site-header').boundingBox())?.height ?? 0;
  await expect.poll(async () => (await target.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(headerBottom);
});

test('a new page starts at the top', async ({ page }) => {
  await page.goto('/AboutUs');
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.locator('footer').getByRole('link', { name: 'Contact Us', exact: true }).click();
  await expect(page).toHaveURL(/\/ContactUs$/);
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test('service pages: the "Why Choose" figures sit level, whatever the length of their labels', async ({ page }) => {
  for (const width of [390, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/services/iso-consultancy');
    const figures = await page.locator('.why-choose__stats dd').evaluateAll((dds) => dds.map((dd) => dd.getBoundingClientRect()));
    expect(figures).toHaveLength(4);
    // Two per row: each figure's top matches its neighbour's.
    expect(Math.abs(figures[0]!.top - figures[1]!.top), `${width}px`).toBeLessThan(1);
    expect(Math.abs(figures[2]!.top - figures[3]!.top), `${width}px`).toBeLessThan(1);
  }
});

test('a breadcrumb trail that wraps on a phone never starts a line with its separator', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto('/LaboratoryQualityManagementSystemServices/SupportforAccreditationProcess');
  const crumbs = await page.locator('.page-header__crumbs li').evaluateAll((items) =>
    items.map((li) => ({
      top: Math.round(li.getBoundingClientRect().top),
      before: getComputedStyle(li, '::before').content,
      after: getComputedStyle(li, '::after').content,
    })),
  );
  expect(new Set(crumbs.map((crumb) => crumb.top)).size, 'the trail wraps at 320 px').toBeGreaterThan(1);
  // Each crumb but the last ends with "/"; nothing precedes a crumb, so no line begins with one.
  expect(crumbs.map((crumb) => crumb.before)).toEqual(crumbs.map(() => 'none'));
  expect(crumbs.map((crumb) => crumb.after)).toEqual(crumbs.map((_, i) => (i < crumbs.length - 1 ? '"/"' : 'none')));
});
