/**
 * `npm run launch-check`: what only the company can supply and the site still holds as a
 * placeholder (src/data/launch-check.ts), one line each: the file, the field and what to put
 * there. Exits 1 while any is left; a production build (SITE_ENV=production) stops on the same list.
 *
 *   npm run launch-check                       the list; exits 0 once nothing is left
 *   npm run launch-check -- --comment FILE     also writes it as the preview's pull request comment
 */
import fs from 'node:fs';
import { loadEnv } from 'vite';
import { launchProblems, launchReport } from '../src/data/launch-check.ts';

// The project npm runs it in, with the operators' overrides the build would read: the
// environment and the project's .env files.
const root = process.cwd();
const problems = launchProblems({ ...loadEnv('production', root, 'PUBLIC_'), ...process.env }, root);
console.log(
  problems.length > 0 ? launchReport(problems) : 'Ready to go live: nothing only the company can supply is a placeholder.',
);

const i = process.argv.indexOf('--comment');
if (i >= 0) {
  const list = problems.map((problem) => `- ${problem}`).join('\n');
  fs.writeFileSync(
    process.argv[i + 1],
    `<!-- globaq-launch-check -->\n### Before going live\n\n${
      problems.length > 0
        ? `A production build (\`SITE_ENV=production\`) stops until each of these ${problems.length} is replaced (\`npm run launch-check\`):\n\n${list}\n`
        : 'Nothing only the company can supply is a placeholder: a production build may go ahead.\n'
    }`,
  );
}
process.exitCode = problems.length > 0 ? 1 : 0;
