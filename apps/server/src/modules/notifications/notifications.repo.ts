import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notifications } from '../../db/schema/index.ts';

/** One stored notification row. */
export type NotificationRow = typeof notifications.$inferSelect;

/** Who a notification query is for: one user within one organisation. */
export interface Recipient {
  organizationId: string;
  userId: string;
}

function belongsTo(r: Recipient) {
  return and(eq(notifications.organizationId, r.organizationId), eq(notifications.userId, r.userId));
}

/** Stores a notification for one user. */
export async function insertNotification(
  db: Db,
  r: Recipient,
  values: { kind: string; title: string; body: string; link: string | null },
): Promise<NotificationRow> {
  const [row] = await db
    .insert(notifications)
    .values({ ...values, organizationId: r.organizationId, userId: r.userId })
    .returning();
  return row!;
}

/** The recipient's newest notifications. */
export async function listNotificationRows(db: Db, r: Recipient, limit: number): Promise<NotificationRow[]> {
  return db
    .select()
    .from(notifications)
    .where(belongsTo(r))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

/** How many of the recipient's notifications are unread. */
export async function countUnread(db: Db, r: Recipient): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(belongsTo(r), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
}

/** Marks the recipient's notifications read: those in `ids`, or all when `ids` is undefined. */
export async function markRead(db: Db, r: Recipient, ids: string[] | undefined): Promise<void> {
  const scope = and(belongsTo(r), isNull(notifications.readAt));
  await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(ids ? and(scope, inArray(notifications.id, ids)) : scope);
}
