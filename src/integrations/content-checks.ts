/**
 * The content checks of the build, CI and `npm run check:content` (checkContent, in seconds): before Astro reads the
 * content, every rule of content-rules.ts and every link (content-links.ts), each problem listed `file:line: what to
 * do`, stopping the build before any page; warnings for what the Arabic site shows in English meanwhile; after the
 * build, every internal link's #anchor against the built pages; one note naming the trust collections with no entry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration, AstroIntegrationLogger } from 'astro';
import { caseSchema, credentialSchema, pageSchema, serviceSchema, teamSchema } from '../lib/content-schemas.ts';
import { z } from 'astro/zod';
import { navigation, navigationIn } from '../data/navigation.ts';
import { STANDARD_ENTRIES } from '../data/standards.ts';
import { lineFinder, readDataFile, untranslated } from '../data/data-file.ts';
import { CompanyDetailsError, createSite } from '../data/company.ts';
import {
  CAROUSELS_FILE,
  COMPANY_FILE,
  HOME_FILE,
  carouselsFileSchema,
  companyFileSchema,
  homeFileSchema,
} from '../data/schemas.ts';
import { MenuTwinError, mergeNavigation, pendingEntries } from '../lib/nav-twins.ts';
import {
  CONTENT_DIR,
  contentProblems,
  emptyTrustDirs,
  emptyTrustMessage,
  formatProblem,
  hasExpired,
  listYaml,
  missingTwins,
  type ContentProblem,
} from './content-rules.ts';
import { brokenLinks, readBuiltSite, sourceLinks, sourceSite } from './content-links.ts';

/**
 * Stops the build with one line per problem. Logged and exited rather than thrown: Astro would wrap a thrown error in
 * "an unhandled error occurred" and an empty stack trace, which reads like a fault of the site, not a content mistake.
 */
function stop(logger: AstroIntegrationLogger, problems: readonly ContentProblem[], what: string): never {
  const count = problems.length === 1 ? `1 ${what}` : `${problems.length} ${what}s`;
  logger.error(`${count}:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
  process.exit(1);
}

/**
 * The data entries the Arabic site shows in English until translated, one warning line per file (standards, the
 * company's details, the home page, the carousels, the menu). A translated menu entry with no English twin is a problem.
 */
function untranslatedDataEntries(): { warnings: string[]; problems: ContentProblem[] } {
  const file = 'src/data/navigation.yaml';
  let menu: string[];
  try {
    menu = pendingEntries(mergeNavigation(navigation, navigationIn('ar'), file));
  } catch (error) {
    if (!(error instanceof MenuTwinError)) throw error;
    return { warnings: [], problems: [{ file, message: error.message.slice(file.length + 2) }] };
  }
  const them = (n: number) => (n === 1 ? 'it' : 'them');
  const lists: [string, string[]][] = [
    ['src/data/standards.yaml', STANDARD_ENTRIES.filter((standard) => !standard.ar).map((standard) => standard.id)],
    ...[
      { file: COMPANY_FILE, schema: companyFileSchema },
      { file: HOME_FILE, schema: homeFileSchema },
      { file: CAROUSELS_FILE, schema: carouselsFileSchema },
    ].map(({ file: words, schema }): [string, string[]] => [words, untranslated(readDataFile(words, schema))]),
  ];
  const warnings = lists
    .filter(([, paths]) => paths.length > 0)
    .map(
      ([words, paths]) =>
        `${words} has no Arabic words (ar) for ${paths.join(', ')}: /ar shows ${them(paths.length)} in English, with a notice, until translated`,
    );
  if (menu.length > 0)
    warnings.push(
      `${file} has no Arabic label (ar) for ${menu.join(', ')}: the Arabic menu shows ${them(menu.length)} in English until translated`,
    );
  return { warnings, problems: [] };
}

/** The credentials whose validity ended before `now`, one warning line each: the pages mark them expired. */
export function expiredCredentials(root: string, now = new Date()): string[] {
  return listYaml(root, `${CONTENT_DIR}/credentials`).flatMap((file) => {
    const lines = fs.readFileSync(path.join(root, file), 'utf8').split('\n');
    const line = lines.findIndex((text) => /^validUntil:/.test(text));
    const until = /^validUntil:\s*["']?(\d{4}-\d{2}-\d{2})/.exec(lines[line] ?? '')?.[1];
    if (!until || !hasExpired(new Date(until), now)) return [];
    return [
      `${file}:${line + 1}: validUntil ${until} has passed, so the pages show the credential as expired: write the renewed validity, or remove the entry`,
    ];
  });
}

/**
 * Every content and data rule over the project at `root`, without building a page: the problems (each stops the build),
 * the warnings (translations to do) and the notes. The data files are checked before this module loads.
 */
export function checkContent(root: string): { problems: ContentProblem[]; warnings: string[]; notes: string[] } {
  const problems = contentProblems(root, {
    services: serviceSchema,
    pages: pageSchema,
    // A photo's path is checked by Astro's image(), which needs Astro: any text here.
    team: teamSchema(z.string()),
    credentials: credentialSchema,
    cases: caseSchema,
  });
  const data = untranslatedDataEntries();
  problems.push(...data.problems, ...brokenLinks(sourceLinks(root), sourceSite(root)));
  // The company's details as the file writes them (an operator's overrides are the build's own).
  try {
    createSite({});
  } catch (error) {
    if (!(error instanceof CompanyDetailsError)) throw error;
    const lineOf = lineFinder(fs.readFileSync(path.join(root, COMPANY_FILE), 'utf8'));
    for (const problem of error.message.split('\n').slice(1)) {
      const message = problem.trim().replace(`${COMPANY_FILE}: `, '');
      problems.push({ file: COMPANY_FILE, line: lineOf(message.split(/[ ,]/)[0]!.split('.')), message });
    }
  }
  const warnings = [
    ...missingTwins(root).map(
      ({ english, arabic }) => `${arabic} is missing: /ar shows ${english} in English, with a notice, until it is translated`,
    ),
    ...data.warnings,
    ...expiredCredentials(root),
  ];
  const empty = emptyTrustMessage(emptyTrustDirs(root));
  return { problems, warnings, notes: empty ? [empty] : [] };
}

export default function contentChecks(): AstroIntegration {
  let root = process.cwd();
  return {
    name: 'globaq:content-checks',
    hooks: {
      'astro:config:setup': ({ config, logger }) => {
        root = fileURLToPath(config.root);
        const { problems, warnings, notes } = checkContent(root);
        if (problems.length > 0) stop(logger, problems, 'content problem');
        for (const line of warnings) logger.warn(line);
        for (const line of notes) logger.info(line);
      },
      'astro:build:done': ({ dir, logger }) => {
        const client = fileURLToPath(dir);
        const site = readBuiltSite(client);
        const links = sourceLinks(root);
        const broken = brokenLinks(links, site, (pathname) => fs.existsSync(path.join(client, pathname)));
        if (broken.length > 0) stop(logger, broken, 'broken internal link');
        logger.info(`${links.length} internal links in src/content and src/data reach their pages and anchors`);
      },
    },
  };
}
