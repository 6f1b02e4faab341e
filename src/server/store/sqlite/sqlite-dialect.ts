/**
 * Kysely over Node's built-in `node:sqlite`: Kysely's own SQLite dialect expects better-sqlite3's
 * statements, and hands its one connection to every caller at once (two requests' transactions
 * would interleave). This one adds a lock on the connection (a transaction holds it from BEGIN to
 * COMMIT); BEGIN IMMEDIATE, so two connections never deadlock upgrading a read to a write;
 * transactional DDL (the pending migrations apply in one transaction); and a promise every
 * connection waits for (the migrations, before the store's queries).
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
} from 'kysely';
import { StoreError } from '../store.ts';

/** One holder at a time, served in order. */
export class ConnectionLock {
  #held = false;
  readonly #waiting: (() => void)[] = [];

  acquire(): Promise<void> {
    if (this.#held) return new Promise((resolve) => this.#waiting.push(resolve));
    this.#held = true;
    return Promise.resolve();
  }

  /** For the metrics: who waits for the connection, and whether it is in use. */
  depth(): { waiting: number; active: number; idle: number } {
    return { waiting: this.#waiting.length, active: Number(this.#held), idle: Number(!this.#held) };
  }

  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}

const STATEMENT_CACHE = 200;

class NodeSqliteConnection implements DatabaseConnection {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, { statement: StatementSync; reader: boolean }>();

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  #prepare(sql: string): { statement: StatementSync; reader: boolean } {
    let prepared = this.#statements.get(sql);
    if (!prepared) {
      const statement = this.#db.prepare(sql);
      prepared = { statement, reader: statement.columns().length > 0 };
      if (this.#statements.size >= STATEMENT_CACHE) this.#statements.delete(this.#statements.keys().next().value!);
      this.#statements.set(sql, prepared);
    }
    return prepared;
  }

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const { statement, reader } = this.#prepare(compiled.sql);
    const parameters = compiled.parameters as SQLInputValue[];
    if (reader) return { rows: statement.all(...parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(...parameters);
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
  }

  async *streamQuery<R>(compiled: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { statement } = this.#prepare(compiled.sql);
    for (const row of statement.iterate(...(compiled.parameters as SQLInputValue[]))) yield { rows: [row as R] };
  }
}

class NodeSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** A Kysely dialect on an open `DatabaseSync`, sharing `lock` with whoever else writes on it; its queries wait for `ready`. */
export class NodeSqliteDialect implements Dialect {
  readonly #db: DatabaseSync;
  readonly #lock: ConnectionLock;
  readonly #ready: Promise<void>;

  constructor(db: DatabaseSync, lock: ConnectionLock = new ConnectionLock(), ready: Promise<void> = Promise.resolve()) {
    this.#db = db;
    this.#lock = lock;
    this.#ready = ready;
  }

  createDriver(): Driver {
    const [db, lock, ready] = [this.#db, this.#lock, this.#ready];
    const connection = new NodeSqliteConnection(db);
    const run = async (c: DatabaseConnection, sql: string) => void (await c.executeQuery(CompiledQuery.raw(sql)));
    return {
      init: async () => {},
      async acquireConnection() {
        await ready;
        await lock.acquire();
        if (!db.isOpen) {
          lock.release();
          throw new StoreError('The submissions store is closed');
        }
        return connection;
      },
      beginTransaction: (c) => run(c, 'BEGIN IMMEDIATE'),
      commitTransaction: (c) => run(c, 'COMMIT'),
      // A failed COMMIT (disk full) may already have ended the transaction.
      rollbackTransaction: async (c) => (db.isTransaction ? run(c, 'ROLLBACK') : undefined),
      releaseConnection: async () => lock.release(),
      // The connection is its opener's to close (the store closes it after its last commit).
      destroy: async () => {},
    };
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new NodeSqliteAdapter();
  }

  // Kysely's Dialect interface names the database type `any`.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
}
