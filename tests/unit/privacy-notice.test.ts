/**
 * The privacy notice says what the system does: the periods it gives in both languages are the
 * receiver's default for held spam (HELD_PURGE_DAYS), the nightly script's purge and backup age in
 * docs/deploy.md, and the two languages give the same numbers.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_PROOF } from '../../src/server/config';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const english = read('src/content/pages/privacy.mdx');
const arabic = read('src/content/ar/pages/privacy.mdx');
const deploy = read('docs/deploy.md');
const numbers = (text: string) => [...text.matchAll(/\d+/g)].map((m) => Number(m[0]));

describe('the privacy notice against the settings it describes', () => {
  test("held spam: the receiver's HELD_PURGE_DAYS default, in both languages", () => {
    expect(english).toContain(`erased after ${DEFAULT_PROOF.heldPurgeDays} days`);
    expect(arabic).toContain(`تُتلف بعد ${DEFAULT_PROOF.heldPurgeDays} يومًا`);
  });

  test('leads: the nightly purge of docs/deploy.md, in both languages', () => {
    const months = Number(/submissions -- purge --older-than (\d+)m/.exec(deploy)?.[1]);
    expect(months).toBeGreaterThan(0);
    expect(english).toContain(`up to ${months} months`);
    expect(arabic).toContain(`حتى ${months} شهرًا`);
  });

  test("backups: the nightly script's age, in both languages", () => {
    const days = Number(/-name 'nightly-\*' -mtime \+(\d+)/.exec(deploy)?.[1]);
    expect(days).toBeGreaterThan(0);
    expect(english).toContain(`with the backups, after ${days} days`);
    expect(arabic).toContain(`مع تلك النسخ بعد ${days} يومًا`);
  });

  test('the two languages give the same numbers', () => {
    const body = (text: string) => text.slice(text.indexOf('\n---', 3));
    expect(numbers(body(arabic)).sort()).toEqual(numbers(body(english)).sort());
  });
});
