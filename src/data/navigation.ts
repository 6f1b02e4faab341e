/**
 * The menu tree (docs/requirements.md §3): the one source
 * for the desktop menu, the mobile menu, the footer and the sitemap checks.
 *
 * `href` values are absolute and spelled exactly as the specification spells them. A leaf
 * whose page lists ISO standards gets them as children at build time (getNavigation() in src/lib/content.ts).
 */
export interface NavLink {
  readonly label: string;
  readonly href: string;
}

export interface NavGroup {
  readonly label: string;
  readonly items: readonly NavEntry[];
  /**
   * The group's own page, where it has one (its service page): a breadcrumb names the group by a
   * link to it. The menus keep the group a button that opens its list.
   */
  readonly page?: string;
}

export type NavEntry = NavLink | NavGroup;

export function isNavGroup(entry: NavEntry): entry is NavGroup {
  return 'items' in entry;
}

export const HOME_HREF = '/';
export const ABOUT_HREF = '/AboutUs';
/** The specification has the mobile menu link this spelling of the About page. */
export const ABOUT_MOBILE_HREF = '/Aboutus';
export const CONTACT_HREF = '/ContactUs';
export const PARTNER_HREF = '/Partner';
/** The privacy notice (src/content/pages/privacy.mdx), linked from the footer and beside each form's submit button. */
export const PRIVACY_HREF = '/Privacy';
export const THANKS_HREF = '/ThanksPage';

export const serviceHref = (slug: string): string => `/services/${slug}`;


export const navigation: readonly NavEntry[] = [
  { label: 'About Us', href: ABOUT_HREF },
  {
    label: 'Management System Audits',
    page: serviceHref('ms-audits'),
    items: [
      { label: 'Vendor Assessment', href: '/MangementSystemAudits/VendorAssessment' },
      { label: 'Schedule Q Quality Assessment', href: '/MangementSystemAudits/ScheduleQQualityAssessment' },
      { label: 'Schedule D Safety Assessment', href: '/MangementSystemAudits/ScheduleDSafetyAssessment' },
      { label: 'Other Audits (Coming Soon)', href: '/MangementSystemAudits/ManagementSystemCertificationAudits' },
    ],
  },
  {
    label: 'Trainings',
    page: serviceHref('trainings'),
    items: [
      {
        label: 'ISO Trainings',
        items: [
          { label: 'ISO Implementation Training', href: '/Trainings/ISOTrainings/ISOImplementationTraining' },
          { label: 'ISO Awareness Training', href: '/Trainings/ISOTrainings/ISOAwarenessTraining' },
          { label: 'Internal Audit Training', href: '/Trainings/ISOTrainings/InternalAuditTraining' },
        ],
      },
      { label: 'Other Trainings', href: '/Trainings/OtherTrainings' },
    ],
  },
  {
    label: 'ISO Consultancy',
    items: [{ label: 'ISO Consultancy', href: '/ISOConsultancy' }],
  },
  {
    label: 'Laboratory Management Services (17025)',
    page: serviceHref('laboratory-management'),
    items: [
      { label: 'Consultancy', href: '/LaboratoryQualityManagementSystemServices/Consultancy' },
      { label: 'Training', href: '/LaboratoryQualityManagementSystemServices/Training' },
      { label: 'Implementation Support', href: '/LaboratoryQualityManagementSystemServices/ImplementationSupport' },
      { label: '3rd Party Internal Audit', href: '/LaboratoryQualityManagementSystemServices/3rdPartyInternalAudit' },
      { label: 'Support for Internal Audit', href: '/LaboratoryQualityManagementSystemServices/SupportforInternalAudit' },
      {
        label: 'Support for Accreditation Process',
        href: '/LaboratoryQualityManagementSystemServices/SupportforAccreditationProcess',
      },
    ],
  },
  {
    label: 'Audit Assistance',
    page: serviceHref('audit-assistance'),
    items: [
      { label: 'ISO Internal Audits', href: '/AuditAssistance/ISOInternalAudits' },
      { label: 'ISO Third Party Audits', href: '/AuditAssistance/ISOThirdPartyAudits' },
    ],
  },
  { label: 'Contact Us', href: CONTACT_HREF },
];

/** Every link of the tree, depth first, in menu order. */
export function flattenNavigation(entries: readonly NavEntry[] = navigation): NavLink[] {
  return entries.flatMap((entry) => (isNavGroup(entry) ? flattenNavigation(entry.items) : [entry]));
}
