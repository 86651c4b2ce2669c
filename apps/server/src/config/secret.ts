import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Env } from './env.ts';

/**
 * Returns BETTER_AUTH_SECRET, or the secret persisted in DATA_DIR/secret — created on first start so
 * sessions survive restarts without any configuration. `wx` makes concurrent first starts agree on one
 * secret: the loser of the race reads the winner's file.
 */
export async function resolveAuthSecret(env: Env): Promise<string> {
  if (env.betterAuthSecret) return env.betterAuthSecret;
  const file = join(env.dataDir, 'secret');
  await mkdir(env.dataDir, { recursive: true });
  try {
    await writeFile(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = (await readFile(file, 'utf8')).trim();
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters; delete it`);
  return secret;
}
