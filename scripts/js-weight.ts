/**
 * How much JavaScript a built page makes the browser download before the visitor interacts:
 * its inline scripts, its module scripts and module preloads, and the islands that hydrate on
 * their own (client:load, client:idle, client:visible, client:media, and client:intent with
 * `afterLoad`), with every chunk those import statically. Of those, `firstView` is what the page
 * may ask for before its load event; `afterLoad` what starts later by itself: the
 * islands client:intent with `afterLoad` and client:visible (on this site always below the
 * fold, so it loads once scrolled to).
 * Islands that wait for the visitor (client:intent) are counted apart. Sizes are gzip level 9,
 * as a host would compress them.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const gzipSize = (text: string | Buffer): number => zlib.gzipSync(text, { level: 9 }).length;
const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/** Static imports of a built module: `import"./x.js"`, `import{a}from"./x.js"`, `export*from"./x.js"`. */
function staticImports(code: string): string[] {
  const out: string[] = [];
  for (const match of code.matchAll(/(?:^|[;\s}])(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?["']([^"']+\.m?js)["']/g))
    out.push(match[1] ?? '');
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

const EAGER = new Set(['load', 'idle', 'media', 'only']);

/** An island `client:intent={{ afterLoad: true }}`: it starts by itself once the page has loaded. */
const startsAfterLoad = (tag: string): boolean => /&quot;afterLoad&quot;:true/.test(attr(tag, 'opts') ?? '');

interface PageJavaScript {
  /** Everything loaded without the visitor: the first view and what starts by itself after the load event. */
  eager: { files: string[]; inlineBytes: number; gzipBytes: number };
  /** What the page may ask for before its load event (inline scripts included). */
  firstView: { files: string[]; gzipBytes: number };
  /** What only islands that start by themselves after the load event need. */
  afterLoad: { files: string[]; gzipBytes: number };
  onInteraction: { files: string[]; gzipBytes: number };
}

export function pageJavaScript(html: string, clientDir: string): PageJavaScript {
  let inlineBytes = 0;
  const eagerEntries = new Set<string>();
  const afterLoadEntries = new Set<string>();
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
    const directive = attr(tag, 'client') ?? '';
    const later = directive === 'visible' || (directive === 'intent' && startsAfterLoad(tag));
    const target = EAGER.has(directive) ? eagerEntries : later ? afterLoadEntries : laterEntries;
    for (const name of ['component-url', 'renderer-url']) {
      const url = attr(tag, name);
      if (url) target.add(url);
    }
  }

  const firstViewFiles = new Set<string>();
  for (const entry of eagerEntries) closure(entry, clientDir, firstViewFiles);
  const afterLoadFiles = new Set<string>();
  for (const entry of afterLoadEntries) closure(entry, clientDir, afterLoadFiles);
  for (const file of firstViewFiles) afterLoadFiles.delete(file);
  const eagerFiles = new Set<string>([...firstViewFiles, ...afterLoadFiles]);
  const laterFiles = new Set<string>();
  for (const entry of laterEntries) closure(entry, clientDir, laterFiles);
  for (const file of eagerFiles) laterFiles.delete(file);

  const sum = (files: Set<string>): number =>
    [...files].reduce((total, file) => total + gzipSize(fs.readFileSync(path.join(clientDir, file))), 0);
  return {
    eager: { files: [...eagerFiles].sort(), inlineBytes, gzipBytes: inlineBytes + sum(eagerFiles) },
    firstView: { files: [...firstViewFiles].sort(), gzipBytes: inlineBytes + sum(firstViewFiles) },
    afterLoad: { files: [...afterLoadFiles].sort(), gzipBytes: sum(afterLoadFiles) },
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

/**
 * The forms' proof-of-work widget (ALTCHA), which a form island imports on the visitor's first
 * focus or press in the form (src/components/islands/use-proof.tsx), so neither measure above
 * counts it: its script with what it imports, its stylesheet and its worker, gzip level 9.
 * Undefined when the build has none.
 */
interface ProofWidgetWeight {
  files: string[];
  scriptGzipBytes: number;
  styleGzipBytes: number;
  workerGzipBytes: number;
  usesBlob: boolean;
}

export function proofWidgetWeight(clientDir: string): ProofWidgetWeight | undefined {
  const dir = path.join(clientDir, '_astro');
  const names = fs.readdirSync(dir);
  const entry = names.find((name) => /^altcha-widget\.[\w-]+\.js$/.test(name));
  if (!entry) return undefined;
  const scripts = closure(`/_astro/${entry}`, clientDir);
  const code = [...scripts].map((file) => fs.readFileSync(path.join(clientDir, file), 'utf8')).join('\n');
  const workers = [...code.matchAll(/new Worker\(\s*[`'"]([^`'"]+\.js)[`'"]/g)].map((match) => match[1] ?? '');
  const styles = names.filter((name) => /^(altcha|altcha-widget)\.[\w-]+\.css$/.test(name)).map((name) => `/_astro/${name}`);
  const size = (files: readonly string[]) =>
    files.reduce((total, file) => total + gzipSize(fs.readFileSync(path.join(clientDir, file))), 0);
  return {
    files: [...scripts, ...styles, ...workers].sort(),
    scriptGzipBytes: size([...scripts]),
    styleGzipBytes: size(styles),
    workerGzipBytes: size(workers),
    usesBlob: /URL\.createObjectURL|["'`]blob:/.test(code),
  };
}
