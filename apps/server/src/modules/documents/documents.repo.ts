import type { DocumentErrorCode } from '@bahi/contracts';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/client.ts';
import { documentEvents, documentLines, documents } from '../../db/schema/index.ts';
import { insertAuditEvent, type NewAuditEvent } from '../audit/audit.repo.ts';
import { markOutputsStale } from '../flows/flows.repo.ts';

/** One stored document row. */
export type DocumentRow = typeof documents.$inferSelect;

/** What a scan did with a file: a new document, one already queued for this run, or one done before. */
export type ScanOutcome = 'new' | 'queued' | 'processed';

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
export async function insertScannedDocument(db: Db, file: ScannedFile): Promise<ScanOutcome> {
  const rows = await db
    .insert(documents)
    .values({
      ...file,
      status: 'pending',
      // Sheet order = discovery order; scans of one flow never overlap (one active run per flow).
      sheetRow: sql`(select coalesce(max(${documents.sheetRow}), 0) + 1 from ${documents} where ${documents.flowId} = ${file.flowId})`,
    })
    .onConflictDoNothing({
      target: [documents.flowId, documents.sourceId, documents.contentHash, documents.partNo],
    })
    .returning({ id: documents.id });
  if (rows.length > 0) return 'new';
  const [existing] = await db
    .select({ runId: documents.runId, status: documents.status })
    .from(documents)
    .where(
      and(
        eq(documents.flowId, file.flowId),
        eq(documents.sourceId, file.sourceId),
        eq(documents.contentHash, file.contentHash),
        eq(documents.partNo, 1),
      ),
    );
  // A scan resumed after a crash meets the documents it found before the crash: they are this run's,
  // as are unfinished ones an interrupted run left (the run adopts them), not "already processed".
  const unfinished = existing?.status === 'pending' || existing?.status === 'processing';
  return existing && (existing.runId === file.runId || unfinished) ? 'queued' : 'processed';
}

/**
 * Gives the run every unfinished document of its flow: pending ones (also those an earlier interrupted run
 * never reached) and ones another run left 'processing'. The run's own 'processing' documents keep their
 * claims: a live helper goes on with its document, and one whose worker died is taken over by the next
 * claim once the claim lapses (counted as a takeover). Safe because a flow has at most one active run.
 */
export async function adoptUnfinishedDocuments(db: Db, flowId: string, runId: string): Promise<void> {
  await db
    .update(documents)
    .set({ status: 'pending', runId, claimedBy: null, claimedAt: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(documents.flowId, flowId),
        inArray(documents.status, ['pending', 'processing']),
        sql`${documents.runId} is distinct from ${runId}`,
      ),
    );
}

/** A document claimed for extraction; `attempts` is the claim's fencing token. */
export interface ClaimedDocument extends DocumentRow {
  /** True when the document was taken from a worker whose claim lapsed (it died mid-document). */
  takenOver: boolean;
}

/**
 * Claims the next document of a run for `workerId`: a pending one, or one left 'processing' by a worker
 * whose claim is older than `leaseSeconds` (it died). SKIP LOCKED: loops in this and other processes never
 * take the same one. The claim bumps `attempts`, so a late write by the previous claimant is refused.
 */
export async function claimNextDocument(
  db: Db,
  { runId, workerId, leaseSeconds }: { runId: string; workerId: string; leaseSeconds: number },
): Promise<ClaimedDocument | undefined> {
  const rows = await queryRows<{ id: string; previous: string }>(
    db,
    sql`with next as (
          select id, status from documents
           where run_id = ${runId}
             and (status = 'pending'
                  or (status = 'processing'
                      and (claimed_at is null or claimed_at < now() - make_interval(secs => ${leaseSeconds}))))
           order by sheet_row nulls last, id
           limit 1
           for update skip locked)
        update documents d
           set status = 'processing', claimed_by = ${workerId}, claimed_at = now(),
               attempts = d.attempts + 1, updated_at = now(), pages_read = 0, page_count = null
          from next
         where d.id = next.id
        returning d.id, next.status as previous`,
  );
  const claimed = rows[0];
  if (!claimed) return undefined;
  const [row] = await db.select().from(documents).where(eq(documents.id, claimed.id));
  return row && { ...row, takenOver: claimed.previous === 'processing' };
}

/**
 * Renews the claims `workerId` holds on a run's documents (the per-document heartbeat); returns how many it
 * still holds. A claim another worker took over after it lapsed is no longer renewed.
 */
