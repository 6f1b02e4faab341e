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

/** The files under src/ that a file imports, type-only imports included (an import written without its extension too). */
function sourceImportsOf(file: string, files: ReadonlySet<string>): string[] {
  return relativeImportsOf(file).flatMap(({ specifier }) => {
    const base = path.join(path.dirname(file), specifier);
    const found = [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')].find((candidate) => files.has(candidate));
    return found ? [found] : [];
  });
}

test('no import circle anywhere in src/, type-only imports included: every module can be read and loaded on its own', () => {
  const modules = filesUnder('src').filter((file) => /\.(ts|tsx|astro|mjs)$/.test(file));
  const known = new Set(modules);
  const edges = new Map(modules.map((file) => [file, sourceImportsOf(file, known)]));
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
  // The check reads real edges: a runtime import of the server, a type-only one and an Astro page's.
  expect(edges.get(path.join('src', 'server', 'http', 'serve.ts'))).toContain(path.join('src', 'server', 'http', 'routing.ts'));
  expect(edges.get(path.join('src', 'server', 'inbox', 'inbox-store.ts'))).toContain(
    path.join('src', 'server', 'mail', 'outbox.ts'),
  );
  expect([...edges.values()].flat().filter((target) => target.endsWith('.astro')).length).toBeGreaterThan(10);
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

test('src/ stays within 30,000 lines, and no file but the string tables over 400', () => {
  const files = filesUnder('src').filter((file) => /\.(ts|tsx|astro|css|mjs)$/.test(file));
  const lines = new Map(files.map((file) => [file, fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1]));
  const total = [...lines.values()].reduce((sum, count) => sum + count, 0);
  expect(total, 'lines under src/ (TypeScript, TSX, Astro, CSS, MJS)').toBeLessThanOrEqual(30_000);
  const tables = [path.join('src', 'i18n', 'en.ts'), path.join('src', 'i18n', 'ar.ts')];
  expect([...lines].filter(([file, count]) => count > 400 && !tables.includes(file))).toEqual([]);
  // The count reads the files: the string tables are the longest.
  expect(Math.max(...lines.values())).toBe(lines.get(tables[0]!));
});
