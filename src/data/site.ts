/** The company's details as this build sees them: src/data/company.ts with the build's environment. */
import * as env from 'astro:env/client';
import { createSite, siteLinks, type SiteData } from './company';
import { company as arCompany, addressLine as arAddressLine } from './ar/company';
import { home as enHome, type HomeText } from './home';
import { home as arHome } from './ar/home';
import { heroImages } from './carousels';
import { heroAlts as arHeroAlts } from './ar/carousels';
import { getStandard, type IsoStandard, type IsoStandardId } from './standards';
import { getArabicStandard } from './ar/standards';
import type { Locale, LocaleCode } from '../i18n';

export type { SiteData } from './company';

export const site = createSite(env);
export const { phoneHref, emailHref, whatsappHref, addressLine } = siteLinks(site);

type SocialNetwork = SiteData['social'][number]['network'];

/** The company's details in words a visitor reads, in one language (numbers and addresses are the same in all). */
export interface SiteWords {
  readonly legalName: string;
  readonly mission: string;
  readonly vision2030: string;
  readonly locality: string;
  readonly country: string;
  /** "Al-Khobar, Saudi Arabia"; in Arabic joined with the Arabic comma. */
  readonly addressLine: string;
  /** What joins the parts of a list: ", ", or the Arabic comma. */
  readonly comma: string;
  /** The chat link, its greeting in the page's language. */
  readonly whatsappHref: string;
  readonly socialLabel: (network: SocialNetwork) => string;
}

const englishWords: SiteWords = {
  legalName: site.legalName,
  mission: site.mission,
  vision2030: site.vision2030,
  locality: site.address.locality,
  country: site.address.country,
  addressLine,
  comma: ', ',
  whatsappHref,
  socialLabel: (network) => site.social.find((profile) => profile.network === network)?.label ?? network,
};

const WORDS: Readonly<Record<LocaleCode, SiteWords>> = {
  en: englishWords,
  ar: {
    legalName: arCompany.legalName,
    mission: arCompany.mission,
    vision2030: arCompany.vision2030,
    locality: arCompany.address.locality,
    country: arCompany.address.country,
    addressLine: arAddressLine,
    comma: '، ',
    // PUBLIC_SITE_WHATSAPP_GREETING overrides the English greeting only (src/data/ar/company.ts).
    whatsappHref: siteLinks({ ...site, whatsapp: { ...site.whatsapp, greeting: arCompany.whatsappGreeting } }).whatsappHref,
    socialLabel: (network) => arCompany.socialLabels[network],
  },
};

export const siteWords = (locale: Locale): SiteWords => WORDS[locale.code];

const HOME: Readonly<Record<LocaleCode, HomeText>> = { en: enHome, ar: arHome };
/** The home page text (vision, mission, quality policy) in `locale`. */
export const homeText = (locale: Locale): HomeText => HOME[locale.code];

/** A standard as `locale` shows it: its id and code, and the title and summary in that language. */
export const standardIn = (id: IsoStandardId, locale: Locale): IsoStandard => (locale.code === 'ar' ? getArabicStandard(id) : getStandard(id));

/** The hero pictures' text alternatives in `locale`, in the order of `heroImages`. */
export const heroAltsIn = (locale: Locale): readonly string[] => (locale.code === 'ar' ? arHeroAlts : heroImages.map((image) => image.alt));
