import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents, reconcileOverrides } from '../../db/schema/index.ts';

/** A read document of the organisation, as the match needs it. */
export interface MatchableDocument {
  id: string;
  flowId: string;
  fileName: string;
  extraction: unknown;
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
    })
    .from(documents)
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
