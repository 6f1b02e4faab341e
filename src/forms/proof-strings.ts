/**
 * What a page hands a form island beside its words: where it posts, the company's direct contact, and the proof-of-work
 * widget's settings, its words taken at build time from the widget's own translations (`altcha/i18n/<code>`), so no
 * script carries a language's words. English is the widget's own.
 */
import 'altcha/i18n/ar';
import { PRIVACY_HREF } from '../data/navigation';
import { phoneHref, site } from '../data/site';
import { localizePath } from '../lib/paths';
import type { Locale } from '../i18n/index.ts';
import { endpointForLanguage, isOwnReceiver } from './submit.ts';

/** Where the widget asks the site's own receiver for a challenge (src/pages/api/challenge.ts). */
export const CHALLENGE_PATH = '/api/challenge';

interface AltchaI18n {
  get(name: string): Record<string, string> | undefined;
}

/** The widget's strings for a language other than English; undefined for English. */
export function proofStrings(language: string): Readonly<Record<string, string>> | undefined {
  if (language === 'en') return undefined;
  const i18n = (globalThis as unknown as { $altcha?: { i18n: AltchaI18n } }).$altcha?.i18n;
  const strings = i18n?.get(language);
  if (!strings) return undefined;
  // The footer's attribution (a link to a third party) is hidden; the rest is the widget's words.
  const { footer: _footer, ariaLinkLabel: _link, ...rest } = strings;
  return rest;
}

/** A form island's endpoint, direct contact and proof of work on a page in `locale`; an external endpoint gets no proof. */
export function formIslandProps(endpoint: string, locale: Locale) {
  return {
    endpoint: endpointForLanguage(endpoint, locale.code),
    direct: { email: site.email, phone: site.phone, phoneHref, privacyHref: localizePath(PRIVACY_HREF, locale) },
    proof: {
      challengeUrl: isOwnReceiver(endpoint) ? CHALLENGE_PATH : undefined,
      language: locale.code,
      strings: proofStrings(locale.code),
    },
  };
}
