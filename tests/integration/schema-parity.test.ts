/**
 * The two databases' schemas, read from their live catalogues after the migrations, are the
 * same as the app sees them: tables, columns (type as read back, nullability, default),
 * primary keys, unique and foreign keys, checks (allowed values, JSON objects, UUIDs) and
 * indexes. Each side is described as a set of facts; a fact only one side has fails the test
 * unless INTENDED lists it with its reason, and a listed difference that no longer exists fails
 * too (the list stays true). The contract tests check behaviour; this checks what they cannot
 * see (an index, a check, a type written in one dialect's migration only).
 *
 * Without PostgreSQL (tests/postgres-setup.ts says why), the test is skipped, never passed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { openStores } from '../../src/server/store/database';
import { freshDatabase } from '../helpers/postgres';
import { postgresFacts, sqliteFacts } from '../helpers/schema-facts';
import { tempDir } from '../helpers/server';

const postgresUrl = inject('postgresUrl');
const unavailable = inject('postgresUnavailable');
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Differences meant to be, with the reason for each: the fact, and which side alone has it. */
const INTENDED: Readonly<Record<string, { only: 'SQLite' | 'PostgreSQL'; reason: string }>> = {
  'column notifications.claimed_until: text, null': {
    only: 'PostgreSQL',
    reason:
      'The lease of the instance sending a notification: several PostgreSQL instances share one outbox; one SQLite file has one server, which needs none.',
  },
  'column attachments.bytes: bytes, not null': {
    only: 'PostgreSQL',
    reason:
      'PostgreSQL keeps the files in the database, so that every instance serves them; SQLite keeps them in a folder beside its file.',
  },
};

describe.skipIf(unavailable !== '')(`schema parity${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  test('SQLite and PostgreSQL, migrated, hold the same schema but for the differences listed with their reasons', async () => {
    const dir = tempDir('globaq-parity-');
    dirs.push(dir);
    const file = path.join(dir, 'submissions.db');
    const url = await freshDatabase(postgresUrl);
    for (const config of [
      { dbPath: file, databaseUrl: undefined },
      { dbPath: '', databaseUrl: url },
    ]) {
      const stores = openStores({ ...config, poolMax: 1 });
      await stores.ready;
      await stores.close();
    }
    const sqlite = sqliteFacts(file);
    const postgres = await postgresFacts(url);
    // The reading itself works: both sides see the leads' table, its checks and its indexes.
    for (const facts of [sqlite, postgres]) {
      expect(facts).toContain('check submissions.form in (contact, partner)');
      expect(facts).toContain('index submissions_form_received on submissions(form, received_at)');
    }

    const differences = [
      ...[...sqlite].filter((fact) => !postgres.has(fact)).map((fact) => ({ fact, only: 'SQLite' })),
      ...[...postgres].filter((fact) => !sqlite.has(fact)).map((fact) => ({ fact, only: 'PostgreSQL' })),
    ];
    const unexplained = differences
      .filter(({ fact, only }) => INTENDED[fact]?.only !== only)
      .map(({ fact, only }) => `${only} only: ${fact}`);
    expect(unexplained, 'differences between the two schemas that INTENDED does not list').toEqual([]);
    const stale = Object.keys(INTENDED).filter((fact) => !differences.some((difference) => difference.fact === fact));
    expect(stale, 'differences INTENDED lists that no longer exist').toEqual([]);
  });
});
