/**
 * Parses HTML into a DOM in the node test environment (where Astro components render), with
 * jsdom. jsdom ships no types of its own: this declares the little of it used here.
 */
import { createRequire } from 'node:module';

/** A jsdom window: with `runScripts: 'outside-only'`, `eval` runs a script's text in it. */
export type TestWindow = Window & typeof globalThis & { eval(code: string): unknown; close(): void };

export const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string, options?: { runScripts?: 'outside-only'; pretendToBeVisual?: boolean }) => { window: TestWindow };
};

/** The document of a whole page, or of a fragment (put in its body). */
export function parseHtml(html: string): Document {
  return new JSDOM(html).window.document;
}
