/**
 * The company's identity and contact details: the one place to change them.
 *
 * Phone, e-mail, the messaging number, its greeting and the social profiles can also be set
 * at build time through environment variables (see README, "Company details"). The defaults
 * below are well-formed examples and must be replaced before going live.
 *
 * The social profiles have no address by default: nobody has confirmed which accounts are the
 * company's. The footer shows an unconfigured network's icon, named, without a link (spec §2:
 * "Four social links with no targets"); a configured one (https only) is a real link.
 *
 * Pure (no Astro imports), so tests and scripts read the same values; src/data/site.ts binds
 * it to the build's environment.
 */
import { z } from 'astro/zod';

/** Build-time overrides, by environment variable name. */
export interface SiteEnv {
  PUBLIC_SITE_PHONE?: string | undefined;
  PUBLIC_SITE_EMAIL?: string | undefined;
  PUBLIC_SITE_WHATSAPP?: string | undefined;
  PUBLIC_SITE_WHATSAPP_GREETING?: string | undefined;
  PUBLIC_SOCIAL_LINKEDIN?: string | undefined;
  PUBLIC_SOCIAL_X?: string | undefined;
  PUBLIC_SOCIAL_INSTAGRAM?: string | undefined;
  PUBLIC_SOCIAL_FACEBOOK?: string | undefined;
}

const siteSchema = z.object({
  name: z.string().min(1),
  legalName: z.string().min(1),
  mission: z.string().min(1),
  vision2030: z.string().min(1),
  /** Shown to people, e.g. "+966 13 000 0000". */
  phone: z.string().regex(/^\+\d[\d ]{6,18}\d$/, 'an international number such as "+966 13 000 0000"'),
  email: z.email(),
  address: z.object({
    locality: z.string().min(1),
    country: z.string().min(1),
    countryCode: z.string().length(2),
  }),
  whatsapp: z.object({
    /** Digits only, with the country code, as wa.me expects. */
    number: z.string().regex(/^\d{8,15}$/, 'digits only, with the country code'),
    greeting: z.string().min(1),
  }),
  social: z
    .array(
      z.object({
        network: z.enum(['linkedin', 'x', 'instagram', 'facebook']),
        label: z.string().min(1),
        /** Only when configured: the company's own profile, over https. */
        url: z.url({ protocol: /^https$/, error: 'a full https:// address' }).optional(),
      }),
    )
    .length(4),
});

export type SiteData = z.infer<typeof siteSchema>;

/** A social address from the environment; an empty value (an unset CI variable) is none. */
const socialUrl = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

/** The company's details, with any overrides from `env`; throws naming the variable's field when one is malformed. */
export function createSite(env: SiteEnv): SiteData {
  const {
    PUBLIC_SITE_PHONE,
    PUBLIC_SITE_EMAIL,
    PUBLIC_SITE_WHATSAPP,
    PUBLIC_SITE_WHATSAPP_GREETING,
    PUBLIC_SOCIAL_LINKEDIN,
    PUBLIC_SOCIAL_X,
    PUBLIC_SOCIAL_INSTAGRAM,
    PUBLIC_SOCIAL_FACEBOOK,
  } = env;
  return siteSchema.parse({
    name: 'Globaq',
    legalName: 'Globaq Quality Assurance and Consultancy',
    mission: 'Simple, Efficient and Timely',
    vision2030:
      'Our work supports Saudi Vision 2030: stronger local industry, world-class quality and a sustainable economy for the Kingdom.',
    phone: PUBLIC_SITE_PHONE ?? '+966 13 000 0000',
    email: PUBLIC_SITE_EMAIL ?? 'info@globaq.example',
    address: { locality: 'Al-Khobar', country: 'Saudi Arabia', countryCode: 'SA' },
    whatsapp: {
      number: PUBLIC_SITE_WHATSAPP ?? '966130000000',
      greeting: PUBLIC_SITE_WHATSAPP_GREETING ?? 'Hello Globaq, I would like to know more about your services.',
    },
    social: [
      { network: 'linkedin', label: 'LinkedIn', url: socialUrl(PUBLIC_SOCIAL_LINKEDIN) },
      { network: 'x', label: 'X', url: socialUrl(PUBLIC_SOCIAL_X) },
      { network: 'instagram', label: 'Instagram', url: socialUrl(PUBLIC_SOCIAL_INSTAGRAM) },
      { network: 'facebook', label: 'Facebook', url: socialUrl(PUBLIC_SOCIAL_FACEBOOK) },
    ],
  });
}

export function siteLinks(site: SiteData) {
  return {
    /** `tel:` target: the shown number without spaces. */
    phoneHref: `tel:${site.phone.replace(/\s+/g, '')}`,
    emailHref: `mailto:${site.email}`,
    whatsappHref: `https://wa.me/${site.whatsapp.number}?text=${encodeURIComponent(site.whatsapp.greeting)}`,
    addressLine: `${site.address.locality}, ${site.address.country}`,
  };
}
