import { and, count, eq, or, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client.ts';
import { AWAITING_REVIEW, VERIFIED } from '../../db/document-trust.ts';
import { flows, organizationGstins, runs, vendorProfiles, vendors } from '../../db/schema/index.ts';

/** Raw counters for the dashboard, all scoped to one organisation. */
export async function countDashboardStats(
  db: Db,
  organizationId: string,
): Promise<{
  activeFlows: number;
  vendorsOnboarded: number;
  documentsProcessed: number;
  documentsVerified: number;
  documentsAwaitingReview: number;
}> {
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
    // Vendors: each onboarded vendor once (one per PAN, whatever its GSTINs), plus the GSTINs the master
    // learned from documents that no onboarded vendor holds; the organisation's own GSTINs never count.
    queryRows<{ n: string | number }>(
      db,
      sql`select (select count(*) from ${vendorProfiles} p where p.organization_id = ${organizationId})
            + (select count(*) from ${vendors} v where v.organization_id = ${organizationId} and v.profile_id is null
                and not exists (select 1 from ${organizationGstins} g
                  where g.organization_id = v.organization_id and upper(g.gstin) = v.gstin)) as n`,
    ),
    // Read documents, copies held as duplicates left out: verified apart from awaiting review.
    queryRows<{ verified: string | number; awaiting: string | number }>(
      db,
      sql`select count(*) filter (where ${VERIFIED}) as verified, count(*) filter (where ${AWAITING_REVIEW}) as awaiting
          from documents d where d.organization_id = ${organizationId}`,
    ),
  ]);
  const verified = Number(processed?.verified ?? 0);
  const awaiting = Number(processed?.awaiting ?? 0);
  return {
    activeFlows: Number(active?.n ?? 0),
    vendorsOnboarded: Number(vendorCount?.n ?? 0),
    documentsProcessed: verified + awaiting,
    documentsVerified: verified,
    documentsAwaitingReview: awaiting,
  };
}
