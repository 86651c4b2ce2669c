import { randomUUID } from 'node:crypto';
import { access, mkdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../config/env.ts';
import { documentLines, documents, runs } from '../db/schema/index.ts';
import { jobWiring } from '../job-handlers.ts';
import { createLogger } from '../lib/logger.ts';
import { createWorkflow, requireFlow } from '../modules/flows/flows.service.ts';
import { createMember, createTestEnv, readFixture } from '../modules/flows/test-support.ts';
import { getRun, startRun } from '../modules/runs/runs.service.ts';
import { addUploads } from '../modules/uploads/uploads.service.ts';
import { createTestDb, type TestDb } from '../test/test-db.ts';
import { type JobRuntime, startJobRuntime } from './runtime.ts';

// Two worker processes' worth of job runtimes (each its own pg-boss instance and thread pool) on one
// database — PGlite here, the real PostgreSQL server when DATABASE_URL is set — sharing the queue. The
// run's job is also delivered twice on purpose: the result must still be one row per document.

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
const runtimes: JobRuntime[] = [];

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv({ EXTRACT_CONCURRENCY: '1' }));
  // On PostgreSQL the queue connects by URL: the fresh test database's.
  env.databaseUrl = t.databaseUrl;
  for (let i = 0; i < 2; i++) {
    runtimes.push(
      await startJobRuntime({
        handle: t.handle,
        env,
        logger: createLogger('silent'),
        work: true,
        wiring: jobWiring,
      }),
    );
  }
});

afterAll(async () => {
  for (const r of runtimes) await r.stop();
  await t.close();
  await cleanup();
});

async function waitForRun(membership: Parameters<typeof getRun>[1], runId: string) {
  for (let i = 0; i < 600; i++) {
    const run = await getRun(t.db, membership, runId);
    if (run.status === 'succeeded' || run.status === 'failed') return run;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('run did not finish');
}

describe('job runtime on a shared queue', () => {
  it('two workers and a duplicated job still give exactly one row per document', {
    timeout: 300_000,
  }, async () => {
    const member = await createMember(t.db);
    const flows = [];
    for (const name of ['North', 'South']) {
      const wf = await createWorkflow(t.db, {
        env,
        user: member.user,
        membership: member.membership,
        input: {
          name,
          types: ['INVOICE'],
          io: {
            input: { kind: 'upload', url: '', folderName: '' },
            output: { kind: 'xlsx', sheetId: '', sheetName: '' },
          },
        },
      });
      await addUploads(t.db, {
        env,
        user: member.user,
        membership: member.membership,
        flowId: wf.id,
        files: [
          { name: 'a.pdf', bytes: await readFixture('invoice-018.pdf') },
          { name: 'b.pdf', bytes: await readFixture('invoice-040.pdf') },
          { name: 'c.pdf', bytes: await readFixture('invoice-011.pdf') },
        ],
      });
      flows.push(await requireFlow(t.db, member.membership, wf.id));
    }
    const started = await Promise.all(
      flows.map((f) => startRun(t.db, { env, jobs: runtimes[0]!.queue, user: member.user, flow: f })),
    );
    // The same job again, through the other runtime's queue: a duplicate delivery.
    for (const run of started) await runtimes[1]!.queue.send('flow-run', { runId: run.id });

    for (const run of started) {
      const finished = await waitForRun(member.membership, run.id);
      expect(finished.status).toBe('succeeded');
      expect(finished.counts.total).toBe(3);
      expect(finished.counts.done + finished.counts.needsReview).toBe(3);
      const [row] = await t.db.select().from(runs).where(eq(runs.id, run.id));
      expect(row!.leaseOwner).toBeNull();
    }
    for (const flow of flows) {
      const docs = await t.db.select().from(documents).where(eq(documents.flowId, flow.id));
      expect(docs).toHaveLength(3);
      for (const doc of docs) {
        const lines = await t.db.select().from(documentLines).where(eq(documentLines.documentId, doc.id));
        expect(new Set(lines.map((l) => l.lineNo)).size).toBe(lines.length);
        expect(lines.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('job runtime housekeeping', () => {
  it('a working process empties Google Drive downloads nobody used for a day, at start', async () => {
    const dir = join(env.dataDir, 'google-drive', randomUUID());
    await mkdir(dir, { recursive: true });
    const stale = join(dir, 'stale.pdf');
    const fresh = join(dir, 'fresh.pdf');
    await writeFile(stale, '%PDF-1.4 stale');
    await writeFile(fresh, '%PDF-1.4 fresh');
    const twoDaysAgo = new Date(Date.now() - 48 * 60 * 60 * 1000);
    await utimes(stale, twoDaysAgo, twoDaysAgo);
    const exists = (path: string) =>
      access(path).then(
        () => true,
        () => false,
      );

    const runtime = await startJobRuntime({
      handle: t.handle,
      env,
      logger: createLogger('silent'),
      work: true,
      wiring: jobWiring,
    });
    try {
      for (let i = 0; i < 100 && (await exists(stale)); i++) await new Promise((r) => setTimeout(r, 100));
      expect(await exists(stale)).toBe(false);
      expect(await exists(fresh)).toBe(true);
    } finally {
      await runtime.stop();
    }
  });
});
