import { z } from 'zod';
import type { Env } from '../config/env.ts';
import type { Db } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';
import type { TaskExecutor } from './worker-pool.ts';

/** Payload schemas of every job, by queue name: the one list of what can be enqueued. */
export const jobPayloads = {
  /** Process one run of a flow: scan its source, extract new documents, write the workbook. */
  'flow-run': z.object({ runId: z.uuid() }),
  /**
   * Help extract a running run's documents: any worker process with a free extraction slot claims them one
   * by one (per-document lease) until none is left. `helper` numbers the invitations of one run (1, 2, …).
   */
  'flow-run-extract': z.object({ runId: z.uuid(), helper: z.number().int().positive() }),
  /** Rewrite a flow's .xlsx workbook from the database. */
  'flow-workbook': z.object({ flowId: z.uuid() }),
} as const;

/** Name of a job queue. */
export type JobName = keyof typeof jobPayloads;
/** Payload of a job. */
export type JobPayload<N extends JobName> = z.infer<(typeof jobPayloads)[N]>;

/** Enqueues jobs; what the API layer holds (it never runs jobs itself). */
export interface JobSender {
  send<N extends JobName>(name: N, payload: JobPayload<N>, options?: SendOptions): Promise<void>;
}

/** Per-job options of `send`. */
export interface SendOptions {
  /**
   * On a queue with the `exclusive` policy (`flow-run-extract`), a second job with the same key is dropped
   * while the first is queued or running: duplicates collapse.
   */
  singletonKey?: string;
}

/** What a job handler gets besides its payload. */
export interface JobContext {
  db: Db;
  env: Env;
  logger: Logger;
  executor: TaskExecutor;
  jobs: JobSender;
  /** Identifies this process in run leases. */
  workerId: string;
  /** Aborted when the process shuts down: handlers stop claiming work and record nothing half-done. */
  signal?: AbortSignal;
}

/** A typed job: queue name, payload schema, handler. Handlers must be safe to run twice for one payload. */
export interface JobDefinition<N extends JobName> {
  name: N;
  handle(payload: JobPayload<N>, ctx: JobContext): Promise<void>;
}

/** Declares a job handler with its payload type inferred from the queue name. */
export function defineJob<N extends JobName>(definition: JobDefinition<N>): JobDefinition<N> {
  return definition;
}
