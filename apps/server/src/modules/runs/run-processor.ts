import {
  appPaths,
  FlowIoSchema,
  flowMessages,
  type RunCounts,
  toExtractionDocumentType,
} from '@bahi/contracts';
import type { DocumentType, ExtractionResult } from '@bahi/engine';
import { sinksFor } from '../../adapters/sinks/index.ts';
import type { SinkRunError } from '../../adapters/sinks/sink.ts';
import { locateDocumentFile, sourceFor } from '../../adapters/sources/index.ts';
import { openLocalFile } from '../../adapters/sources/local-folder.ts';
import { type DocumentSource, hashFile, type SkippedFile } from '../../adapters/sources/source.ts';
import type { Db } from '../../db/client.ts';
import { extractionSlots } from '../../jobs/extraction-slots.ts';
import { defineJob, type JobContext } from '../../jobs/registry.ts';
import { isAppError } from '../../lib/app-error.ts';
import {
  recordDocumentClaim,
  recordDocumentHandedBack,
  recordDocumentOutcome,
  startExtractionTimer,
} from '../../lib/metrics.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { applyCorrections, collectLatestCorrections } from '../documents/document-corrections.ts';
import {
  buildDocumentOutcome,
  buildSourceFailure,
  buildSystemFailure,
} from '../documents/document-outcome.ts';
import {
  adoptUnfinishedDocuments,
  type ClaimedDocument,
  claimNextDocument,
  clearDocumentClaims,
  countOpenDocuments,
  countRunDocuments,
  countSystemFailures,
  type DocumentOutcome,
  findPossibleDuplicate,
  insertScannedDocument,
  listDocumentEvents,
  noteDocumentPages,
  releaseDocumentClaim,
  renewDocumentClaims,
  saveDocumentOutcome,
} from '../documents/documents.repo.ts';
import { type FlowRow, findFlowById, markFlowSucceeded } from '../flows/flows.repo.ts';
import { getFlowType } from '../flows/flows.service.ts';
import { notifyUser } from '../notifications/notifications.service.ts';
import { writeFlowWorkbook } from '../sheets/sheets.service.ts';
import { upsertVendorFromDocument } from '../vendors/vendors.repo.ts';
import {
  acquireRunLease,
  clearRunLeases,
  findRunById,
  finishRun,
  heartbeatRun,
  listUnfinishedRuns,
  noteRunCurrentFile,
  type RunRow,
  type RunSource,
  releaseRunLease,
  saveRunScan,
} from './runs.repo.ts';
import { emptyCounts } from './runs.service.ts';

/** Most skipped files remembered per run (the count is always exact). */
const MAX_SKIPPED_LISTED = 500;
const HEARTBEAT_MS = 15_000;
/** How often a run leader waiting on documents other processes hold looks again. */
const WAIT_MS = 1_000;
/** Longest chain of helper invitations per run (each invitation brings at most one more claim loop). */
const MAX_HELPERS = 64;

/** A run ended before its documents because its source could not be read (shown on the run). */
class RunAbort extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The source a run reads: the flow's (through the source registry), one local file (`process-url`), or
 * none when the run re-reads documents it was given (`documents`).
 */
async function openRunSource(ctx: JobContext, run: RunRow, flow: FlowRow): Promise<DocumentSource | null> {
  const source = run.source as RunSource;
  if (source.kind === 'documents') return null;
  const { organizationId } = flow;
  if (source.kind === 'file')
    return openLocalFile(ctx, { organizationId, path: source.path, name: source.name });
  const { input } = FlowIoSchema.parse(flow.io);
  return sourceFor(input.kind).open(ctx, { organizationId, flowId: flow.id, input });
}

/** A failure to read the source as the run's error: an `AppError` keeps its code and words. */
function toRunAbort(error: unknown): never {
  if (error instanceof RunAbort) throw error;
  if (isAppError(error)) throw new RunAbort(error.code, error.message);
  throw new RunAbort('source_unreadable', `The documents could not be listed: ${(error as Error).message}`);
}

