import { type Clock, fromPglite, PgBoss, type Queue } from 'pg-boss';
import type { DbHandle } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';
import { type JobContext, type JobHandlers, type JobName, type JobSender, jobPayloads } from './registry.ts';

/** Retry and expiry per queue: a run may take long; a dead worker's job comes back after its heartbeat lapses. */
const queueOptions: Record<JobName, Omit<Queue, 'name'>> = {
  'flow-run': { retryLimit: 5, retryDelay: 5, expireInSeconds: 6 * 3600, heartbeatSeconds: 60 },
  // Exclusive: one queued-or-active job per singleton key, so a run leader that takes over and invites
  // helpers again does not double the invitations still out.
  'flow-run-extract': {
    policy: 'exclusive',
    retryLimit: 2,
    retryDelay: 5,
    expireInSeconds: 6 * 3600,
    heartbeatSeconds: 60,
  },
  // Stately: per flow (singleton key), one job waiting and one running, so no two workers write a flow's
  // outputs at once, and the changes made while one writes collapse into the one waiting (it reads them all).
  'flow-workbook': { policy: 'stately', retryLimit: 5, retryDelay: 10, expireInSeconds: 900 },
  // Stately: per document (singleton key), one job waiting and one running. A person saving field after
  // field enqueues one each time; those collapse into the one waiting, which reads the latest corrections.
  'issuer-memory-learn': { policy: 'stately', retryLimit: 2, retryDelay: 10, expireInSeconds: 900 },
  // A missed tick is not retried: the next minute's looks again. Stately: ticks never pile up behind a slow one.
  'flow-tick': { policy: 'stately', retryLimit: 0, expireInSeconds: 600 },
  // Tally's refusals and an unreachable Tally are recorded on the push (a person retries); only an
  // unexpected error (the database) is retried here.
  'books-push': { retryLimit: 3, retryDelay: 10, expireInSeconds: 300 },
  // A mail server that is down or refuses for now gets three more tries a few minutes apart; the link's row
  // shows the last refusal meanwhile.
  'vendor-link-mail': { retryLimit: 3, retryDelay: 120, retryBackoff: true, expireInSeconds: 300 },
};

/** The queue's own schedules: job name → cron (every process upserts them; pg-boss sends each once). */
const schedules: Partial<Record<JobName, string>> = { 'flow-tick': '* * * * *' };

/**
 * Creates a queue with its options (idempotent; concurrent starters on PostgreSQL may race, harmlessly). A
 * queue made by an older version with another policy, and holding no job, is made again with this one
 * (pg-boss cannot change a queue's policy in place); one still holding jobs keeps its policy until empty.
 */
async function ensureQueue(boss: PgBoss, name: JobName): Promise<void> {
  const options = queueOptions[name];
  const existing = await boss.getQueue(name);
  if (existing && (existing.policy ?? 'standard') !== (options.policy ?? 'standard')) {
    // The counts the queue keeps (refreshed by its monitor): `flow-workbook` was never sent before it
    // became stately, so an older database's queue is empty.
    if (existing.queuedCount + existing.activeCount === 0) await boss.deleteQueue(name);
  }
  await boss.createQueue(name, options).catch((error: Error) => {
    if (!/already exists/i.test(error.message)) throw error;
  });
}

/** The pg-boss queue of one process: sends jobs and, when asked, works them. */
export interface JobQueue extends JobSender {
  /**
   * Works every queue with its handler; each queue is worked with `concurrency` jobs at once in this process
   * (one number for every queue, or per queue name with 1 for those not named).
   */
  work(
    handlers: JobHandlers,
    ctx: Omit<JobContext, 'jobs'>,
    concurrency?: number | Partial<Record<JobName, number>>,
  ): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Opens the Postgres-backed job queue (pg-boss) on the app's database: PGlite in-process on the embedded
 * default (pg-boss's PGlite adapter shares the one connection), or its own pool on PostgreSQL, where any
 * number of `npm run worker` processes share the queue.
 */
export async function createJobQueue(
  handle: DbHandle,
  databaseUrl: string | undefined,
  logger: Logger,
  options: {
    /** Send the scheduled jobs (`flow-tick`): a process that works the queue does. */
    schedule?: boolean;
    /** The queue's clock (a test's pg-boss TestClock); the wall clock by default. */
    clock?: Clock;
  } = {},
): Promise<JobQueue> {
  if (!handle.pglite && !databaseUrl) throw new Error('The job queue needs DATABASE_URL on PostgreSQL');
  const timing = { schedule: options.schedule ?? false, ...(options.clock ? { clock: options.clock } : {}) };
  const boss = handle.pglite
    ? new PgBoss({ db: fromPglite(handle.pglite), backend: 'pglite', ...timing })
    : new PgBoss({ connectionString: databaseUrl!, max: 4, ...timing });
  boss.on('error', (error) => logger.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const name of Object.keys(jobPayloads) as JobName[]) await ensureQueue(boss, name);
  if (options.schedule) {
    for (const [name, cron] of Object.entries(schedules)) await boss.schedule(name, cron, {});
  }
  let stopped = false;
  const queue: JobQueue = {
    async send(name, payload, options) {
      jobPayloads[name].parse(payload);
      await boss.send(name, payload, {
        ...(options?.singletonKey ? { singletonKey: options.singletonKey } : {}),
        ...(options?.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      });
    },
    async work(handlers, ctx, concurrency = 1) {
      for (const name of Object.keys(jobPayloads) as JobName[]) {
        const schema = jobPayloads[name];
        const localConcurrency = typeof concurrency === 'number' ? concurrency : (concurrency[name] ?? 1);
        await boss.work<unknown>(
          name,
          { pollingIntervalSeconds: 0.5, localConcurrency, batchSize: 1 },
          async ([job]) => {
            if (!job) return;
            const payload = schema.parse(job.data);
            await handlers[name](payload as never, { ...ctx, jobs: queue });
          },
        );
      }
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await boss.stop({ graceful: true, timeout: 5000, close: true });
    },
  };
  return queue;
}
