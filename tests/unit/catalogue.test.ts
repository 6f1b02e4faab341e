/** Cross-entry content rules: a broken catalogue fails the build, naming the files. */
import { describe, expect, test } from 'vitest';
import { assertUniqueRoutes, orderServices, otherServices } from '../../src/lib/catalogue';

const svc = (slug: string, order: number) => ({ slug, order, title: slug, filePath: `src/content/services/${slug}.mdx` });

describe('orderServices', () => {
  test('sorts by order', () => {
    expect(orderServices([svc('b', 2), svc('c', 3), svc('a', 1)]).map((s) => s.slug)).toEqual(['a', 'b', 'c']);
  });

  test('a duplicated order names both files and the field', () => {
    expect(() => orderServices([svc('a', 1), svc('b', 1)])).toThrow(
      'src/content/services/b.mdx: field "order" is 1, already used by src/content/services/a.mdx',
    );
  });

  test('a file name that is not a slug is refused, naming the file', () => {
    expect(() => orderServices([svc('Bad Name', 1)])).toThrow(
      /src\/content\/services\/Bad Name\.mdx: the file name "Bad Name" is not a valid service slug/,
    );
  });
});

describe('otherServices', () => {
  test('skips the current service and keeps definition order', () => {
    const list = [svc('a', 1), svc('b', 2), svc('c', 3), svc('d', 4), svc('e', 5)];
    expect(otherServices(list, 'b').map((s) => s.slug)).toEqual(['a', 'c', 'd']);
    expect(otherServices(list, 'e').map((s) => s.slug)).toEqual(['a', 'b', 'c']);
  });
});

describe('assertUniqueRoutes', () => {
  test('routes differing only in case clash, naming both files', () => {
    expect(() =>
      assertUniqueRoutes([
        { route: 'AboutUs', filePath: 'src/content/pages/about.mdx' },
        { route: 'Aboutus', filePath: 'src/content/pages/about-2.mdx' },
      ]),
    ).toThrow(
      'src/content/pages/about-2.mdx: field "route" is "Aboutus", which clashes with "AboutUs" in src/content/pages/about.mdx',
    );
  });

  test('distinct routes pass', () => {
    expect(() => assertUniqueRoutes([{ route: 'A/B' }, { route: 'A/C' }])).not.toThrow();
  });
});
