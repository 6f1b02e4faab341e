/** How `npm run build` (scripts/build.mjs) reads Astro's output: which lines list written files. */

const plain = (line: string): string => line.replace(/\x1b\[[0-9;]*m/g, '');

/** A line of Astro's listing of written files: "12:00:00   ├─ /AboutUs.html (+5ms)", "12:00:00   ▶ /_astro/x.avif (+1ms) (3/71)". */
export const isListingLine = (line: string): boolean => /^(?:\S+)?\s+(?:├─|└─|▶)\s/.test(plain(line));

/** What a listing line is about: a page, an optimized image, or another file (share image, icon, sitemap). */
export function listingKind(line: string): 'pages' | 'images' | 'other' {
  const text = plain(line);
  if (/▶ \/_astro\//.test(text)) return 'images';
  if (/[├└]─ \S+\.html\b/.test(text)) return 'pages';
  return 'other';
}
