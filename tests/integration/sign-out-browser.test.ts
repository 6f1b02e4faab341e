/**
 * Signing out behind HTTPS, in a real browser: the `__Host-` session cookie leaves the browser.
 * A browser ignores a `__Host-` Set-Cookie (a deletion too) that lacks Secure or Path=/, so a
 * deletion without them leaves the cookie in place, whatever the server thinks it did.
 *
 * The built server with BEHIND_HTTPS=true, reached as http://localhost: Chromium treats
 * localhost as a secure context and keeps Secure and `__Host-` cookies there as over HTTPS.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openStaffStore } from '../../src/server/store/sqlite/sqlite-store';
import { hashPassword } from '../../src/server/inbox/staff';
import { startServer, tempDir, type RunningServer, LIGHT_HASH } from '../helpers/server';

const STAFF = 'cookie@globaq.example';
const PASSWORD = 'a password for the cookie test';

let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = tempDir('globaq-sign-out-');
  server = await startServer({ dbPath: path.join(dir, 'submissions.db'), env: { BEHIND_HTTPS: 'true' } });
  const staff = openStaffStore(server.dbPath);
  await staff.add(STAFF, await hashPassword(PASSWORD, LIGHT_HASH), new Date());
  await staff.close();
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

test('after "Sign out" the browser holds no session cookie, and the inbox asks to sign in again', async () => {
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    const base = server.baseUrl.replace('127.0.0.1', 'localhost');
    await page.goto(`${base}/admin/login`);
    await page.getByLabel(/e-mail/i).fill(STAFF);
    await page.getByLabel(/password/i).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/admin`);
    const before = await page.context().cookies();
    // The session, and the device cookie that lets this browser past a lock someone else causes.
    expect(before.map((cookie) => [cookie.name, cookie.secure, cookie.path]).sort()).toEqual([
      ['__Host-globaq-device', true, '/'],
      ['__Host-globaq-staff', true, '/'],
    ]);

    await page.getByRole('button', { name: /Sign out/ }).click();
    await page.waitForURL(`${base}/admin/login`);
    // The session cookie is gone; the device cookie stays (it signs nobody in by itself).
    expect((await page.context().cookies()).map((cookie) => cookie.name)).toEqual(['__Host-globaq-device']);
    await page.goto(`${base}/admin`);
    expect(new URL(page.url()).pathname).toBe('/admin/login');
  } finally {
    await browser.close();
  }
});
