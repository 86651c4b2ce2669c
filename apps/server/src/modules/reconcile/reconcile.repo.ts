import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents, flows, reconcileOverrides, reconcileSettings } from '../../db/schema/index.ts';

/** A read document of the organisation, as the match needs it. */
export interface MatchableDocument {
  id: string;
  flowId: string;
  fileName: string;
  extraction: unknown;
  /** `needs_review` until its checks pass or a person approves it. */
  status: string;
  approvedAt: Date | null;
  /** The document it looks like a copy of, and a person's decision on that. */
  duplicateOf: string | null;
  duplicateDecision: 'duplicate' | 'not_duplicate' | null;
  /** Its flow's invoices need no purchase order. */
  flowNoPoNeeded: boolean;
}

/**
 * Every read document of the organisation (any flow, any type): the match finds its own links between
 * them. Removed, failed and unread documents take no part. Ordered by id, so the input is stable.
 */
export async function listMatchableDocuments(db: Db, organizationId: string): Promise<MatchableDocument[]> {
  return db
    .select({
      id: documents.id,
      flowId: documents.flowId,
      fileName: documents.fileName,
      extraction: documents.extraction,
      status: documents.status,
      approvedAt: documents.approvedAt,
      duplicateOf: documents.duplicateOf,
      duplicateDecision: documents.duplicateDecision,
      flowNoPoNeeded: flows.noPoNeeded,
    })
    .from(documents)
    .innerJoin(flows, eq(flows.id, documents.flowId))
    .where(
      and(eq(documents.organizationId, organizationId), inArray(documents.status, ['done', 'needs_review'])),
    )
    .orderBy(asc(documents.id));
}

/** One override as stored. */
export type OverrideRow = typeof reconcileOverrides.$inferSelect;

/** Every override of the organisation, oldest first. */
export async function listOverrides(db: Db, organizationId: string): Promise<OverrideRow[]> {
  return db
    .select()
    .from(reconcileOverrides)
    .where(eq(reconcileOverrides.organizationId, organizationId))
    .orderBy(asc(reconcileOverrides.createdAt), asc(reconcileOverrides.id));
}

/** Record an override (rows are only added). */
export async function insertOverride(
  db: Db,
  row: Omit<typeof reconcileOverrides.$inferInsert, 'id' | 'createdAt'>,
): Promise<OverrideRow> {
  const [saved] = await db.insert(reconcileOverrides).values(row).returning();
  return saved!;
}

/** The organisation's match tolerances, or undefined when it kept the defaults. */
export async function findReconcileSettings(db: Db, organizationId: string) {
  const [row] = await db
    .select()
    .from(reconcileSettings)
    .where(eq(reconcileSettings.organizationId, organizationId));
  return row;
}

/** Set the organisation's match tolerances. */
export async function saveReconcileSettings(
  db: Db,
  organizationId: string,
  values: { qtyTolerancePct: number; priceTolerancePct: number; amountTolerancePaise: number },
): Promise<void> {
  await db
    .insert(reconcileSettings)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({
      target: reconcileSettings.organizationId,
      set: { ...values, updatedAt: new Date() },
    });
}

/** Marks one of the organisation's flows as needing no purchase order for its invoices (or not); its name, or null. */
export async function setFlowNoPoNeeded(
  db: Db,
  { organizationId, flowId, noPoNeeded }: { organizationId: string; flowId: string; noPoNeeded: boolean },
): Promise<string | null> {
  const [row] = await db
    .update(flows)
    .set({ noPoNeeded, updatedAt: new Date() })
    .where(and(eq(flows.organizationId, organizationId), eq(flows.id, flowId)))
    .returning({ name: flows.name });
  return row?.name ?? null;
}
