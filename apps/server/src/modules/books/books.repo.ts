import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { booksConnections, booksPushes, documents } from '../../db/schema/index.ts';

/** An organisation's connection row (Tally, or Zoho Books). */
export type BooksConnectionRow = typeof booksConnections.$inferSelect;
/** A push record. */
export type BooksPushRow = typeof booksPushes.$inferSelect;
/** The accounting packages Bahi posts to: one connection (and one push record per document) each. */
export type BooksKind = 'tally' | 'zoho';

/** The organisation's connection of that kind, if saved. */
export async function findConnection(
  db: Db,
  organizationId: string,
  kind: BooksKind = 'tally',
): Promise<BooksConnectionRow | null> {
  const [row] = await db
    .select()
    .from(booksConnections)
    .where(and(eq(booksConnections.organizationId, organizationId), eq(booksConnections.kind, kind)));
  return row ?? null;
}

/** Saves (inserts or updates) parts of the organisation's connection of that kind. */
export async function saveConnection(
  db: Db,
  organizationId: string,
  values: Partial<Omit<BooksConnectionRow, 'organizationId' | 'kind'>> & { host: string; company: string },
  kind: BooksKind = 'tally',
): Promise<BooksConnectionRow> {
  const [row] = await db
    .insert(booksConnections)
    .values({ organizationId, kind, ...values })
    .onConflictDoUpdate({
      target: [booksConnections.organizationId, booksConnections.kind],
      set: { ...values, updatedAt: new Date() },
    })
    .returning();
  return row!;
}

/** Updates parts of an existing connection (the mapping, a test's result). */
export async function updateConnection(
  db: Db,
  organizationId: string,
  values: Partial<Omit<BooksConnectionRow, 'organizationId' | 'kind'>>,
  kind: BooksKind = 'tally',
): Promise<void> {
  await db
    .update(booksConnections)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(booksConnections.organizationId, organizationId), eq(booksConnections.kind, kind)));
}

/** Push records of the organisation: of the documents named, or the latest `limit`. With each file name. */
export async function listPushes(
  db: Db,
  organizationId: string,
  documentIds?: readonly string[],
  limit = 200,
  kind?: BooksKind,
): Promise<Array<BooksPushRow & { fileName: string; documentStatus: string; approvedAt: Date | null }>> {
  const query = db
    .select({
      push: booksPushes,
      fileName: documents.fileName,
      documentStatus: documents.status,
      approvedAt: documents.approvedAt,
    })
    .from(booksPushes)
    .innerJoin(documents, eq(documents.id, booksPushes.documentId))
    .where(
      and(
        eq(booksPushes.organizationId, organizationId),
        kind ? eq(booksPushes.kind, kind) : undefined,
        documentIds ? inArray(booksPushes.documentId, [...documentIds]) : undefined,
      ),
    )
    .orderBy(desc(booksPushes.updatedAt), desc(booksPushes.id));
  const rows = documentIds ? await query : await query.limit(limit);
  return rows.map((r) => ({
    ...r.push,
    fileName: r.fileName,
    documentStatus: r.documentStatus,
    approvedAt: r.approvedAt,
  }));
}

