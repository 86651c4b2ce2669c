import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Env } from './env.ts';

const SECRET_LENGTH = 64;

/**
 * Returns BETTER_AUTH_SECRET, or the secret persisted in DATA_DIR/secret — created on first start so
 * sessions survive restarts without any configuration. `wx` makes concurrent first starts agree on one
 * secret: the loser of the race reads the winner's file (waiting briefly if it is still being written).
 */
export async function resolveAuthSecret(env: Env): Promise<string> {
  if (env.betterAuthSecret) return env.betterAuthSecret;
  const file = join(env.dataDir, 'secret');
  await mkdir(env.dataDir, { recursive: true });
  try {
    await writeFile(file, randomBytes(SECRET_LENGTH / 2).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (let attempt = 0; attempt < 20; attempt++) {
    const secret = (await readFile(file, 'utf8')).trim();
    if (secret.length >= 32) return secret;
    await sleep(50);
  }
  throw new Error(`${file} holds a secret shorter than 32 characters; delete it or set BETTER_AUTH_SECRET`);
}
