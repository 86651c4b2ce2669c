import { endpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { listInterests, registerInterest } from './interest.service.ts';

const listRoute = routeFor(endpoints.interest, {
  tags: ['Interest'],
  summary: 'Upcoming modules the caller asked to be notified about',
  errors: ['unauthenticated', 'no_organization'],
});

const registerRoute = routeFor(endpoints.registerInterest, {
  tags: ['Interest'],
  summary: 'Get Notified about an upcoming module (idempotent)',
  body: { description: 'Which module', required: true },
  errors: ['unauthenticated', 'no_organization', 'validation'],
});

/** `/api/interest`. */
export function createInterestRoutes({ db }: AppDeps) {
  return createRouter()
    .openapi(listRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await listInterests(db, membership.organizationId, user.id), 200);
    })
    .openapi(registerRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(
        await registerInterest(db, {
          organizationId: membership.organizationId,
          user,
          module: c.req.valid('json').module,
        }),
        200,
      );
    });
}