/**
 * Scan phase: every file of the source becomes a pending document of this run unless the flow already has
 * it (same source id + content hash). Streams the listing and hashes file by file (only files whose hash the
 * source does not already know): memory stays flat.
 */
async function scanSource(
  ctx: JobContext,
  run: RunRow,
  flow: FlowRow,
): Promise<Pick<RunCounts, 'skipped' | 'alreadyProcessed'>> {
  const skipped: SkippedFile[] = [];
  let skippedCount = 0;
  let files = 0;
  let alreadyProcessed = 0;
  let lastBeat = Date.now();
  const source = await openRunSource(ctx, run, flow).catch(toRunAbort);
  if (source) {
    try {
      for await (const entry of source.list()) {
        if ('skipped' in entry) {
          skippedCount++;
          if (skipped.length < MAX_SKIPPED_LISTED) skipped.push(entry.skipped);
          continue;
        }
        files++;
        const { file } = entry;
        const outcome = await insertScannedDocument(ctx.db, {
          organizationId: flow.organizationId,
          flowId: flow.id,
          runId: run.id,
          sourceKind: source.kind,
          sourceId: file.sourceId,
          contentHash: file.sha256 ?? (await hashFile(file.path)),
          fileName: file.name,
          sourcePath: file.path,
          size: file.size,
          modifiedAt: file.modifiedAt,
        });
        if (outcome === 'processed') alreadyProcessed++;
        if (Date.now() - lastBeat > HEARTBEAT_MS) {
          lastBeat = Date.now();
          await heartbeatRun(ctx.db, run.id, ctx.workerId, `Scanning: ${file.name}`);
        }
      }
    } catch (error) {
      toRunAbort(error);
    }
    if (files === 0) throw new RunAbort('empty_folder', flowMessages.emptyFolder);
  }
  const counts = { skipped: skippedCount, alreadyProcessed };
  await saveRunScan(ctx.db, run.id, ctx.workerId, { ...emptyCounts(), ...counts, scanned: true }, skipped);
  return counts;
}

/** What `abortable` resolves with when the signal fired first. */
const ABORTED = Symbol('aborted');

/** `promise`, or ABORTED as soon as `signal` aborts (the promise keeps running; its outcome is dropped). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T | typeof ABORTED> {
  if (!signal) return promise;
  promise.catch(() => {}); // settles after we stopped listening: nothing to report
  if (signal.aborted) return Promise.resolve(ABORTED);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

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

/** How often claims and leases are renewed: well inside the lease (a third of it at most). */
function beatMs(ctx: JobContext): number {
  return Math.min(HEARTBEAT_MS, (ctx.env.flows.leaseSeconds * 1000) / 3);
}

/** The earlier document of the organisation this one looks like a copy of (`findPossibleDuplicate`). */
async function findDuplicateOf(
  db: Db,
  doc: { organizationId: string; id: string; contentHash: string },
  result: ExtractionResult,
): Promise<string | null> {
  if (result.error) return null;
  const fields = result.fields as Record<string, unknown>;
  const text = (key: string) => (typeof fields[key] === 'string' && fields[key] ? String(fields[key]) : null);
  return findPossibleDuplicate(db, doc.organizationId, doc.id, {
    contentHash: doc.contentHash,
    documentType: result.documentType,
    documentNumber: text('documentNumber'),
    documentDate: text('documentDate'),
    vendorGstin: text('vendorGstin'),
    vendorName: text('vendorName'),
  });
}

/** Adds the supplier a read document names to the organisation's vendors (best effort: a run never fails for it). */
async function noteVendor(db: Db, organizationId: string, extraction: unknown): Promise<void> {
  const fields = ((extraction as { fields?: Record<string, unknown> } | null)?.fields ?? {}) as Record<
    string,
    unknown
  >;
  const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : null);
  await upsertVendorFromDocument(db, organizationId, {
    gstin: text('vendorGstin'),
    name: text('vendorName'),
    stateCode: text('vendorStateCode'),
  });
}

