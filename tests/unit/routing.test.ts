/** The URL rules of the site's own server (src/server/http/routing.ts), which static hosts mirror. */
import { describe, expect, test } from 'vitest';
import { pickEncoding, resolveRoute } from '../../src/server/http/routing';

const files = new Set([
  '/index.html',
  '/AboutUs.html',
  '/ContactUs.html',
  '/404.html',
  '/services/404.html',
  '/services/ms-audits.html',
  '/MangementSystemAudits/VendorAssessment.html',
  '/_astro/site.css',
  '/_headers',
  '/_redirects',
]);

describe('resolveRoute', () => {
  test('/Aboutus is the About page, served without a redirect', () => {
    expect(resolveRoute('/Aboutus', files)).toEqual({ kind: 'rewrite', pathname: '/AboutUs' });
  });

  test("a static host's rule files are in the build but no page of this server: the 404 page", () => {
    for (const p of ['/_headers', '/_redirects'])
      expect(resolveRoute(p, files), p).toEqual({ kind: 'file', file: '/404.html', status: 404 });
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

describe('resolveRoute, the Arabic pages under /ar', () => {
  const withArabic = new Set([
    ...files,
    '/ar.html',
    '/ar/AboutUs.html',
    '/ar/404.html',
    '/ar/services/404.html',
    '/ar/services/ms-audits.html',
    '/ar/MangementSystemAudits/VendorAssessment.html',
  ]);

  test('/ar, the Arabic home, passes through though ar/ is also a folder (sirv finds ar.html)', () => {
    expect(resolveRoute('/ar', withArabic)).toEqual({ kind: 'pass' });
    // With a trailing slash it goes to Astro's handler, which redirects to /ar (trailingSlash: never).
    expect(resolveRoute('/ar/', withArabic)).toEqual({ kind: 'pass' });
  });

  test('Arabic pages at their exact path pass through; /ar/Aboutus is the Arabic About page', () => {
    for (const p of ['/ar/AboutUs', '/ar/services/ms-audits', '/ar/MangementSystemAudits/VendorAssessment']) {
      expect(resolveRoute(p, withArabic), p).toEqual({ kind: 'pass' });
    }
    expect(resolveRoute('/ar/Aboutus', withArabic)).toEqual({ kind: 'rewrite', pathname: '/ar/AboutUs' });
  });

  test('an unknown Arabic service slug gets the Arabic Coming Soon page, any other unknown /ar/ path the Arabic 404, both status 404', () => {
    expect(resolveRoute('/ar/services/quantum-audits', withArabic)).toEqual({
      kind: 'file',
      file: '/ar/services/404.html',
      status: 404,
    });
    expect(resolveRoute('/ar/no-such-page', withArabic)).toEqual({ kind: 'file', file: '/ar/404.html', status: 404 });
    expect(resolveRoute('/ar/MangementSystemAudits/Nothing', withArabic)).toEqual({
      kind: 'file',
      file: '/ar/404.html',
      status: 404,
    });
    // English paths keep their rules.
    expect(resolveRoute('/services/quantum-audits', withArabic)).toEqual({
      kind: 'file',
      file: '/services/404.html',
      status: 404,
    });
    expect(resolveRoute('/no-such-page', withArabic)).toEqual({ kind: 'pass' });
  });

  test('another letter case of an Arabic path is redirected to the real one', () => {
    expect(resolveRoute('/AR', withArabic)).toEqual({ kind: 'redirect', location: '/ar' });
    expect(resolveRoute('/ar/aboutus', withArabic)).toEqual({ kind: 'redirect', location: '/ar/AboutUs' });
    expect(resolveRoute('/AR/SERVICES/MS-AUDITS', withArabic)).toEqual({ kind: 'redirect', location: '/ar/services/ms-audits' });
  });
});

describe('compressed responses', () => {
  test('Brotli is preferred, then gzip; q=0 refuses a coding', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip, deflate')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});
