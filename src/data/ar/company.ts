/**
 * The words of the company's details in Arabic (src/data/company.ts keeps the numbers, the
 * e-mail, the country code and the addresses; only what a visitor reads as words is here).
 * Globaq stays in Latin letters; the networks are written as Saudi readers write them (as
 * "واتساب" in src/i18n/ar.ts).
 */
import type { SiteData } from '../company';

type SocialNetwork = SiteData['social'][number]['network'];

export interface CompanyText {
  readonly legalName: string;
  /** The motto "Simple, Efficient and Timely". */
  readonly mission: string;
  readonly vision2030: string;
  readonly address: { readonly locality: string; readonly country: string };
  /** The default first message of a WhatsApp chat (PUBLIC_SITE_WHATSAPP_GREETING overrides the English one only). */
  readonly whatsappGreeting: string;
  /** Each social network's name, as the footer's icons name it. */
  readonly socialLabels: Readonly<Record<SocialNetwork, string>>;
}

export const company = {
  legalName: 'Globaq لضمان الجودة والاستشارات',
  mission: 'ببساطة وكفاءة وفي الوقت المحدد',
  vision2030: 'يدعم عملنا رؤية السعودية 2030: صناعة وطنية أقوى، وجودة بمستوى عالمي، واقتصاد مستدام للمملكة.',
  address: { locality: 'الخبر', country: 'المملكة العربية السعودية' },
  whatsappGreeting: 'مرحبًا Globaq، أودّ معرفة المزيد عن خدماتكم.',
  socialLabels: {
    linkedin: 'لينكدإن',
    x: 'إكس',
    instagram: 'إنستغرام',
    facebook: 'فيسبوك',
  },
} as const satisfies CompanyText;

/** The address as one line, joined with the Arabic comma (siteLinks() in company.ts joins with ", "). */
export const addressLine = `${company.address.locality}، ${company.address.country}`;
