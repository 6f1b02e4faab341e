// @ts-check
import { fileURLToPath } from 'node:url';
// First: a malformed data file (src/data/*.yaml) stops here, named, before any module reads it.
import './src/integrations/data-files.ts';
import { defineConfig, envField } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import babel from '@rolldown/plugin-babel';
import { reactCompilerPreset } from '@vitejs/plugin-react';
import sitemap from '@astrojs/sitemap';
import node from '@astrojs/node';
import intentDirective from './src/integrations/intent-directive.ts';
import precompress from './src/integrations/precompress.ts';
import inlineStylesheet from './src/integrations/inline-stylesheet.ts';
import languageNameFont from './src/integrations/language-name-font.ts';
import contentChecks from './src/integrations/content-checks.ts';
import quietBuild from './src/integrations/quiet-build.ts';
import companyDetails from './src/integrations/company-details.ts';
import { pendingArabicPaths } from './src/integrations/content-rules.ts';
import { cspDirectives } from './src/integrations/csp.ts';

// The public address the site is served from: canonical URLs and the sitemap use it.
// Set SITE_URL when building for production (see README).
const site = process.env.SITE_URL || 'https://www.globaq.example';
// Arabic addresses that show an English page until its twin is written: not for search engines.
const pendingArabic = pendingArabicPaths(fileURLToPath(new URL('.', import.meta.url)));

export default defineConfig({
  site,
  output: 'static',
  // Astro's cache (the content data store, optimized images) in the project, not in node_modules:
  // a copy of the project linking node_modules (the build tests) keeps collections of its own.
  cacheDir: './.astro/cache',
  // Every route is spelled exactly as the specification spells it (/AboutUs,
  // /MangementSystemAudits/VendorAssessment). `file` output writes AboutUs.html, which every
  // common static host serves at /AboutUs without a redirect; `never` keeps the address bar
  // free of trailing slashes.
  trailingSlash: 'never',
  build: { format: 'file' },
  // Every page in English at the specification's path, its Arabic twin under /ar with
  // the same rest of the path (/ar, /ar/AboutUs). Pages read their language from
  // Astro.currentLocale; an unknown /ar/... path gets the Arabic 404 (src/pages/ar/404.astro).
  i18n: {
    locales: ['en', 'ar'],
    defaultLocale: 'en',
    routing: { prefixDefaultLocale: false },
  },
  vite: {
    // React Compiler (babel-plugin-react-compiler 1.0.0) memoizes the islands' components and
    // hooks: a key typed in one field re-renders that field, not the whole partner form. It runs
    // on Babel 7 (@babel/core 7.29): it reads Babel 7's syntax tree, and under Babel 8 it skips
    // every function with a destructured default (tests/unit/react-compiler.test.ts).
    plugins: [babel({ include: /src\/components\/islands\/.*\.tsx?$/, presets: [reactCompilerPreset()] })],
    build: {
      // A page's own stylesheet (the home sections, the forms) goes inline in its HTML up to
      // 8 KB, so it costs no render-blocking request; the layout's shared stylesheet stays a
      // cached file. Other assets keep Vite's 4 KB rule (undefined means "decide as usual").
      assetsInlineLimit: (file, content) => (file.endsWith('.css') && content.length < 8192 ? true : undefined),
    },
  },
  // Middleware mode: its handler takes `locals` (the application object, src/server/http/serve.ts),
  // and serve.ts sends the build's files itself.
  adapter: node({ mode: 'middleware' }),
  session: false,
  // No code blocks on this site; Shiki's inline styles would also clash with the CSP.
  markdown: { syntaxHighlight: false },
  security: {
    // Behind a reverse proxy that ends TLS (docs/deploy.md), the server sees plain http and the
    // proxy's Host; the proxy says the truth in X-Forwarded-Proto and X-Forwarded-Host. Astro
    // trusts those headers only for the site's own address, so the origin check on the form
    // receiver accepts the site's own forms posted over https (JavaScript off) and nothing else.
    allowedDomains: [{ protocol: new URL(site).protocol.slice(0, -1), hostname: new URL(site).hostname }],
    // Astro hashes every script and style it emits into a <meta> policy on each page; the
    // server and static hosts add frame-ancestors and the other headers (src/server/http/security-headers.ts).
    csp: {
      // connect-src and form-action follow the form endpoints (src/integrations/csp.ts).
      directives: cspDirectives(process.env),
    },
  },
  image: {
    // The hero illustrations are SVG files of our own (src/assets/hero), rasterized to AVIF and
    // WebP at build time. Only trusted, in-repository SVGs are ever processed.
    dangerouslyProcessSVG: true,
    // Pictures are made at build only: no resizing on request (src/integrations/no-image-endpoint.ts).
    endpoint: { route: '/_image', entrypoint: './src/integrations/no-image-endpoint.ts' },
  },
  integrations: [
    // The content rules CI checks, checked by the build: file, line and what to do (docs/content.md).
    contentChecks(),
    // Known harmless warnings dropped by name, so a real one stands out (src/integrations/quiet-build.ts).
    quietBuild(),
    // src/data/company.yaml checked in plain words; each operator's override (PUBLIC_SITE_PHONE…) announced.
    companyDetails(),
    mdx(),
    // The islands are React components (React 19): the carousels, the header menus and the two
    // forms. React's weight is kept off the first view by when each island hydrates (README).
    react(),
    // The Arabic language's name, in Cairo, for the switch on English pages (src/styles/fonts.css).
    languageNameFont(),
    // client:intent, for islands that load only when the visitor reaches for them (the header
    // menus and the forms).
    intentDirective(),
    sitemap({
      // Error pages, the after-submission pages and the staff inbox are not for search engines,
      // in either language.
      // Nor are the Arabic addresses of pages not translated yet (their canonical page is the English one).
      filter: (page) =>
        !/^(\/ar)?\/(404|services\/404|ThanksPage|SubmissionProblem|admin(\/.*)?)$/.test(new URL(page).pathname) &&
        !pendingArabic.has(new URL(page).pathname),
      // Each page with a twin lists the other language's address as its alternate (hreflang).
      i18n: { defaultLocale: 'en', locales: { en: 'en', ar: 'ar' } },
    }),
    // The pages whose HTML needs a second flight anyway get the layout's stylesheet inline
    // (src/lib/first-flight.ts), before their twins are written.
    inlineStylesheet(),
    // Last, once every file (the sitemap too) is written: their .br and .gz twins.
    precompress(),
  ],
  env: {
    schema: {
      // Where the forms send (README, "Form endpoints"): the site's own receiver by default.
      PUBLIC_CONTACT_ENDPOINT: envField.string({ context: 'client', access: 'public', default: '/api/contact' }),
      PUBLIC_PARTNER_ENDPOINT: envField.string({ context: 'client', access: 'public', default: '/api/partner' }),
      // An operator's overrides of src/data/company.yaml for one deployment; the build announces each one set.
      PUBLIC_SITE_PHONE: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_SITE_EMAIL: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_SITE_WHATSAPP: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_SITE_WHATSAPP_GREETING: envField.string({
        context: 'client',
        access: 'public',
        optional: true,
      }),
      PUBLIC_SOCIAL_LINKEDIN: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_SOCIAL_X: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_SOCIAL_INSTAGRAM: envField.string({ context: 'client', access: 'public', optional: true }),
      PUBLIC_SOCIAL_FACEBOOK: envField.string({ context: 'client', access: 'public', optional: true }),
    },
  },
});
