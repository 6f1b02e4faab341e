/**
 * The site's data files (src/data/*.yaml) checked before anything else is loaded: imported first
 * by astro.config.mjs, it reads each file against its schema and, when one is malformed, prints
 * the file, the line, the entry and the field (src/data/data-file.ts) and stops. Printed and
 * exited rather than thrown: Astro would add "Unable to load your Astro config" and a stack trace,
 * which read like a fault of the site, not an editor's mistake to correct.
 */
import { dataFileProblems } from '../data/data-file.ts';

const problems = dataFileProblems();
if (problems.length > 0) {
  console.error(`[globaq:data] ${problems.join('\n')}`);
  console.error(
    `Stopped before building: ${problems.length} data file${problems.length === 1 ? '' : 's'} to correct (npm run check:content checks in seconds)`,
  );
  process.exit(1);
}
