/** The layout's stylesheet inline only in pages beyond a connection's first flight (src/lib/first-flight.ts). */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { HEADER_BYTES, INITIAL_WINDOW_BYTES, inlineStylesheets, servedBytes } from '../../src/lib/first-flight';

const CSS = 'body{color:#1e293b}.a{margin-inline:1rem}';
const HREF = '/_astro/BaseLayout.abc123.css';
const read = (href: string) => (href === HREF ? CSS : '');

/** A page with `words` of text that does not compress away (each word differs). */
function page(words: number, policy = "default-src 'self'; script-src 'self' 'sha256-x='; style-src 'self' 'sha256-y='"): string {
  let seed = 7;
  const text = Array.from({ length: words }, () => {
    seed = (seed * 48271) % 2147483647;
    return seed.toString(36);
  }).join(' ');
  return `<!doctype html><html><head><meta http-equiv="content-security-policy" content="${policy}"><link rel="stylesheet" href="${HREF}"></head><body><p>${text}</p></body></html>`;
}

describe('the layout stylesheet inline beyond the first flight', () => {
  test('a page that fits in the first flight keeps its link', () => {
    const small = page(500);
    expect(servedBytes(small) + HEADER_BYTES).toBeLessThanOrEqual(INITIAL_WINDOW_BYTES);
    expect(inlineStylesheets(small, read)).toEqual({ html: small, inlined: 0 });
  });

  test("a larger page gets the stylesheet inline in the link's place, and its hash in style-src", () => {
    const large = page(4000);
    expect(servedBytes(large) + HEADER_BYTES).toBeGreaterThan(INITIAL_WINDOW_BYTES);
    const { html, inlined } = inlineStylesheets(large, read);
    expect(inlined).toBe(1);
    const hash = createHash('sha256').update(CSS).digest('base64');
    // Nothing else changes: the rest of the policy and the page are as they were.
    expect(html).toBe(
      large
        .replace(`<link rel="stylesheet" href="${HREF}">`, `<style>${CSS}</style>`)
        .replace("style-src 'self' 'sha256-y='", `style-src 'self' 'sha256-y=' 'sha256-${hash}'`),
    );
  });

  test('a stylesheet that would end a <style> element early stays linked', () => {
    const large = page(4000);
    expect(inlineStylesheets(large, () => 'a::after{content:"</style>"}')).toEqual({ html: large, inlined: 0 });
  });

  test('a large page without style-src in its policy fails the build rather than lose its styles to the policy', () => {
    expect(() => inlineStylesheets(page(4000, "default-src 'self'"), read)).toThrow(/style-src/);
  });
});
