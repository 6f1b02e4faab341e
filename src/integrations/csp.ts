import type { AstroUserConfig } from 'astro';

type CspDirective = NonNullable<
  Exclude<NonNullable<AstroUserConfig['security']>['csp'], boolean | undefined>['directives']
>[number];

/**
 * The CSP's directives beyond script-src and style-src (Astro fills those with hashes): connect-src and form-action allow
 * exactly the site and its configured form endpoints' origins, so an external endpoint still works and nothing else can.
 */
export function cspDirectives(env: {
  PUBLIC_CONTACT_ENDPOINT?: string | undefined;
  PUBLIC_PARTNER_ENDPOINT?: string | undefined;
}): CspDirective[] {
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
