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
import {
  type ClaimedDocument,
  type DocumentOutcome,
  findPossibleDuplicate,
  listDocumentEvents,
  noteDocumentPages,
  releaseDocumentClaim,
  saveDocumentOutcome,
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
    },
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
    noteDocumentPages(ctx.db, {
      documentId,
      workerId: ctx.workerId,
      pagesRead: read,
      pageCount: pages,
    }).catch(() => {});
  };
}

/**
 * Extracts one claimed document in the pool and stores its outcome under the claim. On shutdown the
 * document is handed back (pending again) at once instead of waiting for the extraction.
 */
export async function processClaimedDocument(
  ctx: JobContext,
  work: ClaimWork,
  doc: ClaimedDocument,
): Promise<void> {
  const { run, type, leader } = work;
  // The leader's write also proves its lease alive; a helper only says what it is working on.
  if (leader)
    await heartbeatRun(ctx.db, { runId: run.id, workerId: ctx.workerId, currentFile: doc.fileName });
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
        // What this organisation's people taught about the document's issuer (read here, on the thread
        // that holds the database; the pool thread asks for it once it knows who printed the document).
        (memoryType, keys) =>
          findIssuerMemory(ctx.db, { organizationId: doc.organizationId, type: memoryType, keys }),
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
        await listDocumentEvents(tx, {
          organizationId: doc.organizationId,
          documentId: doc.id,
          kind: 'corrected',
        }),
      );
      const corrected = applyCorrections(result, latest);
      const duplicateOf = await findDuplicateOf(tx, doc, corrected ?? result);
      // Whom an invoice is billed to is checked against the profile as it stands when the document is stored.
      const organizationGstins = (await listGstins(tx, doc.organizationId)).map((g) => g.gstin);
      return {
        ...buildDocumentOutcome(corrected ?? result, { duplicateOf, organizationGstins }),
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
    } else if (error instanceof WorkerCrashError && error.timedOut) {
      ctx.logger.warn({ documentId: doc.id }, 'extraction stopped at its time limit');
      outcome = buildTimeoutFailure(error.message);
    } else {
      ctx.logger.error({ err: error, documentId: doc.id }, 'extraction crashed');
      outcome = buildSystemFailure((error as Error).message);
    }
  } finally {
    stopTimer();
  }
  // Counted only when stored: a ghost whose claim was taken over (or a duplicate) processed nothing.
  const stored = await saveDocumentOutcome(ctx.db, {
    doc,
    runId: run.id,
    workerId: ctx.workerId,
    decide: outcome,
  });
  if (stored) {
    recordDocumentOutcome(stored.status, stored.errorCode);
    // The vendor master learns from documents read with every check passed (by the supplier's GSTIN);
    // the others teach it when a person approves them.
    if (stored.status === 'done')
      await learnVendorFromDocument(ctx.db, {
        organizationId: doc.organizationId,
        extraction: stored.extraction as ExtractionResult,
        corrected: [],
      });
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
