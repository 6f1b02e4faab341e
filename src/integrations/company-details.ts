/**
 * The company's details (src/data/company.yaml) checked before anything is built, and each operator's override set in
 * the build's environment announced in a warning line, so an editor whose change does not show knows why. A production
 * build (SITE_ENV=production) stops while anything only the company can supply is a placeholder (src/data/launch-check.ts).
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { loadEnv } from 'vite';
import { DATA_FILES } from '../data/schemas.ts';
import { COMPANY_FILE, activeOverrides, createSite, details, type SiteEnv } from '../data/company.ts';
import { launchProblems, launchReport } from '../data/launch-check.ts';

/** The override lines the build prints, one per variable set. */
export function overrideNotices(env: SiteEnv): string[] {
  return activeOverrides(env).map(({ variable, field, value }) => {
    const own = field.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], details);
    const file = own === undefined ? `${COMPANY_FILE} leaves it unset` : `${COMPANY_FILE} has ${JSON.stringify(own)}`;
    return `${variable} is set in this build's environment: ${field} is ${JSON.stringify(value)} (${file}; an operator's override, docs/deploy.md)`;
  });
}

export default function companyDetails(): AstroIntegration {
  return {
    name: 'globaq:company-details',
    hooks: {
      'astro:config:setup': ({ config, command, logger, addWatchFile }) => {
        // `astro dev` restarts when a data file changes: the pages are built from its values once per
        // start (src/data/*.ts read them on import), so an edit shows on the next reload.
        for (const { file } of DATA_FILES) addWatchFile(new URL(file, config.root));
        // What astro:env reads: the process's environment and the project's .env files.
        const mode = command === 'dev' ? 'development' : 'production';
        const env: SiteEnv = { ...loadEnv(mode, fileURLToPath(config.root), 'PUBLIC_'), ...process.env };
        createSite(env);
        for (const notice of overrideNotices(env)) logger.warn(notice);
        const placeholders =
          command === 'build' && process.env.SITE_ENV === 'production' ? launchProblems(env, fileURLToPath(config.root)) : [];
        if (placeholders.length > 0) {
          // Logged and exited, as the content checks stop: a thrown error would read like a fault of the site.
          logger.error(launchReport(placeholders));
          process.exit(1);
        }
      },
    },
  };
}
