import type { Activity } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { insertActivity, listRecentActivities } from './activity.repo.ts';

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
  organizationId: string,
  kind: ActivityKind,
  message: string,
  userId: string | null = null,
): Promise<Activity> {
  const row = await insertActivity(db, organizationId, { userId, kind, message });
  return { id: row.id, kind: row.kind, message: row.message, createdAt: row.createdAt.toISOString() };
}

/** The organisation's latest activities (newest first), shaped for the API. */
export async function listActivities(db: Db, organizationId: string, limit = 10): Promise<Activity[]> {
  const rows = await listRecentActivities(db, organizationId, limit);
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    message: r.message,
    createdAt: r.createdAt.toISOString(),
  }));
}
