/**
 * Cuts Cairo's Arabic file down to the letters of the Arabic language's own name («العربية») for the language switch on
 * English pages, written before the build or dev server reads the styles (src/styles/generated/, not in git).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import subsetFont from 'subset-font';
import { ar } from '../i18n/ar.ts';

const LANGUAGE_NAME_FONT = 'src/styles/generated/cairo-language-name.woff2';

export default function languageNameFont(): AstroIntegration {
  return {
    name: 'globaq:language-name-font',
    hooks: {
      'astro:config:setup': async ({ config, logger }) => {
        const root = fileURLToPath(config.root);
        const source = path.join(root, 'node_modules/@fontsource-variable/cairo/files/cairo-arabic-wght-normal.woff2');
        const target = path.join(root, LANGUAGE_NAME_FONT);
        const text = ar['locale.name'];
        // The text it was cut for, beside it: a changed name is cut again.
        const stamp = `${target}.txt`;
        if (fs.existsSync(target) && fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === text) return;
        const subset = await subsetFont(fs.readFileSync(source), text, { targetFormat: 'woff2' });
        fs.mkdirSync(path.dirname(target), { recursive: true });
        fs.writeFileSync(target, subset);
        fs.writeFileSync(stamp, text);
        logger.info(`Cairo cut to «${text}» for the language switch on English pages: ${(subset.length / 1024).toFixed(1)} KB`);
      },
    },
  };
}
