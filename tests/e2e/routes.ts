/** Every page of the built site, with the heading it must show, read from the content files. */
import { readContentDir } from '../helpers/frontmatter';
import { ar } from '../../src/i18n/ar';

export interface RouteCase {
  readonly path: string;
  readonly heading: string;
}

export const PAGE_ROUTES: readonly RouteCase[] = [
  { path: '/', heading: 'Globaq' },
  { path: '/AboutUs', heading: 'About Us' },
  { path: '/Aboutus', heading: 'About Us' },
  { path: '/ContactUs', heading: 'Contact Us' },
  { path: '/Partner', heading: 'Become a Partner' },
  { path: '/ThanksPage', heading: 'Thank You' },
  ...readContentDir('services').map((s) => ({ path: `/services/${s.id}`, heading: String(s.frontmatter['title']) })),
  ...readContentDir('pages')
    .filter((p) => p.frontmatter['route'] !== 'AboutUs')
    .map((p) => ({ path: `/${String(p.frontmatter['route'])}`, heading: String(p.frontmatter['title']) })),
];

/** Every Arabic page: the twins under /ar, with their Arabic headings. */
export const ARABIC_ROUTES: readonly RouteCase[] = [
  { path: '/ar', heading: 'Globaq' },
  { path: '/ar/ThanksPage', heading: ar['thanks.title'] },
  { path: '/ar/ContactUs', heading: ar['contact.title'] },
  { path: '/ar/Partner', heading: ar['partner.title'] },
  ...readContentDir('ar/pages').map((p) => ({
    path: `/ar/${String(p.frontmatter['route'])}`,
    heading: String(p.frontmatter['title']),
  })),
  ...readContentDir('ar/services').map((s) => ({ path: `/ar/services/${s.id}`, heading: String(s.frontmatter['title']) })),
];
