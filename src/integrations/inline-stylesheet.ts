/**
 * An Astro integration that puts the layout's stylesheet inline in the pages whose HTML needs
 * more than a connection's first flight anyway (src/lib/first-flight.ts says why and measures),
 * once the pages are written and before they are precompressed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { inlineStylesheets } from '../lib/first-flight.ts';
import { htmlFiles } from './built-pages.ts';

export default function inlineStylesheet(): AstroIntegration {
  return {
    name: 'globaq:inline-stylesheet',
    hooks: {
      'astro:build:done': ({ dir, logger }) => {
        const client = fileURLToPath(dir);
        const inlined: string[] = [];
        for (const file of htmlFiles(client)) {
          const page = inlineStylesheets(fs.readFileSync(file, 'utf8'), (href) =>
            fs.readFileSync(path.join(client, href), 'utf8'),
          );
          if (page.inlined === 0) continue;
          fs.writeFileSync(file, page.html);
          inlined.push(`/${path.relative(client, file).replace(/\.html$/, '')}`);
        }
        logger.info(
          `the layout's stylesheet inline in ${inlined.length} pages beyond a first flight: ${inlined.join(', ') || 'none'}`,
        );
      },
    },
  };
}
