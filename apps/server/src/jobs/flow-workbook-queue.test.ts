import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../lib/logger.ts';
import { createTestDb, type TestDb } from '../test/test-db.ts';
import { createJobQueue, type JobQueue } from './queue.ts';
import type { JobContext, JobHandlers } from './registry.ts';

// The `flow-workbook` queue as two worker processes share it (two pg-boss instances on one database:
// PGlite here, PostgreSQL when DATABASE_URL is set): a burst of changes to one flow gives one job, never two
// running for one flow at once, and a change sent while it runs gives exactly one more.

let t: TestDb;
const queues: JobQueue[] = [];
const logger = createLogger('silent');

beforeAll(async () => {
  t = await createTestDb();
  for (let i = 0; i < 2; i++) queues.push(await createJobQueue(t.handle, t.databaseUrl, logger));
});

afterAll(async () => {
  for (const q of queues) await q.stop();
  await t.close();
});

const until = async (check: () => boolean, ms = 30_000) => {
  for (const start = Date.now(); !check(); ) {
    if (Date.now() - start > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('the flow-workbook queue', () => {
  it('runs one job per flow at a time, exactly once across workers, for a burst of sends', {
    timeout: 120_000,
  }, async () => {
    const flowId = randomUUID();
    const other = randomUUID();
    const started: string[] = [];
    let running = 0;
    let mostAtOnce = 0;
    let release: () => void = () => {};
    let gate = new Promise<void>((r) => {
      release = r;
    });
    const noop = async () => {};
    const handlers: JobHandlers = {
      'flow-run': noop,
      'flow-run-extract': noop,
      'issuer-memory-learn': noop,
      'flow-tick': noop,
      'books-push': noop,
      'vendor-link-mail': noop,
      'flow-workbook': async ({ flowId: id }) => {
        started.push(id);
        if (id !== flowId) return;
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        await gate;
        running--;
      },
    };
    const send = (id: string, q = 0) =>
      queues[q]!.send('flow-workbook', { flowId: id }, { singletonKey: id, startAfterSeconds: 1 });
    // A person saving five fields in a row, through both processes: they collapse into one waiting job.
    for (let i = 0; i < 5; i++) await send(flowId, i % 2);
    await send(other);
    const ctx = { db: t.db, logger, workerId: 'test' } as unknown as Omit<JobContext, 'jobs'>;
    for (const q of queues) await q.work(handlers, ctx, { 'flow-workbook': 2 });
    await until(() => started.filter((id) => id === flowId).length === 1);
    // While it runs, another change waits as one job (not two), and no second one starts for this flow.
    await send(flowId, 1);
    await send(flowId, 0);
    await new Promise((r) => setTimeout(r, 2500));
    expect(started.filter((id) => id === flowId)).toHaveLength(1);
    release();
    await until(() => started.filter((id) => id === flowId).length === 2);
    gate = Promise.resolve();
    await new Promise((r) => setTimeout(r, 2500));
    expect(started.filter((id) => id === flowId)).toHaveLength(2);
    expect(started.filter((id) => id === other)).toHaveLength(1);
    expect(mostAtOnce).toBe(1);
  });
});
