import { type FlowIo, FlowIoSchema } from '@bahi/contracts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { flows } from '../../db/schema/index.ts';

/** One stored flow row, its `io` parsed by {@link toFlowRow}. */
export type FlowRow = typeof flows.$inferSelect;

/** Values a flow is created or updated with. */
export interface FlowValues {
  name: string;
  types: string[];
  io: FlowIo;
}

/**
 * The row mapper: the one place a flow's stored `io` is parsed (a row written by an older version gets
 * the schema's defaults; a damaged one fails here, not somewhere downstream), so services use it as typed.
 */
function toFlowRow(row: FlowRow): FlowRow;
function toFlowRow(row: FlowRow | undefined): FlowRow | undefined;
function toFlowRow(row: FlowRow | undefined): FlowRow | undefined {
  return row && { ...row, io: FlowIoSchema.parse(row.io) };
}

/** Inserts a flow owned by `userId` in `organizationId`. */
export async function insertFlow(
  db: Db,
  { organizationId, userId, values }: { organizationId: string; userId: string | null; values: FlowValues },
): Promise<FlowRow> {
  const [row] = await db
    .insert(flows)
    .values({ organizationId, ownerUserId: userId, ...values })
    .returning();
  return toFlowRow(row!);
}

/** The organisation's flows, newest first. */
export async function listFlowRows(db: Db, organizationId: string): Promise<FlowRow[]> {
  const rows = await db
    .select()
    .from(flows)
    .where(eq(flows.organizationId, organizationId))
    .orderBy(desc(flows.createdAt), desc(flows.id));
  return rows.map((row) => toFlowRow(row));
}

/** One flow of the organisation, or undefined (also for another organisation's flow). */
export async function findFlow(db: Db, organizationId: string, flowId: string): Promise<FlowRow | undefined> {
  const [row] = await db
    .select()
    .from(flows)
    .where(and(eq(flows.organizationId, organizationId), eq(flows.id, flowId)));
  return toFlowRow(row);
}

/** A flow by id alone: for job handlers, whose payload was written by a scoped request. */
export async function findFlowById(db: Db, flowId: string): Promise<FlowRow | undefined> {
  const [row] = await db.select().from(flows).where(eq(flows.id, flowId));
  return toFlowRow(row);
}

/** Updates a flow's editable fields; returns the row, or undefined when it is not the organisation's. */
export async function updateFlowRow(
  db: Db,
  { organizationId, flowId, values }: { organizationId: string; flowId: string; values: Partial<FlowValues> },
): Promise<FlowRow | undefined> {
  const [row] = await db
    .update(flows)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(flows.organizationId, organizationId), eq(flows.id, flowId)))
    .returning();
  return toFlowRow(row);
}

/** Deletes a flow (runs, documents and uploads go with it); true when something was deleted. */
export async function deleteFlowRow(
  db: Db,
  organizationId: string,
  flowId: string,
): Promise<FlowRow | undefined> {
  const [row] = await db
    .delete(flows)
    .where(and(eq(flows.organizationId, organizationId), eq(flows.id, flowId)))
    .returning();
  return row;
}

/** Marks a flow successful after a run that succeeded. */
export async function markFlowSucceeded(db: Db, flowId: string, at: Date): Promise<void> {
  await db
    .update(flows)
    .set({ status: 'success', lastRunAt: at, updatedAt: sql`now()` })
    .where(eq(flows.id, flowId));
}

/** Records that the workbook file now matches the database (or clears it when `at` is null). */
export async function setWorkbookWrittenAt(db: Db, flowId: string, at: Date | null): Promise<void> {
  await db.update(flows).set({ workbookWrittenAt: at }).where(eq(flows.id, flowId));
}

/**
 * Marks the outputs that no longer match the database once a document of `flowId` changed (or, without
 * one, the organisation's reconciliation did): that flow's, and every invoice flow's of the organisation
 * (their "Matches" tab reads documents of all flows). Their workbook is rewritten on its next download, and
 * the `flow-workbook` job the caller sends for each returned flow rewrites both it and the Google sheet.
 */
export async function markOutputsStale(db: Db, organizationId: string, flowId?: string): Promise<string[]> {
  const rows = await db
    .update(flows)
    .set({ workbookWrittenAt: null, outputsVersion: sql`${flows.outputsVersion} + 1` })
    .where(
      and(
        eq(flows.organizationId, organizationId),
        sql`(${flowId ? sql`${flows.id} = ${flowId} or ` : sql``}'INVOICE' = any(${flows.types}))`,
      ),
    )
    .returning({ id: flows.id });
  return rows.map((r) => r.id);
}

/**
 * Records a complete write of a flow's outputs that read `version` of them (a later change keeps them
 * stale: its own job writes it), or why the write failed.
 */
export async function recordOutputsWritten(
  db: Db,
  flowId: string,
  outcome: { version: number; error?: undefined } | { error: string },
): Promise<void> {
  await db
    .update(flows)
    .set(
      outcome.error === undefined
        ? {
            outputsWrittenVersion: sql`greatest(${flows.outputsWrittenVersion}, ${outcome.version})`,
            outputsWrittenAt: sql`now()`,
            outputsError: null,
          }
        : { outputsError: outcome.error.slice(0, 500) },
    )
    .where(eq(flows.id, flowId));
}
