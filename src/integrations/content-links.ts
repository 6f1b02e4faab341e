/**
 * Every internal link and #anchor in src/content and src/data reaches a page and an id of the
 * site, each broken one named by file and line with the page probably meant. Checked twice: the
 * pages from the sources alone before anything is built (sourceSite: a link to no page stops the
 * build, and `npm run check:content`, in seconds), and the pages and their ids once built
 * (readBuiltSite: an anchor no page has). Plain Node, no Astro imports.
 */
import fs from 'node:fs';
import path from 'node:path';
import { nearestField } from '../data/data-file.ts';
import {
  CONTENT_DIR,
  TRUST_DIRS,
  listMdx,
  listYaml,
  pageOfContent,
  type ContentProblem,
  type TrustDir,
} from './content-rules.ts';

/** Each trust collection's page, built once the collection has an entry. */
export const TRUST_ROUTES: Readonly<Record<TrustDir, string>> = {
  team: 'OurTeam',
  credentials: 'Credentials',
  cases: 'CaseStudies',
};

/** An internal link as written in a source file. */
interface SourceLink {
  readonly file: string;
  readonly line: number;
  /** As written: "/Trainings/OtherTrainings#six-sigma", "#overview". */
  readonly href: string;
  /** The page the link sits on, for links to an anchor on the same page ("#overview"). */
  readonly page?: string | undefined;
}

