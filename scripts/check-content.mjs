/**
 * `npm run check:content`: every content and data rule the build checks before it writes a page
 * (docs/content.md, "The content rules"), in seconds and without building: the data files and the
 * content collections against their schemas, the Arabic twins' sections and facts, the glossary,
 * the images and every internal link's page. One line per problem, `file:line: what to do`, then
 * the warnings (translations still to do); the last line sums them up. Exits 1 on a problem.
 */
import { performance } from 'node:perf_hooks';
import { dataFileProblems } from '../src/data/data-file.ts';

const root = process.cwd();
const started = performance.now();
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const finish = (problems, warnings) => {
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const verdict = problems > 0 ? `${plural(problems, 'problem')} to correct` : 'no problem';
  console.log(`Content check: ${verdict}, ${plural(warnings, 'warning')} (${seconds} s)`);
  process.exitCode = problems > 0 ? 1 : 0;
};

// A malformed data file first: the modules below read the data files as they load.
const data = dataFileProblems(root);
if (data.length > 0) {
  for (const problem of data) console.error(problem);
  finish(data.length, 0);
} else {
  const { checkContent } = await import('../src/integrations/content-checks.ts');
  const { formatProblem } = await import('../src/integrations/content-rules.ts');
  const { problems, warnings, notes } = checkContent(root);
  for (const problem of problems) console.error(formatProblem(problem));
  for (const line of warnings) console.log(`warning: ${line}`);
  for (const line of notes) console.log(line);
  finish(problems.length, warnings.length);
}
