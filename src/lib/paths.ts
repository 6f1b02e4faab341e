/**
 * Page paths: the page being rendered, and the same page in another language. English pages keep the specification's
 * paths; a locale with a `pathPrefix` ("/ar") has them under it: "/" is "/ar", "/AboutUs" is "/ar/AboutUs".
 */

/** The public path of the page being rendered: Astro reports prerendered pages as "/AboutUs.html", "/index.html". */
export function pagePath(url: URL): string {
  const path = url.pathname.replace(/\.html$/, '').replace(/\/index$/, '/');
  return path === '' ? '/' : path;
}

/** A locale as paths see it: the prefix of its pages. */
interface PathLocale {
  readonly pathPrefix: string;
}

/** `path` (unprefixed, maybe with a #fragment) in `locale`: "/AboutUs" → "/ar/AboutUs", "/#services" → "/ar#services". */

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

/** The `[...lang]` parameter of a route the languages share: none for English, "ar" for the Arabic pages under /ar. */
export function langParam(locale: PathLocale): string | undefined {
  return locale.pathPrefix.slice(1) || undefined;
}
