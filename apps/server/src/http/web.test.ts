import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '../config/env.ts';
import { createAuth } from '../modules/auth/auth.ts';
import { createTestDb, type TestDb } from '../test/test-db.ts';
import { createApp } from './app.ts';

let t: TestDb;
let webDist: string;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  t = await createTestDb();
  webDist = await mkdtemp(join(tmpdir(), 'bahi-web-'));
  await mkdir(join(webDist, 'assets'));
  await writeFile(join(webDist, 'index.html'), '<!doctype html><title>Bahi shell</title>');
  await writeFile(join(webDist, 'assets', 'app-abc123.js'), 'console.log("app")');
  const env = parseEnv({ PUBLIC_URL: 'http://bahi.test' });
  const logger = pino({ level: 'silent' });
  const auth = createAuth({ env, db: t.db, secret: 'x'.repeat(32), logger });
  app = createApp({ env, db: t.db, auth, logger }, { webDist });
});
afterAll(async () => {
  await t?.close();
  await rm(webDist, { recursive: true, force: true });
});

describe('web app hosting', () => {
  it('serves built assets with long caching and the app shell for client-side routes', async () => {
    const asset = await app.request('http://bahi.test/assets/app-abc123.js');
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log("app")');
    expect(asset.headers.get('cache-control')).toContain('immutable');

    for (const path of ['/', '/dashboard', '/settings/profile']) {
      const page = await app.request(`http://bahi.test${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text(), path).toContain('Bahi shell');
    }
  });

  it('answers 404 for missing files and unknown API routes instead of the shell', async () => {
    expect((await app.request('http://bahi.test/assets/old-hash.js')).status).toBe(404);
    const api = await app.request('http://bahi.test/api/unknown');
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });

  it('keeps the opener for the sign-in popup pages only', async () => {
    const page = await app.request('http://bahi.test/dashboard');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin-allow-popups');
    const popup = await app.request('http://bahi.test/auth/popup-done?error=x');
    expect(popup.headers.get('cross-origin-opener-policy')).toBe('unsafe-none');
  });
});
