import type { Dashboard } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { listActivities } from '../activity/activity.service.ts';
import { countDashboardStats } from './dashboard.repo.ts';

/** How many recent activities the dashboard shows. */
export const RECENT_ACTIVITY_LIMIT = 10;

/**
 * The dashboard: counts from the flows, vendors and documents tables, savings as documents verified ×
 * COST_PER_DOCUMENT_INR (the manual cost a processed document saves), and the latest activity.
 */
export async function getDashboard(
  db: Db,
  organizationId: string,
  costPerDocumentInr: number,
): Promise<Dashboard> {
  const [counts, recentActivity] = await Promise.all([
    countDashboardStats(db, organizationId),
    listActivities(db, organizationId, RECENT_ACTIVITY_LIMIT),
  ]);
  return {
    stats: {
      ...counts,
      // Only verified documents saved anyone work: the rest still wait for a person.
      costSavingsInr: counts.documentsVerified * costPerDocumentInr,
      costPerDocumentInr,
    },
    recentActivity,
  };
}
