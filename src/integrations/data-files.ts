/**
 * The site's data files (src/data/*.yaml) checked before anything else is loaded: imported first
 * by astro.config.mjs, it reads each file against its schema and, when one is malformed, prints
 * the file, the entry and the field (src/data/data-file.ts) and stops. Printed and exited rather
 * than thrown: Astro would add "Unable to load your Astro config" and a stack trace, which read
 * like a fault of the site, not an editor's mistake to correct.
 */
import { DataFileError, readDataFile } from '../data/data-file.ts';
import { DATA_FILES } from '../data/schemas.ts';

/** The problems of every data file, one message per malformed file (empty when all are well-formed). */
export function dataFileProblems(root?: string): string[] {
  return DATA_FILES.flatMap(({ file, schema }) => {
    try {
      readDataFile(file, schema, root);
      return [];
    } catch (error) {
      if (error instanceof DataFileError) return [error.message];
      throw error;
    }
  });
}

const problems = dataFileProblems();
if (problems.length > 0) {
  console.error(`[globaq:data] ${problems.join('\n')}`);
  process.exit(1);
}
