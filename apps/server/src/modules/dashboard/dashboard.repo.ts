import { and, count, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { documents, flows, runs, vendors } from '../../db/schema/index.ts';

/** Raw counters for the dashboard, all scoped to one organisation. */
export async function countDashboardStats(
  db: Db,
  organizationId: string,
): Promise<{ activeFlows: number; vendorsOnboarded: number; documentsProcessed: number }> {
  const [[active], [vendorCount], [processed]] = await Promise.all([
    db
      .select({ n: count() })
      .from(flows)
      // A flow is active once it has been run: its status turns 'success' after a successful run, and a flow
      // whose first run is still going (or failed) has a runs row.
      .where(
        and(
          eq(flows.organizationId, organizationId),
          or(
            eq(flows.status, 'success'),
            sql`exists (select 1 from ${runs} where ${runs.flowId} = ${flows.id})`,
          ),
        ),
      ),
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
