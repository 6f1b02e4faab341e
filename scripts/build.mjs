/**
 * `npm run build`: `astro build`, quiet. Astro lists every page and image it writes, one line
 * each (about 230 lines); this prints the rest as it comes and, in place of the listing, one
 * line with the counts, so a healthy build fits on one screen and a warning stands out.
 * Nothing else is dropped: warnings and errors always show. The bundler's known harmless
 * warnings are dropped at their source (src/integrations/quiet-build.ts). The last line is the
 * verdict: what was written and how many warnings, or that the build stopped (never "Wrote …"
 * after a failure).
 *
 *   npm run build                 the quiet build
 *   npm run build -- --verbose    Astro's full output, every page and image listed
 *
 * Other arguments go to `astro build`. Node's warning that node:sqlite is experimental (the
 * server code is loaded while pages are rendered) is turned off as `npm start` does.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import { isListingLine, listingKind } from './build-output.ts';

const require = createRequire(import.meta.url);
const astroPackage = require.resolve('astro/package.json');
const astro = path.join(path.dirname(astroPackage), require(astroPackage).bin.astro);
const args = process.argv.slice(2);
const verbose = args.includes('--verbose');

const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', astro, 'build', ...args], {
  stdio: ['inherit', 'pipe', 'pipe'],
  // Astro colours its output only on a terminal: keep the colours when this one is.
  env: { ...process.env, ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}) },
});

const counts = { pages: 0, images: 0, other: 0, warnings: 0 };
for (const [from, to] of [
  [child.stdout, process.stdout],
  [child.stderr, process.stderr],
]) {
  readline.createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) => {
    if (line.includes('[WARN]')) counts.warnings += 1;
    if (!verbose && isListingLine(line)) {
      counts[listingKind(line)] += 1;
      return;
    }
    to.write(`${line}\n`);
  });
}

child.on('close', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
  const warnings = `${counts.warnings} warning${counts.warnings === 1 ? '' : 's'}`;
  if (process.exitCode !== 0) {
    console.log(
      `The build stopped (${signal ?? `exit code ${code}`}) with ${warnings}: correct the problems above (npm run check:content checks the content and data in seconds).`,
    );
  } else if (!verbose) {
    console.log(
      `Wrote ${counts.pages} pages, ${counts.other} other files (share images, icons, sitemap) and ${counts.images} optimized images to dist/, with ${warnings} (npm run build -- --verbose lists each file).`,
    );
  }
});
