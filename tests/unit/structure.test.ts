/** Where code lives: the server in one folder, pages never reaching into it. */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../helpers/frontmatter';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(relative) : [relative];
  });
}

/** Module specifiers a file imports (static and dynamic). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm)].map(
    (match) => match[1] ?? match[2] ?? match[3] ?? '',
  );
}

const SERVER = path.join(ROOT, 'src', 'server');

test('no page, component, layout or browser module imports from src/server; only the API routes and the staff inbox (on demand, /admin) do', () => {
  const offenders: string[] = [];
  for (const dir of ['src/pages', 'src/components', 'src/layouts', 'src/lib', 'src/forms', 'src/data', 'src/i18n', 'src/scripts', 'src/integrations']) {
    for (const file of filesUnder(dir)) {
      if (!/\.(astro|ts|tsx|mjs)$/.test(file)) continue;
      if (['api', 'admin'].some((dir) => file.startsWith(path.join('src', 'pages', dir) + path.sep))) continue;
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const target = path.resolve(ROOT, path.dirname(file), specifier);
        if (target === SERVER || target.startsWith(SERVER + path.sep)) offenders.push(`${file} imports ${specifier}`);
      }
    }
  }
  expect(offenders).toEqual([]);
});

test('the server is one folder of TypeScript that Node runs as it is; scripts/ holds only tools', () => {
  const server = filesUnder('src/server');
  expect(server).toContain(path.join('src', 'server', 'serve.ts'));
  expect(server.filter((file) => !file.endsWith('.ts'))).toEqual([]);
  expect(filesUnder('src').filter((file) => /\.d\.mts$/.test(file) || file.includes(`${path.sep}lib${path.sep}server${path.sep}`))).toEqual([]);
  const tools = filesUnder('scripts').map((file) => path.basename(file));
  for (const moved of ['serve.mjs', 'routing.mjs', 'compression.mjs', 'security-headers.mjs', 'csp.mjs']) expect(tools).not.toContain(moved);
});
