/**
 * What only the company can supply and the site still holds as a placeholder, one line per item naming the file, the
 * field and what to put there: printed by `npm run launch-check`, stopping a production build, listed on each pull
 * request's preview. Reads the data files from `root` when given (the tests check a filled copy).
 */
import { readDataFile } from './data-file.ts';
import { activeOverrides, chatNumberOf, type SiteEnv } from './company.ts';
import { CAROUSELS_FILE, COMPANY_FILE, carouselsFileSchema, companyFileSchema, type CompanyFile } from './schemas.ts';

/** An example address: a domain reserved for examples (RFC 2606), as info@globaq.example. */
const exampleEmail = (email: string) => /\.(example|test|invalid)$|@example\.(com|net|org)$/i.test(email);
/** An example number: seven zeros at its end, as +966 13 000 0000. */
const exampleNumber = (number: string) => /0{7}$/.test(chatNumberOf(number));

/** What confirming each figure means, by its field under `figures`. */
const FIGURES: Record<keyof CompanyFile['figures'], string> = {
  privacyPeriods:
    'with the company and its legal adviser how long the privacy notice says leads, held spam and backups are kept (src/content/pages/privacy.mdx and its Arabic twin)',
  trainingFacts:
    "with the training lead each training page's `course:` facts (days, level, delivery, assessment, certificate) and each Other Trainings course's `duration`",
  aramcoDocuments:
    'against the current Saudi Aramco contracts the names and editions the Schedule Q, Schedule D and vendor assessment pages and the Aramco awareness courses cite (CSAR, WSSM, CSSP, GI 2.100, the assessments at 15% and 60%)',
};

/** The placeholders left, one line each; none when the site is ready to go live. `env` holds the build's overrides. */
export function launchProblems(env: SiteEnv = {}, root?: string): string[] {
  const company = readDataFile(COMPANY_FILE, companyFileSchema, root);
  const { clients } = readDataFile(CAROUSELS_FILE, carouselsFileSchema, root);
  const overrides = new Map(activeOverrides(env).map((override) => [override.field, override]));
  // A value as the build shows it, and where it is written: the file's field, or an operator's variable.
  const shown = (field: string, own: string) => {
    const override = overrides.get(field);
    return override
      ? { value: override.value, where: `${override.variable} (an operator's override of ${field})` }
      : { value: own, where: `${COMPANY_FILE}: ${field}` };
  };
  const phone = shown('phone', company.phone);
  const email = shown('email', company.email);
  const chat = shown('whatsapp.number', company.whatsapp.number ?? '');
  const missing = (field: keyof CompanyFile, what: string) => (company[field] ? [] : [`${COMPANY_FILE}: ${field} is not set: ${what}`]);
  return [
    ...(exampleNumber(phone.value)
      ? [`${phone.where} is "${phone.value}", the example: write the company's number in international format, e.g. "+966 13 812 3456"`]
      : []),
    ...(exampleEmail(email.value)
      ? [`${email.where} is "${email.value}", the example: write the address that answers enquiries, e.g. "info@globaq.com.sa"`]
      : []),
    ...(!exampleNumber(chat.value || phone.value)
      ? []
      : chat.value
        ? [`${chat.where} is "${chat.value}", the example: write the chat number, digits only with the country code, e.g. "966501234567"`]
        : [
            `${COMPANY_FILE}: whatsapp.number is not set, so the chat link calls the example phone: write the chat number (digits only with the country code, e.g. "966501234567"), or replace the phone`,
          ]),
    ...(company.legalName.sample
      ? [
          `${COMPANY_FILE}: legalName is the template's wording ("${company.legalName.en}"): write the name as the commercial registration gives it, in en: and ar:, then delete "sample: true"`,
        ]
      : []),
    ...missing('commercialRegistration', 'write the 10-digit commercial registration (CR) number'),
    ...missing('vatNumber', "write the 15-digit VAT registration number of ZATCA's certificate"),
    ...missing('nationalAddress', 'write the Saudi National Address (building number, street, district, city, postal code, additional number) in en: and ar:'),
    ...missing('privacyNoticeReviewed', 'write the date (YYYY-MM-DD) the company and its legal adviser last reviewed the privacy notice'),
    ...(Object.keys(FIGURES) as (keyof typeof FIGURES)[]).flatMap((figure) =>
      company.figures[figure].confirmed ? [] : [`${COMPANY_FILE}: figures.${figure}.confirmed is false: confirm ${FIGURES[figure]}, then write true`],
    ),
    ...clients.flatMap(({ name, sample }, i) =>
      sample
        ? [
            `${CAROUSELS_FILE}: clients entry ${i + 1} (${name}) is a sample logo: put a real client's logo (with its permission) in "image" and its name in "name", then delete "sample: true"`,
          ]
        : [],
    ),
  ];
}

/** The list as the build and `npm run launch-check` print it. */
export const launchReport = (problems: readonly string[]): string =>
  `Not ready to go live: ${problems.length} placeholder${problems.length === 1 ? '' : 's'} only the company can replace (docs/deploy.md, "Before a release"):\n${problems.map((problem) => `  ${problem}`).join('\n')}`;
