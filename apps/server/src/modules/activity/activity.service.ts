import { ACTIVITY_PAGE_SIZE, type Activity, type ActivityPage } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { type ActivityRow, insertActivity, listActivityPage, listRecentActivities } from './activity.repo.ts';

/** Well-known activity kinds (other modules may add their own, e.g. `flow.run.finished`). */
export type ActivityKind =
  | 'organization.created'
  | 'organization.updated'
  | 'interest.registered'
  | (string & Record<never, never>);

/**
 * Records something that happened in an organisation, for the dashboard's recent activity. Call it with
 * the same `db`/transaction as the change it describes so the log never mentions a rolled-back change.
 */
export async function recordActivity(
  db: Db,
  {
    organizationId,
    kind,
    message,
    userId = null,
  }: { organizationId: string; kind: ActivityKind; message: string; userId?: string | null },
): Promise<Activity> {
  const row = await insertActivity(db, organizationId, { userId, kind, message });
  return { id: row.id, kind: row.kind, message: row.message, createdAt: row.createdAt.toISOString() };
}

/** The organisation's latest activities (newest first), shaped for the API. */
export async function listActivities(db: Db, organizationId: string, limit = 10): Promise<Activity[]> {
  return (await listRecentActivities(db, organizationId, limit)).map(toActivity);
}

/** A page (from 1) of the organisation's whole activity log, newest first. */
export async function listActivityHistory(
  db: Db,
  organizationId: string,
  page: number,
): Promise<ActivityPage> {
  const { rows, total } = await listActivityPage(db, { organizationId, page, pageSize: ACTIVITY_PAGE_SIZE });
  return { items: rows.map(toActivity), page, pageSize: ACTIVITY_PAGE_SIZE, total };
}

function toActivity(row: ActivityRow): Activity {
  return { id: row.id, kind: row.kind, message: row.message, createdAt: row.createdAt.toISOString() };
}
