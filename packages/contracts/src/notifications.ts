import { z } from 'zod';

/** One in-app notification for the signed-in user. */
export const NotificationSchema = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  /** In-app path to open when the notification is clicked. */
  link: z.string().nullable(),
});
/** One in-app notification. */
export type Notification = z.infer<typeof NotificationSchema>;

/** `GET /api/notifications`. Newest first. */
export const NotificationListSchema = z.object({
  unreadCount: z.number().int(),
  items: z.array(NotificationSchema),
});
/** `GET /api/notifications`. */
export type NotificationList = z.infer<typeof NotificationListSchema>;

/** Body of `POST /api/notifications/read`: the ids to mark read, or all when omitted. */
export const MarkNotificationsReadInputSchema = z.object({
  ids: z.array(z.string()).max(500).optional(),
});
/** Body of `POST /api/notifications/read`. */
export type MarkNotificationsReadInput = z.infer<typeof MarkNotificationsReadInputSchema>;

/** Answer of `POST /api/notifications/read`. */
export const MarkNotificationsReadResultSchema = z.object({ unreadCount: z.number().int() });
/** Answer of `POST /api/notifications/read`. */
export type MarkNotificationsReadResult = z.infer<typeof MarkNotificationsReadResultSchema>;
