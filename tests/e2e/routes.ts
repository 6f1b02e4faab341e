/** Every page of the built site, with the heading it must show, read from the content files. */
import { readContentDir } from '../helpers/frontmatter';

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
