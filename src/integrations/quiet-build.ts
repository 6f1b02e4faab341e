/**
 * A quiet build: warnings known to be harmless are dropped by name at the bundler, in every environment, so a healthy
 * `npm run build` fits on one screen and a new warning stands out. Each entry says why it is harmless.
 */
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';

/** A bundler warning as Rolldown reports it. */
interface BundlerWarning {
  readonly code?: string | undefined;
  readonly message: string;
}

export const HARMLESS_WARNINGS: readonly {
  readonly name: string;
  readonly why: string;
  readonly matches: (warning: BundlerWarning) => boolean;
}[] = [
  {
    name: 'MODULE_LEVEL_DIRECTIVE "use astro:head-inject"',
    why: 'Astro marks every MDX module with this directive and reads it before bundling; Rolldown then reports, once per content file and build pass (about 120 warnings, 1,300 lines), that it "may not be preserved", which is what Astro intends.',
    matches: (warning) => warning.code === 'MODULE_LEVEL_DIRECTIVE' && warning.message.includes('"use astro:head-inject"'),
  },
];

export const isHarmless = (warning: BundlerWarning): boolean => HARMLESS_WARNINGS.some((known) => known.matches(warning));

/** The Vite plugin: an `onLog` in every environment that drops the known warnings and passes on the rest. */
function quietBundler(): Plugin {
  return {
    name: 'globaq:quiet-build',
    configEnvironment(_name, config) {
      const previous = config.build?.rolldownOptions?.onLog;
      return {
        build: {
          rolldownOptions: {
            onLog(level, log, handler) {
              if (level === 'warn' && isHarmless(log)) return;
              if (previous) previous(level, log, handler);
              else handler(level, log);
            },
          },
        },
      };
    },
  };
}

export default function quietBuild(): AstroIntegration {
  return {
    name: 'globaq:quiet-build',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [quietBundler()] } });
      },
    },
  };
}
