import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { listActivityHistory } from './activity.service.ts';

const listActivityRoute = routeFor(endpoints.activity, {
  tags: ['Dashboard'],
  summary: "The organisation's whole activity log, newest first, a page at a time",
  errors: ['unauthenticated', 'no_organization', 'validation'],
});

/** `/api/activity` ("View All Activity" on Home). */
export function createActivityRoutes({ db }: AppDeps) {
  return createRouter().openapi(listActivityRoute, async (c) => {
    const { membership } = requireMembership(c);
    return c.json(await listActivityHistory(db, membership.organizationId, c.req.valid('query').page), 200);
  });
}
