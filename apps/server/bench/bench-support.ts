import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { Db } from '../src/db/client.ts';
import { flows, memberships } from '../src/db/schema/index.ts';
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

/** An `extraction/v1` reading as a run stores it, for documents a bench inserts directly. */
export const storedExtraction = (documentType: string, fields: object, lineItems: object[]) => ({
  contract: 'extraction/v1',
  documentType,
  fields,
  lineItems,
  checks: [],
  confidence: {},
  provenance: {},
  error: null,
});

/** The organisation of a bench's owner, and a way to add upload flows of one type to it. */
export async function openBenchOrganization(db: Db, userId: string) {
  const [member] = await db.select().from(memberships).where(eq(memberships.userId, userId));
  const organizationId = member!.organizationId;
  const addFlow = async (name: string, type: string) =>
    (
      await db
        .insert(flows)
        .values({
          organizationId,
          name,
          types: [type],
          status: 'success',
          io: {
            input: { kind: 'upload', url: '', folderName: '' },
            output: { kind: 'xlsx', sheetId: '', sheetName: name },
          },
        })
        .returning()
    )[0]!.id;
  return { organizationId, addFlow };
}
