import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { assertOcrProviderAvailable } from '@bahi/engine';
import type { Clock } from 'pg-boss';
import type { Env } from '../config/env.ts';
import type { DbHandle } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';
import { createJobQueue, type JobQueue } from './queue.ts';
import type { JobContext, JobHandlers } from './registry.ts';
import { createWorkerPool, type TaskExecutor } from './worker-pool.ts';

/** How often a worker looks for runs whose worker died (stale lease) to resume them. */
const SWEEP_MS = 60_000;
/** Runs of different flows worked at once per process; each shares the one extraction pool. */
const RUNS_PER_PROCESS = 2;

/**
 * Re-enqueues unfinished runs and says how many. With `exclusive` this process is the database's only user
 * (embedded PGlite at start-up), so every lease is dropped and every unfinished run resumes; otherwise only
 * runs whose lease lapsed (`leaseSeconds`) are picked up.
 */
export type RecoverRuns = (
  ctx: Pick<JobContext, 'db' | 'jobs' | 'logger'>,
  options: { exclusive: boolean; leaseSeconds?: number },
) => Promise<number>;

/** Best-effort housekeeping a working process does once at start and then every `everyMs`. */
export interface JobChore {
  everyMs: number;
  /** Logged as a warning when a round fails; the next round retries. */
  failureLog: string;
  run(ctx: Pick<JobContext, 'db' | 'env' | 'jobs'>): Promise<unknown>;
}

/**
 * What the feature modules give the job runtime, wired by the composition root (`src/job-handlers.ts`):
 * the runtime lives below the modules and imports none of them.
 */
export interface JobWiring {
  /** One handler per job name (the table is checked complete where it is declared). */
  handlers: JobHandlers;
  /** Resumes runs orphaned by a crash or a dead worker: at start, then every sweep. */
  recoverRuns: RecoverRuns;
  chores: JobChore[];
}

/** The job side of a process: the queue, the worker pool, and (when working) the handlers. */
export interface JobRuntime {
  queue: JobQueue;
  executor: TaskExecutor;
  workerId: string;
  stop(): Promise<void>;
}

/**
 * Starts the job queue and the extraction worker pool. With `work`, this process also works the queues
 * with `wiring.handlers`, resumes unfinished runs at once, sweeps for runs orphaned by a dead worker every
 * minute and runs the wiring's chores.
 */
export async function startJobRuntime(options: {
  handle: DbHandle;
  env: Env;
  logger: Logger;
  work: boolean;
  wiring: JobWiring;
  /** The queue's clock: a test's pg-boss TestClock drives schedules and `ctx.now`. */
  clock?: Clock;
}): Promise<JobRuntime> {
  const { handle, env, logger, work, wiring, clock } = options;
  // A provider that needs a program the machine lacks stops a worker here, not on its first scan.
  if (work) assertOcrProviderAvailable(env.flows.ocrProvider);
  const workerId = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  // A working process also sends the queue's scheduled jobs (pg-boss sends each occurrence once, whoever
  // many processes watch the schedule).
  const queue = await createJobQueue(handle, env.databaseUrl, logger, {
    schedule: work,
    ...(clock ? { clock } : {}),
  });
  // Even an API-only process writes workbooks for downloads; it needs only one thread for that.
  const executor = createWorkerPool({
    size: work ? env.flows.extractConcurrency : 1,
    hardTimeoutMs: env.flows.extractTimeoutMs + 30_000,
    ocrProvider: env.flows.ocrProvider,
  });
  let sweep: NodeJS.Timeout | undefined;
  const choreTimers: NodeJS.Timeout[] = [];
  const shutdown = new AbortController();
  if (work) {
    const now = clock ? () => new Date(clock.now()) : () => new Date();
    const ctx = { db: handle.db, env, logger, executor, workerId, signal: shutdown.signal, now };
    // One helper job is one claim loop: a process takes at most as many as it has extraction threads, so
    // the queue hands the rest of a run's invitations to processes with free capacity.
    await queue.work(wiring.handlers, ctx, {
      'flow-run': RUNS_PER_PROCESS,
      'flow-run-extract': executor.size,
      'flow-workbook': RUNS_PER_PROCESS,
    });
    // On PGlite this process owns the database, so every unfinished run is ours to resume right now.
    const leaseSeconds = env.flows.leaseSeconds;
    await wiring.recoverRuns({ ...ctx, jobs: queue }, { exclusive: handle.kind === 'pglite', leaseSeconds });
    // Sweep at least twice per lease, so a dead worker's run waits at most 1.5 leases (RUN_LEASE_SECONDS).
    const sweepMs = Math.min(SWEEP_MS, (leaseSeconds * 1000) / 2);
    sweep = setInterval(() => {
      wiring
        .recoverRuns({ ...ctx, jobs: queue }, { exclusive: false, leaseSeconds })
        .catch((error) => logger.error({ err: error }, 'run recovery failed'));
    }, sweepMs);
    sweep.unref();
    for (const chore of wiring.chores) {
      // Best effort: a failed round is logged and the next one retries.
      const round = () =>
        chore
          .run({ db: handle.db, env, jobs: queue })
          .catch((error) => logger.warn({ err: error }, chore.failureLog));
      void round();
      const timer = setInterval(round, chore.everyMs);
      timer.unref();
      choreTimers.push(timer);
    }
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
      for (const timer of choreTimers) clearInterval(timer);
      await queue.stop();
      await executor.close();
    },
  };
}
