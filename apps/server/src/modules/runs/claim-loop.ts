import { toExtractionDocumentType } from '@bahi/contracts';
import { extractionSlots } from '../../jobs/extraction-slots.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { recordDocumentClaim } from '../../lib/metrics.ts';
import { claimNextDocument, countRunDocuments, renewDocumentClaims } from '../documents/documents.repo.ts';
import { findFlowById } from '../flows/flows.repo.ts';
import { getFlowType } from '../flows/flows.service.ts';
import { type ClaimWork, processClaimedDocument } from './claimed-document.ts';
import { beatMs } from './run-beat.ts';
import { findRunById } from './runs.repo.ts';

/** Longest chain of helper invitations per run (each invitation brings at most one more claim loop). */
const MAX_HELPERS = 64;

/**
 * One claim loop: takes an extraction slot of this process, claims the run's next document (pending, or
 * abandoned by a dead worker), extracts and stores it; until nothing is left to claim or shutdown.
 */
export async function claimLoop(ctx: JobContext, work: ClaimWork): Promise<void> {
  const slots = extractionSlots(ctx.executor);
  for (;;) {
    if (ctx.signal?.aborted) return;
    let release: () => void;
    try {
      release = await slots.acquire(ctx.signal);
    } catch {
      return; // shutting down while waiting for a slot
    }
    try {
      const doc = await claimNextDocument(ctx.db, {
        runId: work.run.id,
        workerId: ctx.workerId,
        leaseSeconds: ctx.env.flows.leaseSeconds,
      });
      if (!doc) return;
      recordDocumentClaim(doc.takenOver);
      if (doc.takenOver)
        ctx.logger.warn(
          { documentId: doc.id, attempts: doc.attempts },
          'took over a document whose worker stopped renewing its claim',
        );
      await processClaimedDocument(ctx, work, doc);
    } finally {
      release();
    }
  }
}

/** Renews this process's document claims of the run every beat while `work` runs. */
async function withClaimRenewal<T>(ctx: JobContext, runId: string, work: () => Promise<T>): Promise<T> {
  const beat = setInterval(() => {
    renewDocumentClaims(ctx.db, runId, ctx.workerId).catch(() => {});
  }, beatMs(ctx));
  try {
    return await work();
  } finally {
    clearInterval(beat);
  }
}

/** Invites one more worker process to help with the run (a `flow-run-extract` job; duplicates collapse). */
export async function inviteHelper(ctx: JobContext, runId: string, helper: number): Promise<void> {
  if (helper > MAX_HELPERS) return;
  await ctx.jobs.send('flow-run-extract', { runId, helper }, { singletonKey: `${runId}:${helper}` });
}

/**
 * The `flow-run-extract` job: this process helps extract a running run's documents with one claim loop
 * (the queue hands a process at most EXTRACT_CONCURRENCY of these at once). It first invites the next
 * helper while documents wait, so the invitations spread to every process with capacity and stop when the
 * run has none left. Safe to run twice or late: it only ever claims what is claimable.
 */
export async function helpExtractRun(runId: string, helper: number, jobCtx: JobContext): Promise<void> {
  const ctx = { ...jobCtx, logger: jobCtx.logger.child({ runId, workerId: jobCtx.workerId, helper }) };
  const run = await findRunById(ctx.db, runId);
  if (run?.status !== 'running') return;
  const flow = await findFlowById(ctx.db, run.flowId);
  if (!flow) return;
  const pending = (await countRunDocuments(ctx.db, run.id)).pending ?? 0;
  if (pending === 0) return;
  await inviteHelper(ctx, run.id, helper + 1);
  ctx.logger.debug({ pending }, 'helping extract a run');
  await withClaimRenewal(ctx, run.id, () =>
    claimLoop(ctx, { run, type: toExtractionDocumentType(getFlowType(flow)), leader: false }),
  );
}
