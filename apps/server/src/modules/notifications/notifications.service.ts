import type { Notification, NotificationList } from '@bahi/contracts';
import type { Db } from '../../db/client.ts';
import { UUID_RE } from '../../lib/ids.ts';
import {
  countUnread,
  insertNotification,
  listNotificationRows,
  markRead,
  type NotificationRow,
  type Recipient,
} from './notifications.repo.ts';

export type { Recipient };

/** How many notifications the list returns. */
const LIST_LIMIT = 50;

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt ? row.readAt.toISOString() : null,
    link: row.link,
  };
}

/** Sends an in-app notification to one user (used by other modules, e.g. when a run finishes). */
export async function notifyUser(
  db: Db,
  recipient: Recipient,
  message: { kind: string; title: string; body?: string; link?: string | null },
): Promise<Notification> {
  const row = await insertNotification(db, recipient, {
    kind: message.kind,
    title: message.title,
    body: message.body ?? '',
    link: message.link ?? null,
  });
  return toNotification(row);
}

/** The user's notifications, newest first, with the unread count. */
export async function listNotifications(db: Db, recipient: Recipient): Promise<NotificationList> {
  const [rows, unreadCount] = await Promise.all([
    listNotificationRows(db, recipient, LIST_LIMIT),
    countUnread(db, recipient),
  ]);
  return { unreadCount, items: rows.map(toNotification) };
}

/** Marks some (or all, when `ids` is omitted) of the user's notifications read; returns the unread count. */
export async function markNotificationsRead(
  db: Db,
  recipient: Recipient,
  ids: string[] | undefined,
): Promise<{ unreadCount: number }> {
  const validIds = ids?.filter((id) => UUID_RE.test(id));
  if (!validIds || validIds.length > 0) await markRead(db, recipient, validIds);
  return { unreadCount: await countUnread(db, recipient) };
}
