import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { resetFileToWhole } from '../documents/document-parts.ts';
import { requeueDocuments } from '../documents/documents.repo.ts';
import { requireDocument } from '../documents/documents.service.ts';
import { findFlowById } from '../flows/flows.repo.ts';
import { startRun } from './runs.service.ts';

// Re-processing and retrying a document start a run of its flow over just that document: run starts live
// here, so the documents module does not depend on runs (runs reads and writes documents).

/** Who asks to run which document again, and what the run needs. */
export interface RerunRequest {
  env: Env;
  jobs: JobSender | undefined;
  user: SessionUser;
  membership: Membership;
  /** The document's id (from the request path). */
  id: string;
}

/**
 * Runs documents again in a new run of their flow: `reprocess` (any finished document; its rows are
 * replaced) or `retry` (failed documents only), each from its own pages when it is one document of a
 * batch; or `file`: the document's whole file read again and split anew (its parts are read in place, none
 * doubled, those the file no longer holds deleted). Refused with `run_in_progress` while the flow runs.
 */
async function rerunDocument(
  db: Db,
  { env, jobs, user, membership, id, mode }: RerunRequest & { mode: 'reprocess' | 'retry' | 'file' },
): Promise<{ runId: string }> {
  const doc = await requireDocument(db, membership, id);
  if (mode === 'retry' && doc.status !== 'failed') {
    throw new AppError('conflict', 'Only failed documents can be retried; use re-process for the others');
  }
  if (doc.status === 'pending' || doc.status === 'processing') {
    throw new AppError('run_in_progress', 'This document is already being processed');
  }
  const flow = await findFlowById(db, doc.flowId);
  if (!flow) throw new AppError('not_found', 'No such flow');
  const run = await startRun(db, {
    env,
    jobs,
    user,
    flow,
    source: { kind: 'documents' },
    beforeEnqueue: async (tx, created) => {
      // The file's first part is the row read whole (the others are found again from it).
      const first = mode === 'file' ? await resetFileToWhole(tx, doc) : undefined;
      await requeueDocuments(tx, [first?.id ?? doc.id], created.id);
    },
  });
  return { runId: run.id };
}

/** `POST /api/documents/:id/reprocess`: extract again and replace the document's rows. */
export function reprocessDocument(db: Db, request: RerunRequest) {
  return rerunDocument(db, { ...request, mode: 'reprocess' });
}

/** `POST /api/documents/:id/retry`: try a failed document again. */
export function retryDocument(db: Db, request: RerunRequest) {
  return rerunDocument(db, { ...request, mode: 'retry' });
}

/** `POST /api/documents/:id/reprocess-file`: read the document's whole file again, finding its documents anew. */
export function reprocessFile(db: Db, request: RerunRequest) {
  return rerunDocument(db, { ...request, mode: 'file' });
}
