import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
