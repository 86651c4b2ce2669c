// The job registry: which jobs exist and what each carries.
//
// How to add a job:
// 1. Add its queue name and zod payload schema to `jobPayloads` below (payloads carry ids, never rows: a job
//    reads the current state when it runs). `JobName` and `JobPayload` follow.
// 2. Add its handler to `jobHandlers` in src/job-handlers.ts (the composition root); `satisfies JobHandlers`
//    fails the type-check until it is there. A handler must be safe to run twice (jobs are delivered at least
//    once): test that beside it.
// 3. Give its retries and expiry (and a policy, for singleton keys) in `queueOptions` in jobs/queue.ts, a
//    record over every job name that the type-check also holds complete. Services enqueue it with
//    `jobs.send(name, payload)`.
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
  /**
   * Rewrite a flow's outputs (its .xlsx workbook, then its Google sheet) from the database, after a person's
   * change marked them stale (modules/flows/flow-outputs.ts). Sent with the flow as singleton key and a
   * short delay: the changes made meanwhile collapse into the one waiting job.
   */
  'flow-workbook': z.object({ flowId: z.uuid() }),
  /**
   * Learn from the corrections people made to a document: how its issuer's paper reads, saved as the
   * organisation's memory of that issuer (read again from the document when it runs).
   */
  'issuer-memory-learn': z.object({ organizationId: z.uuid(), documentId: z.uuid() }),
  /**
   * The flows' clock, sent once a minute by the queue's own schedule (one job per minute across every
   * process): starts the runs of scheduled flows that are due and of on-arrival flows whose source has
   * something new.
   */
  'flow-tick': z.object({}),
  /**
   * Send one document's voucher (or its cancellation) to Tally, or its bill to Zoho Books (`kind`), as its
   * push record asks. The record decides who sends (a claim with a lease), so a job delivered twice or to
   * two workers sends once. Jobs queued before Zoho Books existed carry no kind: Tally.
   */
  'books-push': z.object({
    organizationId: z.uuid(),
    documentId: z.uuid(),
    kind: z.enum(['tally', 'zoho']).optional(),
  }),
  /**
   * E-mail one onboarding link to its vendor, as its `vendor_link_mails` row says. The row is claimed
   * (queued → sending) before the message goes, so a job delivered twice sends once.
   */
  'vendor-link-mail': z.object({ organizationId: z.uuid(), mailId: z.uuid() }),
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
   * while the first is queued or running; with `stately` (`flow-workbook`, `issuer-memory-learn`), while
   * one is waiting (one may run meanwhile): duplicates collapse.
   */
  singletonKey?: string;
  /**
   * Seconds before the job may start (a debounce): on a `stately` queue, what is sent with the same key
   * meanwhile joins the one job waiting.
   */
  startAfterSeconds?: number;
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
  /** The time as the queue sees it (a test's fake clock, or the wall clock). */
  now?: () => Date;
}

/** Works one job of queue `N`. Must be safe to run twice for one payload: a job may be delivered again. */
export type JobHandler<N extends JobName> = (payload: JobPayload<N>, ctx: JobContext) => Promise<void>;

/**
 * One handler per job name. The composition root (`src/job-handlers.ts`) declares its table with
 * `satisfies JobHandlers`, so a name added to `jobPayloads` without a handler fails the type check; `jobs/`
 * itself imports no feature module.
 */
export type JobHandlers = { [N in JobName]: JobHandler<N> };
