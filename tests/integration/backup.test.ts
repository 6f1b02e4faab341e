/**
 * Backups that restore, against the built server and the staff command (no mocks): a backup
 * taken under load while the server is killed holds every lead acknowledged before it began,
 * with its files byte-identical; restore refuses a live server's database and a backup that
 * fails its checksums; a lead whose file is missing answers staff a clear 404, never a 500.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import pg from 'pg';
import { attachmentsDir, openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { ROOT } from '../helpers/frontmatter';
import { freshDatabase, postgresBin } from '../helpers/postgres';
import { asForm, contactBody, partnerBody, postJson, startServer, tempDir, LIGHT_HASH } from '../helpers/server';
import { until } from '../helpers/wait';

let dir: string;

beforeAll(() => {
  dir = tempDir('globaq-backup-');
});

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The staff command as an operator runs it, in its own process. */
function submissions(args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', path.join(ROOT, 'src', 'server', 'cli.ts'), ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A small PDF, different for each application. */
const pdf = (n: number) =>
  new TextEncoder().encode(`%PDF-1.7\n% CV number ${n} ${'x'.repeat(n % 500)}\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n`);

function partnerWithCv(n: number): FormData {
  const data = new FormData();
  for (const [name, value] of asForm(partnerBody()).entries()) if (name !== 'uploadedFiles') data.append(name, value);
  data.append('uploadedFiles', new Blob([pdf(n) as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), `cv-${n}.pdf`);
  return data;
}

describe('backup and restore (SQLite)', () => {
  test('killed mid-backup under load: the restore holds every lead acknowledged before the backup began, files byte-identical', async () => {
    const dbPath = path.join(dir, 'live.db');
    const server = await startServer({ dbPath });
    /** Lead id → the SHA-256 of the CV it was sent with (none for a contact message). */
    const acknowledged = new Map<string, string | undefined>();
    let posting = true;
    let n = 0;
    const lane = async (partner: boolean) => {
      while (posting) {
        const k = ++n;
        try {
          const answer = partner
            ? await fetch(`${server.baseUrl}/api/partner`, {
                method: 'POST',
                body: partnerWithCv(k),
                headers: { Origin: server.origin, Accept: 'application/json' },
              })
            : await postJson(server.baseUrl, '/api/contact', contactBody());
          if (answer.status === 201)
            acknowledged.set(((await answer.json()) as { id: string }).id, partner ? sha256(pdf(k)) : undefined);
        } catch {
          // The server is gone (killed): every later post would fail too.
          return;
        }
      }
    };
    const lanes = [lane(true), lane(true), lane(false), lane(false)];
    try {
      await until(() => acknowledged.size >= 60);
      const before = new Map(acknowledged);
      const backupDir = path.join(dir, 'backup-1');
      const backup = submissions(['backup', backupDir, '--db', dbPath]);
      // Mid-backup, under load: once the backup has begun writing, the server dies without a chance to finish anything.
      await until(() => fs.existsSync(backupDir), 2);
      await server.stop('SIGKILL');
      posting = false;
      await Promise.all(lanes);
      const result = await backup;
      expect(result.code, result.output).toBe(0);

      const restored = path.join(dir, 'restored', 'submissions.db');
      const restore = await submissions(['restore', backupDir, '--db', restored]);
      expect(restore.code, restore.output).toBe(0);
      const db = new DatabaseSync(restored, { readOnly: true });
      const ids = new Set((db.prepare('SELECT id FROM submissions').all() as { id: string }[]).map((row) => row.id));
      const files = db.prepare('SELECT id, submission_id, sha256 FROM attachments').all() as {
        id: string;
        submission_id: string;
        sha256: string;
      }[];
      db.close();
      expect([...before.keys()].filter((id) => !ids.has(id))).toEqual([]);
      const folder = attachmentsDir(restored);
      for (const [id, cv] of before) {
        if (cv === undefined) continue;
        const file = files.find((row) => row.submission_id === id);
        expect(file?.sha256, id).toBe(cv);
        expect(sha256(fs.readFileSync(path.join(folder, file!.id))), id).toBe(cv);
      }
      // Every row in the copy has its file, checked.
      for (const file of files) expect(sha256(fs.readFileSync(path.join(folder, file.id)))).toBe(file.sha256);
    } finally {
      posting = false;
      await server.stop('SIGKILL');
    }
  }, 120_000);

  test('restored over the database of a server killed with kill -9 mid-backup: every acknowledged lead is in the restored database or in the one set aside, which opens as one file', async () => {
    const dbPath = path.join(dir, 'killed', 'submissions.db');
    const server = await startServer({ dbPath });
    const acknowledged = new Set<string>();
    let posting = true;
    const lane = async () => {
      while (posting) {
        try {
          const answer = await postJson(server.baseUrl, '/api/contact', contactBody());
          if (answer.status === 201) acknowledged.add(((await answer.json()) as { id: string }).id);
        } catch {
          // The server is gone (killed): every later post would fail too.
          return;
        }
      }
    };
    const lanes = [lane(), lane(), lane()];
    try {
      await until(() => acknowledged.size >= 30, 20);
      const backupDir = path.join(dir, 'backup-killed');
      const backup = submissions(['backup', backupDir, '--db', dbPath]);
      await until(() => fs.existsSync(backupDir), 2);
      // Leads keep arriving after the backup began; then the server dies without a checkpoint.
      const target = acknowledged.size + 20;
      await until(() => acknowledged.size >= target, 10);
      await server.stop('SIGKILL');
      posting = false;
      await Promise.all(lanes);
      expect((await backup).code).toBe(0);
      expect(fs.existsSync(`${dbPath}-wal`)).toBe(true);

      const restore = await submissions(['restore', backupDir, '--db', dbPath]);
      expect(restore.code, restore.output).toBe(0);
      const asideName = fs
        .readdirSync(path.dirname(dbPath))
        .filter((name) => /^submissions\.db\.before-restore-[^-]+(-[^-]+)*$/.test(name) && !/-(wal|shm)$/.test(name));
      expect(asideName).toHaveLength(1);
      const aside = path.join(path.dirname(dbPath), asideName[0]!);
      expect(restore.output).toContain(aside);
      // One consistent file: no write-ahead log beside it.
      expect(fs.existsSync(`${aside}-wal`)).toBe(false);
      const ids = (file: string) => {
        const db = new DatabaseSync(file, { readOnly: true });
        try {
          return new Set((db.prepare('SELECT id FROM submissions').all() as { id: string }[]).map((row) => row.id));
        } finally {
          db.close();
        }
      };
      // Opened as the guide says (sqlite3 on the file, read-only), the set-aside database holds every acknowledged lead.
      const setAside = ids(aside);
      const restored = ids(dbPath);
      expect([...acknowledged].filter((id) => !setAside.has(id))).toEqual([]);
      expect([...acknowledged].filter((id) => !setAside.has(id) && !restored.has(id))).toEqual([]);
      expect(restored.size).toBeLessThan(setAside.size);
    } finally {
      posting = false;
      await server.stop('SIGKILL');
    }
  }, 120_000);

  test('restore refuses a running server’s database and a backup that fails its checksums; staff get a clear 404 for a file that is missing', async () => {
    const dbPath = path.join(dir, 'served.db');
    const server = await startServer({ dbPath });
    try {
      const answer = await fetch(`${server.baseUrl}/api/partner`, {
        method: 'POST',
        body: partnerWithCv(7),
        headers: { Origin: server.origin, Accept: 'application/json' },
      });
      expect(answer.status).toBe(201);
      const backupDir = path.join(dir, 'backup-2');
      expect((await submissions(['backup', backupDir, '--db', dbPath])).code).toBe(0);

      const refused = await submissions(['restore', backupDir, '--db', dbPath]);
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(/A server \(pid \d+\) has .*served\.db open: stop it first/);

      const manifest = JSON.parse(fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8')) as { files: { id: string }[] };
      const cv = path.join(backupDir, 'files', manifest.files[0]!.id);
      fs.appendFileSync(cv, 'tampered');
      const tampered = await submissions(['restore', backupDir, '--db', path.join(dir, 'elsewhere.db')]);
      expect(tampered.code).toBe(1);
      expect(tampered.output).toContain('The backup fails its checksum');
      expect(fs.existsSync(path.join(dir, 'elsewhere.db'))).toBe(false);

      // The database without its files (the old guide's restore): the download is a clear 404.
      fs.rmSync(attachmentsDir(dbPath), { recursive: true });
      const staff = openStaffStore(dbPath);
      await staff.add('backup@globaq.example', await hashPassword('backup test password', LIGHT_HASH), new Date());
      await staff.close();
      const login = await fetch(`${server.baseUrl}/admin/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.origin },
        body: new URLSearchParams({ email: 'backup@globaq.example', password: 'backup test password' }).toString(),
      });
      expect(login.status).toBe(303);
      const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
      const download = await fetch(`${server.baseUrl}/admin/files/${manifest.files[0]!.id}`, { headers: { Cookie: cookie } });
      expect(download.status).toBe(404);
      const text = await download.text();
      expect(text).toContain('cannot find it in its files folder');
      expect(text).not.toMatch(/at .*\.(js|ts|mjs):\d+/);
    } finally {
      await server.stop();
    }
  }, 120_000);
});

const postgresUrl = inject('postgresUrl');
const unavailable = inject('postgresUnavailable');

describe.skipIf(unavailable !== '')(
  `PostgreSQL: pg_dump and pg_restore as docs/deploy.md shows${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    async function rows(url: string, text: string): Promise<Record<string, unknown>[]> {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text)).rows as Record<string, unknown>[];
      } finally {
        await client.end();
      }
    }

    test('a dump taken while the server runs restores into an empty database that a server reads, files included', async () => {
      const url = await freshDatabase(postgresUrl);
      const server = await startServer({ dbPath: tempDir('globaq-unused-'), env: { DATABASE_URL: url } });
      const dump = path.join(dir, 'globaq.dump');
      try {
        for (let k = 0; k < 3; k++) {
          expect(
            (
              await fetch(`${server.baseUrl}/api/partner`, {
                method: 'POST',
                body: partnerWithCv(k),
                headers: { Origin: server.origin, Accept: 'application/json' },
              })
            ).status,
          ).toBe(201);
          expect((await postJson(server.baseUrl, '/api/contact', contactBody())).status).toBe(201);
        }
        const readyz = (await (await fetch(`${server.baseUrl}/readyz`)).json()) as {
          status: string;
          checks: Record<string, { detail: string }>;
        };
        expect(readyz.status).toBe('ready');
        expect(readyz.checks['files']?.detail).toBe('kept in the database');
        const bin = postgresBin()!;
        const dumped = spawnSyncText(path.join(bin, 'pg_dump'), ['--format=custom', '--no-owner', `--file=${dump}`, url]);
        expect(dumped.status, dumped.output).toBe(0);
      } finally {
        await server.stop();
      }
      const target = await freshDatabase(postgresUrl);
      const restored = spawnSyncText(path.join(postgresBin()!, 'pg_restore'), [
        '--no-owner',
        '--exit-on-error',
        `--dbname=${target}`,
        dump,
      ]);
      expect(restored.status, restored.output).toBe(0);
      const query =
        "SELECT s.id, a.sha256, encode(sha256(a.bytes), 'hex') AS actual FROM submissions s LEFT JOIN attachments a ON a.submission_id = s.id ORDER BY s.id";
      expect(await rows(target, query)).toEqual(await rows(url, query));
      for (const row of await rows(target, query)) if (row['sha256'] !== null) expect(row['actual']).toBe(row['sha256']);
      const again = await startServer({ dbPath: tempDir('globaq-unused-'), env: { DATABASE_URL: target } });
      try {
        expect((await fetch(`${again.baseUrl}/readyz`)).status).toBe(200);
      } finally {
        await again.stop();
      }
    }, 120_000);
  },
);

function spawnSyncText(command: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000 });
  return {
    status: result.status,
    output: `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ? String(result.error) : ''}`,
  };
}
