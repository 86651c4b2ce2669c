import { mailerFor } from './adapters/mail/index.ts';
import type { JobHandlers } from './jobs/registry.ts';
import type { JobWiring } from './jobs/runtime.ts';
import { BOOKS_PUSH_LEASE_MS, pushDocument, requeueStalledPushes } from './modules/books/books-post.ts';
import { sweepDriveCaches } from './modules/google/drive-cache.ts';
import { releaseMailClaims } from './modules/intake/mail.repo.ts';
import { learnFromDocumentCorrection } from './modules/memory/memory.service.ts';
import { helpExtractRun } from './modules/runs/claim-loop.ts';
import { fireDueFlows } from './modules/runs/flow-triggers.ts';
import { processRun, recoverRuns } from './modules/runs/run-leader.ts';
import { writeStaleFlowOutputs } from './modules/sheets/flow-outputs-writer.ts';
import { sendVendorLinkMail } from './modules/vendor-onboarding/vendor-link-mail.ts';

// The composition root of the job side: the one place that knows both the job runtime (`jobs/`, which
// imports no feature module) and the modules whose code the jobs run. `server.ts` and `worker.ts` hand
// `jobWiring` to `startJobRuntime`.

/** How often a worker empties downloaded Google Drive files nobody used for a day (also once at start). */
const DRIVE_CACHE_SWEEP_MS = 60 * 60 * 1000;

/**
 * The handler of every job. `satisfies JobHandlers` types each payload from its queue name and makes a job
 * name without a handler (or a handler without a job) a compile error.
 */
export const jobHandlers = {
  'flow-run': ({ runId }, ctx) => processRun(runId, ctx),
  // A helper of a running run (see `helpExtractRun`).
  'flow-run-extract': ({ runId, helper }, ctx) => helpExtractRun(runId, helper, ctx),
  // The workbook and the Google sheet of a flow a person's change marked stale (one per flow at a time).
  'flow-workbook': ({ flowId }, ctx) => writeStaleFlowOutputs(ctx, flowId),
  'issuer-memory-learn': async (payload, ctx) => {
    await learnFromDocumentCorrection(ctx, payload);
  },
  'flow-tick': async (_payload, ctx) => {
    await fireDueFlows(ctx, ctx.now?.() ?? new Date());
  },
  'books-push': (payload, ctx) => pushDocument(ctx, payload),
  // The outgoing mail the environment configures (SMTP_HOST…); none: the mail row says so.
  'vendor-link-mail': (payload, ctx) => sendVendorLinkMail({ ...ctx, mailer: mailerFor(ctx.env) }, payload),
} satisfies JobHandlers;

/** Everything `startJobRuntime` needs from the feature modules: handlers, run recovery, chores. */
export const jobWiring: JobWiring = {
  handlers: jobHandlers,
  // Alone on its database (embedded PGlite at start-up), every mail claim is a killed process's: freed at once.
  recoverRuns: async (ctx, options) => {
    if (options.exclusive) await releaseMailClaims(ctx.db);
    return recoverRuns(ctx, options);
  },
  chores: [
    {
      // Drive runs sweep their own organisation's cache; this also empties the caches of organisations that
      // stopped running flows.
      everyMs: DRIVE_CACHE_SWEEP_MS,
      failureLog: 'Google Drive cache sweep failed',
      run: ({ db, env }) => sweepDriveCaches(db, env),
    },
    {
      // A Tally push whose sender died (or whose job was lost) is sent again: its REMOTEID keeps it single.
      everyMs: BOOKS_PUSH_LEASE_MS,
      failureLog: 'Re-queueing stalled Tally pushes failed',
      run: (ctx) => requeueStalledPushes(ctx),
    },
  ],
};
