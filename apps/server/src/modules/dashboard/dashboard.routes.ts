import { DashboardSchema } from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { getDashboard } from './dashboard.service.ts';

const getDashboardRoute = createRoute({
  method: 'get',
  path: '/dashboard',
  tags: ['Dashboard'],
  summary: 'Counters and recent activity for the caller’s organisation',
  responses: { 200: jsonContent(DashboardSchema), ...describeErrors('unauthenticated', 'no_organization') },
});

/** `/api/dashboard`. */
export function createDashboardRoutes({ db, env }: AppDeps) {
  return createRouter().openapi(getDashboardRoute, async (c) => {
    const { membership } = requireMembership(c);
    return c.json(await getDashboard(db, membership.organizationId, env.costPerDocumentInr), 200);
  });
}
