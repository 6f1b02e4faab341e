/**
 * Parses HTML into a DOM in the node test environment (where Astro components render), with
 * jsdom. jsdom ships no types of its own: this declares the little of it used here.
 */
import { createRequire } from 'node:module';

const { JSDOM } = createRequire(import.meta.url)('jsdom') as {
  JSDOM: new (html: string) => { window: { document: Document } };
};

/** The document of a whole page, or of a fragment (put in its body). */
export function parseHtml(html: string): Document {
  return new JSDOM(html).window.document;
}
