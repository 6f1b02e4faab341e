/**
 * The public path of the page being rendered. With `build.format: 'file'` Astro reports
 * prerendered pages as "/AboutUs.html" and the home page as "/index.html"; visitors and
 * search engines know them as "/AboutUs" and "/".
 */
export function pagePath(url: URL): string {
  const path = url.pathname.replace(/\.html$/, '').replace(/\/index$/, '/');
  return path === '' ? '/' : path;
}
