/**
 * How much JavaScript a built page makes the browser download before the visitor interacts:
 * its inline scripts, its module scripts and module preloads, and the islands that hydrate on
 * their own (client:load, client:idle, client:visible, client:media), with every chunk those
 * import statically. Islands that wait for the visitor (client:intent) are counted apart.
 * Sizes are gzip level 9, as a host would compress them.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const gzipSize = (text: string | Buffer): number => zlib.gzipSync(text, { level: 9 }).length;
const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** Static imports of a built module: `import"./x.js"`, `import{a}from"./x.js"`, `export*from"./x.js"`. */
function staticImports(code: string): string[] {
  const out: string[] = [];
  for (const match of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?["']([^"']+\.m?js)["']/g)) out.push(match[1] ?? '');
  return out;
}

/** Every file `entry` loads statically, itself included (URL paths). */
function closure(entry: string, clientDir: string, seen: Set<string> = new Set()): Set<string> {
  if (seen.has(entry)) return seen;
  const file = path.join(clientDir, entry);
  if (!fs.existsSync(file)) return seen;
  seen.add(entry);
  const code = fs.readFileSync(file, 'utf8');
  for (const spec of staticImports(code)) closure(path.posix.resolve(path.posix.dirname(entry), spec), clientDir, seen);
  return seen;
}

const EAGER = new Set(['load', 'idle', 'visible', 'media', 'only']);

export interface PageJavaScript {
  eager: { files: string[]; inlineBytes: number; gzipBytes: number };
  onInteraction: { files: string[]; gzipBytes: number };
}

export function pageJavaScript(html: string, clientDir: string): PageJavaScript {
  let inlineBytes = 0;
  const eagerEntries = new Set<string>();
  const laterEntries = new Set<string>();

  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attrs = match[1] ?? '';
    if (/type="application\/(ld\+)?json"/.test(attrs)) continue;
    const src = attr(`<script ${attrs}`, 'src');
    if (src) eagerEntries.add(src);
    else inlineBytes += gzipSize(match[2] ?? '');
  }
  for (const match of html.matchAll(/<link\b[^>]*rel="modulepreload"[^>]*>/g)) {
    const href = attr(match[0], 'href');
    if (href) eagerEntries.add(href);
  }
  for (const match of html.matchAll(/<astro-island\b[^>]*>/g)) {
    const tag = match[0];
    const target = EAGER.has(attr(tag, 'client') ?? '') ? eagerEntries : laterEntries;
    for (const name of ['component-url', 'renderer-url']) {
      const url = attr(tag, name);
      if (url) target.add(url);
    }
  }

  const eagerFiles = new Set<string>();
  for (const entry of eagerEntries) closure(entry, clientDir, eagerFiles);
  const laterFiles = new Set<string>();
  for (const entry of laterEntries) closure(entry, clientDir, laterFiles);
  for (const file of eagerFiles) laterFiles.delete(file);

  const sum = (files: Set<string>): number => [...files].reduce((total, file) => total + gzipSize(fs.readFileSync(path.join(clientDir, file))), 0);
  return {
    eager: { files: [...eagerFiles].sort(), inlineBytes, gzipBytes: inlineBytes + sum(eagerFiles) },
    onInteraction: { files: [...laterFiles].sort(), gzipBytes: sum(laterFiles) },
  };
}

/** The page types of the JavaScript budget, and which built pages belong to each (in either language: /ar is a home page). */
export function pageType(pagePath: string): 'home' | 'form' | 'content' {
  const path = pagePath.replace(/^\/ar(?=\/|$)/, '') || '/';
  if (path === '/') return 'home';
  if (path === '/ContactUs' || path === '/Partner') return 'form';
  return 'content';
}
