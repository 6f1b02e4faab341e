/**
 * An Astro integration adding the `client:intent` directive (see intent-directive.client.ts):
 * islands that load nothing until the visitor reaches for them. Used by the header menus and
 * the two forms.
 */
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
    /**
     * Hydrate on the first hover, focus or press inside the island; with `{ resume: key }`, once
     * the browser is idle when its storage holds `key` (a saved draft to restore); with
     * `{ afterLoad: true }`, on intent or else once the page has loaded and the browser is idle.
     */
    'client:intent'?: boolean | { resume: string } | { afterLoad: true };
  }
}
