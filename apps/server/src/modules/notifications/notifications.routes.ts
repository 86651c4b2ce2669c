import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { listNotifications, markNotificationsRead } from './notifications.service.ts';

const listRoute = routeFor(endpoints.notifications, {
  tags: ['Notifications'],
  summary: 'The caller’s notifications, newest first',
  errors: ['unauthenticated', 'no_organization'],
});

const markReadRoute = routeFor(endpoints.markNotificationsRead, {
  tags: ['Notifications'],
  summary: 'Mark notifications read (all when `ids` is omitted)',
  body: { description: 'Which notifications', required: false },
  errors: ['unauthenticated', 'no_organization', 'validation'],
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
