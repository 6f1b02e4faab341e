/** An Astro integration adding the `client:intent` directive (intent-directive.client.ts), for the menus and the forms. */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

export default function intentDirective(): AstroIntegration {
  return {
    name: 'globaq:intent-directive',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'intent',
          // Astro bundles this file with esbuild and inlines it in the pages that use it.
          entrypoint: fileURLToPath(new URL('./intent-directive.client.ts', import.meta.url)),
        });
      },
    },
  };
}

declare module 'astro' {
  interface AstroClientDirectives {
    /** Hydrate when the visitor reaches for the island; see intent-directive.client.ts for `resume` and `afterLoad`. */
    'client:intent'?: boolean | { resume: string } | { afterLoad: true };
  }
}
