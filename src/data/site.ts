/** The company's details as this build sees them: src/data/company.ts with the build's environment. */
import * as env from 'astro:env/client';
import { createSite, siteLinks } from './company';

export type { SiteData } from './company';

export const site = createSite(env);
export const { phoneHref, emailHref, whatsappHref, addressLine } = siteLinks(site);
