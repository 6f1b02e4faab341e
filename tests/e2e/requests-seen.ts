/**
 * A test that asserts a page asked for nothing (no island script, no challenge) needs a moment
 * after which the request would have been reported had the page made it, without sleeping for
 * one. The page gives that moment itself: the caller first waits, in the page, for the state
 * after which a broken page would already have started its request (its idle time, its
 * observers notified, its files read); `requestsSeen` then has the page ask for an address of
 * the test's own (a marker). The browser reports a page's requests in the order the page starts
 * them (a dynamic import's request is started by the import() call itself), so once the marker
 * is reported, so is every request started before it.
 */
import type { Page } from '@playwright/test';

let markers = 0;

/** Resolves once every request the page started before this call has been reported to the test. */
export async function requestsSeen(page: Page): Promise<void> {
  const marker = `/favicon.ico?requests-seen=${process.pid}-${++markers}`;
  const reported = page.waitForRequest((request) => request.url().endsWith(marker), { timeout: 15_000 });
  await page.evaluate((url) => void fetch(url).catch(() => undefined), marker);
  await reported;
}
