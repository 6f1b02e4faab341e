/**
 * Lighthouse accessibility, best practices and SEO are 100 on the five page types in English, and
 * in Arabic on home and the partner form (the Arabic layout and the longest form; axe checks every
 * Arabic page in a11y.spec.ts, and tests/unit/seo-output.test.ts and site-pages.test.ts each
 * page's lang, dir, title, description and alternates). These categories do not depend on the machine's speed; performance
 * does, so it is measured by `npm run bench`, never here.
 */
import { expect, test } from '@playwright/test';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS } from '../../playwright.config';

const ENGLISH = ['/', '/MangementSystemAudits/ScheduleQQualityAssessment', '/services/ms-audits', '/ContactUs', '/Partner'];
const ARABIC = ['/ar', '/ar/Partner'];

// One test per language, so that the two run side by side.
for (const PAGES of [ENGLISH, ARABIC]) {
  test(`Lighthouse accessibility, best practices and SEO are 100 on ${PAGES.join(', ')}`, async ({ baseURL }) => {
    test.setTimeout(300_000);
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
    });
    const below: string[] = [];
    try {
      for (const path of PAGES) {
        const result = await lighthouse(`${baseURL}${path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: ['accessibility', 'best-practices', 'seo'],
          // No audit of these categories reads the full-page screenshot.
          disableFullPageScreenshot: true,
        });
        const lhr = result?.lhr;
        expect(lhr, path).toBeTruthy();
        for (const [id, category] of Object.entries(lhr?.categories ?? {})) {
          if (category.score === 1) continue;
          const failing = category.auditRefs
            .map((ref) => lhr?.audits[ref.id])
            .filter((audit) => audit && audit.score !== null && audit.score < 1 && audit.scoreDisplayMode === 'binary')
            .map((audit) => audit?.id);
          below.push(`${path} ${id} ${Math.round((category.score ?? 0) * 100)}: ${failing.join(', ')}`);
        }
      }
    } finally {
      chrome.kill();
    }
    expect(below).toEqual([]);
  });
}
