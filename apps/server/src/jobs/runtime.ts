import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Env } from '../config/env.ts';
import type { DbHandle } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';
import { sweepDriveCaches } from '../modules/google/drive-cache.ts';
import {
  flowRunExtractJob,
  flowRunJob,
  flowWorkbookJob,
  recoverRuns,
} from '../modules/runs/run-processor.ts';
import { createJobQueue, type JobQueue } from './queue.ts';
import type { JobDefinition, JobName } from './registry.ts';
import { createWorkerPool, type TaskExecutor } from './worker-pool.ts';

/** Every job this app defines, worked by `npm start` (RUN_JOBS) and `npm run worker`. */
export const jobDefinitions = [flowRunJob, flowRunExtractJob, flowWorkbookJob] as Array<
  JobDefinition<JobName>
>;

/** How often a worker looks for runs whose worker died (stale lease) to resume them. */
const SWEEP_MS = 60_000;
/** How often a worker empties downloaded Google Drive files nobody used for a day (also once at start). */
const DRIVE_CACHE_SWEEP_MS = 60 * 60 * 1000;
/** Runs of different flows worked at once per process; each shares the one extraction pool. */
const RUNS_PER_PROCESS = 2;

/** The job side of a process: the queue, the worker pool, and (when working) the handlers. */
export interface JobRuntime {
  queue: JobQueue;
  executor: TaskExecutor;
  workerId: string;
  stop(): Promise<void>;
}

/**
 * Starts the job queue and the extraction worker pool. With `work`, this process also works the queues,
 * resumes unfinished runs at once and sweeps for runs orphaned by a dead worker every minute.
 */
export async function startJobRuntime(options: {
  handle: DbHandle;
  env: Env;
  logger: Logger;
  work: boolean;
}): Promise<JobRuntime> {
  const { handle, env, logger, work } = options;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const queue = await createJobQueue(handle, env.databaseUrl, logger);
  // Even an API-only process writes workbooks for downloads; it needs only one thread for that.
  const executor = createWorkerPool({
    size: work ? env.flows.extractConcurrency : 1,
    hardTimeoutMs: env.flows.extractTimeoutMs + 30_000,
    ocrProvider: env.flows.ocrProvider,
  });
  let sweep: NodeJS.Timeout | undefined;
  let driveSweep: NodeJS.Timeout | undefined;
  const shutdown = new AbortController();
  if (work) {
    const ctx = { db: handle.db, env, logger, executor, workerId, signal: shutdown.signal };
    // One helper job is one claim loop: a process takes at most as many as it has extraction threads, so
    // the queue hands the rest of a run's invitations to processes with free capacity.
    await queue.work(jobDefinitions, ctx, {
      'flow-run': RUNS_PER_PROCESS,
      'flow-run-extract': executor.size,
      'flow-workbook': RUNS_PER_PROCESS,
    });
    // On PGlite this process owns the database, so every unfinished run is ours to resume right now.
    const leaseSeconds = env.flows.leaseSeconds;
    await recoverRuns({ ...ctx, jobs: queue }, { exclusive: handle.kind === 'pglite', leaseSeconds });
    // Sweep at least twice per lease, so a dead worker's run waits at most 1.5 leases (RUN_LEASE_SECONDS).
    const sweepMs = Math.min(SWEEP_MS, (leaseSeconds * 1000) / 2);
    sweep = setInterval(() => {
      recoverRuns({ ...ctx, jobs: queue }, { exclusive: false, leaseSeconds }).catch((error) =>
        logger.error({ err: error }, 'run recovery failed'),
      );
    }, sweepMs);
    sweep.unref();
    // Drive runs sweep their own organisation's cache; this also empties the caches of organisations that
    // stopped running flows. Best effort: a failed sweep is logged and the next one retries.
    const sweepDrive = () =>
      sweepDriveCaches(handle.db, env).catch((error) =>
        logger.warn({ err: error }, 'Google Drive cache sweep failed'),
      );
    void sweepDrive();
    driveSweep = setInterval(sweepDrive, DRIVE_CACHE_SWEEP_MS);
    driveSweep.unref();
  }
  return {
    queue,
    executor,
    workerId,
    async stop() {
      // First tell handlers to stop: each hands its claimed document back (pending) and returns, which the
      // queue's graceful stop waits for, before the pool's threads are ended.
      shutdown.abort();
      clearInterval(sweep);
      clearInterval(driveSweep);
      await queue.stop();
      await executor.close();
    },
  };
}
