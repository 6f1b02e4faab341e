/**
 * Content integrity (docs/requirements.md §3, §5, §6): the catalogue, the menu, and the facts each page must
 * carry.
 */
import { describe, expect, test } from 'vitest';
import { loadPages, loadServices } from '../helpers/content';
import { orderServices, otherServices } from '../../src/lib/catalogue';
import { ABOUT_HREF, PRIVACY_HREF, flattenNavigation, isNavGroup, navigation, navigationIn } from '../../src/data/navigation';
import { ISO_STANDARDS } from '../../src/data/standards';
import { pagesServing } from '../../src/data/service-pages';

import { readContentDir } from '../helpers/frontmatter';
import { SPEC_SERVICE_SLUGS as SPEC_SLUGS, SPEC_STANDARDS, SPEC_TRAININGS } from '../helpers/requirements';

const services = orderServices(loadServices().map((s) => ({ ...s, slug: s.id, order: s.data.order, title: s.data.title })));
const pages = loadPages();
const pageAt = (route: string) => {
  const page = pages.find((p) => p.data.route === route);
  if (!page) throw new Error(`no page for route ${route}`);
  return page;
};
/** The specification's standards' ids, in its order: an editor's standard may stand anywhere among them. */
const specIds = SPEC_STANDARDS.map((code) => ISO_STANDARDS.find((s) => s.code === code)?.id ?? code);