/** How often a document's pages-read count is written while it is extracted (the progress bar's pace). */
const PAGES_NOTE_MS = 1_000;

/**
 * Writes the pages read of a document as the engine reports them, at most once a second (and the first
 * report at once, which also says how many pages there are); best effort, a failed write only slows the bar.
 */
function notePages(ctx: JobContext, documentId: string): (read: number, pages: number) => void {
  let last = 0;
  return (read, pages) => {
    const now = Date.now();
    if (read > 0 && read < pages && now - last < PAGES_NOTE_MS) return;
    last = now;
    noteDocumentPages(ctx.db, documentId, ctx.workerId, read, pages).catch(() => {});
  };
}

/**
 * Extracts one claimed document in the pool and stores its outcome under the claim. On shutdown the
 * document is handed back (pending again) at once instead of waiting for the extraction.
 */
async function processDocument(
  ctx: JobContext,
  run: RunRow,
  type: DocumentType,
  doc: ClaimedDocument,
  leader: boolean,
): Promise<void> {
  // The leader's write also proves its lease alive; a helper only says what it is working on.
  if (leader) await heartbeatRun(ctx.db, run.id, ctx.workerId, doc.fileName);
  else await noteRunCurrentFile(ctx.db, run.id, doc.fileName);
  let outcome: DocumentOutcome | ((tx: Db) => Promise<DocumentOutcome>);
  const stopTimer = startExtractionTimer();
  try {
    // Another machine's upload or a swept Drive cache is fetched again here; nothing else reads the bytes.
    const path = await locateDocumentFile(ctx, doc);
    const result = await abortable(
      ctx.executor.extract(
        {
          path,
          fileName: doc.fileName,
          type,
          timeoutMs: ctx.env.flows.extractTimeoutMs,
          maxBytes: ctx.env.flows.uploadMaxBytes,
        },
        notePages(ctx, doc.id),
      ),
      ctx.signal,
    );
    if (result === ABORTED) {
      // Shutting down: give the document back so any other worker takes it now, not after the lease.
      if (await releaseDocumentClaim(ctx.db, doc, ctx.workerId)) recordDocumentHandedBack();
      ctx.logger.info({ documentId: doc.id }, 'document handed back on shutdown');
      return;
    }
    // Decided as it is stored, so two copies read side by side see each other.
    // A person's corrections of an earlier reading are laid over this one: a re-run never undoes them.
    outcome = async (tx: Db) => {
      const latest = collectLatestCorrections(
        await listDocumentEvents(tx, doc.organizationId, doc.id, 'corrected'),
      );
      const corrected = applyCorrections(result, latest);
      const duplicateOf = await findDuplicateOf(tx, doc, corrected ?? result);
      return {
        ...buildDocumentOutcome(corrected ?? result, { duplicateOf }),
        extracted: corrected ? result : null,
      };
    };
  } catch (error) {
    if (ctx.signal?.aborted) {
      if (await releaseDocumentClaim(ctx.db, doc, ctx.workerId)) recordDocumentHandedBack();
      return;
    }
    if (isAppError(error, 'not_found') || isAppError(error, 'conflict')) {
      // The file is gone from its source or changed there (e.g. deleted on Google Drive before a retry):
      // the document's own problem, told in the source's words, not a failure of Bahi.
      ctx.logger.warn({ err: error, documentId: doc.id }, 'document source unavailable');
      outcome = buildSourceFailure(error.message);
    } else {
      ctx.logger.error({ err: error, documentId: doc.id }, 'extraction crashed');
      outcome = buildSystemFailure((error as Error).message);
    }
  } finally {
    stopTimer();
  }
  // Counted only when stored: a ghost whose claim was taken over (or a duplicate) processed nothing.
  const stored = await saveDocumentOutcome(ctx.db, doc, run.id, ctx.workerId, outcome);
  if (stored) {
    recordDocumentOutcome(stored.status, stored.errorCode);
    // The vendor master grows from the documents read (by the supplier's GSTIN).
    if (stored.status !== 'failed') await noteVendor(ctx.db, doc.organizationId, stored.extraction);
    // Every failed document leaves a line an operator can search (a system failure was logged above).
    if (stored.status === 'failed')
      ctx.logger.warn(
        {
          organizationId: run.organizationId,
          flowId: run.flowId,
          runId: run.id,
          documentId: doc.id,
          errorCode: stored.errorCode,
        },
        'document failed',
      );
  } else ctx.logger.warn({ documentId: doc.id }, 'outcome not stored: the claim was lost to another worker');
}

