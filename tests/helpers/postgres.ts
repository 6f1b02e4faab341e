/**
 * A real PostgreSQL server for the tests, from Debian's packages, started by the test run itself
 * (tests/postgres-setup.ts): `initdb` in a temporary folder, `pg_ctl start` on a free loopback
 * port, no configuration by hand. As root it runs as the `postgres` user (the server refuses
 * root). Each test file makes a database of its own (`freshDatabase`).
 *
 * When the server programs are missing (not Debian, not root to install them), `unavailable`
 * says why, and the PostgreSQL tests are skipped with that reason printed: never passed silently.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import pg from 'pg';

/** A loopback port nothing listens on (yet). (No relative import: the benchmark script loads this file too.) */
async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface RunningPostgres {
  /** The superuser's URL to the `postgres` database. */
  readonly adminUrl: string;
  stop(): void;
}

export function postgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return undefined;
  const versions = fs
    .readdirSync(base)
    .filter((version) => fs.existsSync(path.join(base, version, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(base, versions[0], 'bin') : undefined;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a server program, as the postgres user when we are root. */
function runAs(bin: string, program: string, args: string[]): { status: number | null; output: string } {
  const command = isRoot() ? 'runuser' : path.join(bin, program);
  const argv = isRoot() ? ['-u', 'postgres', '--', path.join(bin, program), ...args] : args;
  const result = spawnSync(command, argv, { encoding: 'utf8', timeout: 120_000 });
  return {
    status: result.status,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`,
  };
}

/** Starts a throwaway cluster; throws with the reason when it cannot. */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<RunningPostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error("PostgreSQL's server programs are not installed (Debian: apt-get install -y postgresql)");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-pg-'));
  const data = path.join(dir, 'data');
  if (isRoot()) {
    const owner = spawnSync('chown', ['-R', 'postgres:postgres', dir]);
    if (owner.status !== 0)
      throw new Error(`Cannot hand ${dir} to the postgres user (is Debian's postgresql package installed?)`);
  }
  const init = runAs(bin, 'initdb', ['-D', data, '-U', 'globaq', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.output}`);
  const port = await freePort();
  // Tests need no crash safety from their throwaway server; the benchmark does (durable: as in production).
  const speed = options.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200${speed}`;
  const start = runAs(bin, 'pg_ctl', ['-D', data, '-o', settings, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  if (start.status !== 0)
    throw new Error(
      `pg_ctl start failed:\n${start.output}\n${fs.existsSync(path.join(dir, 'server.log')) ? fs.readFileSync(path.join(dir, 'server.log'), 'utf8') : ''}`,
    );
  return {
    adminUrl: `postgres://globaq@127.0.0.1:${port}/postgres`,
    stop() {
      runAs(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A new empty database on the test server; its URL. */
export async function freshDatabase(adminUrl: string): Promise<string> {
  const name = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.href;
}
