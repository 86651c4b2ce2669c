import { and, count, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents, flows, vendors } from '../../db/schema/index.ts';

/** Raw counters for the dashboard, all scoped to one organisation. */
export async function countDashboardStats(
  db: Db,
  organizationId: string,
): Promise<{ activeFlows: number; vendorsOnboarded: number; documentsProcessed: number }> {
  const [[active], [vendorCount], [processed]] = await Promise.all([
    db
      .select({ n: count() })
      .from(flows)
      .where(and(eq(flows.organizationId, organizationId), eq(flows.status, 'active'))),
    db.select({ n: count() }).from(vendors).where(eq(vendors.organizationId, organizationId)),
    // A document counts once it has been processed (processed_at set), whatever the outcome was.
    db
      .select({ n: count() })
      .from(documents)
      .where(and(eq(documents.organizationId, organizationId), isNotNull(documents.processedAt))),
  ]);
  return {
    activeFlows: Number(active?.n ?? 0),
    vendorsOnboarded: Number(vendorCount?.n ?? 0),
    documentsProcessed: Number(processed?.n ?? 0),
  };
}
