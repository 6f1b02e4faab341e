/**
 * The company's identity and contact details, read from src/data/company.yaml and checked: a malformed value stops the
 * build with a sentence naming the file, the field and what to write. An operator can override a value for one
 * deployment with an environment variable at build time (`SiteEnv`, docs/deploy.md); the build then warns that an edit
 * of the file has no effect (src/integrations/company-details.ts). Pure, so tests and scripts read the same values.
 */
import { z } from 'astro/zod';
import { readDataFile } from './data-file.ts';
import { COMPANY_FILE, companyFileSchema, type CompanyFile } from './schemas.ts';

export { COMPANY_FILE } from './schemas.ts';

/** The file as written, both languages. */
export const companyFile: CompanyFile = readDataFile(COMPANY_FILE, companyFileSchema);

const NETWORKS = ['linkedin', 'x', 'instagram', 'facebook'] as const;

/** The company's details in English, as createSite() checks them (an unset chat number or profile: undefined). */
export const details = {
  name: companyFile.name,
  legalName: companyFile.legalName.en,
  mission: companyFile.mission.en,
  vision2030: companyFile.vision2030.en,
  phone: companyFile.phone,
  email: companyFile.email,
  address: { locality: companyFile.address.locality.en, country: companyFile.address.country.en, countryCode: companyFile.address.countryCode },
  whatsapp: { number: companyFile.whatsapp.number ?? undefined, greeting: companyFile.whatsapp.greeting.en },
  social: Object.fromEntries(NETWORKS.map((network) => [network, companyFile.social[network] ?? undefined])) as Record<
    (typeof NETWORKS)[number],
    string | undefined
  >,
};

export type CompanyDetails = typeof details;

/** An operator's overrides at build time: each variable and the field of `details` it replaces. */
const OVERRIDES = {
  PUBLIC_SITE_PHONE: 'phone',
  PUBLIC_SITE_EMAIL: 'email',
  PUBLIC_SITE_WHATSAPP: 'whatsapp.number',
  PUBLIC_SITE_WHATSAPP_GREETING: 'whatsapp.greeting',
  PUBLIC_SOCIAL_LINKEDIN: 'social.linkedin',
  PUBLIC_SOCIAL_X: 'social.x',
  PUBLIC_SOCIAL_INSTAGRAM: 'social.instagram',
  PUBLIC_SOCIAL_FACEBOOK: 'social.facebook',
} as const;

/** An operator's overrides at build time, by environment variable name. */
export type SiteEnv = { [Variable in keyof typeof OVERRIDES]?: string | undefined };

const siteSchema = z.object({
  name: z.string().min(1, 'write the company name'),
  legalName: z.string().min(1, 'write the company’s legal name'),
  mission: z.string().min(1, 'write the motto'),
  vision2030: z.string().min(1, 'write the sentence on Vision 2030'),
  /** Shown to people, e.g. "+966 13 000 0000". */
  phone: z
    .string()
    .regex(/^\+\d[\d ]{6,18}\d$/, 'write it in international format: "+", the country code, then the number, digits and spaces only, e.g. "+966 13 812 3456" (not "013 812 3456")'),
  email: z.email('write an e-mail address such as "info@globaq.com.sa"'),
  address: z.object({
    locality: z.string().min(1, 'write the city'),
    country: z.string().min(1, 'write the country'),
    countryCode: z.string().length(2, 'write the two-letter country code, e.g. "SA"'),
  }),
  whatsapp: z.object({
    /** Digits only, with the country code, as wa.me expects. */
    number: z.string().regex(/^\d{8,15}$/, 'write digits only, with the country code and no "+" or spaces, e.g. "966501234567" (or leave it out: the chat button then uses the phone number)'),
    greeting: z.string().min(1, 'write the chat’s first message'),
  }),
  social: z
    .array(
      z.object({
        network: z.enum(NETWORKS),
        label: z.string().min(1),
        /** Only when configured: the company's own profile, over https. */
        url: z.url({ protocol: /^https$/, error: 'write the full address, starting with https://, e.g. "https://www.linkedin.com/company/globaq"' }).optional(),
      }),
    )
    .length(NETWORKS.length),
});

export type SiteData = z.infer<typeof siteSchema>;

/** The chat number a phone number gives: its digits, the country code first ("+966 13 000 0000" → "966130000000"). */
export const chatNumberOf = (phone: string): string => phone.replace(/\D/g, '');

/** An environment value, or none when unset or empty (an unset CI variable is often empty). */
const given = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

/** The overrides set in `env`: variable, field, and the value that replaces the file's. */
export function activeOverrides(env: SiteEnv): { variable: keyof SiteEnv; field: string; value: string }[] {
  return (Object.keys(OVERRIDES) as (keyof SiteEnv)[]).flatMap((variable) => {
    const value = given(env[variable]);
    return value === undefined ? [] : [{ variable, field: OVERRIDES[variable], value }];
  });
}

/** Thrown when a detail is malformed: one line per problem, naming where it was written and what to write. */
export class CompanyDetailsError extends Error {
  constructor(problems: readonly string[]) {
    super(`The company's details need a correction:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.name = 'CompanyDetailsError';
  }
}

/**
 * The company's details: the file's with any operator's overrides from `env`, the chat number derived from the phone
 * unless set. Throws a CompanyDetailsError naming the file and field (or the variable) when a value is malformed.
 */
export function createSite(env: SiteEnv, source: CompanyDetails = details): SiteData {
  const phone = given(env.PUBLIC_SITE_PHONE) ?? source.phone;
  const number = given(env.PUBLIC_SITE_WHATSAPP) ?? source.whatsapp.number ?? chatNumberOf(phone);
  const candidate = {
    name: source.name,
    legalName: source.legalName,
    mission: source.mission,
    vision2030: source.vision2030,
    phone,
    email: given(env.PUBLIC_SITE_EMAIL) ?? source.email,
    address: source.address,
    whatsapp: { number, greeting: given(env.PUBLIC_SITE_WHATSAPP_GREETING) ?? source.whatsapp.greeting },
    social: NETWORKS.map((network) => ({
      network,
      label: companyFile.socialLabels[network].en,
      url: given(env[`PUBLIC_SOCIAL_${network.toUpperCase()}` as keyof SiteEnv]) ?? given(source.social[network]),
    })),
  };
  const result = siteSchema.safeParse(candidate);
  if (result.success) return result.data;
  const overridden = new Map(activeOverrides(env).map((override) => [override.field, override.variable]));
  const problems = result.error.issues.map((issue) => {
    // social.0.url is the field social.linkedin of the file.
    const field =
      issue.path[0] === 'social' && typeof issue.path[1] === 'number'
        ? `social.${NETWORKS[issue.path[1]]}`
        : issue.path.map(String).join('.');
    const value = issue.path.reduce<unknown>((at, key) => (at as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], candidate);
    const variable = overridden.get(field);
    const derived = field === 'whatsapp.number' && !variable && source.whatsapp.number === undefined;
    const where = variable
      ? `${variable} (an operator's override of ${field} in the build's environment)`
      : derived
        ? `${COMPANY_FILE}: whatsapp.number, taken from the phone number,`
        : `${COMPANY_FILE}: ${field}`;
    return `${where} is ${JSON.stringify(value)}: ${issue.message}`;
  });
  throw new CompanyDetailsError(problems);
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
