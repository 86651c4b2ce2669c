import {
  MarkNotificationsReadInputSchema,
  MarkNotificationsReadResultSchema,
  NotificationListSchema,
} from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { listNotifications, markNotificationsRead } from './notifications.service.ts';

const listRoute = createRoute({
  method: 'get',
  path: '/notifications',
  tags: ['Notifications'],
  summary: 'The caller’s notifications, newest first',
  responses: {
    200: jsonContent(NotificationListSchema),
    ...describeErrors('unauthenticated', 'no_organization'),
  },
});

const markReadRoute = createRoute({
  method: 'post',
  path: '/notifications/read',
  tags: ['Notifications'],
  summary: 'Mark notifications read (all when `ids` is omitted)',
  request: {
    body: { ...jsonContent(MarkNotificationsReadInputSchema, 'Which notifications'), required: false },
  },
  responses: {
    200: jsonContent(MarkNotificationsReadResultSchema),
    ...describeErrors('unauthenticated', 'no_organization', 'validation'),
  },
});

/** `/api/notifications`. */
export function createNotificationRoutes({ db }: AppDeps) {
  return createRouter()
    .openapi(listRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await listNotifications(db, { organizationId: membership.organizationId, userId: user.id }),
        200,
      );
    })
    .openapi(markReadRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const { ids } = c.req.valid('json');
      const recipient = { organizationId: membership.organizationId, userId: user.id };
      return c.json(await markNotificationsRead(db, recipient, ids), 200);
    });
}
