import type { DocumentType, ExtractionResult } from '@bahi/engine';
import { locateDocumentFile } from '../../adapters/sources/index.ts';
import type { Db } from '../../db/client.ts';
import type { JobContext } from '../../jobs/registry.ts';
import { WorkerCrashError } from '../../jobs/worker-pool.ts';
import { isAppError } from '../../lib/app-error.ts';
import { recordDocumentHandedBack, recordDocumentOutcome, startExtractionTimer } from '../../lib/metrics.ts';
import { applyCorrections, collectLatestCorrections } from '../documents/document-corrections.ts';
import {
  buildDocumentOutcome,
  buildSourceFailure,
  buildSystemFailure,
  buildTimeoutFailure,
} from '../documents/document-outcome.ts';
import { type PartReading, type StoredPart, saveDocumentParts } from '../documents/document-parts.ts';
import {
  type ClaimedDocument,
  type DocumentOutcome,
  type DocumentRow,
  findPossibleDuplicate,
  listDocumentEvents,
  noteDocumentPages,
  releaseDocumentClaim,
} from '../documents/documents.repo.ts';
import { findIssuerMemory } from '../memory/memory.repo.ts';
import { listGstins } from '../organizations/organizations.repo.ts';
import { learnVendorFromDocument } from '../vendors/vendors.service.ts';
import { heartbeatRun, noteRunCurrentFile, type RunRow } from './runs.repo.ts';

/** What a claim loop works on: one run's documents, all read as one type, by its leader or by a helper. */
export interface ClaimWork {
  run: RunRow;
  type: DocumentType;
  /** The run's leader (holds the run lease) rather than a `flow-run-extract` helper. */
  leader: boolean;
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

/** The earlier document of the organisation this one looks like a copy of (`findPossibleDuplicate`). */
async function findDuplicateOf(
  db: Db,
  doc: { organizationId: string; id: string; contentHash: string },
  result: ExtractionResult,
  pages: [number, number] | null,
): Promise<string | null> {
  if (result.error) return null;
  const fields = result.fields as Record<string, unknown>;
  const text = (key: string) => (typeof fields[key] === 'string' && fields[key] ? String(fields[key]) : null);
  return findPossibleDuplicate(db, {
    organizationId: doc.organizationId,
    documentId: doc.id,
    key: {
      contentHash: doc.contentHash,
      documentType: result.documentType,
      documentNumber: text('documentNumber'),
      documentDate: text('documentDate'),
      vendorGstin: text('vendorGstin'),
      vendorName: text('vendorName'),
      pages,
    },
  });
}

/**
 * How one document read from the claimed file is stored: decided as it is stored, so two copies read side
 * by side see each other; a person's corrections of an earlier reading of the same document are laid over
 * this one (a re-run never undoes them), unless the document now stands on other pages of its file.
 */
function toPartReading(
  doc: ClaimedDocument,
  result: ExtractionResult,
  pages: [number, number] | null,
): PartReading {
  return {
    pages,
    decide: async (tx, row) => {
      const moved =
        row.pageFrom !== null && pages !== null && (row.pageFrom !== pages[0] || row.pageTo !== pages[1]);
      const latest = moved
        ? new Map()
        : collectLatestCorrections(
            await listDocumentEvents(tx, {
              organizationId: doc.organizationId,
              documentId: row.id,
              kind: 'corrected',
            }),
          );
      const corrected = applyCorrections(result, latest);
      const duplicateOf = await findDuplicateOf(tx, { ...doc, id: row.id }, corrected ?? result, pages);
      // Whom an invoice is billed to is checked against the profile as it stands when the document is stored.
      const organizationGstins = (await listGstins(tx, doc.organizationId)).map((g) => g.gstin);
      return {
        ...buildDocumentOutcome(corrected ?? result, { duplicateOf, organizationGstins }),
        extracted: corrected ? result : null,
      };
    },
  };
}

/** The pages a claimed row is read from: its own range (one document of a batch), or null (the whole file). */
function claimedPages(doc: DocumentRow): [number, number] | null {
  return doc.pageFrom !== null && doc.pageTo !== null ? [doc.pageFrom, doc.pageTo] : null;
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
    noteDocumentPages(ctx.db, {
      documentId,
      workerId: ctx.workerId,
      pagesRead: read,
      pageCount: pages,
    }).catch(() => {});
  };
}

/**
 * Extracts one claimed document in the pool and stores its outcome under the claim. A row without pages is
 * read whole and split: each document found in the file becomes its own row (part) with its pages; a part
 * is read again from its own pages only. On shutdown the document is handed back (pending again) at once
 * instead of waiting for the extraction.
 */
