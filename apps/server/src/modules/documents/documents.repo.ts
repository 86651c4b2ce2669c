import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { documentLines, documents, flows } from '../../db/schema/index.ts';

/** One stored document row. */
export type DocumentRow = typeof documents.$inferSelect;

/** A file found by a run's scan. */
export interface ScannedFile {
  organizationId: string;
  flowId: string;
  runId: string;
  sourceKind: string;
  sourceId: string;
  contentHash: string;
  fileName: string;
  sourcePath: string;
  size: number;
  modifiedAt: Date | null;
}

/**
 * Records a scanned file as a pending document of the run, unless the flow already has it (same source id
 * and content hash): then nothing is written and false is returned. The unique constraint, not a prior
 * read, decides, so concurrent or repeated scans can never create a second row.
 */
export async function insertScannedDocument(db: Db, file: ScannedFile): Promise<boolean> {
  const rows = await db
    .insert(documents)
    .values({
      ...file,
      status: 'pending',
      // Sheet order = discovery order; scans of one flow never overlap (one active run per flow).
      sheetRow: sql`(select coalesce(max(${documents.sheetRow}), 0) + 1 from ${documents} where ${documents.flowId} = ${file.flowId})`,
    })
    .onConflictDoNothing({ target: [documents.flowId, documents.sourceId, documents.contentHash] })
    .returning({ id: documents.id });
  return rows.length > 0;
}

/**
 * Gives the run every unfinished document of its flow: ones it left 'processing' when a worker died, and
 * ones an earlier interrupted run never reached. Safe because a flow has at most one active run.
 */
export async function adoptUnfinishedDocuments(db: Db, flowId: string, runId: string): Promise<void> {
  await db
    .update(documents)
    .set({ status: 'pending', runId, updatedAt: sql`now()` })
    .where(and(eq(documents.flowId, flowId), inArray(documents.status, ['pending', 'processing'])));
}

/** Claims the next pending document of a run (SKIP LOCKED: parallel loops never take the same one). */
export async function claimNextDocument(db: Db, runId: string): Promise<DocumentRow | undefined> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update documents set status = 'processing', attempts = attempts + 1, updated_at = now()
        where id = (select id from documents where run_id = ${runId} and status = 'pending'
                    order by sheet_row nulls last, id limit 1 for update skip locked)
        returning id`,
  );
  const id = rows[0]?.id;
  if (!id) return undefined;
  const [row] = await db.select().from(documents).where(eq(documents.id, id));
  return row;
}

/** The outcome of extracting one document, ready to store. */
export interface DocumentOutcome {
  status: 'done' | 'needs_review' | 'failed';
  extraction: unknown;
  errorCode: string | null;
  errorMessage: string | null;
  failedChecks: string[];
  reviewFlag: string | null;
  lines: Array<Record<string, unknown>>;
}

/**
 * Stores a document's outcome and replaces its line rows, in one transaction. Only the run that holds the
 * document in 'processing' may write: a duplicate handler finds nothing to update and rolls back, so a
 * document never ends with two sets of rows.
 */
export async function saveDocumentOutcome(
  db: Db,
  doc: DocumentRow,
  runId: string,
  outcome: DocumentOutcome,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(documents)
      .set({
        status: outcome.status,
        extraction: outcome.extraction,
        errorCode: outcome.errorCode,
        errorMessage: outcome.errorMessage,
        failedChecks: outcome.failedChecks,
        reviewFlag: outcome.reviewFlag,
        processedAt: outcome.status === 'failed' ? null : sql`now()`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(documents.id, doc.id), eq(documents.runId, runId), eq(documents.status, 'processing')))
      .returning({ id: documents.id });
    if (updated.length === 0) return false;
    await tx.delete(documentLines).where(eq(documentLines.documentId, doc.id));
    if (outcome.lines.length > 0) {
      await tx.insert(documentLines).values(
        outcome.lines.map((data, i) => ({
          documentId: doc.id,
          flowId: doc.flowId,
          organizationId: doc.organizationId,
          lineNo: i + 1,
          data,
        })),
      );
    }
    // The workbook no longer matches the database until it is rewritten.
    await tx.update(flows).set({ workbookWrittenAt: null }).where(eq(flows.id, doc.flowId));
    return true;
  });
}

/** How many of a run's documents are in each status. */
export async function countRunDocuments(db: Db, runId: string): Promise<Record<string, number>> {
  const rows = await db
    .select({ status: documents.status, n: count() })
    .from(documents)
    .where(eq(documents.runId, runId))
    .groupBy(documents.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** How many of a run's documents failed for a system reason (not the file's fault). */
export async function countSystemFailures(db: Db, runId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(documents)
    .where(
      and(eq(documents.runId, runId), eq(documents.status, 'failed'), eq(documents.errorCode, 'internal')),
    );
  return Number(row?.n ?? 0);
}

/** A document of the organisation, or undefined. */
export async function findDocument(
  db: Db,
  organizationId: string,
  id: string,
): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(documents)
    .where(and(eq(documents.organizationId, organizationId), eq(documents.id, id)));
  return row;
}

/** One page of a flow's documents, newest first, optionally by status. */
export async function listDocumentRows(
  db: Db,
  flowId: string,
  options: { status?: string | undefined; limit: number; offset: number },
): Promise<{ rows: DocumentRow[]; total: number }> {
  const where = options.status
    ? and(eq(documents.flowId, flowId), eq(documents.status, options.status))
    : eq(documents.flowId, flowId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(documents)
      .where(where)
      .orderBy(desc(documents.sheetRow), asc(documents.id))
      .limit(options.limit)
      .offset(options.offset),
    db.select({ n: count() }).from(documents).where(where),
  ]);
  return { rows, total: Number(total?.n ?? 0) };
}

/** Puts documents back to 'pending' for a new run (re-process / retry). */
export async function requeueDocuments(db: Db, ids: string[], runId: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(documents)
    .set({ status: 'pending', runId, updatedAt: sql`now()` })
    .where(inArray(documents.id, ids));
}

/** Lines of a document in order. */
export async function listDocumentLines(db: Db, documentId: string) {
  return db
    .select()
    .from(documentLines)
    .where(eq(documentLines.documentId, documentId))
    .orderBy(asc(documentLines.lineNo));
}
