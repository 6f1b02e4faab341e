/**
 * The content security policy's directives beyond script-src and style-src (which Astro fills
 * with hashes at build). connect-src and form-action allow exactly the site itself and the
 * origins of the configured form endpoints, so a site built with external endpoints (a
 * spreadsheet web-script, say) still submits, and nothing else can be reached.
 *
 * @param {{ PUBLIC_CONTACT_ENDPOINT?: string, PUBLIC_PARTNER_ENDPOINT?: string }} env
 * @returns {string[]}
 */
export function cspDirectives(env) {
  const origins = [env.PUBLIC_CONTACT_ENDPOINT, env.PUBLIC_PARTNER_ENDPOINT].flatMap((endpoint) =>
    endpoint && /^https?:\/\//.test(endpoint) ? [new URL(endpoint).origin] : [],
  );
  const sources = ["'self'", ...new Set(origins)].join(' ');
  return [
    "default-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${sources}`,
    `form-action ${sources}`,
    "base-uri 'self'",
    "object-src 'none'",
    "manifest-src 'self'",
  ];
}
