/**
 * An Astro integration that makes the pages ask for some page scripts only once their first view
 * is drawn (src/lib/after-first-view.ts says why and how): the home page's carousel rotation.
 *
 * The client build names each script's file by a hash, so the integration learns the file from
 * the build itself (a Vite plugin sees every entry chunk and the source files in it), then, once
 * the pages are written and before the stylesheets are inlined and the files precompressed,
 * replaces each page's module script for that file with the inline loader. A build in which
 * such a script ends up on no page fails, naming it: the page would have silently lost it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';
import { deferModuleScripts } from '../lib/after-first-view.ts';
import { htmlFiles } from './built-pages.ts';

/** Source files (from the project's root) loaded after the first view, and what the visitor reaches for to load them at once. */
export const AFTER_FIRST_VIEW: ReadonlyMap<string, string> = new Map([['src/scripts/carousel-rotation.ts', '.carousel']]);

export default function afterFirstView(): AstroIntegration {
  let root = '';
  let base = '/';
  /** Built file (its address, "/_astro/x.js") to what the visitor reaches for. */
  const modules = new Map<string, string>();
  const plugin: Plugin = {
    name: 'globaq:after-first-view',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
        for (const [source, reach] of AFTER_FIRST_VIEW) {
          const file = path.join(root, source);
          if (chunk.moduleIds.some((id) => id.split('?')[0] === file)) modules.set(`${base}${chunk.fileName}`, reach);
        }
      }
    },
  };
  return {
    name: 'globaq:after-first-view',
    hooks: {
      'astro:config:setup': ({ config, updateConfig }) => {
        root = fileURLToPath(config.root);
        base = config.base.endsWith('/') ? config.base : `${config.base}/`;
        updateConfig({ vite: { plugins: [plugin] } });
      },
      'astro:build:done': ({ dir, logger }) => {
        const client = fileURLToPath(dir);
        const pages: string[] = [];
        const used = new Set<string>();
        for (const file of htmlFiles(client)) {
          const original = fs.readFileSync(file, 'utf8');
          const page = deferModuleScripts(original, modules);
          if (page.deferred === 0) continue;
          for (const src of modules.keys()) if (original.includes(`src="${src}"`)) used.add(src);
          fs.writeFileSync(file, page.html);
          pages.push(
            `/${path
              .relative(client, file)
              .replace(/\.html$/, '')
              .replace(/(^|\/)index$/, '$1')}`,
          );
        }
        const unused = [...modules.keys()].filter((src) => !used.has(src));
        if (unused.length > 0)
          throw new Error(
            `after-first-view: no page loads ${unused.join(', ')} as a module script; src/integrations/after-first-view.ts cannot defer it`,
          );
        logger.info(
          `${used.size} script(s) asked for after the first view, in ${pages.length} pages: ${pages.join(', ') || 'none'}`,
        );
      },
    },
  };
}
