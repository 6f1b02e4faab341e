/**
 * Looking at a state at both widths the specs check (1440 px, a desktop, and 390 px, a phone): a
 * flow runs once, at one of them, and at each state it looks at (axe, no sideways scrolling,
 * screenshots) the page is resized to the other width, looked at again and resized back. What
 * the server does is the same at either width: only the look depends on it.
 */
import type { Page } from '@playwright/test';

export const DESKTOP = { width: 1440, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/** The viewport of `width` (1440 or 390), at the height the specs use with it. */
export const viewportAt = (width: number) => (width === PHONE.width ? PHONE : DESKTOP);

/**
 * Runs `look` at the page's width, then at the other of 1440 and 390 (the page resized), then
 * resizes the page back to where it was, so the flow goes on at its own width.
 */
export async function atBothWidths(page: Page, look: (width: number) => Promise<void>): Promise<void> {
  const own = page.viewportSize() ?? DESKTOP;
  await look(own.width);
  const other = own.width === PHONE.width ? DESKTOP : PHONE;
  await page.setViewportSize(other);
  try {
    await look(other.width);
  } finally {
    await page.setViewportSize(own);
  }
}
