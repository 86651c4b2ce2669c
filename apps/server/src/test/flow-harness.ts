import type { Env } from '../config/env.ts';
import type { JobContext } from '../jobs/registry.ts';
import {
  createMember,
  createRecordingSender,
  createTestEnv,
  createTestJobContext,
  type RecordingSender,
  runRecordedJobs,
} from '../modules/flows/test-support.ts';
import { createTestDb, type TestDb } from './test-db.ts';

/** What a service test of flows and runs needs, with the jobs the services enqueue run by the test itself. */
export interface FlowHarness {
  t: TestDb;
  env: Env;
  dataDir: string;
  jobs: RecordingSender;
  /** The job context the test's "worker" runs with (the real engine, in this thread). */
  ctx: JobContext;
  /** A user owning a fresh organisation. */
  member: Awaited<ReturnType<typeof createMember>>;
  /** Runs every job enqueued so far, in order, like a worker would. */
  drainJobs(): Promise<void>;
  close(): Promise<void>;
}

/** A fresh database, DATA_DIR, member and recording job sender for one test file. */
export async function createFlowHarness(): Promise<FlowHarness> {
  const t = await createTestDb();
  const { env, dataDir, cleanup } = await createTestEnv();
  const jobs = createRecordingSender();
  const ctx = createTestJobContext(t.db, { env, jobs });
  const member = await createMember(t.db);
  return {
    t,
    env,
    dataDir,
    jobs,
    ctx,
    member,
    drainJobs: () => runRecordedJobs(jobs, ctx),
    async close() {
      await ctx.executor.close();
      await t.close();
      await cleanup();
    },
  };
}
