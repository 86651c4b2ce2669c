import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from './env.ts';
import { resolveAuthSecret } from './secret.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('resolveAuthSecret', () => {
  it('generates one secret per DATA_DIR, private to the owner, and reuses it (also under concurrent starts)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bahi-secret-'));
    dirs.push(dir);
    const env = parseEnv({ DATA_DIR: join(dir, 'data') });
    const secrets = await Promise.all([
      resolveAuthSecret(env),
      resolveAuthSecret(env),
      resolveAuthSecret(env),
    ]);
    expect(new Set(secrets).size).toBe(1);
    expect(secrets[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(await resolveAuthSecret(env)).toBe(secrets[0]);
    expect(await readFile(join(dir, 'data', 'secret'), 'utf8')).toBe(secrets[0]);
    expect((await stat(join(dir, 'data', 'secret'))).mode & 0o077).toBe(0);
  });

  it('prefers BETTER_AUTH_SECRET and writes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bahi-secret-'));
    dirs.push(dir);
    const env = parseEnv({ DATA_DIR: dir, BETTER_AUTH_SECRET: 's'.repeat(40) });
    expect(await resolveAuthSecret(env)).toBe('s'.repeat(40));
    await expect(stat(join(dir, 'secret'))).rejects.toThrow();
  });
});