/**
 * One claim loop: takes an extraction slot of this process, claims the run's next document (pending, or
 * abandoned by a dead worker), extracts and stores it; until nothing is left to claim or shutdown.
 */
async function claimLoop(ctx: JobContext, run: RunRow, type: DocumentType, leader: boolean): Promise<void> {
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
      const doc = await claimNextDocument(ctx.db, run.id, ctx.workerId, ctx.env.flows.leaseSeconds);
      if (!doc) return;
      recordDocumentClaim(doc.takenOver);
      if (doc.takenOver)
        ctx.logger.warn(
          { documentId: doc.id, attempts: doc.attempts },
          'took over a document whose worker stopped renewing its claim',
        );
      await processDocument(ctx, run, type, doc, leader);
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
async function inviteHelper(ctx: JobContext, runId: string, helper: number): Promise<void> {
  if (helper > MAX_HELPERS) return;
  await ctx.jobs.send('flow-run-extract', { runId, helper }, { singletonKey: `${runId}:${helper}` });
}

/**
 * The leader's extraction: invites helpers (any worker process with a free slot joins), works
 * `EXTRACT_CONCURRENCY` claim loops itself, then waits until no document of the run is pending or
 * processing anywhere — taking over any whose worker died. False when the run lease was lost meanwhile
 * (another leader finishes the run).
 */
async function extractPending(ctx: JobContext, run: RunRow, flow: FlowRow): Promise<boolean> {
  const type = toExtractionDocumentType(getFlowType(flow));
  if ((await countOpenDocuments(ctx.db, run.id)) > 0) await inviteHelper(ctx, run.id, 1);
  for (;;) {
    await Promise.all(Array.from({ length: ctx.executor.size }, () => claimLoop(ctx, run, type, true)));
    if (ctx.signal?.aborted) throw new Error('shutting down');
    if ((await countOpenDocuments(ctx.db, run.id)) === 0) return true;
    // Documents still held by other processes: wait for them (or for their claims to lapse).
    if (!(await heartbeatRun(ctx.db, run.id, ctx.workerId))) return false;
    await pause(WAIT_MS, ctx.signal);
  }
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
    claimLoop(ctx, run, toExtractionDocumentType(getFlowType(flow)), false),
  );
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
  for (const sink of sinksFor(flow)) {
    try {
      await sink.write(ctx, flow);
    } catch (error) {
      ctx.logger.error({ err: error, flowId: flow.id }, sink.failureLogs.run);
      runError ??= sink.toRunError(error);
    }
  }
  return runError;
}

