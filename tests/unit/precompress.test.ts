/**
 * Precompressed build files (`precompressBuild` in src/lib/compressible.ts, run at the end of the
 * build by src/integrations/precompress.ts): every text file worth compressing has its Brotli
 * and gzip twins, byte for byte the file once decompressed (the server sends the twins:
 * tests/integration/stranger-requests.test.ts). The first part needs `astro build` (npm test runs it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { COMPRESSIBLE_TYPES, MIN_BYTES, precompressBuild } from '../../src/lib/compressible';
import { ROOT } from '../helpers/content';

const CLIENT = path.join(ROOT, 'dist/client');

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

describe('the build', () => {
  test('writes a .br and a .gz twin beside every text file of 1 KB or more, each the file itself once decompressed', () => {
    const files = walk(CLIENT).filter(
      (file) => COMPRESSIBLE_TYPES.has(path.extname(file)) && fs.statSync(file).size >= MIN_BYTES,
    );
    expect(files.some((file) => file.endsWith('index.html'))).toBe(true);
    expect(files.some((file) => file.endsWith('.js'))).toBe(true);
    const wrong = files.filter((file) => {
      const raw = fs.readFileSync(file);
      const br = `${file}.br`;
      const gz = `${file}.gz`;
      return (
        !fs.existsSync(br) ||
        !fs.existsSync(gz) ||
        !zlib.brotliDecompressSync(fs.readFileSync(br)).equals(raw) ||
        !zlib.gunzipSync(fs.readFileSync(gz)).equals(raw)
      );
    });
    expect(wrong.map((file) => path.relative(CLIENT, file))).toEqual([]);
  });
});

describe('precompressBuild', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globaq-precompress-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('writes twins for a text file of MIN_BYTES or more, and leaves small files and images alone', async () => {
    fs.writeFileSync(path.join(dir, 'page.html'), 'Schedule Q assessment. '.repeat(200));
    fs.writeFileSync(path.join(dir, 'small.css'), 'a{color:red}');
    fs.writeFileSync(path.join(dir, 'photo.png'), Buffer.alloc(4096));
    expect(await precompressBuild(dir)).toBe(1);
    expect(fs.existsSync(path.join(dir, 'page.html.gz'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'small.css.br'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'photo.png.br'))).toBe(false);
  });
});