/** Internal links in MDX: Markdown links and href attributes whose target starts with "/" or "#". */
export function linksInContent(file: string, text: string): SourceLink[] {
  const page = pageOfContent(file, text);
  const links: SourceLink[] = [];
  text.split('\n').forEach((line, i) => {
    for (const match of line.matchAll(/\]\(\s*<?([/#][^)\s>]*)>?(?:\s+"[^"]*")?\s*\)|\bhref=["']([/#][^"']*)["']/g)) {
      const href = match[1] ?? match[2];
      if (href && !href.startsWith('//')) links.push({ file, line: i + 1, href, page });
    }
  });
  return links;
}

/**
 * Internal links in data: in a module, string literals that are site paths ('/AboutUs',
 * "/ContactUs#form"); in a YAML data file, the values of `href:` and `page:`.
 */
export function linksInData(file: string, text: string): SourceLink[] {
  const links: SourceLink[] = [];
  if (file.endsWith('.yaml')) {
    text.split('\n').forEach((line, i) => {
      const href = /^\s*(?:-\s+)?(?:href|page):\s*["']?(\/[^\s"'#]*(?:#[\w-]+)?)["']?\s*$/.exec(line)?.[1];
      if (href) links.push({ file, line: i + 1, href });
    });
    return links;
  }
  text.split('\n').forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    for (const match of line.matchAll(/(['"`])(\/(?:[A-Za-z0-9][\w./-]*)?(?:#[\w-]+)?)\1/g)) {
      links.push({ file, line: i + 1, href: match[2]! });
    }
  });
  return links;
}

/** Every internal link in the project's content (src/content) and data (src/data). */
export function sourceLinks(root: string): SourceLink[] {
  const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
  const data = fs
    .readdirSync(path.join(root, 'src/data'), { withFileTypes: true, recursive: true })
    .filter((d) => d.isFile() && /\.(ts|js|mjs|json|yaml)$/.test(d.name))
    .map((d) => path.relative(root, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
  return [
    ...listMdx(root, CONTENT_DIR).flatMap((file) => linksInContent(file, read(file))),
    ...data.flatMap((file) => linksInData(file, read(file))),
  ];
}

/** The site as links see it: each page's path and the ids on it (undefined before the build: not checked). */
type BuiltSite = ReadonlyMap<string, ReadonlySet<string> | undefined>;

/** The host's 200 rewrites in a _redirects file (/Aboutus → /AboutUs), added to `site` as pages. */
function addRewrites(site: Map<string, ReadonlySet<string> | undefined>, file: string): void {
  if (!fs.existsSync(file)) return;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const [from, to, status] = line.trim().split(/\s+/);
    if (status === '200' && from && to && !from.includes('*') && site.has(to)) site.set(from, site.get(to));
  }
}

/**
 * The pages the build writes, from the sources alone: the fixed routes of src/pages, each content
 * page and service in both languages, the trust pages of the collections with entries, and the
 * rewrites of public/_redirects. Their ids are known only once built.
 */
export function sourceSite(root: string): BuiltSite {
  const pages = path.join(root, 'src/pages');
  const fixed = fs
    .readdirSync(pages, { withFileTypes: true, recursive: true })
    .map((d) => path.relative(pages, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .filter((rel) => /\.(astro|ts)$/.test(rel) && !/\[|(^|\/)_/.test(rel))
    .map((rel) => `/${rel.replace(/\.(astro|ts)$/, '').replace(/(^|\/)index$/, '')}`);
  const english = [
    ...['pages', 'services']
      .flatMap((dir) => listMdx(root, `${CONTENT_DIR}/${dir}`))
      .flatMap((file) => pageOfContent(file, fs.readFileSync(path.join(root, file), 'utf8')) ?? []),
    ...TRUST_DIRS.filter((dir) => listYaml(root, `${CONTENT_DIR}/${dir}`).length > 0).map((dir) => `/${TRUST_ROUTES[dir]}`),
  ];
  const site = new Map<string, undefined>(
    [...fixed, ...english, ...english.map((page) => `/ar${page}`)].map((page) => [page, undefined]),
  );
  addRewrites(site, path.join(root, 'public/_redirects'));
  return site;
}

/**
 * The pages and ids of a static build (dist/client): AboutUs.html is /AboutUs, index.html is /,
 * ar.html is /ar; the host's 200 rewrites in _redirects (/Aboutus → /AboutUs) count as pages.
 */
export function readBuiltSite(dir: string): BuiltSite {
  const site = new Map<string, ReadonlySet<string> | undefined>();
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    const html = fs.readFileSync(path.join(dir, rel), 'utf8');
    const ids = new Set([...html.matchAll(/\sid=["']?([^"'\s>]+)/g)].map((m) => m[1]!));
    const page = rel === 'index.html' ? '/' : `/${rel.replace(/(\/index)?\.html$/, '')}`;
    site.set(page, ids);
  }
  addRewrites(site, path.join(dir, '_redirects'));
  return site;
}

/** Files that are not pages (/favicon.ico, /og/x.png) exist when the build wrote them. */
function isAsset(pathname: string): boolean {
  return /\.[a-z0-9]+$/i.test(pathname) && !pathname.endsWith('.html');
}

/** Links whose page or anchor the built site lacks, each naming the file and line that holds it. */
export function brokenLinks(
  links: readonly SourceLink[],
  site: BuiltSite,
  assetExists: (pathname: string) => boolean = () => true,
): ContentProblem[] {
  const problems: ContentProblem[] = [];
  for (const link of links) {
    const [target = '', anchor] = link.href.split('#') as [string, string | undefined];
    const pathname = target === '' ? link.page : target.replace(/\?.*$/, '').replace(/\/$/, '') || '/';
    if (pathname === undefined) continue;
    if (isAsset(pathname)) {
      if (!assetExists(pathname))
        problems.push({
          file: link.file,
          line: link.line,
          message: `the link "${link.href}" goes to no file of the site: check the spelling`,
        });
      continue;
    }
    const ids = site.get(pathname);
    if (!site.has(pathname)) {
      const near = nearestField(pathname, [...site.keys()]);
      const slip = near?.toLowerCase() === pathname.toLowerCase() ? ' (paths are case-sensitive)' : '';
      problems.push({
        file: link.file,
        line: link.line,
        message: `the link "${link.href}" goes to no page of the site${near ? `: did you mean "${near}${anchor ? `#${anchor}` : ''}"?${slip}` : ": check the path against the page's route (its front matter) or the menu (src/data/navigation.yaml)"}`,
      });
    } else if (anchor && ids && !ids.has(anchor)) {
      problems.push({
        file: link.file,
        line: link.line,
        message: `the link "${link.href}" goes to an anchor that page ${pathname} does not have: "#${anchor}" matches no heading, course or standard id there`,
      });
    }
  }
  return problems;
}
