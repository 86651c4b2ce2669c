import { eq } from 'drizzle-orm';
import { TestClock } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Env } from '../config/env.ts';
import { runs } from '../db/schema/index.ts';
import { jobWiring } from '../job-handlers.ts';
import { createLogger } from '../lib/logger.ts';
import { createWorkflow } from '../modules/flows/flows.service.ts';
import { createMember, createTestEnv, readFixture } from '../modules/flows/test-support.ts';
import { addUploads } from '../modules/uploads/uploads.service.ts';
import { createTestDb, type TestDb } from '../test/test-db.ts';
import { type JobRuntime, startJobRuntime } from './runtime.ts';

// The real job runtime on a pg-boss TestClock: nobody calls a handler. The queue's own schedule sends the
// `flow-tick` job as the fake minutes pass, a worker takes it, and a flow due on its schedule starts a run
// by itself.

let t: TestDb;
let env: Env;
let cleanup: () => Promise<void>;
let runtime: JobRuntime;
const clock = new TestClock('2026-03-02T03:00:00.000Z');

beforeAll(async () => {
  t = await createTestDb();
  ({ env, cleanup } = await createTestEnv());
  env.databaseUrl = t.databaseUrl;
  runtime = await startJobRuntime({
    handle: t.handle,
    env,
    logger: createLogger('silent'),
    work: true,
    wiring: jobWiring,
    clock,
  });
});

afterAll(async () => {
  await runtime?.stop();
  await t.close();
  await cleanup();
});

describe('the flows clock on the queue schedule', () => {
  it('a scheduled flow starts its run when its minute comes, with nobody pressing Run', {
    timeout: 120_000,
  }, async () => {
    const member = await createMember(t.db);
    const wf = await createWorkflow(t.db, {
      env,
      ...member,
      input: {
        name: 'Every 5',
        types: ['INVOICE'],
        io: {
          input: { kind: 'upload', url: '', folderName: '' },
          output: { kind: 'xlsx', sheetId: '', sheetName: '' },
        },
        trigger: { kind: 'every', minutes: 5 },
      },
      now: new Date(clock.now()),
    });
    // Something to read: a schedule over an empty inbox starts no run.
    await addUploads(t.db, {
      env,
      ...member,
      flowId: wf.id,
      files: [{ name: 'standing.pdf', bytes: await readFixture('invoice-011.pdf') }],
    });
    const count = async () => (await t.db.select().from(runs).where(eq(runs.flowId, wf.id))).length;
    // Four fake minutes: the tick runs every minute, but the flow is not due.
    for (let s = 0; s < 4 * 60; s += 5) await clock.tick(5_000);
    expect(await count()).toBe(0);
    // Past the fifth minute: the schedule's tick starts the run.
    for (let s = 0; s < 3 * 60 && (await count()) === 0; s += 5) {
      await clock.tick(5_000);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await count()).toBe(1);
  });
});
