/** The URL rules of the site's own server (src/server/routing.ts), which static hosts mirror. */
import { describe, expect, test } from 'vitest';
import { resolveRoute } from '../../src/server/routing';
import { pickEncoding, staticFileFor } from '../../src/server/compression';

const files = new Set([
  '/index.html',
  '/AboutUs.html',
  '/ContactUs.html',
  '/404.html',
  '/services/404.html',
  '/services/ms-audits.html',
  '/MangementSystemAudits/VendorAssessment.html',
  '/_astro/site.css',
]);

describe('resolveRoute', () => {
  test('/Aboutus is the About page, served without a redirect', () => {
    expect(resolveRoute('/Aboutus', files)).toEqual({ kind: 'rewrite', pathname: '/AboutUs' });
  });

  test('pages and assets at their exact path pass through to the static handler', () => {
    for (const p of ['/', '/AboutUs', '/MangementSystemAudits/VendorAssessment', '/services/ms-audits', '/_astro/site.css']) {
      expect(resolveRoute(p, files), p).toEqual({ kind: 'pass' });
    }
  });

  test('an unknown service slug gets the Coming Soon page with status 404', () => {
    expect(resolveRoute('/services/quantum-audits', files)).toEqual({ kind: 'file', file: '/services/404.html', status: 404 });
    expect(resolveRoute('/services/ms-audits/extra', files)).toEqual({ kind: 'file', file: '/services/404.html', status: 404 });
  });

  test('another letter case of a page path is redirected to the real path', () => {
    expect(resolveRoute('/contactus', files)).toEqual({ kind: 'redirect', location: '/ContactUs' });
    expect(resolveRoute('/mangementsystemaudits/vendorassessment', files)).toEqual({
      kind: 'redirect',
      location: '/MangementSystemAudits/VendorAssessment',
    });
    expect(resolveRoute('/SERVICES/MS-AUDITS', files)).toEqual({ kind: 'redirect', location: '/services/ms-audits' });
  });

  test('other unknown paths and API routes go to Astro (its 404 page, or the endpoint)', () => {
    expect(resolveRoute('/no-such-page', files)).toEqual({ kind: 'pass' });
    expect(resolveRoute('/api/contact', files)).toEqual({ kind: 'pass' });
    expect(resolveRoute('/404', files)).toEqual({ kind: 'pass' });
  });
});

describe('compressed responses (src/server/compression.ts)', () => {
  test('Brotli is preferred, then gzip; q=0 refuses a coding', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });

  test('a request path maps to the build file it is answered with', () => {
    expect(staticFileFor('/', files)).toBe('/index.html');
    expect(staticFileFor('/AboutUs', files)).toBe('/AboutUs.html');
    expect(staticFileFor('/_astro/site.css', files)).toBe('/_astro/site.css');
    expect(staticFileFor('/AboutUs/', files)).toBeUndefined();
    expect(staticFileFor('/no-such-page', files)).toBeUndefined();
  });
});
