// @ts-check
import { defineConfig, envField } from 'astro/config';
import mdx from '@astrojs/mdx';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import node from '@astrojs/node';

// The public address the site is served from: canonical URLs and the sitemap use it.
// Set SITE_URL when building for production (see README).
const site = process.env.SITE_URL || 'https://www.globaq.example';

export default defineConfig({
  site,
  output: 'static',
  // Every route is spelled exactly as the specification spells it (/AboutUs,
  // /MangementSystemAudits/VendorAssessment). `file` output writes AboutUs.html, which every
  // common static host serves at /AboutUs without a redirect; `never` keeps the address bar
  // free of trailing slashes.
  trailingSlash: 'never',
  build: { format: 'file' },
  adapter: node({ mode: 'standalone' }),
  session: false,
  integrations: [
    mdx(),
    react(),
    sitemap({
      // Error pages and the after-submission pages are not for search engines.
      filter: (page) => !/^\/(404|services\/404|ThanksPage|SubmissionProblem)$/.test(new URL(page).pathname),
    }),
  ],
  env: {
    schema: {
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
