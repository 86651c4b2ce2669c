import { stat } from 'node:fs/promises';
import {
  DocumentErrorCodeSchema,
  type DocumentStatus,
  type FlowDocument,
  getDocumentContentType,
} from '@bahi/contracts';
import { locateDocumentFile, sourceFor } from '../../adapters/sources/index.ts';
import { resolveLocalPath } from '../../adapters/sources/local-folder.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { AppError } from '../../lib/app-error.ts';
import { UUID_RE } from '../../lib/ids.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { refreshFlowOutputs } from '../flows/flow-outputs.ts';
import { findFlowById } from '../flows/flows.repo.ts';
import { requireFlow } from '../flows/flows.service.ts';
import { type DocumentRow, findDocument, listDocumentRows, markDocumentRemoved } from './documents.repo.ts';

/** Rows per page of the document list. */
export const DOCUMENT_PAGE_SIZE = 50;

/** Shapes a document row for the API. */
export function toFlowDocument(row: DocumentRow): FlowDocument {
  return {
    id: row.id,
    flowId: row.flowId,
    runId: row.runId,
    fileName: row.fileName,
    sourceKind: row.sourceKind,
    size: row.size,
    status: row.status as DocumentStatus,
    // A code written by an older version and since retired reads as `internal`; its message stays.
    error: row.errorCode
      ? {
          code: DocumentErrorCodeSchema.catch('internal').parse(row.errorCode),
          message: row.errorMessage ?? '',
        }
      : null,
    failedChecks: row.failedChecks,
    reviewFlag: row.reviewFlag,
    processedAt: row.processedAt ? row.processedAt.toISOString() : null,
    fileUrl: `/api/documents/${row.id}/file`,
    pageRange: row.pageFrom !== null && row.pageTo !== null ? [row.pageFrom, row.pageTo] : null,
  };
}

/** A document of the caller's organisation, or `not_found`. */
export async function requireDocument(db: Db, membership: Membership, id: string): Promise<DocumentRow> {
  const row = UUID_RE.test(id) ? await findDocument(db, membership.organizationId, id) : undefined;
  if (!row) throw new AppError('not_found', 'No such document');
  return row;
}

/** A flow's documents, newest first, optionally filtered by status. */
export async function listDocuments(
  db: Db,
  {
    membership,
    flowId,
    query,
  }: { membership: Membership; flowId: string; query: { status?: DocumentStatus | undefined; page: number } },
) {
  const flow = await requireFlow(db, membership, flowId);
  const { rows, total } = await listDocumentRows(db, flow.id, {
    status: query.status,
    limit: DOCUMENT_PAGE_SIZE,
    offset: (query.page - 1) * DOCUMENT_PAGE_SIZE,
  });
  return { items: rows.map(toFlowDocument), page: query.page, pageSize: DOCUMENT_PAGE_SIZE, total };
}

/** One document with its full extraction result. */
export async function getDocument(db: Db, membership: Membership, id: string) {
  const row = await requireDocument(db, membership, id);
  return { ...toFlowDocument(row), extraction: (row.extraction as Record<string, unknown> | null) ?? null };
}

/**
 * `DELETE /api/documents/:id`: takes a document out of its flow (a duplicate, a wrong file). Its rows
 * leave the sheet, the workbook and the Google sheet; a later run does not read the same file again.
 * Refused while the document is waiting or being read. Returns the removed document.
 */
export async function removeDocument(
  db: Db,
  {
    user,
    membership,
    id,
    logger,
    jobs,
  }: {
    user: SessionUser;
    membership: Membership;
    id: string;
    logger?: { warn: (obj: object, msg: string) => void };
    /** Sends the rewrite of the flow's outputs; without it they are rewritten at the next download or run. */
    jobs?: JobSender | undefined;
  },
): Promise<FlowDocument> {
  const doc = await requireDocument(db, membership, id);
  if (doc.status === 'removed') return toFlowDocument(doc);
  const removed = await markDocumentRemoved(db, membership.organizationId, doc.id);
  if (!removed)
    throw new AppError('run_in_progress', 'This document is being read; remove it when the run ends');
  const flow = await findFlowById(db, doc.flowId);
  await recordActivity(db, {
    organizationId: membership.organizationId,
    kind: 'document.removed',
    message: `${user.name} removed ${doc.fileName} from "${flow?.name ?? 'a flow'}"`,
    userId: user.id,
  });
  await recordAudit(db, {
    organizationId: membership.organizationId,
    kind: 'document.removed',
    actor: user,
    documentId: doc.id,
    summary: `${user.name} removed ${doc.fileName} from "${flow?.name ?? 'a flow'}"`,
    details: { fileName: doc.fileName, flowId: doc.flowId },
  });
  // The workbook and the Google sheet lose the rows a moment later, written by the flow's outputs job.
  if (flow) await refreshFlowOutputs({ db, jobs, logger }, membership.organizationId, flow.id);
  return toFlowDocument(removed);
}

/**
 * Where a document's bytes are and how to serve them (its source kind's `locate`, the answer extraction
 * uses too). The path is checked again against the places that kind may serve from today (the upload
 * store, the Drive cache, or BAHI_FOLDER_ROOTS for local files), so a root the operator removed, or a file
 * swapped for a symlink since the run, is not served.
 */
export async function getDocumentFile(
  db: Db,
  { env, membership, id }: { env: Env; membership: Membership; id: string },
) {
  const row = await requireDocument(db, membership, id);
  if (!row.sourcePath) throw new AppError('not_found', 'The file of this document is not stored');
  const ctx = { db, env };
  const path = await locateDocumentFile(ctx, row);
  const allowed = await sourceFor(row.sourceKind).servedFrom(ctx, row);
  const real = await resolveLocalPath(allowed, path, 'file').catch(() => null);
  if (!real) throw new AppError('not_found', 'The file of this document is no longer available');
  const info = await stat(real).catch(() => null);
  if (!info?.isFile()) throw new AppError('not_found', 'The file of this document is no longer available');
  const type = getDocumentContentType(row.fileName);
  return { path: real, size: info.size, fileName: row.fileName, contentType: type };
}
