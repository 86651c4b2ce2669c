import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startServer } from '../src/server.ts';
import { seedPgliteDataDir } from '../src/test/test-server.ts';

/**
 * A real server for a bench, in this process: embedded PGlite in a fresh temporary DATA_DIR, a random
 * loopback port, silent logs, `env` on top. `close()` stops it and deletes its data.
 */
export async function startBenchServer(name: string, env: Record<string, string> = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), `bahi-${name}-`));
  await seedPgliteDataDir(join(dataDir, 'db'));
  const server = await startServer({
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PUBLIC_URL: '',
      LOG_LEVEL: 'silent',
      ...env,
    },
    webDist: join(dataDir, 'no-web'),
    logger: pino({ level: 'silent' }),
  });
  return {
    server,
    dataDir,
    async close() {
      await server.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