describe('service catalogue', () => {
  test('starts with the services of the specification, in its order; services added later follow', () => {
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
    for (const { slug } of services) {
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
    expect(trainings && isNavGroup(trainings) && trainings.items.map((i) => i.label)).toEqual([
      'ISO Trainings',
      'Other Trainings',
    ]);
  });

  test('every content page route is reachable from the menu (the privacy notice from the footer), and every menu page has content', () => {
    expect(pages.map((p) => `/${p.data.route}`)).toContain(PRIVACY_HREF);
    const pageHrefs = pages
      .map((p) => `/${p.data.route}`)
      .filter((h) => h !== PRIVACY_HREF)
      .sort();
    const menuPageHrefs = internal
      .map((l) => l.href)
      .filter((h) => !['/ContactUs'].includes(h))
      .sort();
    expect(pageHrefs).toEqual(menuPageHrefs);
    expect(pageHrefs).toContain(ABOUT_HREF);
  });

  test('no two routes differ only in letter case', () => {
    const lower = pages.map((p) => p.data.route.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
  });
});

describe('titles that say what the service is', () => {
  // The routes stay the specification's; the words in the menu and the page's heading say what is done.
  const TITLES = {
    '/LaboratoryQualityManagementSystemServices/3rdPartyInternalAudit': {
      en: 'Outsourced Internal Audit',
      ar: 'التدقيق الداخلي بالإسناد الخارجي',
    },
    '/AuditAssistance/ISOThirdPartyAudits': { en: 'Certification Audit Support', ar: 'دعم تدقيق منح الشهادة' },
  } as const;

  for (const language of ['en', 'ar'] as const) {
    test(`the outsourced internal audit and certification audit support pages, in the ${language} menu and headings`, () => {
      const menu = flattenNavigation(navigationIn(language));
      const entries = readContentDir(language === 'en' ? 'pages' : 'ar/pages');
      for (const [href, title] of Object.entries(TITLES)) {
        expect(menu.find((link) => link.href === href)?.label, href).toBe(title[language]);
        const page = entries.find((entry) => `/${String(entry.frontmatter.route)}` === href);
        expect(page?.frontmatter.title, href).toBe(title[language]);
      }
      // The contradictory names are gone from every menu entry, heading and link text.
      const words = [
        ...menu.map((link) => link.label),
        ...entries.map((entry) => `${String(entry.frontmatter.title)}\n${entry.body}`),
      ];
      for (const old of [
        '3rd Party Internal Audit',
        'ISO Third Party Audits',
        'بواسطة طرف ثالث',
        'تدقيق الطرف الثالث لأنظمة ISO',
      ]) {
        expect(
          words.filter((text) => text.includes(old)),
          old,
        ).toEqual([]);
      }
    });
  }
});

describe('facts each page must carry', () => {
  test("ISO consultancy, implementation and awareness pages list the specification's eleven standards, in order", () => {
    // A standard an editor adds may be listed or not: the specification names these.
    for (const route of [
      'ISOConsultancy',
      'Trainings/ISOTrainings/ISOImplementationTraining',
      'Trainings/ISOTrainings/ISOAwarenessTraining',
    ]) {
      expect(
        (pageAt(route).data.standards ?? []).filter((id) => specIds.includes(id)),
        route,
      ).toEqual(specIds);
    }
  });

  test('the internal audit training lists only the first six standards and is a two-day program', () => {
    const page = pageAt('Trainings/ISOTrainings/InternalAuditTraining');
    // Of the specification's standards, its first six; a standard an editor adds may be listed too.
    expect((page.data.standards ?? []).filter((id) => specIds.includes(id))).toEqual(specIds.slice(0, 6));
    expect(page.body).toMatch(/two-day (program|programme|course)/i);
  });

  test('Other Trainings lists every training of the specification, each named in full and with its own anchor', () => {
    const courses = pageAt('Trainings/OtherTrainings').data.courses ?? [];
    const titles = courses.map((c) => c.title).join('\n');
    for (const name of SPEC_TRAININGS) expect(titles).toContain(name);
    expect(new Set(courses.map((c) => c.id)).size).toBe(courses.length);
  });

  test('Laboratory Training gives each course its own anchor', () => {
    const courses = pageAt('LaboratoryQualityManagementSystemServices/Training').data.courses ?? [];
    expect(courses.length).toBeGreaterThan(0);
    expect(new Set(courses.map((c) => c.id)).size).toBe(courses.length);
  });

  test('Schedule Q assessments at 15% and 60% project completion', () => {
    const body = pageAt('MangementSystemAudits/ScheduleQQualityAssessment').body;
    expect(body).toMatch(/15%/);
    expect(body).toMatch(/60%/);
    expect(body).toMatch(/\bcomplet(e|ed|ion)\b/i);
  });

  test('the certification audits page says "This Page will be Updated Soon"', () => {
    // Its own paragraph, word for word (docs/requirements.md §6).
    expect(
      pageAt('MangementSystemAudits/ManagementSystemCertificationAudits')
        .body.split(/\n\s*\n/)
        .map((p) => p.trim()),
    ).toContain('This Page will be Updated Soon');
  });

  test('About has Introduction, Who We Are and What We Do, and a list of major services', () => {
    const body = pageAt('AboutUs').body;
    const headings = [...body.matchAll(/^## (.+)$/gm)].map((m) => m[1]?.trim());
    expect(headings).toEqual(['Introduction', 'Who We Are', 'What We Do']);
    const whatWeDo = body.split('## What We Do')[1] ?? '';
    expect(whatWeDo.match(/^- /gm)?.length ?? 0).toBeGreaterThanOrEqual(8);
  });
});

describe('the pages that serve each service (src/data/service-pages.ts)', () => {
  test('every route listed is a content page in both languages, and every menu group page is listed under its service', () => {
    const routes = new Set(pages.map((page) => `/${page.data.route}`));
    for (const service of services) {
      for (const route of pagesServing(service.slug)) {
        expect(routes, `${service.slug}: ${route}`).toContain(route);
        // Its Arabic twin may be pending: /ar shows the English page until it exists (src/lib/content.ts).
      }
    }
    for (const group of navigation.filter(isNavGroup).filter((entry) => entry.page)) {
      const slug = group.page!.replace('/services/', '');
      expect(pagesServing(slug)).toEqual(expect.arrayContaining(flattenNavigation(group.items).map((link) => link.href)));
    }
    expect(pagesServing('trainings')).toContain('/LaboratoryQualityManagementSystemServices/Training');
    expect(pagesServing('iso-consultancy')).toContain('/ISOConsultancy');
  });
});

describe('training promises the pages can keep', () => {
  test('the trainings service names each kind of certificate the course pages give', () => {
    const kinds = new Set(
      pages.flatMap((page) => [...(page.data.course?.certificate ?? '').matchAll(/certificate of (\w+)/g)].map((m) => m[1])),
    );
    expect(kinds.size).toBeGreaterThan(0);
    const hub = services.find((service) => service.slug === 'trainings')!.body;
    for (const kind of kinds) expect(hub, kind).toContain(`of ${kind}`);
  });

  test('no page offers public sessions: there is no calendar of dates, venues and fees', () => {
    const all = [
      ...readContentDir('pages'),
      ...readContentDir('services'),
      ...readContentDir('ar/pages'),
      ...readContentDir('ar/services'),
    ];
    expect(all.filter(({ body }) => /public sessions?|جلسات عامة/i.test(body)).map(({ filePath }) => filePath)).toEqual([]);
  });
});