export async function renewDocumentClaims(db: Db, runId: string, workerId: string): Promise<number> {
  const rows = await db
    .update(documents)
    .set({ claimedAt: sql`now()` })
    .where(
      and(eq(documents.runId, runId), eq(documents.status, 'processing'), eq(documents.claimedBy, workerId)),
    )
    .returning({ id: documents.id });
  return rows.length;
}

/** Hands a claimed document back (shutdown): pending again at once, for any other worker. */
export async function releaseDocumentClaim(
  db: Db,
  doc: Pick<DocumentRow, 'id' | 'attempts'>,
  workerId: string,
): Promise<boolean> {
  const rows = await db
    .update(documents)
    .set({ status: 'pending', claimedBy: null, claimedAt: null, updatedAt: sql`now()` })
    .where(ownClaim(doc, workerId))
    .returning({ id: documents.id });
  return rows.length > 0;
}

/**
 * Drops every claim on documents of unfinished runs (embedded start-up: this process is the only one, so
 * whatever is 'processing' was left by its previous life).
 */
export async function clearDocumentClaims(db: Db): Promise<void> {
  await db
    .update(documents)
    .set({ status: 'pending', claimedBy: null, claimedAt: null, updatedAt: sql`now()` })
    .where(
      and(
        eq(documents.status, 'processing'),
        sql`${documents.runId} in (select id from runs where status in ('queued', 'running'))`,
      ),
    );
}

/** How many of a run's documents are not finished yet (pending, or processing somewhere). */
export async function countOpenDocuments(db: Db, runId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(documents)
    .where(and(eq(documents.runId, runId), inArray(documents.status, ['pending', 'processing'])));
  return Number(row?.n ?? 0);
}

/** The claim `workerId` made on `doc` (same fencing token) is still the document's current one. */
export function ownClaim(doc: Pick<DocumentRow, 'id' | 'attempts'>, workerId: string) {
  return and(
    eq(documents.id, doc.id),
    eq(documents.status, 'processing'),
    eq(documents.claimedBy, workerId),
    eq(documents.attempts, doc.attempts),
  );
}

/** The outcome of extracting one document, ready to store. */
export interface DocumentOutcome {
  status: 'done' | 'needs_review' | 'failed';
  extraction: unknown;
  errorCode: DocumentErrorCode | null;
  errorMessage: string | null;
  failedChecks: string[];
  reviewFlag: string | null;
  lines: Array<Record<string, unknown>>;
  /** The earlier document this one looks like a copy of. */
  duplicateOf: string | null;
  /** The engine's own reading when a person's corrections were laid over it (`extraction` holds the result). */
  extracted?: unknown;
}

/**
 * Stores a document's outcome and replaces its line rows, in one transaction. Only the current claim may
 * write (same worker, same `attempts` fencing token, still 'processing' in this run): a worker whose claim
 * lapsed and was taken over — a ghost that was only slow, not dead — finds nothing to update and rolls back,
 * so a document never ends with two sets of rows. `decide` may be a function that builds the outcome inside
 * the transaction (the duplicate search), under a lock per organisation. Returns the stored outcome, or
 * null when nothing was stored.
 */
