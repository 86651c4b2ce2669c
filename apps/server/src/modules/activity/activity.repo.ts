import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { activities } from '../../db/schema/index.ts';

/** One stored activity row. */
export type ActivityRow = typeof activities.$inferSelect;

/** Appends an activity to the organisation's log. */
export async function insertActivity(
  db: Db,
  organizationId: string,
  entry: { userId: string | null; kind: string; message: string },
): Promise<ActivityRow> {
  const [row] = await db
    .insert(activities)
    .values({ organizationId, userId: entry.userId, kind: entry.kind, message: entry.message })
    .returning();
  return row!;
}

/** The organisation's newest activities, newest first. */
export async function listRecentActivities(
  db: Db,
  organizationId: string,
  limit: number,
): Promise<ActivityRow[]> {
  return (
    db
      .select()
      .from(activities)
      .where(eq(activities.organizationId, organizationId))
      // Insertion order breaks ties between rows written within the clock's resolution (same now()).
      .orderBy(desc(activities.createdAt), desc(activities.seq))
      .limit(limit)
  );
}

/** One page of the organisation's activities, newest first, and how many there are in all. */
export async function listActivityPage(
  db: Db,
  { organizationId, page, pageSize }: { organizationId: string; page: number; pageSize: number },
): Promise<{ rows: ActivityRow[]; total: number }> {
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(activities)
      .where(eq(activities.organizationId, organizationId))
      .orderBy(desc(activities.createdAt), desc(activities.seq))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(activities).where(eq(activities.organizationId, organizationId)),
  ]);
  return { rows, total: Number(counted?.n ?? 0) };
}
