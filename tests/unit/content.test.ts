/**
 * Content integrity (spec §2, §3, §9): the catalogue, the menu, and the facts each page must
 * carry.
 */
import { describe, expect, test } from 'vitest';
import { loadPages, loadServices } from '../helpers/content';
import { orderServices, otherServices } from '../../src/lib/catalogue';
import { ABOUT_HREF, flattenNavigation, isNavGroup, navigation } from '../../src/data/navigation';
import { ISO_STANDARDS } from '../../src/data/standards';

const SPEC_SLUGS = [
  'ms-audits',
  'trainings',
  'audit-assistance',
  'laboratory-management',
  'iso-consultancy',
  'ccc-consultancy',
  'ai-solutions',
  'erp-solutions',
  'it-solutions',
  'sustainability-esg',
  'circular-economy',
  'csr-solutions',
];

const services = orderServices(loadServices().map((s) => ({ ...s, slug: s.id, order: s.data.order, title: s.data.title })));
const pages = loadPages();
const pageAt = (route: string) => {
  const page = pages.find((p) => p.data.route === route);
  if (!page) throw new Error(`no page for route ${route}`);
  return page;
};
const allIds = ISO_STANDARDS.map((s) => s.id);

describe('service catalogue', () => {
  test('starts with the 12 services of the specification, in its order; services added later follow', () => {
    expect(services.slice(0, SPEC_SLUGS.length).map((s) => s.slug)).toEqual(SPEC_SLUGS);
    for (const service of services) expect(service.slug, service.filePath).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
  });

  test('every service has a title, a short and a full description', () => {
    for (const service of services) {
      expect(service.data.title.length, service.filePath).toBeGreaterThan(2);
      expect(service.data.shortDescription.length, service.filePath).toBeGreaterThan(39);
      expect(service.body.trim().split(/\s+/).length, `${service.filePath} body words`).toBeGreaterThan(100);
    }
  });

  test('each service page links the first three other services in definition order', () => {
    const others = (slug: string) => otherServices(services, slug).map((s) => s.slug);
    expect(others('ms-audits')).toEqual(['trainings', 'audit-assistance', 'laboratory-management']);
    expect(others('trainings')).toEqual(['ms-audits', 'audit-assistance', 'laboratory-management']);
    expect(others('laboratory-management')).toEqual(['ms-audits', 'trainings', 'audit-assistance']);
    expect(others('csr-solutions')).toEqual(['ms-audits', 'trainings', 'audit-assistance']);
    for (const slug of SPEC_SLUGS) {
      expect(others(slug)).toHaveLength(3);
      expect(others(slug)).not.toContain(slug);
    }
  });
});

