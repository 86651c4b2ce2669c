import { type RunCounts, toExtractionDocumentType } from '@bahi/contracts';
import type { SinkRunError } from '../../adapters/sinks/sink.ts';
import type { JobContext } from '../../jobs/registry.ts';
import {
  adoptUnfinishedDocuments,
  clearDocumentClaims,
  countOpenDocuments,
  countRunDocuments,
  countSystemFailures,
  renewDocumentClaims,
} from '../documents/documents.repo.ts';
import { type FlowRow, findFlowById, markFlowSucceeded } from '../flows/flows.repo.ts';
import { getFlowType } from '../flows/flows.service.ts';
import { writeFlowOutputs } from '../sheets/flow-outputs-writer.ts';
import { claimLoop, inviteHelper } from './claim-loop.ts';
import { announceRunEnd } from './run-announcements.ts';
import { beatMs } from './run-beat.ts';
import { RunAbort, scanSource } from './run-scan.ts';
import {
  acquireRunLease,
  clearRunLeases,
  finishRun,
  heartbeatRun,
  listUnfinishedRuns,
  type RunRow,
  releaseRunLease,
} from './runs.repo.ts';
import { emptyCounts } from './runs.service.ts';

/** How often a run leader waiting on documents other processes hold looks again. */
const WAIT_MS = 1_000;

/** Waits `ms`, or less if `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The leader's extraction: invites helpers (any worker process with a free slot joins), works
 * `EXTRACT_CONCURRENCY` claim loops itself, then waits until no document of the run is pending or
 * processing anywhere — taking over any whose worker died. False when the run lease was lost meanwhile
 * (another leader finishes the run).
 */
async function extractPending(ctx: JobContext, run: RunRow, flow: FlowRow): Promise<boolean> {
  const work = { run, type: toExtractionDocumentType(getFlowType(flow)), leader: true };
  if ((await countOpenDocuments(ctx.db, run.id)) > 0) await inviteHelper(ctx, run.id, 1);
  for (;;) {
    await Promise.all(Array.from({ length: ctx.executor.size }, () => claimLoop(ctx, work)));
    if (ctx.signal?.aborted) throw new Error('shutting down');
    if ((await countOpenDocuments(ctx.db, run.id)) === 0) return true;
    // Documents still held by other processes: wait for them (or for their claims to lapse).
    if (!(await heartbeatRun(ctx.db, { runId: run.id, workerId: ctx.workerId }))) return false;
    await pause(WAIT_MS, ctx.signal);
  }
}

/** Final counters of a run from its documents and its scan. */
async function countRun(ctx: JobContext, runId: string, scan: Partial<RunCounts>): Promise<RunCounts> {
  const byStatus = await countRunDocuments(ctx.db, runId);
  return {
    ...emptyCounts(),
    ...scan,
    total: Object.values(byStatus).reduce((a, b) => a + b, 0),
    done: byStatus.done ?? 0,
    needsReview: byStatus.needs_review ?? 0,
    failed: byStatus.failed ?? 0,
  };
}

/**
 * Writes the flow's rows to each of its sinks (the workbook, then the flow's own output). The rows are safe
 * in the database whatever happens: a sink whose failure fails the run (Google Sheets) is repaired by the
 * next run; the others are only logged. Returns the first run error a sink made of its failure.
 */
async function writeSinks(ctx: JobContext, flow: FlowRow): Promise<SinkRunError | null> {
  let runError: SinkRunError | null = null;
  for (const { sink, error } of await writeFlowOutputs(ctx, flow)) {
    ctx.logger.error({ err: error, flowId: flow.id }, sink.failureLogs.run);
    runError ??= sink.toRunError(error);
  }
  return runError;
}

/**
 * The `flow-run` job: the run's leader. Safe to run twice, concurrently or after a crash: the run's lease
 * lets one handler in, documents whose claim lapsed (dead worker) are claimed again, already-known files are
 * not inserted again, and each document's rows are replaced in one transaction guarded by its current claim.
 * The documents are extracted by the leader and by `flow-run-extract` helpers in any worker process; the
 * leader waits for all of them, then writes the workbook / sheet and finishes the run, which ends with
 * exactly one set of rows per document.
 */