export async function processClaimedDocument(
  ctx: JobContext,
  work: ClaimWork,
  doc: ClaimedDocument,
): Promise<void> {
  const { run, leader } = work;
  // The leader's write also proves its lease alive; a helper only says what it is working on.
  if (leader)
    await heartbeatRun(ctx.db, { runId: run.id, workerId: ctx.workerId, currentFile: doc.fileName });
  else await noteRunCurrentFile(ctx.db, run.id, doc.fileName);
  const pages = claimedPages(doc);
  const read = await readClaimedDocument(ctx, work, doc, pages);
  if (read === null) return;
  // A whole file read well decides how many documents it holds: parts past them are gone.
  const wholeFile = pages === null && read.prune;
  const stored = await saveDocumentParts(ctx.db, {
    doc,
    runId: run.id,
    workerId: ctx.workerId,
    wholeFile,
    parts: read.parts,
  });
  if (!stored) {
    ctx.logger.warn({ documentId: doc.id }, 'outcome not stored: the claim was lost to another worker');
    return;
  }
  // Counted only when stored: a ghost whose claim was taken over (or a duplicate) processed nothing.
  for (const part of stored) await afterPartStored(ctx, run, part);
}

/**
 * Reads the claimed row's file (whole, or the row's pages) into one reading per document found; a failure
 * becomes one failed reading that keeps the row's pages. Null when the document was handed back on shutdown.
 */
async function readClaimedDocument(
  ctx: JobContext,
  work: ClaimWork,
  doc: ClaimedDocument,
  pages: [number, number] | null,
): Promise<{ parts: PartReading[]; prune: boolean } | null> {
  const stopTimer = startExtractionTimer();
  const failed = (outcome: DocumentOutcome) => ({
    parts: [{ pages, decide: async () => outcome }],
    prune: false,
  });
  try {
    // Another machine's upload or a swept Drive cache is fetched again here; nothing else reads the bytes.
    const path = await locateDocumentFile(ctx, doc);
    const results = await abortable(
      ctx.executor.extract(
        {
          path,
          fileName: doc.fileName,
          type: work.type,
          timeoutMs: ctx.env.flows.extractTimeoutMs,
          maxBytes: ctx.env.flows.uploadMaxBytes,
          split: pages === null,
          pages: pages ?? undefined,
        },
        notePages(ctx, doc.id),
        // What this organisation's people taught about the document's issuer (read here, on the thread
        // that holds the database; the pool thread asks for it once it knows who printed the document).
        (memoryType, keys) =>
          findIssuerMemory(ctx.db, { organizationId: doc.organizationId, type: memoryType, keys }),
      ),
      ctx.signal,
    );
    if (results === ABORTED) {
      // Shutting down: give the document back so any other worker takes it now, not after the lease.
      if (await releaseDocumentClaim(ctx.db, doc, ctx.workerId)) recordDocumentHandedBack();
      ctx.logger.info({ documentId: doc.id }, 'document handed back on shutdown');
      return null;
    }
    const several = results.length > 1;
    return {
      parts: results.map((result) =>
        toPartReading(doc, result, several ? (result.pageRange ?? null) : pages),
      ),
      prune: results.every((r) => !r.error),
    };
  } catch (error) {
    if (ctx.signal?.aborted) {
      if (await releaseDocumentClaim(ctx.db, doc, ctx.workerId)) recordDocumentHandedBack();
      return null;
    }
    if (isAppError(error, 'not_found') || isAppError(error, 'conflict')) {
      // The file is gone from its source or changed there (e.g. deleted on Google Drive before a retry):
      // the document's own problem, told in the source's words, not a failure of Bahi.
      ctx.logger.warn({ err: error, documentId: doc.id }, 'document source unavailable');
      return failed(buildSourceFailure(error.message));
    }
    if (error instanceof WorkerCrashError && error.timedOut) {
      ctx.logger.warn({ documentId: doc.id }, 'extraction stopped at its time limit');
      return failed(buildTimeoutFailure(error.message));
    }
    ctx.logger.error({ err: error, documentId: doc.id }, 'extraction crashed');
    return failed(buildSystemFailure((error as Error).message));
  } finally {
    stopTimer();
  }
}

/** Metrics, the vendor master and the operator's log line for one stored document. */
async function afterPartStored(ctx: JobContext, run: RunRow, part: StoredPart): Promise<void> {
  const { outcome, documentId } = part;
  recordDocumentOutcome(outcome.status, outcome.errorCode);
  // The vendor master learns from documents read with every check passed (by the supplier's GSTIN);
  // the others teach it when a person approves them.
  if (outcome.status === 'done')
    await learnVendorFromDocument(ctx.db, {
      organizationId: run.organizationId,
      extraction: outcome.extraction as ExtractionResult,
      corrected: [],
    });
  // Every failed document leaves a line an operator can search (a system failure was logged above).
  if (outcome.status === 'failed')
    ctx.logger.warn(
      {
        organizationId: run.organizationId,
        flowId: run.flowId,
        runId: run.id,
        documentId,
        errorCode: outcome.errorCode,
      },
      'document failed',
    );
}
