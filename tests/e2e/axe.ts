import AxeBuilder from '@axe-core/playwright';
import axe from 'axe-core';
import type { Page } from '@playwright/test';

/**
 * The axe rules every check runs: WCAG 2.0 to 2.2, A and AA, and axe's best practices (every
 * piece of content inside a landmark, one main landmark, headings in order, unique landmark
 * names, ...), which are not WCAG failures but are what screen-reader users navigate by.
 */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** axe-core's source, the one AxeBuilder puts in a page. */
const AXE_SOURCE = axe.source;

/**
 * The page's axe violations under AXE_TAGS, one line each: the rule, its help and where; within
 * `within` (a selector) only, when given: a part whose state changed on a page checked whole.
 */
export async function violations(page: Page, within?: string): Promise<string[]> {
  // Legacy mode runs axe in the page itself instead of gathering each frame's results in a new
  // blank page: the same rules and results for a site without iframes (this one has none, and a
  // test in build-output keeps it so), in about half the time.
  // Only the violations are gathered in full: the passes and the incomplete checks, which nothing
  // here reads, are each cut to one node (axe's resultTypes), sparing the selector work for every
  // node of the page that passed: the same violations in about 40% less time.
  // axe-core's source (about 550 KB) goes into each document once: AxeBuilder evaluates it twice
  // per check when it is handed the source, once when handed an empty statement.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const builder = new AxeBuilder({ page, axeSource: ';' })
    .withTags(AXE_TAGS)
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] });
  const results = await (within ? builder.include(within) : builder).analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
