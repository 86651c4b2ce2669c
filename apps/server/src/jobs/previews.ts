import { availableParallelism } from 'node:os';
import type { Env } from '../config/env.ts';
import { createWorkerPool, type TaskExecutor } from './worker-pool.ts';

/**
 * The worker threads that draw review-screen pictures and count pages, apart from the extraction pool so a
 * batch being read never queues a reviewer's page behind it, and a page that overruns
 * `PREVIEW_TIMEOUT_MS` is stopped with its thread (mupdf cannot be interrupted otherwise). At most two
 * threads, started on first use and stopped after an idle minute (like the extraction threads, giving back
 * their mupdf memory after a burst); they never keep a process alive.
 */
const pools = new Map<number, TaskExecutor>();

/** The preview pool for this configuration (one per time limit; a process normally has one). */
export function previewPool(env: Env): TaskExecutor {
  const timeoutMs = env.flows.previewTimeoutMs;
  let pool = pools.get(timeoutMs);
  if (!pool) {
    pool = createWorkerPool({
      size: Math.min(2, availableParallelism()),
      hardTimeoutMs: timeoutMs,
      idleMs: 60_000,
      unref: true,
    });
    pools.set(timeoutMs, pool);
  }
  return pool;
}

/** Stops every preview thread (server shutdown). */
export async function closePreviewPools(): Promise<void> {
  const open = [...pools.values()];
  pools.clear();
  await Promise.all(open.map((pool) => pool.close()));
}
