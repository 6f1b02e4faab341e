/**
 * An Astro integration that writes the Brotli and gzip twins of the built text files
 * (`precompressBuild`, src/lib/compressible.ts) once the build, the sitemap included, is done:
 * the site's own server (sirv) sends them, compressing nothing itself, and a
 * static host that serves precompressed files can use them as they are.
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import { precompressBuild } from '../lib/compressible.ts';

export default function precompress(): AstroIntegration {
  return {
    name: 'globaq:precompress',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const count = await precompressBuild(fileURLToPath(dir));
        logger.info(`${count} text files precompressed (.br and .gz beside each)`);
      },
    },
  };
}