/** Counts of the organisation's push records by state. */
export async function countPushes(
  db: Db,
  organizationId: string,
  kind: BooksKind = 'tally',
): Promise<Record<string, number>> {
  const rows = await db
    .select({ state: booksPushes.state, n: sql<number>`count(*)::int` })
    .from(booksPushes)
    .where(and(eq(booksPushes.organizationId, organizationId), eq(booksPushes.kind, kind)))
    .groupBy(booksPushes.state);
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

/**
 * Asks for a push of a document: a new record, or the existing one set back to `queued` with what is now
 * asked — unless it is already queued or being sent for the same thing, which is left as it is (a second
 * click or a second worker's batch adds nothing). Returns whether a job should be sent.
 */
export async function requestPush(
  db: Db,
  row: {
    organizationId: string;
    documentId: string;
    desired: 'post' | 'cancel';
    requestedBy: string;
    kind: BooksKind;
  },
): Promise<boolean> {
  const now = new Date();
  const [saved] = await db
    .insert(booksPushes)
    .values({ ...row, state: 'queued', requestedAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [booksPushes.organizationId, booksPushes.documentId, booksPushes.kind],
      set: {
        desired: row.desired,
        state: 'queued',
        requestedBy: row.requestedBy,
        requestedAt: now,
        error: null,
        updatedAt: now,
      },
      // Never while a worker is sending (its answer would be lost): the person asks again once it is done.
      setWhere: sql`${booksPushes.state} in ('done', 'failed') or (${booksPushes.state} = 'queued' and ${booksPushes.desired} <> ${row.desired})`,
    })
    .returning({ id: booksPushes.id });
  return saved !== undefined;
}

/**
 * Claims a queued push for this worker (or one whose sender went silent for `leaseMs`): the one place that
 * decides who sends, so two workers handed the same job send once.
 */
export async function claimPush(
  db: Db,
  {
    organizationId,
    documentId,
    workerId,
    leaseMs,
    kind,
  }: { organizationId: string; documentId: string; workerId: string; leaseMs: number; kind: BooksKind },
): Promise<BooksPushRow | null> {
  const now = new Date();
  const [row] = await db
    .update(booksPushes)
    .set({
      state: 'sending',
      claimedBy: workerId,
      claimedAt: now,
      attempts: sql`${booksPushes.attempts} + 1`,
      updatedAt: now,
    })
    .where(
      and(
        eq(booksPushes.organizationId, organizationId),
        eq(booksPushes.documentId, documentId),
        eq(booksPushes.kind, kind),
        or(
          eq(booksPushes.state, 'queued'),
          and(eq(booksPushes.state, 'sending'), lt(booksPushes.claimedAt, new Date(now.getTime() - leaseMs))),
        ),
      ),
    )
    .returning();
  return row ?? null;
}

/** Records how a claimed push ended; only the worker holding the claim may (a taken-over one changes nothing). */
export async function finishPush(
  db: Db,
  { id, workerId, values }: { id: string; workerId: string; values: Partial<BooksPushRow> },
): Promise<boolean> {
  const saved = await db
    .update(booksPushes)
    .set({ ...values, claimedBy: null, claimedAt: null, updatedAt: new Date() })
    .where(and(eq(booksPushes.id, id), eq(booksPushes.claimedBy, workerId), eq(booksPushes.state, 'sending')))
    .returning({ id: booksPushes.id });
  return saved.length > 0;
}

/** Pushes left `sending` by a worker that went silent, and `queued` ones whose job may be lost: to send again. */
export async function listStalledPushes(
  db: Db,
  leaseMs: number,
): Promise<Array<{ organizationId: string; documentId: string; kind: BooksKind }>> {
  const before = new Date(Date.now() - leaseMs);
  return db
    .select({
      organizationId: booksPushes.organizationId,
      documentId: booksPushes.documentId,
      kind: sql<BooksKind>`${booksPushes.kind}`,
    })
    .from(booksPushes)
    .where(
      or(
        and(eq(booksPushes.state, 'sending'), lt(booksPushes.claimedAt, before)),
        and(eq(booksPushes.state, 'queued'), lt(booksPushes.updatedAt, before)),
      ),
    )
    .limit(1000);
}

/** The documents named, of this organisation (id, file, status, approval, extraction). */
export async function findDocuments(db: Db, organizationId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: documents.id,
      fileName: documents.fileName,
      status: documents.status,
      approvedAt: documents.approvedAt,
      extraction: documents.extraction,
      flowId: documents.flowId,
    })
    .from(documents)
    .where(and(eq(documents.organizationId, organizationId), inArray(documents.id, [...ids])));
}
