import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { getDashboard } from './dashboard.service.ts';

const getDashboardRoute = routeFor(endpoints.dashboard, {
  tags: ['Dashboard'],
  summary: 'Counters and recent activity for the caller’s organisation',
  errors: ['unauthenticated', 'no_organization'],
});

/** `/api/dashboard`. */
export function createDashboardRoutes({ db, env }: AppDeps) {
  return createRouter().openapi(getDashboardRoute, async (c) => {
    const { membership } = requireMembership(c);
    return c.json(await getDashboard(db, membership.organizationId, env.costPerDocumentInr), 200);
  });
}
