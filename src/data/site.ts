/**
 * The site's data as this build sees it: the company's details (src/data/company.yaml with the
 * build's environment), the home page's words (src/data/home.yaml) and the hero pictures'
 * descriptions, each in the page's language; words not yet translated show in English.
 */
import * as env from 'astro:env/client';
import { companyFile, createSite, siteLinks, type SiteData } from './company';
import { readDataFile } from './data-file';
import { HOME_FILE, homeFileSchema, type Words } from './schemas';
import { heroImages } from './carousels';
import type { Locale, LocaleCode } from '../i18n';

export const site = createSite(env);
export const { phoneHref, emailHref, whatsappHref, addressLine } = siteLinks(site);

type SocialNetwork = SiteData['social'][number]['network'];

/** The company's details in words a visitor reads, in one language (numbers and addresses are the same in all). */
interface SiteWords {
  readonly legalName: string;
  /** The legal name once it is the registered one (no `sample: true`), the National Address once written. */
  readonly registeredName: string | undefined;
  readonly nationalAddress: string | undefined;
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
  registeredName: companyFile.legalName.sample ? undefined : site.legalName,
  nationalAddress: companyFile.nationalAddress?.en,
  mission: site.mission,
  vision2030: site.vision2030,
  locality: site.address.locality,
  country: site.address.country,
  addressLine,
  comma: ', ',
  whatsappHref,
  socialLabel: (network) => site.social.find((profile) => profile.network === network)?.label ?? network,
};

/** The words in Arabic, or the English ones while not yet translated. */
const arabic = (words: Words): string => words.ar ?? words.en;

const WORDS: Readonly<Record<LocaleCode, SiteWords>> = {
  en: englishWords,
  ar: {
    legalName: arabic(companyFile.legalName),
    registeredName: companyFile.legalName.sample ? undefined : arabic(companyFile.legalName),
    nationalAddress: companyFile.nationalAddress ? arabic(companyFile.nationalAddress) : undefined,
    mission: arabic(companyFile.mission),
    vision2030: arabic(companyFile.vision2030),
    locality: arabic(companyFile.address.locality),
    country: arabic(companyFile.address.country),
    addressLine: `${arabic(companyFile.address.locality)}، ${arabic(companyFile.address.country)}`,
    comma: '، ',
    // PUBLIC_SITE_WHATSAPP_GREETING overrides the English greeting only.
    whatsappHref: siteLinks({ ...site, whatsapp: { ...site.whatsapp, greeting: arabic(companyFile.whatsapp.greeting) } }).whatsappHref,
    socialLabel: (network) => arabic(companyFile.socialLabels[network]),
  },
};

export const siteWords = (locale: Locale): SiteWords => WORDS[locale.code];

/** The registration numbers and the privacy notice's review date, once src/data/company.yaml has them. */
export const registration = {
  commercialRegistration: companyFile.commercialRegistration ?? undefined,
  vatNumber: companyFile.vatNumber ?? undefined,
  privacyNoticeReviewed: companyFile.privacyNoticeReviewed ?? undefined,
};

/** A text of the home page in one language; `pending` when it is the English, not yet translated. */
interface HomeWords {
  readonly text: string;
  readonly pending: boolean;
}

const home = readDataFile(HOME_FILE, homeFileSchema);
const inLanguage = (words: Words, code: LocaleCode): HomeWords =>
  code === 'ar' && words.ar !== undefined ? { text: words.ar, pending: false } : { text: words.en, pending: code === 'ar' };

/** `lang` and `dir` for a text shown in English on a page in another language, spread on its element. */
export const pendingAttrs = ({ pending }: { pending?: boolean | undefined }) => (pending ? { lang: 'en', dir: 'ltr' } : {});

/** The home page's words (vision, mission, the two calls, the quality policy) in `locale`. */
export function homeText(locale: Locale) {
  const at = (words: Words) => inLanguage(words, locale.code);
  return {
    vision: at(home.vision),
    mission: at(home.mission),
    customSolution: { title: at(home.customSolution.title), text: at(home.customSolution.text), cta: at(home.customSolution.cta) },
    clients: { text: at(home.clients.text), cta: at(home.clients.cta) },
    qualityPolicy: home.qualityPolicy.map(at),
  };
}

/** The hero pictures' text alternatives in `locale`, in the order of `heroImages`. */
export const heroAltsIn = (locale: Locale): readonly string[] => heroImages.map(({ alts }) => (locale.code === 'ar' ? arabic(alts) : alts.en));
