/**
 * The data files (src/data/*.yaml) checked first, imported by astro.config.mjs: a malformed one prints the file, line,
 * entry and field and stops. Exited rather than thrown: Astro's "Unable to load your Astro config" and a stack trace
 * would read like a fault of the site, not an editor's mistake to correct.
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
