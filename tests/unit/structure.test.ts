/** Where code lives: the server in folders that name its parts, pages never reaching into it. */
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
  return [
    ...text.matchAll(
      /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm,
    ),
  ].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

const SERVER = path.join(ROOT, 'src', 'server');

test('no page, component, layout or browser module imports from src/server; only the API routes and the staff inbox (on demand, /admin) do', () => {
  const offenders: string[] = [];
  for (const dir of [
    'src/pages',
    'src/components',
    'src/layouts',
    'src/lib',
    'src/forms',
    'src/data',
    'src/i18n',
    'src/scripts',
    'src/integrations',
  ]) {
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

test('the server is TypeScript that Node runs as it is, in folders that name its parts; scripts/ holds only tools', () => {
  const server = filesUnder('src/server');
  const top = fs.readdirSync(SERVER, { withFileTypes: true });
  expect(
    top
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name)
      .sort(),
  ).toEqual(['README.md', 'cli.ts', 'config.ts']);
  expect(
    top
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort(),
  ).toEqual(['cli', 'http', 'inbox', 'mail', 'ops', 'receiver', 'store']);
  expect(server).toContain(path.join('src', 'server', 'http', 'serve.ts'));
  expect(server.filter((file) => !file.endsWith('.ts') && file !== path.join('src', 'server', 'README.md'))).toEqual([]);
  expect(
    filesUnder('src').filter((file) => /\.d\.mts$/.test(file) || file.includes(`${path.sep}lib${path.sep}server${path.sep}`)),
  ).toEqual([]);
  const tools = filesUnder('scripts').map((file) => path.basename(file));
  for (const moved of ['serve.mjs', 'routing.mjs', 'compression.mjs', 'security-headers.mjs', 'csp.mjs'])
    expect(tools).not.toContain(moved);
});

/** The server's modules that a file loads at run time (type-only imports are erased and load nothing). */
function runtimeImportsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const found = [
    ...text.matchAll(
      /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm,
    ),
  ];
  return found.map((match) => path.join(path.dirname(file), match[1] ?? match[2] ?? ''));
}

test('the server has no import cycles: every module can be loaded without a half-initialised neighbour', () => {
  const modules = filesUnder('src/server').filter((file) => file.endsWith('.ts'));
  const edges = new Map(modules.map((file) => [file, runtimeImportsOf(file).filter((target) => modules.includes(target))]));
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of edges.get(file) ?? []) visit(next, [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of modules) visit(file, []);
  expect(cycles).toEqual([]);
  // The check reads real edges: serve.ts loads the receiver's routing.
  expect(edges.get(path.join('src', 'server', 'http', 'serve.ts'))).toContain(path.join('src', 'server', 'http', 'routing.ts'));
});

/** Every relative import of a file (static, re-export and dynamic), and whether it is erased (type-only). */
function relativeImportsOf(file: string): { specifier: string; typeOnly: boolean }[] {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  return [
    ...text.matchAll(
      /^\s*(import|export)\s+(type\s)?(?:[^'";]*?\sfrom\s*)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/gm,
    ),
  ].map((match) => ({
    specifier: match[3] ?? match[4] ?? '',
    typeOnly: match[2] !== undefined,
  }));
}

test('what Node runs as it is (the server and the staff command) names every imported file with its extension', () => {
  const reached = new Set<string>();
  const missing: string[] = [];
  const walk = (file: string): void => {
    if (reached.has(file)) return;
    reached.add(file);
    for (const { specifier, typeOnly } of relativeImportsOf(file)) {
      const target = path.join(path.dirname(file), specifier);
      if (!fs.existsSync(path.join(ROOT, target)) || !fs.statSync(path.join(ROOT, target)).isFile()) {
        if (!typeOnly) missing.push(`${file} imports ${specifier}`);
        continue;
      }
      if (!typeOnly) walk(target);
    }
  };
  walk(path.join('src', 'server', 'http', 'serve.ts'));
  walk(path.join('src', 'server', 'cli.ts'));
  expect(missing).toEqual([]);
  // The walk reaches the stores through the server's own imports.
  expect(reached).toContain(path.join('src', 'server', 'store', 'sqlite', 'sqlite-store.ts'));
  expect(reached).not.toContain(path.join('src', 'server', 'receiver', 'receiver.ts'));
});