export async function processRun(runId: string, jobCtx: JobContext): Promise<void> {
  // Every log line of this run carries its id and the worker's, to follow one run across processes.
  const ctx = { ...jobCtx, logger: jobCtx.logger.child({ runId, workerId: jobCtx.workerId }) };
  const leaseSeconds = ctx.env.flows.leaseSeconds;
  const run = await acquireRunLease(ctx.db, { runId, workerId: ctx.workerId, leaseSeconds });
  if (!run) return; // finished, deleted, or a live worker holds it
  const flow = await findFlowById(ctx.db, run.flowId);
  if (!flow) return;
  // The leader's beat keeps both its run lease and its own document claims alive.
  const beat = setInterval(() => {
    heartbeatRun(ctx.db, { runId: run.id, workerId: ctx.workerId }).catch(() => {});
    renewDocumentClaims(ctx.db, run.id, ctx.workerId).catch(() => {});
  }, beatMs(ctx));
  try {
    await adoptUnfinishedDocuments(ctx.db, flow.id, run.id);
    const stored = run.counts;
    let scan: Pick<RunCounts, 'skipped' | 'alreadyProcessed'>;
    try {
      scan = stored.scanned
        ? { skipped: stored.skipped ?? 0, alreadyProcessed: stored.alreadyProcessed ?? 0 }
        : await scanSource(ctx, run, flow);
    } catch (error) {
      if (!(error instanceof RunAbort)) throw error;
      const counts = await countRun(ctx, run.id, {});
      const finished = await finishRun(ctx.db, {
        runId: run.id,
        workerId: ctx.workerId,
        values: {
          status: 'failed',
          counts,
          errorCode: error.code,
          errorMessage: error.message,
        },
      });
      if (finished) await announceRunEnd(ctx, { run, flow, counts, ok: false, reason: error.message });
      return;
    }
    if (!(await extractPending(ctx, run, flow))) return;
    const sheetError = await writeSinks(ctx, flow);
    const counts = await countRun(ctx, run.id, scan);
    const systemFailures = await countSystemFailures(ctx.db, run.id);
    const ok = systemFailures === 0 && !sheetError;
    const finished = await finishRun(ctx.db, {
      runId: run.id,
      workerId: ctx.workerId,
      values: {
        status: ok ? 'succeeded' : 'failed',
        counts,
        errorCode: ok ? null : (sheetError?.code ?? 'internal'),
        errorMessage: ok
          ? null
          : (sheetError?.message ??
            `${systemFailures} document(s) failed because of a problem on our side; retry them`),
      },
    });
    if (!finished) return;
    if (ok) await markFlowSucceeded(ctx.db, flow.id, finished.finishedAt ?? new Date());
    await announceRunEnd(ctx, { run, flow, counts, ok, reason: finished.errorMessage ?? undefined });
  } finally {
    clearInterval(beat);
    if (ctx.signal?.aborted) await releaseRunLease(ctx.db, run.id, ctx.workerId).catch(() => {});
  }
}

/**
 * Re-enqueues unfinished runs so a crash never strands one. At start-up on the embedded database this
 * process is the only user, so every lease is dropped and every unfinished run resumes at once; on
 * PostgreSQL (and periodically) only runs whose worker stopped heart-beating are picked up.
 */
export async function recoverRuns(
  ctx: Pick<JobContext, 'db' | 'jobs' | 'logger'>,
  options: { exclusive: boolean; leaseSeconds?: number },
): Promise<number> {
  if (options.exclusive) {
    await clearRunLeases(ctx.db);
    await clearDocumentClaims(ctx.db);
  }
  const runs = await listUnfinishedRuns(ctx.db, !options.exclusive, options.leaseSeconds);
  for (const run of runs) await ctx.jobs.send('flow-run', { runId: run.id });
  if (runs.length > 0) ctx.logger.info({ runs: runs.length }, 'resuming unfinished runs');
  return runs.length;
}
