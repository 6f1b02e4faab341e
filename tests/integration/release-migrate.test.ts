/**
 * A release and the next one, whose schema is one migration further (a probe migration added to a
 * copy of this checkout's source): the next release's commands leave the database alone and say
 * to run `migrate`; the running release keeps serving on its schema until `migrate` runs; after
 * it, this release refuses the newer schema with what to do.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, expect, test } from 'vitest';
import { main } from '../../src/server/cli';
import { openStores } from '../../src/server/store/database';
import { SCHEMA_VERSION } from '../../src/server/store/migrations/index';
import { sqliteSchemaVersion } from '../../src/server/store/sqlite/sqlite-store';
import { ROOT } from '../helpers/frontmatter';
import { contactBody, tempDir } from '../helpers/server';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** This checkout's source with one more migration, as the next release would ship it. */
function nextRelease(): string {
  const dir = tempDir('globaq-next-release-');
  dirs.push(dir);
  fs.cpSync(path.join(ROOT, 'src'), path.join(dir, 'src'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const index = path.join(dir, 'src', 'server', 'store', 'migrations', 'index.ts');
  const probe = "  '9999-probe': { up: (db) => db.schema.createTable('probe').addColumn('id', 'integer').execute() },\n";
  const source = fs.readFileSync(index, 'utf8');
  expect(source).toContain('\n};\n\nconst NAMES');
  fs.writeFileSync(index, source.replace('\n};\n\nconst NAMES', `\n${probe}};\n\nconst NAMES`));
  return dir;
}

const versionOf = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return sqliteSchemaVersion(db);
  } finally {
    db.close();
  }
};

test('the next release migrates only when told, and the running one keeps its schema until then', async () => {
  const dir = tempDir('globaq-release-');
  dirs.push(dir);
  const file = path.join(dir, 'submissions.db');
  // The running release: this checkout's code, on a database it made.
  const running = openStores({ dbPath: file, databaseUrl: undefined, poolMax: 1 });
  await running.ready;
  await running.submissions.save({ form: 'contact', fields: contactBody() });

  const next = nextRelease();
  const env = { ...process.env, DATABASE_URL: '', SUBMISSIONS_DB: file };
  const runNext = (...argv: string[]) =>
    spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(next, 'src', 'server', 'cli.ts'), ...argv], {
      cwd: next,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });

  // The next release's commands (its checks, a backup's audit entry) refuse, and change nothing.
  const refused = runNext('count', '--db', file);
  expect(refused.status, refused.stderr).toBe(1);
  expect(refused.stderr).toContain(
    `schema version ${SCHEMA_VERSION}; this release needs ${SCHEMA_VERSION + 1}: back it up, then run \`npm run submissions -- migrate\``,
  );
  expect(versionOf(file)).toBe(SCHEMA_VERSION);
  await running.submissions.save({ form: 'contact', fields: contactBody() });
  expect(await running.submissions.count()).toBe(2);

  const migrated = runNext('migrate', '--db', file);
  expect(migrated.status, migrated.stderr).toBe(0);
  expect(migrated.stderr).toContain(`from schema version ${SCHEMA_VERSION} to ${SCHEMA_VERSION + 1}`);
  expect(versionOf(file)).toBe(SCHEMA_VERSION + 1);
  expect(runNext('migrate', '--db', file).stderr).toContain('already: nothing to migrate');
  await running.close();

  // This release, started again on it (a rollback without the backup), refuses it and says why.
  let stderr = '';
  const code = await main(['count', '--db', file], {
    stdout: () => {},
    stderr: (text) => (stderr += text),
    env: {},
    root: dir,
    cwd: dir,
  });
  expect(code).toBe(1);
  expect(stderr).toContain(
    `newer than this code knows (${SCHEMA_VERSION}): run the release that migrated it, or restore the backup`,
  );

  const counted = runNext('count', '--form', 'contact', '--db', file);
  expect(counted.status, counted.stderr).toBe(0);
  expect(counted.stdout).toBe('contact\t2\n');
});
