import type { AstroUserConfig } from 'astro';
type CspDirective = NonNullable<Exclude<NonNullable<AstroUserConfig['security']>['csp'], boolean | undefined>['directives']>[number];
export declare function cspDirectives(env: { PUBLIC_CONTACT_ENDPOINT?: string | undefined; PUBLIC_PARTNER_ENDPOINT?: string | undefined }): CspDirective[];
