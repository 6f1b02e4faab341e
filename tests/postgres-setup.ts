/**
 * Vitest's global setup: one PostgreSQL server for the whole run (tests/helpers/postgres.ts),
 * its admin URL handed to the tests (`inject('postgresUrl')`), or why there is none
 * (`inject('postgresUnavailable')`), printed here so a skipped PostgreSQL test never passes unseen.
 */
import type { TestProject } from 'vitest/node';
import { startPostgres, type RunningPostgres } from './helpers/postgres';

let server: RunningPostgres | undefined;

export default async function setup(project: TestProject): Promise<() => void> {
  try {
    server = await startPostgres();
    project.provide('postgresUrl', server.adminUrl);
    project.provide('postgresUnavailable', '');
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    project.provide('postgresUrl', '');
    project.provide('postgresUnavailable', reason);
    console.warn(`\n*** The PostgreSQL store's tests are SKIPPED: ${reason} ***\n`);
  }
  return () => server?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    postgresUnavailable: string;
  }
}
