import type { DocumentType, IssuerMemory, MemoryStore } from '@bahi/engine';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents, issuerMemories } from '../../db/schema/index.ts';

/**
 * Issuer memories of one organisation (`issuer_memories`): every query names the organisation, so one
 * organisation's corrections never reach another's documents.
 */

/** The first of `keys` the organisation holds a memory under for this document type, or null. */
export async function findIssuerMemory(
  db: Db,
  { organizationId, type, keys }: { organizationId: string; type: DocumentType; keys: string[] },
): Promise<IssuerMemory | null> {
  if (keys.length === 0) return null;
  const rows = await db
    .select({ issuerKey: issuerMemories.issuerKey, memory: issuerMemories.memory })
    .from(issuerMemories)
    .where(
      and(
        eq(issuerMemories.organizationId, organizationId),
        eq(issuerMemories.documentType, type),
        inArray(issuerMemories.issuerKey, keys),
      ),
    );
  // The engine lists the keys best first (the GSTIN read as the issuer's, then any printed, then the name).
  for (const key of keys) {
    const row = rows.find((r) => r.issuerKey === key);
    if (row) return row.memory as IssuerMemory;
  }
  return null;
}

/** Every memory the organisation holds under one of `keys` for this document type (for a "forget"). */
export async function listIssuerMemories(
  db: Db,
  { organizationId, type, keys }: { organizationId: string; type: DocumentType; keys: string[] },
): Promise<IssuerMemory[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .select({ memory: issuerMemories.memory })
    .from(issuerMemories)
    .where(
      and(
        eq(issuerMemories.organizationId, organizationId),
        eq(issuerMemories.documentType, type),
        inArray(issuerMemories.issuerKey, keys),
      ),
    );
  return rows.map((r) => r.memory as IssuerMemory);
}

/** Stores an issuer's memory for the organisation, replacing what was kept under its type and key. */
export async function saveIssuerMemory(db: Db, organizationId: string, memory: IssuerMemory): Promise<void> {
  await db
    .insert(issuerMemories)
    .values({ organizationId, documentType: memory.type, issuerKey: memory.key, memory })
    .onConflictDoUpdate({
      target: [issuerMemories.organizationId, issuerMemories.documentType, issuerMemories.issuerKey],
      set: { memory, updatedAt: sql`now()` },
    });
}

/**
 * Stores `memory` only if the organisation's row still holds `known` (null: no row yet), so a lesson
 * worked out from an older memory never overwrites one saved meanwhile (another correction's lesson, a
 * person's "forget"). Returns false when the row changed: read it again and redo the change.
 */
export async function replaceIssuerMemory(
  db: Db,
  organizationId: string,
  { memory, known }: { memory: IssuerMemory; known: IssuerMemory | null },
): Promise<boolean> {
  if (!known) {
    const inserted = await db
      .insert(issuerMemories)
      .values({ organizationId, documentType: memory.type, issuerKey: memory.key, memory })
      .onConflictDoNothing()
      .returning({ id: issuerMemories.id });
    return inserted.length > 0;
  }
  const updated = await db
    .update(issuerMemories)
    .set({ memory, updatedAt: sql`now()` })
    .where(
      and(
        eq(issuerMemories.organizationId, organizationId),
        eq(issuerMemories.documentType, memory.type),
        eq(issuerMemories.issuerKey, memory.key),
        // jsonb equality is by value: key order and spacing do not matter.
        sql`${issuerMemories.memory} = ${JSON.stringify(known)}::jsonb`,
      ),
    )
    .returning({ id: issuerMemories.id });
  return updated.length > 0;
}

/**
 * The engine's `MemoryStore` over one organisation's rows: what `extractDocument` and learning use when
 * they run on the main thread (tests, tools). Extraction in the worker pool asks through the pool instead.
 */
export function createOrganizationMemoryStore(db: Db, organizationId: string): MemoryStore {
  return {
    recall: (type, keys) => findIssuerMemory(db, { organizationId, type, keys }),
    save: (memory) => saveIssuerMemory(db, organizationId, memory),
  };
}

/**
 * Takes the "learned from" mark off one field of a stored reading (after a person had Bahi forget it):
 * the value stays, but the review screen no longer credits a lesson that is gone.
 */
export async function clearLearnedFrom(
  db: Db,
  { organizationId, documentId, field }: { organizationId: string; documentId: string; field: string },
): Promise<void> {
  await db
    .update(documents)
    .set({ extraction: sql`${documents.extraction} #- ARRAY['provenance', ${field}, 'learnedFrom']::text[]` })
    .where(
      and(
        eq(documents.organizationId, organizationId),
        eq(documents.id, documentId),
        sql`${documents.extraction} IS NOT NULL`,
      ),
    );
}
