/**
 * Page paths: what Astro reports for the page being rendered, and the same page in another
 * language. English pages keep the specification's paths; a locale with a `pathPrefix` ("/ar")
 * has the same rest of the path under it: "/" is "/ar", "/AboutUs" is "/ar/AboutUs".
 */

/**
 * The public path of the page being rendered. With `build.format: 'file'` Astro reports
 * prerendered pages as "/AboutUs.html" and the home page as "/index.html"; visitors and
 * search engines know them as "/AboutUs" and "/" (and the Arabic home, "/ar.html", as "/ar").
 */
export function pagePath(url: URL): string {
  const path = url.pathname.replace(/\.html$/, '').replace(/\/index$/, '/');
  return path === '' ? '/' : path;
}

/** A locale as paths see it: the prefix of its pages. */
interface PathLocale {
  readonly pathPrefix: string;
}

/**
 * The path `path` (unprefixed, as the specification spells it, maybe with a #fragment) in
 * `locale`: "/AboutUs" → "/ar/AboutUs", "/" → "/ar", "/#services" → "/ar#services".
 */
export function localizePath(path: string, locale: PathLocale): string {
  if (!locale.pathPrefix) return path;
  const hash = path.indexOf('#');
  const [pathname, fragment] = hash < 0 ? [path, ''] : [path.slice(0, hash), path.slice(hash)];
  return `${pathname === '/' ? locale.pathPrefix : `${locale.pathPrefix}${pathname}`}${fragment}`;
}

/** The unprefixed path of a page of `locale`: "/ar/AboutUs" → "/AboutUs", "/ar" → "/". */
export function unlocalizePath(path: string, locale: PathLocale): string {
  const prefix = locale.pathPrefix;
  if (!prefix) return path;
  if (path === prefix) return '/';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : path;
}

/**
 * The `[...lang]` parameter of a route shared by the languages (src/pages/[...lang]/): none for
 * English, whose pages stand at the root, "ar" for the Arabic ones under /ar.
 */
export function langParam(locale: PathLocale): string | undefined {
  return locale.pathPrefix.slice(1) || undefined;
}