/** Tells the organisation (activity) and the starter (bell) how the run ended. */
async function announceEnd(
  ctx: JobContext,
  run: RunRow,
  flow: FlowRow,
  counts: RunCounts,
  ok: boolean,
  reason?: string,
) {
  const processed = counts.done + counts.needsReview;
  const summary = ok
    ? `${processed} processed, ${counts.needsReview} to review, ${counts.failed} failed, ${counts.alreadyProcessed} already done`
    : (reason ?? 'The run failed');
  await recordActivity(
    ctx.db,
    flow.organizationId,
    ok ? 'flow.run.finished' : 'flow.run.failed',
    `Run of "${flow.name}" ${ok ? 'finished' : 'failed'}: ${summary}`,
    run.startedByUserId,
  );
  // A run that handled no document (a re-run that found nothing new) rings no bell: nothing happened.
  const handled = processed + counts.failed;
  if (run.startedByUserId && (!ok || handled > 0)) {
    await notifyUser(
      ctx.db,
      { organizationId: flow.organizationId, userId: run.startedByUserId },
      {
        kind: ok ? 'flow.run.finished' : 'flow.run.failed',
        title: ok ? `"${flow.name}" finished` : `"${flow.name}" failed`,
        body: summary,
        link: appPaths.flowSheet(flow.id),
      },
    );
  }
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
  const run = await acquireRunLease(ctx.db, runId, ctx.workerId, leaseSeconds);
  if (!run) return; // finished, deleted, or a live worker holds it
  const flow = await findFlowById(ctx.db, run.flowId);
  if (!flow) return;
  // Beat well inside the lease (a third of it at most) so a busy but live worker never loses its run, nor
  // the documents it is extracting.
  const beat = setInterval(() => {
    heartbeatRun(ctx.db, run.id, ctx.workerId).catch(() => {});
    renewDocumentClaims(ctx.db, run.id, ctx.workerId).catch(() => {});
  }, beatMs(ctx));
  try {
    await adoptUnfinishedDocuments(ctx.db, flow.id, run.id);
    const stored = run.counts as Partial<RunCounts> & { scanned?: boolean };
    let scan: Pick<RunCounts, 'skipped' | 'alreadyProcessed'>;
    try {
      scan = stored.scanned
        ? { skipped: stored.skipped ?? 0, alreadyProcessed: stored.alreadyProcessed ?? 0 }
        : await scanSource(ctx, run, flow);
    } catch (error) {
      if (!(error instanceof RunAbort)) throw error;
      const counts = await countRun(ctx, run.id, {});
      const finished = await finishRun(ctx.db, run.id, ctx.workerId, {
        status: 'failed',
        counts,
        errorCode: error.code,
        errorMessage: error.message,
      });
      if (finished) await announceEnd(ctx, run, flow, counts, false, error.message);
      return;
    }
    if (!(await extractPending(ctx, run, flow))) return;
    const sheetError = await writeSinks(ctx, flow);
    const counts = await countRun(ctx, run.id, scan);
    const systemFailures = await countSystemFailures(ctx.db, run.id);
    const ok = systemFailures === 0 && !sheetError;
    const finished = await finishRun(ctx.db, run.id, ctx.workerId, {
      status: ok ? 'succeeded' : 'failed',
      counts,
      errorCode: ok ? null : (sheetError?.code ?? 'internal'),
      errorMessage: ok
        ? null
        : (sheetError?.message ??
          `${systemFailures} document(s) failed because of a problem on our side; retry them`),
    });
    if (!finished) return;
    if (ok) await markFlowSucceeded(ctx.db, flow.id, finished.finishedAt ?? new Date());
    await announceEnd(ctx, run, flow, counts, ok, finished.errorMessage ?? undefined);
  } finally {
    clearInterval(beat);
    if (ctx.signal?.aborted) await releaseRunLease(ctx.db, run.id, ctx.workerId).catch(() => {});
  }
}

/** The `flow-run` job definition. */
export const flowRunJob = defineJob({
  name: 'flow-run',
  handle: ({ runId }, ctx) => processRun(runId, ctx),
});

/** The `flow-run-extract` job definition: a helper of a running run (see `helpExtractRun`). */
export const flowRunExtractJob = defineJob({
  name: 'flow-run-extract',
  handle: ({ runId, helper }, ctx) => helpExtractRun(runId, helper, ctx),
});

/** The `flow-workbook` job definition: rewrites a flow's .xlsx from the database. */
export const flowWorkbookJob = defineJob({
  name: 'flow-workbook',
  handle: async ({ flowId }, ctx) => {
    await writeFlowWorkbook(ctx.db, ctx.env, ctx.executor, flowId);
  },
});

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
