/** Writes the Brotli and gzip twins of the built text files (src/lib/compressible.ts) once the build is done. */
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
