/**
 * Content inventory: the requirements' counts (docs/requirements.md §13, the specification), checked
 * here and nowhere else. The specification asks for 12 services, 15 other trainings, 11 ISO
 * standards and 6 laboratory courses; each must be on the site. Content added since (a 13th
 * service, a 16th course) passes: every other test asserts that each entry is rendered where it
 * belongs, never how many there are today. When the requirements change, change this file and
 * tests/helpers/requirements.ts.
 */
import { describe, expect, test } from 'vitest';
import { loadPages, loadServices } from '../helpers/content';
import { SPEC_SERVICE_SLUGS, SPEC_STANDARDS, SPEC_TRAININGS } from '../helpers/requirements';
import { ISO_STANDARDS } from '../../src/data/standards';

const pages = loadPages();
const coursesOf = (route: string) => pages.find((page) => page.data.route === route)?.data.courses ?? [];

describe('content inventory against the requirements (docs/requirements.md §13): the only test that counts entries', () => {
  test('the specification names 12 services, and the catalogue has each of them', () => {
    expect(SPEC_SERVICE_SLUGS).toHaveLength(12);
    const slugs = loadServices().map((service) => service.id);
    for (const slug of SPEC_SERVICE_SLUGS) expect(slugs, slug).toContain(slug);
  });

  test('the specification names 15 other trainings, and Other Trainings lists each of them', () => {
    expect(SPEC_TRAININGS).toHaveLength(15);
    const titles = coursesOf('Trainings/OtherTrainings').map((course) => course.title);
    expect(titles.length).toBeGreaterThanOrEqual(15);
    for (const name of SPEC_TRAININGS) expect(titles.join('\n'), name).toContain(name);
  });

  test('the specification names 11 ISO standards, and the site has each of them, in its order', () => {
    expect(SPEC_STANDARDS).toHaveLength(11);
    // A standard an editor adds may stand anywhere among them.
    const codes = ISO_STANDARDS.map((standard) => standard.code);
    expect(codes.filter((code) => (SPEC_STANDARDS as readonly string[]).includes(code))).toEqual([...SPEC_STANDARDS]);
  });

  test('the specification asks for 6 laboratory training courses, and the page lists at least those', () => {
    expect(coursesOf('LaboratoryQualityManagementSystemServices/Training').length).toBeGreaterThanOrEqual(6);
  });
});
