/**
 * The menu tree in Arabic: the twin of `navigation` in src/data/navigation.ts, with the same
 * hrefs (unprefixed, exactly as in English) and the same nesting; only the labels change.
 * Where the English menu names a page by its title, this one names it by the Arabic page's title
 * (tests/unit/data-ar.test.ts); proper names (ISO, Schedule Q, Schedule D) stay Latin.
 */
import { ABOUT_HREF, CONTACT_HREF, serviceHref, type NavEntry } from '../navigation';

export const navigation: readonly NavEntry[] = [
  { label: 'من نحن', href: ABOUT_HREF },
  {
    label: 'تدقيق أنظمة الإدارة',
    page: serviceHref('ms-audits'),
    items: [
      { label: 'تقييم الموردين', href: '/MangementSystemAudits/VendorAssessment' },
      { label: 'تقييم الجودة وفق Schedule Q', href: '/MangementSystemAudits/ScheduleQQualityAssessment' },
      { label: 'تقييم السلامة وفق Schedule D', href: '/MangementSystemAudits/ScheduleDSafetyAssessment' },
      { label: 'عمليات تدقيق أخرى (قريبًا)', href: '/MangementSystemAudits/ManagementSystemCertificationAudits' },
    ],
  },
  {
    label: 'التدريب',
    page: serviceHref('trainings'),
    items: [
      {
        label: 'تدريبات ISO',
        items: [
          { label: 'تدريب تطبيق مواصفات ISO', href: '/Trainings/ISOTrainings/ISOImplementationTraining' },
          { label: 'تدريب التوعية بمواصفات ISO', href: '/Trainings/ISOTrainings/ISOAwarenessTraining' },
          { label: 'تدريب التدقيق الداخلي', href: '/Trainings/ISOTrainings/InternalAuditTraining' },
        ],
      },
      { label: 'دورات تدريبية أخرى', href: '/Trainings/OtherTrainings' },
    ],
  },
  {
    label: 'استشارات ISO',
    items: [{ label: 'استشارات ISO', href: '/ISOConsultancy' }],
  },
  {
    label: 'خدمات إدارة المختبرات (17025)',
    page: serviceHref('laboratory-management'),
    items: [
      { label: 'الاستشارات', href: '/LaboratoryQualityManagementSystemServices/Consultancy' },
      { label: 'التدريب', href: '/LaboratoryQualityManagementSystemServices/Training' },
      { label: 'دعم التطبيق', href: '/LaboratoryQualityManagementSystemServices/ImplementationSupport' },
      { label: 'التدقيق الداخلي بواسطة طرف ثالث', href: '/LaboratoryQualityManagementSystemServices/3rdPartyInternalAudit' },
      { label: 'دعم التدقيق الداخلي', href: '/LaboratoryQualityManagementSystemServices/SupportforInternalAudit' },
      {
        label: 'دعم عملية الاعتماد',
        href: '/LaboratoryQualityManagementSystemServices/SupportforAccreditationProcess',
      },
    ],
  },
  {
    label: 'المساندة في التدقيق',
    page: serviceHref('audit-assistance'),
    items: [
      { label: 'التدقيق الداخلي لأنظمة ISO', href: '/AuditAssistance/ISOInternalAudits' },
      { label: 'تدقيق الطرف الثالث لأنظمة ISO', href: '/AuditAssistance/ISOThirdPartyAudits' },
    ],
  },
  { label: 'تواصل معنا', href: CONTACT_HREF },
];
