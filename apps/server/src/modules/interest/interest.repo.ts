import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { interests } from '../../db/schema/index.ts';

/** Records the user's interest in a module; returns false when it was already recorded. */
export async function insertInterest(
  db: Db,
  { organizationId, userId, module }: { organizationId: string; userId: string; module: string },
): Promise<boolean> {
  const inserted = await db
    .insert(interests)
    .values({ organizationId, userId, module })
    .onConflictDoNothing()
    .returning({ id: interests.id });
  return inserted.length > 0;
}

/** Modules the user asked about, in the order they asked. */
export async function listInterestModules(db: Db, organizationId: string, userId: string): Promise<string[]> {
  const rows = await db
    .select({ module: interests.module })
    .from(interests)
    .where(and(eq(interests.organizationId, organizationId), eq(interests.userId, userId)))
    .orderBy(asc(interests.createdAt), asc(interests.module));
  return rows.map((r) => r.module);
}