describe('navigation and pages', () => {
  const links = flattenNavigation();
  const internal = links.filter((l) => l.href.startsWith('/'));

  test('the menu groups of the specification, in order', () => {
    expect(navigation.filter(isNavGroup).map((g) => g.label)).toEqual([
      'Management System Audits',
      'Trainings',
      'ISO Consultancy',
      'Laboratory Management Services (17025)',
      'Audit Assistance',
    ]);
  });

  test('every menu destination of the specification, spelled exactly', () => {
    const expected = [
      '/MangementSystemAudits/VendorAssessment',
      '/MangementSystemAudits/ScheduleQQualityAssessment',
      '/MangementSystemAudits/ScheduleDSafetyAssessment',
      '/MangementSystemAudits/ManagementSystemCertificationAudits',
      '/Trainings/ISOTrainings/ISOImplementationTraining',
      '/Trainings/ISOTrainings/ISOAwarenessTraining',
      '/Trainings/ISOTrainings/InternalAuditTraining',
      '/Trainings/OtherTrainings',
      '/ISOConsultancy',
      '/LaboratoryQualityManagementSystemServices/Consultancy',
      '/LaboratoryQualityManagementSystemServices/Training',
      '/LaboratoryQualityManagementSystemServices/ImplementationSupport',
      '/LaboratoryQualityManagementSystemServices/3rdPartyInternalAudit',
      '/LaboratoryQualityManagementSystemServices/SupportforInternalAudit',
      '/LaboratoryQualityManagementSystemServices/SupportforAccreditationProcess',
      '/AuditAssistance/ISOInternalAudits',
      '/AuditAssistance/ISOThirdPartyAudits',
    ];
    for (const href of expected) expect(internal.map((l) => l.href)).toContain(href);
    const certification = links.find((l) => l.href === '/MangementSystemAudits/ManagementSystemCertificationAudits');
    expect(certification?.label).toBe('Other Audits (Coming Soon)');
    const trainings = navigation.find((e) => e.label === 'Trainings');
    expect(trainings && isNavGroup(trainings) && trainings.items.map((i) => i.label)).toEqual(['ISO Trainings', 'Other Trainings']);
  });

  test('every content page route is reachable from the menu, and every menu page has content', () => {
    const pageHrefs = pages.map((p) => `/${p.data.route}`).sort();
    const menuPageHrefs = internal.map((l) => l.href).filter((h) => !['/ContactUs'].includes(h)).sort();
    expect(pageHrefs).toEqual(menuPageHrefs);
    expect(pageHrefs).toContain(ABOUT_HREF);
  });

  test('no two routes differ only in letter case', () => {
    const lower = pages.map((p) => p.data.route.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
  });
});

describe('facts each page must carry', () => {
  test('ISO consultancy, implementation and awareness pages list all 11 standards in order', () => {
    for (const route of ['ISOConsultancy', 'Trainings/ISOTrainings/ISOImplementationTraining', 'Trainings/ISOTrainings/ISOAwarenessTraining']) {
      expect(pageAt(route).data.standards, route).toEqual(allIds);
    }
    expect(allIds).toHaveLength(11);
    expect(ISO_STANDARDS.map((s) => s.code)).toEqual([
      'ISO/IEC 17025:2017',
      'ISO/IEC 17020:2012',
      'ISO 9001:2015',
      'ISO 14001:2015',
      'ISO 45001:2018',
      'ISO 22000:2018',
      'ISO 55001:2014',
      'ISO 31000:2018',
      'ISO 59004:2024',
      'ISO 59010:2024',
      'ISO 59020:2024',
    ]);
  });

  test('the internal audit training lists only the first six standards and is a two-day programme', () => {
    const page = pageAt('Trainings/ISOTrainings/InternalAuditTraining');
    expect(page.data.standards).toEqual(allIds.slice(0, 6));
    expect(page.body).toMatch(/two-day programme/i);
  });

  test('Other Trainings lists the 15 trainings, each named in full', () => {
    const courses = pageAt('Trainings/OtherTrainings').data.courses ?? [];
    expect(courses).toHaveLength(15);
    const titles = courses.map((c) => c.title).join('\n');
    for (const name of [
      'Six Sigma',
      'Lean Six Sigma',
      '5S',
      'ESG',
      'SDGs',
      'Circular Economy',
      'Risk Assessment',
      'Root Cause Analysis',
      'HACCP',
      'HIRAC',
      'Saudi Aramco Schedule Q Awareness Training',
      'Saudi Aramco Schedule D Awareness Training',
      'Saudi Aramco Construction Safety Manual (CSM) Awareness Training',
      '(CSAR) Awareness Training',
      '(WSSM) Awareness Training',
    ]) {
      expect(titles).toContain(name);
    }
    expect(new Set(courses.map((c) => c.id)).size).toBe(15);
  });

  test('Laboratory Training has six courses, each with its own anchor', () => {
    const courses = pageAt('LaboratoryQualityManagementSystemServices/Training').data.courses ?? [];
    expect(courses).toHaveLength(6);
    expect(new Set(courses.map((c) => c.id)).size).toBe(6);
  });

  test('Schedule Q assessments at 15% and 60% project completion', () => {
    const body = pageAt('MangementSystemAudits/ScheduleQQualityAssessment').body;
    expect(body).toMatch(/15%/);
    expect(body).toMatch(/60%/);
    expect(body).toMatch(/project completion/);
  });

  test('the certification audits page says "This Page will be Updated Soon"', () => {
    // Its own paragraph, word for word (spec §2).
    expect(pageAt('MangementSystemAudits/ManagementSystemCertificationAudits').body.split(/\n\s*\n/).map((p) => p.trim())).toContain('This Page will be Updated Soon');
  });

  test('About has Introduction, Who We Are and What We Do, and a list of major services', () => {
    const body = pageAt('AboutUs').body;
    const headings = [...body.matchAll(/^## (.+)$/gm)].map((m) => m[1]?.trim());
    expect(headings).toEqual(['Introduction', 'Who We Are', 'What We Do']);
    const whatWeDo = body.split('## What We Do')[1] ?? '';
    expect(whatWeDo.match(/^- /gm)?.length ?? 0).toBeGreaterThanOrEqual(8);
  });
});
