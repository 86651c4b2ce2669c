import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { seedPgliteDataDir } from './test/test-server.ts';

const serverDir = fileURLToPath(new URL('..', import.meta.url));

/** Runs `npm start`'s command (tsx src/main.ts) with extra environment; resolves with exit code and stderr. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('main', () => {
  it('exits with status 1 listing every configuration problem', async () => {
    const { code, stderr } = await runMain({
      PORT: 'eighty',
      LOCAL_ACCOUNTS: 'maybe',
      DATABASE_URL: 'mysql://x',
    });
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration:');
    expect(stderr).toContain('PORT: must be a number');
    expect(stderr).toContain('LOCAL_ACCOUNTS: must be true or false');
    expect(stderr).toContain('DATABASE_URL: must be a postgres:// URL');
  });
});

describe('main with nothing configured', () => {
  it('boots on embedded defaults, serves /healthz and exits 0 on SIGTERM', { timeout: 120_000 }, async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bahi-main-'));
    // Restore the migrated template: initdb on an empty folder is slow on a busy machine and is covered
    // by the migration test; this test is about booting and shutting down.
    await seedPgliteDataDir(join(dataDir, 'db'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        // Only what a test must pin: a free port, a scratch data folder, and no inherited database.
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk) => {
          out += chunk;
          const match = /"url":"([^"]+)"[^\n]*Bahi is running/.exec(out);
          if (match) resolve(match[1]!);
        });
        void exited.then((code) => reject(new Error(`exited with ${code} before starting`)));
      });
      const health = await fetch(`${url}/healthz`);
      expect(await health.json()).toEqual({ ok: true });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