export async function saveDocumentOutcome(
  db: Db,
  {
    doc,
    runId,
    workerId,
    decide,
  }: {
    doc: DocumentRow;
    runId: string;
    workerId: string;
    decide: DocumentOutcome | ((tx: Db) => Promise<DocumentOutcome>);
  },
): Promise<DocumentOutcome | null> {
  return db.transaction(async (tx) => {
    // One save at a time per organisation while the outcome is decided: two copies of one invoice read
    // side by side must not each miss the other in the duplicate search.
    if (typeof decide === 'function')
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtext(${`bahi:document-outcome:${doc.organizationId}`}))`,
      );
    const outcome = typeof decide === 'function' ? await decide(tx) : decide;
    const updated = await writeDocumentOutcome(
      tx,
      doc,
      outcome,
      and(ownClaim(doc, workerId), eq(documents.runId, runId)),
    );
    if (!updated) return null;
    // The workbook no longer matches the database until it is rewritten.
    await markOutputsStale(tx, doc.organizationId, doc.flowId);
    return outcome;
  });
}

/**
 * Writes an outcome on the document row `where` selects (its id is `doc.id`) and replaces its line rows;
 * false when `where` matched nothing. `pages` sets the part's page range when given (null: the whole file).
 */
export async function writeDocumentOutcome(
  tx: Db,
  doc: Pick<DocumentRow, 'id' | 'flowId' | 'organizationId'>,
  outcome: DocumentOutcome,
  where: SQL | undefined,
  pages?: [number, number] | null,
): Promise<boolean> {
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
      // A new reading needs a new approval; a person's corrections are laid over it by the caller
      // (`extracted` then keeps the engine's own reading).
      extracted: outcome.extracted ?? null,
      approvedAt: null,
      approvedBy: null,
      duplicateOf: outcome.duplicateOf,
      // A new reading asks the question of a copy again.
      duplicateDecision: null,
      ...(pages !== undefined ? { pageFrom: pages?.[0] ?? null, pageTo: pages?.[1] ?? null } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(documents.id, doc.id), where))
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
  return true;
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

/** Document counts by status for several runs in one query: run id → status → count. */
export async function countDocumentsOfRuns(
  db: Db,
  runIds: string[],
): Promise<Map<string, Record<string, number>>> {
  const byRun = new Map<string, Record<string, number>>();
  if (runIds.length === 0) return byRun;
  const rows = await db
    .select({ runId: documents.runId, status: documents.status, n: count() })
    .from(documents)
    .where(inArray(documents.runId, runIds))
    .groupBy(documents.runId, documents.status);
  for (const row of rows) {
    if (!row.runId) continue;
    const counts = byRun.get(row.runId) ?? {};
    counts[row.status] = Number(row.n);
    byRun.set(row.runId, counts);
  }
  return byRun;
}

/** A document being read now: its file name and how far into its pages the extraction is. */
export interface InFlightDocument {
  fileName: string;
  pagesRead: number;
  pageCount: number | null;
}

/** The documents being read now, per run (oldest claim first), in one query. */
export async function listInFlightDocuments(
  db: Db,
  runIds: string[],
): Promise<Map<string, InFlightDocument[]>> {
  const byRun = new Map<string, InFlightDocument[]>();
  if (runIds.length === 0) return byRun;
  const rows = await db
    .select({
      runId: documents.runId,
      fileName: documents.fileName,
      pagesRead: documents.pagesRead,
      pageCount: documents.pageCount,
    })
    .from(documents)
    .where(and(inArray(documents.runId, runIds), eq(documents.status, 'processing')))
    .orderBy(asc(documents.claimedAt), asc(documents.id));
  for (const { runId, fileName, pagesRead, pageCount } of rows) {
    if (!runId) continue;
    byRun.set(runId, [...(byRun.get(runId) ?? []), { fileName, pagesRead: pagesRead ?? 0, pageCount }]);
  }
  return byRun;
}

/** Records how many pages of a claimed document are read (only while this worker still holds it). */
export async function noteDocumentPages(
  db: Db,
  {
    documentId,
    workerId,
    pagesRead,
    pageCount,
  }: { documentId: string; workerId: string; pagesRead: number; pageCount: number },
): Promise<void> {
  await db
    .update(documents)
    .set({ pagesRead, pageCount })
    .where(
      and(
        eq(documents.id, documentId),
        eq(documents.claimedBy, workerId),
        eq(documents.status, 'processing'),
      ),
    );
}

/**
 * An earlier read document of the organisation this one looks like a copy of: the same file (same bytes
 * and pages, under another name or in another flow), or the same type and document number (ignoring case and spaces)
 * from the same vendor (by GSTIN, or by name when no GSTIN was read) in the same financial year (April to
 * March: Indian invoice numbers start again each year). Documents a person removed do not count.
 */
export async function findPossibleDuplicate(
  db: Db,
  {
    organizationId,
    documentId,
    key,
  }: {
    organizationId: string;
    documentId: string;
    key: {
      contentHash: string;
      documentType: string | null;
      documentNumber: string | null;
      documentDate: string | null;
      vendorGstin: string | null;
      vendorName: string | null;
      /** The file's pages the document is on (one document of a batch), or null for the whole file. */
      pages?: [number, number] | null;
    };
  },
): Promise<string | null> {
  // The same bytes are the same document only on the same pages: the invoices of one batch share a file.
  const sameBytes = sql`(${documents.contentHash} = ${key.contentHash}
    and ${documents.pageFrom} is not distinct from ${key.pages?.[0] ?? null}::integer
    and ${documents.pageTo} is not distinct from ${key.pages?.[1] ?? null}::integer)`;
  const number = key.documentNumber?.replace(/\s+/g, '').toUpperCase() ?? '';
  const vendor = key.vendorGstin
    ? sql`upper(${documents.extraction}->'fields'->>'vendorGstin') = ${key.vendorGstin.toUpperCase()}`
    : key.vendorName
      ? sql`lower(${documents.extraction}->'fields'->>'vendorName') = ${key.vendorName.toLowerCase()}`
      : null;
  const year = financialYearOf(key.documentDate);
  // The other document's date, when it has one, must fall in the same financial year.
  const sameYear =
    year === null
      ? sql`true`
      : sql`(${documents.extraction}->'fields'->>'documentDate' is null
          or ${documents.extraction}->'fields'->>'documentDate' !~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'
          or ${documents.extraction}->'fields'->>'documentDate' between ${`${year}-04-01`} and ${`${year + 1}-03-31`})`;
  const sameContent =
    number && vendor && key.documentType
      ? sql`(${sameBytes} or (
          ${documents.extraction}->>'documentType' = ${key.documentType}
          and upper(regexp_replace(${documents.extraction}->'fields'->>'documentNumber', '[[:space:]]', '', 'g')) = ${number}
          and ${vendor} and ${sameYear}))`
      : sameBytes;
  const [row] = await db
    .select({ id: documents.id })
    .from(documents)
    .where(
      and(
        eq(documents.organizationId, organizationId),
        sql`${documents.id} <> ${documentId}`,
        inArray(documents.status, ['done', 'needs_review']),
        sameContent,
      ),
    )
    // The first read of them is the original.
    .orderBy(asc(documents.processedAt), asc(documents.id))
    .limit(1);
  return row?.id ?? null;
}

/** The year an Indian financial year starts in (2025 for 2025-04-01 … 2026-03-31); null without a date. */
export function financialYearOf(isoDate: string | null): number | null {
  const m = /^(\d{4})-(\d{2})-\d{2}$/.exec(isoDate ?? '');
  if (!m) return null;
  return Number(m[2]) >= 4 ? Number(m[1]) : Number(m[1]) - 1;
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
  // Removed documents are listed only when asked for by status.
  const where = options.status
    ? and(eq(documents.flowId, flowId), eq(documents.status, options.status))
    : and(eq(documents.flowId, flowId), sql`${documents.status} <> 'removed'`);
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

/**
 * Takes a finished document out of its flow: status `removed`, its rows deleted, the workbook marked
 * stale. The row itself stays, so a later scan of the same file finds it and does not read it again.
 * Refused (undefined) while the document is pending or being read.
 */
export async function markDocumentRemoved(
  db: Db,
  organizationId: string,
  documentId: string,
): Promise<DocumentRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(documents)
      // Removing a possible copy is the decision "it is a duplicate", kept on the row.
      .set({
        status: 'removed',
        reviewFlag: null,
        duplicateDecision: sql`case when ${documents.duplicateOf} is not null then 'duplicate' else ${documents.duplicateDecision} end`,
        updatedAt: sql`now()`,
      })
      .where(
        and(
          eq(documents.organizationId, organizationId),
          eq(documents.id, documentId),
          inArray(documents.status, ['done', 'needs_review', 'failed']),
        ),
      )
      .returning();
    if (!row) return undefined;
    await tx.delete(documentLines).where(eq(documentLines.documentId, documentId));
    await markOutputsStale(tx, row.organizationId, row.flowId);
    return row;
  });
}

/** Puts documents back to 'pending' for a new run (re-process / retry). */
export async function requeueDocuments(db: Db, ids: string[], runId: string): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(documents)
    .set({ status: 'pending', runId, claimedBy: null, claimedAt: null, updatedAt: sql`now()` })
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

/** One entry of a document's review trail as stored. */
export type DocumentEventRow = typeof documentEvents.$inferSelect;

/** A reviewed document's new state and the trail entries that explain it. */
export interface ReviewedDocument {
  extraction: unknown;
  /** The engine's result before the first correction; kept once set. */
  extracted: unknown;
  status: 'done' | 'needs_review';
  failedChecks: string[];
  reviewFlag: string;
  approvedAt: Date | null;
  approvedBy: string | null;
  /** A person's decision on a possible duplicate, when this review makes one. */
  duplicateDecision?: 'duplicate' | 'not_duplicate';
  /** The line rows, when the lines changed. */
  lines: Array<Record<string, unknown>> | null;
  events: Array<Omit<typeof documentEvents.$inferInsert, 'organizationId' | 'documentId'>>;
  /** The audit-trail entry of this review, written in the same transaction. */
  audit?: Omit<NewAuditEvent, 'organizationId' | 'documentId'>;
}

/**
 * Saves a person's review of a document (corrected values, an approval) with its trail entries, in one
 * transaction that holds the document's row: `review` builds the new state from the row as it is now, so
 * two reviewers never overwrite each other's change unseen. Only a document at rest may change: undefined
 * when it is waiting, being read, removed or failed. `review` returns null to change nothing, and may throw
 * (a value that does not read).
 */
export async function saveDocumentReview(
  db: Db,
  {
    organizationId,
    documentId,
    review,
  }: { organizationId: string; documentId: string; review: (row: DocumentRow) => ReviewedDocument | null },
): Promise<DocumentRow | undefined> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(documents)
      .where(
        and(
          eq(documents.organizationId, organizationId),
          eq(documents.id, documentId),
          inArray(documents.status, ['done', 'needs_review']),
        ),
      )
      .for('update');
    if (!current) return undefined;
    const next = review(current);
    // Nothing to change: nothing is written, and the workbook stays as it is.
    if (!next) return current;
    const [row] = await tx
      .update(documents)
      .set({
        extraction: next.extraction,
        extracted: next.extracted,
        status: next.status,
        failedChecks: next.failedChecks,
        reviewFlag: next.reviewFlag,
        approvedAt: next.approvedAt,
        approvedBy: next.approvedBy,
        ...(next.duplicateDecision ? { duplicateDecision: next.duplicateDecision } : {}),
        updatedAt: sql`now()`,
      })
      .where(eq(documents.id, documentId))
      .returning();
    if (!row) return undefined;
    if (next.lines) {
      await tx.delete(documentLines).where(eq(documentLines.documentId, documentId));
      if (next.lines.length > 0)
        await tx.insert(documentLines).values(
          next.lines.map((data, i) => ({
            documentId,
            flowId: row.flowId,
            organizationId,
            lineNo: i + 1,
            data,
          })),
        );
    }
    if (next.events.length > 0)
      await tx.insert(documentEvents).values(next.events.map((e) => ({ ...e, organizationId, documentId })));
    if (next.audit) await insertAuditEvent(tx, { ...next.audit, organizationId, documentId });
    await markOutputsStale(tx, row.organizationId, row.flowId);
    return row;
  });
}

/** A document's review trail, oldest first; only entries of `kind` when given (`corrected`: what a new reading lays its values from). */
export async function listDocumentEvents(
  db: Db,
  {
    organizationId,
    documentId,
    kind,
  }: { organizationId: string; documentId: string; kind?: 'corrected' | 'approved' },
): Promise<DocumentEventRow[]> {
  return db
    .select()
    .from(documentEvents)
    .where(
      and(
        eq(documentEvents.organizationId, organizationId),
        eq(documentEvents.documentId, documentId),
        kind ? eq(documentEvents.kind, kind) : undefined,
      ),
    )
    .orderBy(asc(documentEvents.createdAt), asc(documentEvents.id));
}

/**
 * The documents before and after one in its flow's list order (newest sheet row first), among those a
 * person can review (read, needing review or failed; not waiting or removed), and the next one that needs
 * review: after this one in that order, else the first from the top, else the newest of another flow.
 */
export async function findNeighbourDocuments(
  db: Db,
  doc: Pick<DocumentRow, 'organizationId' | 'flowId' | 'sheetRow' | 'id'>,
): Promise<{ previousId: string | null; nextId: string | null; nextToReviewId: string | null }> {
  const row = doc.sheetRow ?? 0;
  const rows = await queryRows<{
    previous_id: string | null;
    next_id: string | null;
    review_id: string | null;
  }>(
    db,
    sql`select
      (select id from documents
        where organization_id = ${doc.organizationId} and flow_id = ${doc.flowId}
          and status in ('done', 'needs_review', 'failed')
          and (coalesce(sheet_row, 0), id) > (${row}, ${doc.id}::uuid)
        order by coalesce(sheet_row, 0), id limit 1) as previous_id,
      (select id from documents
        where organization_id = ${doc.organizationId} and flow_id = ${doc.flowId}
          and status in ('done', 'needs_review', 'failed')
          and (coalesce(sheet_row, 0), id) < (${row}, ${doc.id}::uuid)
        order by coalesce(sheet_row, 0) desc, id desc limit 1) as next_id,
      (select id from documents
        where organization_id = ${doc.organizationId}
          and status = 'needs_review' and id <> ${doc.id}::uuid
        order by flow_id = ${doc.flowId} desc,
          (flow_id = ${doc.flowId} and (coalesce(sheet_row, 0), id) < (${row}, ${doc.id}::uuid)) desc,
          case when flow_id = ${doc.flowId} then coalesce(sheet_row, 0) end desc nulls last,
          processed_at desc, id desc
        limit 1) as review_id`,
  );
  return {
    previousId: rows[0]?.previous_id ?? null,
    nextId: rows[0]?.next_id ?? null,
    nextToReviewId: rows[0]?.review_id ?? null,
  };
}
