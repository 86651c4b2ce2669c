import { ActivityPageSchema, ActivityQuerySchema } from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { listActivityHistory } from './activity.service.ts';

const listActivityRoute = createRoute({
  method: 'get',
  path: '/activity',
  tags: ['Dashboard'],
  summary: "The organisation's whole activity log, newest first, a page at a time",
  request: { query: ActivityQuerySchema },
  responses: {
    200: jsonContent(ActivityPageSchema),
    ...describeErrors('unauthenticated', 'no_organization', 'validation'),
  },
});

/** `/api/activity` ("View All Activity" on Home). */
export function createActivityRoutes({ db }: AppDeps) {
  return createRouter().openapi(listActivityRoute, async (c) => {
    const { membership } = requireMembership(c);
    return c.json(await listActivityHistory(db, membership.organizationId, c.req.valid('query').page), 200);
  });
}
