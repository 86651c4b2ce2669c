import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeGstinCheckChar } from '@bahi/india';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import type { Db } from '../src/db/client.ts';
import { documents, flows, memberships } from '../src/db/schema/index.ts';
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

/** Made-up vendors with valid GSTINs of one state (`27`: Maharashtra), named by `name(n)` from 1. */
export function benchVendors(count: number, state: string, name: (n: number) => string) {
  return Array.from({ length: count }, (_, i) => {
    const first14 = `${state}AAB${String.fromCharCode(65 + (i % 26))}V${String(1000 + i).padStart(4, '0')}A1Z`;
    return { gstin: first14 + computeGstinCheckChar(first14), name: name(i + 1) };
  });
}

type DocumentRow = typeof documents.$inferInsert;

/** A processed document's row as a run stores it, keyed `key` (its source id, hash and `<key>.pdf`). */
export function storedDocument(
  base: Pick<DocumentRow, 'organizationId' | 'flowId'> & Partial<DocumentRow>,
  key: string,
  extraction: ReturnType<typeof storedExtraction>,
): DocumentRow {
  return {
    processedAt: new Date(),
    status: 'done',
    ...base,
    sourceId: key,
    contentHash: key,
    fileName: `${key}.pdf`,
    extraction,
  };
}

/** Inserts a bench's documents 500 at a time (one statement of thousands of rows is too large). */
export async function insertDocuments(db: Db, rows: DocumentRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += 500) await db.insert(documents).values(rows.slice(at, at + 500));
}

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
