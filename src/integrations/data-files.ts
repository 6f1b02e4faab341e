/**
 * The site's data files (src/data/*.yaml) checked before anything else is loaded: imported first
 * by astro.config.mjs, it reads each file against its schema and, when one is malformed, prints
 * the file, the entry and the field (src/data/data-file.ts) and stops. Printed and exited rather
 * than thrown: Astro would add "Unable to load your Astro config" and a stack trace, which read
 * like a fault of the site, not an editor's mistake to correct.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DataFileError, projectRoot, readDataFile } from '../data/data-file.ts';
import { CAROUSELS_FILE, DATA_FILES, type CarouselsFile } from '../data/schemas.ts';

/** The carousels' pictures that are not in src/assets/, each named by its list, entry and path. */
function missingPictures(data: CarouselsFile, root: string): string[] {
  return (['hero', 'clients'] as const).flatMap((list) =>
    data[list].flatMap(({ image }, i) =>
      fs.existsSync(path.join(root, 'src/assets', image))
        ? []
        : [
            `${list} entry ${i + 1}, field "image" is "${image}": no such file in src/assets/ (add the file, or correct the path; letter case counts)`,
          ],
    ),
  );
}

/** The problems of every data file, one message per malformed file (empty when all are well-formed). */
export function dataFileProblems(root?: string): string[] {
  return DATA_FILES.flatMap(({ file, schema }) => {
    try {
      const data: unknown = readDataFile(file, schema, root);
      if (file !== CAROUSELS_FILE) return [];
      const missing = missingPictures(data as CarouselsFile, root ?? projectRoot(file));
      if (missing.length > 0) throw new DataFileError(file, missing);
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
