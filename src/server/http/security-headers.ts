/**
 * Security headers for every answer of the site's own server. public/_headers carries the same
 * set for static hosts (Netlify, Cloudflare Pages); a test keeps the two in step.
 *
 * The content security policy for scripts and styles is in each page's <meta> (Astro hashes
 * them at build); a <meta> policy cannot say frame-ancestors, so the header adds it.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "frame-ancestors 'none'; object-src 'none'; base-uri 'self'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

/** Two years, subdomains included: only sent when the site is told it is served over HTTPS. */
export const HSTS = 'max-age=63072000; includeSubDomains';

/** The headers for one answer; `behindHttps`: BEHIND_HTTPS is "true", or the request came over TLS. */
export function securityHeadersFor({ behindHttps }: { behindHttps: boolean }): Record<string, string> {
  return behindHttps ? { ...SECURITY_HEADERS, 'Strict-Transport-Security': HSTS } : { ...SECURITY_HEADERS };
}

/**
 * One policy from two: Astro's (the hashes of a page rendered on demand, sent as a header) and
 * the server's own directives that it lacks (frame-ancestors, object-src, base-uri, which a
 * <meta> policy cannot carry). Each directive once: where both name it, Astro's stands.
 */
export function mergeCsp(astroPolicy: string, serverPolicy: string = SECURITY_HEADERS['Content-Security-Policy'] ?? ''): string {
  const directives = (policy: string) =>
    policy
      .split(';')
      .map((part) => part.trim())
      .filter((part) => part !== '');
  const named = new Set(directives(astroPolicy).map((d) => d.split(/\s+/)[0]?.toLowerCase()));
  const added = directives(serverPolicy).filter((d) => !named.has(d.split(/\s+/)[0]?.toLowerCase()));
  return [...directives(astroPolicy), ...added].join('; ');
}
