import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents } from '../../db/schema/index.ts';
import { markOutputsStale } from '../flows/flows.repo.ts';
import { type DocumentOutcome, type DocumentRow, ownClaim, writeDocumentOutcome } from './documents.repo.ts';

/**
 * A file scanned in one go may hold several documents (invoices, POs, GRNs): each is its own row, a
 * "part", sharing the file's source id, content hash and stored bytes, told apart by `part_no` and the
 * pages it is on. Part 1 is the row a scan creates; reading it whole finds the others and writes them
 * here, all in one transaction, so a rerun or a worker taking over after a crash never doubles a part.
 */

/** One document found in a claimed file, with how to decide its outcome once its row is known. */
export interface PartReading {
  /** The file's pages it is on; null when the file is one document. */
  pages: [number, number] | null;
  /**
   * Builds the outcome inside the transaction (corrections, duplicate search). `row` is the part's row as it
   * was before this reading (its id, and its pages: a person's corrections hold only on the same pages).
   */
  decide: (
    tx: Db,
    row: Pick<DocumentRow, 'id' | 'pageFrom' | 'pageTo' | 'partNo'>,
  ) => Promise<DocumentOutcome>;
}

/** What was stored for one part. */
export interface StoredPart {
  documentId: string;
  partNo: number;
  outcome: DocumentOutcome;
}

/**
 * Stores the documents read from one claimed row: the first on the claimed row itself, the others on the
 * file's parts 2…n (created, or read again in place). Only the current claim may write (same worker and
 * fencing token, still 'processing' in this run); a lost claim stores nothing and returns null. When the
 * claimed row was read whole (`wholeFile`), parts past the new count are deleted: the file was read again
 * and holds fewer documents now. A part a person removed stays removed. Under the organisation's lock, like
 * every outcome, so copies read side by side see each other.
 */
export async function saveDocumentParts(
  db: Db,
  {
    doc,
    runId,
    workerId,
    wholeFile,
    parts,
  }: { doc: DocumentRow; runId: string; workerId: string; wholeFile: boolean; parts: PartReading[] },
): Promise<StoredPart[] | null> {
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`bahi:document-outcome:${doc.organizationId}`}))`,
    );
    const [held] = await tx
      .select({ id: documents.id, pageFrom: documents.pageFrom, pageTo: documents.pageTo })
      .from(documents)
      .where(and(ownClaim(doc, workerId), eq(documents.runId, runId)))
      .for('update');
    if (!held) return null;
    const stored: StoredPart[] = [];
    for (const [i, part] of parts.entries()) {
      const row =
        i === 0
          ? { ...held, partNo: doc.partNo, status: 'processing' }
          : await upsertPart(tx, doc, runId, i + 1);
      if (row.status === 'removed') continue;
      const outcome = await part.decide(tx, row);
      const where = i === 0 ? ownClaim(doc, workerId) : undefined;
      if (await writeDocumentOutcome(tx, { ...doc, id: row.id }, outcome, where, part.pages))
        stored.push({ documentId: row.id, partNo: row.partNo, outcome });
    }
    if (wholeFile) await deletePartsAfter(tx, doc, parts.length);
    // Marked stale with the parts: the run's end writes the flow's outputs.
    await markOutputsStale(tx, doc.organizationId, doc.flowId);
    return stored;
  });
}

/** Part `partNo` of the claimed row's file: created (a new sheet row), or the existing one given to this run. */
async function upsertPart(
  tx: Db,
  doc: DocumentRow,
  runId: string,
  partNo: number,
): Promise<Pick<DocumentRow, 'id' | 'pageFrom' | 'pageTo' | 'partNo' | 'status'>> {
  const [row] = await tx
    .insert(documents)
    .values({
      organizationId: doc.organizationId,
      flowId: doc.flowId,
      sourceId: doc.sourceId,
      contentHash: doc.contentHash,
      fileName: doc.fileName,
      sourceKind: doc.sourceKind,
      sourcePath: doc.sourcePath,
      size: doc.size,
      modifiedAt: doc.modifiedAt,
      runId,
      partNo,
      status: 'processing',
      claimedBy: doc.claimedBy,
      claimedAt: sql`now()`,
      attempts: 1,
      sheetRow: sql`(select coalesce(max(${documents.sheetRow}), 0) + 1 from ${documents} where ${documents.flowId} = ${doc.flowId})`,
    })
    .onConflictDoUpdate({
      target: [documents.flowId, documents.sourceId, documents.contentHash, documents.partNo],
      // Read again with its file: this run's now (a removed part keeps its status and is skipped).
      set: { runId, updatedAt: sql`now()` },
    })
    .returning({
      id: documents.id,
      pageFrom: documents.pageFrom,
      pageTo: documents.pageTo,
      partNo: documents.partNo,
      status: documents.status,
    });
  if (!row) throw new Error('a document part was neither created nor found');
  return row;
}

/** Deletes the parts of the claimed row's file numbered above `count` (their lines and events go with them). */
async function deletePartsAfter(tx: Db, doc: DocumentRow, count: number): Promise<void> {
  await tx
    .delete(documents)
    .where(
      and(
        eq(documents.flowId, doc.flowId),
        eq(documents.sourceId, doc.sourceId),
        eq(documents.contentHash, doc.contentHash),
        gt(documents.partNo, count),
      ),
    );
}

/**
 * Makes the file of a document readable whole again: its part 1 loses its page range and is returned (the
 * caller requeues it); reading it finds the file's documents anew. Undefined when part 1 is gone.
 */
export async function resetFileToWhole(
  db: Db,
  doc: Pick<DocumentRow, 'organizationId' | 'flowId' | 'sourceId' | 'contentHash'>,
): Promise<DocumentRow | undefined> {
  const [row] = await db
    .update(documents)
    .set({ pageFrom: null, pageTo: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(documents.organizationId, doc.organizationId),
        eq(documents.flowId, doc.flowId),
        eq(documents.sourceId, doc.sourceId),
        eq(documents.contentHash, doc.contentHash),
        eq(documents.partNo, 1),
      ),
    )
    .returning();
  return row;
}
